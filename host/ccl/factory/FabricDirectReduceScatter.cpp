// The direct reduce-scatter's workers: cores, staging, semaphores, kernels, fabric clients, arguments.
#include "host/ccl/factory/FabricDirectReduceScatter.h"

#include "firmware/ccl/ccl_kernels.h"
#include "host/ccl/CclOpError.h"
#include "host/ccl/plan/DirectRsPlan.h"
#include "host/common/DataCodes.h"
#include "host/fabric/FabricBuilder.h"

#include <algorithm>

namespace cclsim::ccl {

using namespace cclsim::fabric;

namespace {

// tt-metal's staging placement (reduce_scatter_minimal_direct's
// compute_output_specs): the arrivals land in the worker's own L1, aliased
// into its reduce circular buffer, when that core's shard (two invocation
// halves x chunks of a block x ranks x a chunk) fits this budget; else an
// interleaved chunk-paged tensor in L1 when all of it fits the second
// budget, else in DRAM.
constexpr std::uint64_t kShardBudgetBytes = 640ull << 10;
constexpr std::uint64_t kL1StagingBudgetBytes = 4ull << 20;

}  // namespace

struct DirectRsBuild {
    struct Worker {
        unsigned pos = 0;
        KernelHandle reader, writer;
        ClientId client[2];
        FabricDirectRsArgs a;
    };
    std::vector<unsigned> order;
    std::vector<Worker> workers;
};

std::string directReduceScatterUnfit(const CclSpec& s, TopologyKind topo, unsigned ranks) {
    if (s.impl != CclSpec::Impl::Fabric) return "it runs on the packet fabric (--impl fabric)";
    if (s.op != golden::Op::ReduceScatter && s.op != golden::Op::AllReduce)
        return fmt::format("{} does not reduce-scatter", golden::opName(s.op));
    if (topo != TopologyKind::Ring || ranks < 3) return "it needs a ring of three or more chips (--topology ring)";
    if (ranks > kMaxExchangeRanks) return fmt::format("a ring of at most {} chips", kMaxExchangeRanks);
    if (s.method == golden::Method::Broadcast) return "--method broadcast is a structure of its own";
    if (s.relay) return "its ranks must be ring neighbours (no relayed groups)";
    if (s.sharing.fabric || s.sharing.edm) return "it runs alone on its chips (no concurrent ops)";
    return {};
}

bool directReduceScatterAuto(const CclSpec& s, TopologyKind topo, unsigned ranks, bool workersGiven) {
    return directReduceScatterUnfit(s, topo, ranks).empty() && !s.persistentBuffers && !workersGiven &&
           s.count * golden::elementBytes(s.dtype) <= kDirectRsMaxInputBytes;
}

std::shared_ptr<DirectRsBuild> buildDirectReduceScatter(FactoryContext& ctx, CclGroup& g, FabricBuilder& fab,
                                                        const std::vector<unsigned>& gates) {
    const CclSpec& s = ctx.spec;
    const CclTopology& t = g.topo;
    const unsigned n = ctx.plan.ranks;
    const std::string unfit = directReduceScatterUnfit(s, t.ring() ? TopologyKind::Ring : TopologyKind::Line, n);
    if (!unfit.empty()) throw CclOpError("rs_algorithm", fmt::format("the direct reduce-scatter: {}", unfit));
    const std::uint32_t B = std::uint32_t(ctx.plan.shape.blockPages);
    const std::uint32_t payload = fab.maxPayloadBytes();
    if (s.pageBytes > payload)
        throw CclOpError("page_bytes",
                         fmt::format("{}: a {} B page does not fit the fabric's {} B packet payload (--fabric-payload)",
                                     specRef("impl", "fabric"), s.pageBytes, payload));
    // tt-metal (reduce_scatter_ring_interm_staging_params): a chunk is four
    // packets' pages (a packet: at most four pages), at most the 8 tiles of
    // the destination registers; a packet carries whole pages of the chunk.
    const std::uint32_t ppp = payload / s.pageBytes;
    const std::uint32_t G = std::min<std::uint32_t>(4 * std::min<std::uint32_t>(4, ppp), 8);
    const std::uint32_t chunks = (B + G - 1) / G;
    // One worker per link, never one without a chunk.
    const DirectRsChunks split = directRsChunks(s.links, chunks);
    const unsigned links = split.links;
    const std::uint64_t chunkBytes = std::uint64_t(G) * s.pageBytes;
    const bool aliased = 2ull * chunks * n * chunkBytes <= kShardBudgetBytes;
    const bool l1Staging = 2ull * n * chunks * chunkBytes <= kL1StagingBudgetBytes;
    g.golden.method = golden::Method::Direct;

    auto b = std::make_shared<DirectRsBuild>();
    b->order = t.order;
    ctx.cores.align(t.order);  // the peer core: the same core and L1 layout on every chip
    for (unsigned pos = 0; pos < n; ++pos) {
        const unsigned chip = t.order[pos];
        Program& p = ctx.rt.program(chip);
        // The destinations in send order, farthest first (ties forward, then rank order).
        const std::vector<DirectRsDest> dests = directRsDestinations(pos, n);
        Buffer staging;
        if (!aliased) staging = p.createBuffer(2ull * n * chunks, std::uint32_t(chunkBytes), !l1Staging);
        for (unsigned l = 0; l < links; ++l) {
            DirectRsBuild::Worker w;
            w.pos = pos;
            FabricDirectRsArgs& a = w.a;
            const CoreCoord core = ctx.takeCore(chip);
            a.pos = pos;
            a.ranks = n;
            a.page_bytes = s.pageBytes;
            a.block_pages = B;
            a.granularity = G;
            a.pages_per_packet = ppp;
            a.chunks_per_block = chunks;
            a.chunk_first = split.first(l, chunks);
            a.chunk_count = split.count(l, chunks);
            a.page_first = a.chunk_first * G;
            a.page_count = std::min(a.chunk_count * G, B - a.page_first);
            a.input = tensorArgs(g.ranks[pos].input);
            a.output = tensorArgs(g.ranks[pos].output);
            a.out_block = s.op == golden::Op::AllReduce ? pos : 0;  // all_reduce: the own block of the output
            a.out_blocks = s.op == golden::Op::AllReduce ? n : 1;
            a.aliased = aliased ? 1 : 0;
            if (aliased)
                a.staging = p.allocateL1(core, std::uint32_t(2ull * chunks * n * chunkBytes), 32);
            else {
                a.staging_tensor = tensorArgs(staging);
                a.scratch = p.allocateL1(core, std::uint32_t(n * chunkBytes), 32);
            }
            a.cb_send = p.allocateL1(core, std::uint32_t(2 * chunkBytes), 32);
            a.cb_out = p.allocateL1(core, std::uint32_t(2 * chunkBytes), 32);
            a.send_filled = p.createSemaphore(core, 0, "send_filled");
            a.send_freed = p.createSemaphore(core, 0, "send_freed");
            a.out_filled = p.createSemaphore(core, 0, "out_filled");
            a.out_freed = p.createSemaphore(core, 0, "out_freed");
            for (unsigned q = 0; q < n; ++q) a.arrival[q] = p.createSemaphore(core, 0, "arrival_sem");
            if (!s.persistentBuffers) a.init_sem = p.createSemaphore(core, 0, "init_sem");
            a.peer_xy = packXY(core.x, core.y);
            for (std::size_t i = 0; i < dests.size(); ++i) {
                a.dest[i] = dests[i].rank;
                a.dest_conn[i] = dests[i].conn;
                a.dest_hops[i] = dests[i].hops;
            }
            if (a.init_sem) directRsBarrierRanges(dests, a.init_range);
            for (unsigned q = 0; q < n; ++q) a.chip[q] = t.order[q];
            a.redop = std::uint32_t(reduceCode(s.redop));
            a.dtype = std::uint32_t(dtypeCode(s.dtype));
            // Every rank's worker l must sit where the others address it.
            if (!b->workers.empty() && b->workers[l].pos == 0 && pos > 0) {
                const FabricDirectRsArgs& o = b->workers[l].a;
                if (o.peer_xy != a.peer_xy || o.staging != a.staging || o.arrival[0] != a.arrival[0] ||
                    o.init_sem != a.init_sem || o.staging_tensor.base != a.staging_tensor.base)
                    throw std::logic_error(fmt::format(
                        "direct reduce-scatter: worker {} of position {} lies elsewhere than position 0's", l, pos));
            }
            KernelConfig rc = fabricWorkerConfig(true), wc = fabricWorkerConfig(false);
            if (!gates.empty()) rc.ends = wc.ends = gates.at(pos);
            w.reader = p.createKernel("rs_direct_reader", fw::ccl::fabric_direct_rs_reader_main, core, rc);
            w.writer = p.createKernel("rs_direct_writer", fw::ccl::fabric_direct_rs_writer_main, core, wc);
            // Connection 0 forward (position + 1), 1 backward, on the worker's link.
            const Dir fwd = fab.route(chip, t.order[(pos + 1) % n]).first();
            const Dir bwd = fab.route(chip, t.order[(pos + n - 1) % n]).first();
            w.client[0] = fab.addClient(chip, core, fwd, l);
            w.client[1] = fab.addClient(chip, core, bwd, l);
            a.has_conn[0] = a.has_conn[1] = 1;
            b->workers.push_back(w);
        }
    }
    return b;
}

void finishDirectReduceScatter(Runtime& rt, const DirectRsBuild& b, const FabricBuilder& fab) {
    for (const DirectRsBuild::Worker& w : b.workers) {
        FabricDirectRsArgs reader = w.a, writer = w.a;
        reader.role = 0;
        writer.role = 1;
        writer.conn[0] = fab.connection(w.client[0]);
        writer.conn[1] = fab.connection(w.client[1]);
        Program& p = rt.program(b.order[w.pos]);
        p.setRuntimeArgs(w.reader, pack_args(reader));
        p.setRuntimeArgs(w.writer, pack_args(writer));
    }
}

}  // namespace cclsim::ccl
