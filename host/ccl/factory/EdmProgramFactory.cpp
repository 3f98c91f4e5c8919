// The Impl::Edm program factory: gather streams, reduce movers, all-to-all streams.
#include "host/ccl/factory/EdmProgramFactory.h"

#include "firmware/ccl/ccl_kernels.h"
#include "host/ccl/Collectives.h"
#include "host/common/DataCodes.h"

namespace cclsim::ccl {

EdmProgramFactory::EdmProgramFactory(FactoryContext& ctx, EdmFabric& edm) : ctx_(ctx), streams_(ctx, edm) {}

void EdmProgramFactory::build(CclGroup& g) {
    collective(ctx_.spec.op).buildEdm(*this, g);
}

GatherPlan EdmProgramFactory::gatherPlan(const CclTopology& t, std::int32_t root) const {
    GatherPlan gp;
    gp.ranks = ctx_.plan.ranks;
    gp.ring = t.ring();
    gp.ring_reach[0] = ctx_.plan.method.gatherReach[0];
    gp.ring_reach[1] = ctx_.plan.method.gatherReach[1];
    gp.root = root;
    return gp;
}

// ---- all_gather / broadcast (and all_reduce's gather phase) ----------------

GatherSenders EdmProgramFactory::gather(CclGroup& g, const GatherPlan& gp, const GatherOptions& o) {
    const CclTopology& t = g.topo;
    const MethodPlan& mp = ctx_.plan.method;
    const unsigned n = ctx_.plan.ranks, units = ctx_.plan.units;
    std::map<StreamKey, Stream> st;
    for (unsigned pos = 0; pos < n; ++pos)
        for (unsigned u = 0; u < units; ++u)
            for (unsigned dir : mp.gatherDirs) {
                Stream x;
                x.cs = TensorSlicer(o.range ? o.range->pages : mp.range[dir].pages, ctx_.plan.pagesPerChunk, units)
                           .unit(u);
                x.sends = gp.blocks_sent(pos, dir) * x.cs.count;
                x.recvs = gp.blocks_received(pos, dir) * x.cs.count;
                const unsigned chip = t.order[pos];
                if (x.sends) {
                    x.sender = ctx_.takeCore(chip);
                    x.sem = ctx_.rt.program(chip).createSemaphore(x.sender, 0, "forward_sem");
                    if (o.ownFromOutput)
                        x.ownReadySem = ctx_.rt.program(chip).createSemaphore(x.sender, 0, "own_ready_sem");
                }
                if (x.recvs) x.receiver = ctx_.takeCore(chip);
                st[{pos, u, dir}] = x;
            }
    streams_.connect(st, t, "gather");
    GatherPlanArgs pa;
    pa.reach0 = gp.ring_reach[0];
    pa.reach1 = gp.ring_reach[1];
    pa.root = gp.root < 0 ? 0xffffffffu : std::uint32_t(gp.root);
    pa.row_pages = gatherRowPages(ctx_.spec);
    GatherSenders senders;
    for (auto& [key, x] : st) {
        const auto [pos, u, dir] = key;
        const unsigned chip = t.order[pos];
        const CclRank& r = g.ranks[pos];
        pa.dir = dir;
        const MethodPlan::Range rg = o.range ? *o.range : mp.range[dir];
        const Buffer& output = o.into ? (*o.into)[pos] : r.output;
        if (x.sends) {
            GatherSenderArgs a;
            a.unit = unitArgs(ctx_, pos, x.cs, t.ring(), allocateStaging(ctx_, chip, x.sender, 2), rg);
            a.plan = pa;
            a.input = tensorArgs(r.input);
            a.output = tensorArgs(output);
            if (o.done) a.done = o.done->signal(pos);
            a.edm = x.out;
            a.forward_sem = x.sem;
            a.own_from_output = o.ownFromOutput ? 1 : 0;
            a.own_ready_sem = x.ownReadySem;
            a.copy_own = o.ownFromOutput ? 0 : 1;
            createWorkerKernel(ctx_, chip, x.sender, "gather_sender", fw::ccl::gather_sender_main, pack_args(a), 0);
            senders[key] = GatherSender{chip, x.sender, x.ownReadySem};
        }
        if (x.recvs) {
            GatherReceiverArgs a;
            a.unit = unitArgs(ctx_, pos, x.cs, t.ring(), allocateStaging(ctx_, chip, x.receiver, 2), rg);
            a.plan = pa;
            a.output = tensorArgs(output);
            if (o.done) a.done = o.done->signal(pos);
            a.edm = x.in;
            // Blocks this position receives are forwarded by its own sender of the same unit/direction.
            a.sender_forward_sem = RemoteSem{x.sender.x, x.sender.y, x.sem};
            createWorkerKernel(ctx_, chip, x.receiver, "gather_receiver", fw::ccl::gather_receiver_main, pack_args(a),
                               1);
        }
    }
    return senders;
}

// ---- reduce_scatter (and all_reduce's reduce phase) ------------------------

void EdmProgramFactory::reduce(CclGroup& g, bool allReduce, const GatherSenders& gather) {
    const CclTopology& t = g.topo;
    const bool ring = t.ring();
    const MethodPlan& mp = ctx_.plan.method;
    const unsigned n = ctx_.plan.ranks, units = ctx_.plan.units;
    // One worker core per unit and mover direction: it pulls from the
    // previous chip and pushes to the next, so it is both ends of its stream.
    std::map<StreamKey, Stream> w;
    for (unsigned pos = 0; pos < n; ++pos)
        for (unsigned u = 0; u < units; ++u)
            for (unsigned dir : mp.reduceDirs) {
                const ReducePlan& rp = mp.reduce[dir];
                Stream x;
                x.cs = TensorSlicer(mp.range[dir].pages, ctx_.plan.pagesPerChunk, units).unit(u);
                x.sends = rp.sends(pos, dir) * x.cs.count;
                x.recvs = rp.recvs(pos, dir) * x.cs.count;
                bool any = false;
                rp.for_each_step(pos, dir, [&](std::uint32_t, bool, bool) { any = true; });
                if (!any || !x.cs.count) continue;
                const unsigned chip = t.order[pos];
                x.sender = x.receiver = ctx_.takeCore(chip);
                if (dir == 1 && rp.handoff(pos))
                    x.sem = ctx_.rt.program(chip).createSemaphore(x.sender, 0, "handoff_sem");
                w[{pos, u, dir}] = x;
            }
    streams_.connect(w, t, "reduce");
    const CclSpec& s = ctx_.spec;
    for (auto& [key, x] : w) {
        const auto [pos, u, dir] = key;
        const unsigned chip = t.order[pos];
        const CclRank& r = g.ranks[pos];
        const ReducePlan& rp = mp.reduce[dir];
        const MethodPlan::Range range = mp.range[dir];
        ReduceWorkerArgs a;
        a.unit = unitArgs(ctx_, pos, x.cs, ring, allocateStaging(ctx_, chip, x.sender, 4), range);
        a.dir = dir;
        a.reach0 = rp.ring_reach[0];
        a.reach1 = rp.ring_reach[1];
        a.redop = std::uint32_t(reduceCode(s.redop));
        a.dtype = std::uint32_t(dtypeCode(s.dtype));
        a.group_size = n;
        a.input = tensorArgs(r.input);
        a.output = tensorArgs(r.output);
        a.output_block = allReduce ? pos : 0;
        a.in = x.in;
        a.out = x.out;
        a.handoff_sem = x.sem;
        if (dir == 0 && rp.handoff(pos)) {
            const Stream& other = w.at({pos, u, 1});
            a.peer_handoff = RemoteSem{other.sender.x, other.sender.y, other.sem};
        }
        // The mover that stores the own fracture feeds the gather senders of its range.
        if (allReduce && rp.finisher(pos) == dir)
            for (unsigned d : mp.gatherDirs) {
                auto it = gather.find({pos, u, d});
                if (it == gather.end() || !(mp.range[d] == range)) continue;
                a.notify_mask |= 1u << d;
                a.notify[d] = RemoteSem{it->second.core.x, it->second.core.y, it->second.ownReadySem};
            }
        createWorkerKernel(ctx_, chip, x.sender, "reduce_worker", fw::ccl::reduce_worker_main, pack_args(a), 0);
    }
}

// ---- all_to_all --------------------------------------------------------------

void EdmProgramFactory::allToAll(CclGroup& g) {
    const CclTopology& t = g.topo;
    const CclSpec& s = ctx_.spec;
    const unsigned n = ctx_.plan.ranks, units = ctx_.plan.units;
    const std::uint32_t B = std::uint32_t(ctx_.plan.shape.blockPages);
    TensorSlicer slicer(B, ctx_.plan.pagesPerChunk, units);
    AllToAllPlan ap;
    ap.ranks = n;
    ap.ring = t.ring();
    ap.ring_split = ctx_.plan.method.a2aSplit;
    const MethodPlan::Range whole{0, B};
    std::map<StreamKey, Stream> st;
    std::map<std::pair<unsigned, unsigned>, Buffer> scratch;  // (pos, dir)
    for (unsigned pos = 0; pos < n; ++pos) {
        const unsigned chip = t.order[pos];
        for (unsigned dir : ctx_.plan.dirs) {
            const std::uint32_t relays = ap.relays(pos, dir);
            if (relays)
                scratch[{pos, dir}] =
                    ctx_.rt.program(chip).createBuffer(std::uint64_t(relays) * B, s.pageBytes, !s.l1Buffers);
            for (unsigned u = 0; u < units; ++u) {
                Stream x;
                x.cs = slicer.unit(u);
                x.sends = ap.items_sent(pos, dir) * x.cs.count;
                x.recvs = ap.items_received(pos, dir) * x.cs.count;
                if (x.sends) {
                    x.sender = ctx_.takeCore(chip);
                    x.sem = ctx_.rt.program(chip).createSemaphore(x.sender, 0, "relay_sem");
                }
                if (x.recvs) x.receiver = ctx_.takeCore(chip);
                st[{pos, u, dir}] = x;
            }
        }
    }
    streams_.connect(st, t, "all_to_all");
    for (auto& [key, x] : st) {
        const auto [pos, u, dir] = key;
        const unsigned chip = t.order[pos];
        const CclRank& r = g.ranks[pos];
        AllToAllArgs a;
        a.dir = dir;
        a.ring_split = ap.ring_split;
        a.input = tensorArgs(r.input);
        a.output = tensorArgs(r.output);
        auto sc = scratch.find({pos, dir});
        if (sc != scratch.end()) a.scratch = tensorArgs(sc->second);
        if (x.sends) {
            a.unit = unitArgs(ctx_, pos, x.cs, t.ring(), allocateStaging(ctx_, chip, x.sender, 2), whole);
            a.edm = x.out;
            a.relay_sem = x.sem;
            // The first direction with a sender also copies the rank's own block.
            a.copy_local = 1;
            for (unsigned d : ctx_.plan.dirs)
                if (d < dir && st.at({pos, u, d}).sends) a.copy_local = 0;
            createWorkerKernel(ctx_, chip, x.sender, "all_to_all_sender", fw::ccl::all_to_all_sender_main, pack_args(a),
                               0);
        }
        if (x.recvs) {
            a.unit = unitArgs(ctx_, pos, x.cs, t.ring(), allocateStaging(ctx_, chip, x.receiver, 2), whole);
            a.edm = x.in;
            a.relay_sem = 0;
            a.copy_local = 0;
            a.sender_relay_sem = RemoteSem{x.sender.x, x.sender.y, x.sem};
            a.done = RemoteSem{};
            createWorkerKernel(ctx_, chip, x.receiver, "all_to_all_receiver", fw::ccl::all_to_all_receiver_main,
                               pack_args(a), 1);
        }
    }
}

}  // namespace cclsim::ccl
