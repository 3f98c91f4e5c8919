// Buffers, cores, L1, semaphores, readers and fabric clients of the fabric ring.
#include "host/ccl/factory/FabricRingAllocation.h"

#include "firmware/ccl/ccl_kernels.h"

#include <algorithm>
#include <array>
#include <map>

namespace cclsim::ccl {

void allocateIntermediates(FactoryContext& ctx, const CclGroup& g, AllocatedRing& r) {
    const CclSpec& s = ctx.spec;
    const unsigned n = ctx.plan.ranks;
    const std::uint32_t B = std::uint32_t(ctx.plan.shape.blockPages);
    if (!r.phases.reduceScatter || r.phases.rsDirect) return;
    for (unsigned pos = 0; pos < n; ++pos)
        for (unsigned d = 0; d < (r.ring ? 1u : 2u); ++d)
            r.inter[d].push_back(
                ctx.rt.program(g.topo.order[pos]).createBuffer(std::uint64_t(n) * B, s.pageBytes, !s.l1Buffers));
    if (r.ring) r.inter[1] = r.inter[0];
}

namespace {

/// The tensors a worker reads and writes: its rank's input and output,
/// where its own data comes from and where the previous chip's lands.
void bindTensors(const CclGroup& g, const AllocatedRing& r, const RingWorkerPlan& k, FabricRingArgs& a) {
    const CclRank& rank = g.ranks[k.pos];
    a.input = tensorArgs(rank.input);
    a.output = tensorArgs(rank.output);
    a.chip = g.topo.order[k.pos];
    if (k.phase == 0) {
        a.source = a.input;
        a.landing = tensorArgs(r.inter[k.dir][k.pos]);
    } else {
        a.landing = tensorArgs(rank.output);
        // all_reduce: the reduce-scatter left the own block in the output.
        a.source = r.phases.reduceScatter ? tensorArgs(rank.output) : a.input;
    }
}

void shareBarrierSemaphores(FactoryContext& ctx, const CclGroup& g, AllocatedRing& r) {
    // The start barrier's multicast names one core and one semaphore address
    // for every worker it reaches: on a ring the lane's worker on every chip,
    // on a line the unit's workers of both directions on every chip
    // (tt-metal's barrier semaphore is one address on every core of the
    // mesh). The addresses agree where the cores held the same L1 before;
    // where they do not (a sharded tensor on some of the cores) the group
    // takes a semaphore at an address free on all of its cores.
    std::map<std::array<unsigned, 3>, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < r.plan.workers.size(); ++i) {
        const RingWorkerPlan& k = r.plan.workers[i];
        if (k.args.barrier_sem) groups[{k.phase, r.ring ? k.dir : 2u, k.unit}].push_back(i);
    }
    for (const auto& [key, members] : groups) {
        const std::uint32_t first = r.plan.workers[members.front()].args.barrier_sem;
        bool same = true;
        std::uint32_t addr = 0;
        for (std::size_t i : members) {
            same = same && r.plan.workers[i].args.barrier_sem == first;
            const std::uint32_t next = ctx.rt.program(g.topo.order[r.plan.workers[i].pos]).l1Next(r.res[i].core);
            addr = std::max(addr, (next + 15) / 16 * 16);
        }
        if (same) continue;
        for (std::size_t i : members)
            r.plan.workers[i].args.barrier_sem = ctx.rt.program(g.topo.order[r.plan.workers[i].pos])
                                                     .createSemaphoreAt(r.res[i].core, addr, 0, "barrier_sem");
    }
}

}  // namespace

void allocateRingWorkers(FactoryContext& ctx, const CclGroup& g, fabric::FabricBuilder& fab, AllocatedRing& r) {
    const CclSpec& s = ctx.spec;
    // all_reduce is tt-metal's two ops in sequence on every chip
    // (all_reduce_async: reduce_scatter_minimal_async, then all_gather_async):
    // the all-gather's kernels start once the chip's reduce-scatter kernels
    // have all returned (Runtime::createOpGate).
    const bool allReduce = r.phases.reduceScatter && r.phases.allGather;
    if (allReduce)
        for (unsigned pos = 0; pos < g.topo.size(); ++pos) r.opGate.push_back(ctx.rt.createOpGate(g.topo.order[pos]));
    r.res.assign(r.plan.workers.size(), RingWorkerResources{});
    bool aligned = false;
    for (std::size_t i = 0; i < r.plan.workers.size(); ++i) {
        RingWorkerPlan& k = r.plan.workers[i];
        RingWorkerResources& res = r.res[i];
        // An op's writers start with a barrier (tt-metal's barrier_sem: the
        // op allocates its buffers, so every chip must have started before
        // any writes into them); all_reduce's two ops each have theirs. On a
        // ring every sending writer multicasts one increment round the ring
        // to the same core; on a line (the reduce-scatter; the line
        // all-gather has its own) to the chips it sends to, at the workers of
        // both directions there, so every worker takes part and each one
        // that sends waits for n - 1.
        const bool barrier = r.startBarrier && (r.ring ? k.sends : k.phase == 0);
        // A multicast writes the same core, semaphore and tensor address
        // on every chip it reaches: those workers take the same cores on
        // every chip (their L1 is then laid out alike).
        if (((k.phase == 1 && r.lineMulticast) || barrier) && !aligned) {
            ctx.cores.align(g.topo.order);
            aligned = true;
        }
        FabricRingArgs& a = k.args;
        bindTensors(g, r, k, a);
        const unsigned chip = g.topo.order[k.pos];
        Program& p = ctx.rt.program(chip);
        res.core = ctx.takeCore(chip);
        const std::uint32_t slot = a.pages_per_packet * s.pageBytes;
        a.cb = p.allocateL1(res.core, a.cb_slots * slot, 32);
        a.scratch = p.allocateL1(res.core, 2 * slot, 32);
        a.cb_filled = p.createSemaphore(res.core, 0, "cb_filled");
        a.cb_freed = p.createSemaphore(res.core, 0, "cb_freed");
        res.recvSem = p.createSemaphore(res.core, 0, "out_ready_sem");
        a.recv_sem = res.recvSem;
        // Before the semaphores only some workers have: the barrier's
        // multicast names one address on the cores of both directions.
        if (barrier) {
            a.barrier_sem = p.createSemaphore(res.core, 0, "barrier_sem");
            a.barrier_xy = fabric::packXY(res.core.x, res.core.y);
            if (k.sends) {
                std::uint32_t targets = 0;
                for (std::uint32_t s = 0; s < a.steps; ++s) targets += (a.dst[s] & ring_step::kDstSend) ? 1 : 0;
                a.barrier_hops = r.ring ? std::uint32_t(g.topo.size() - 1) : targets;
                a.barrier_count = std::uint32_t(g.topo.size() - 1);
            }
        }
        // The line reduce-scatter's backward worker that finishes the own
        // block: R from the next chip, and the forward worker's folded chunks.
        if (k.phase == 0 && !r.ring && k.dir == 1 && k.stores) {
            res.finalR = a.final_r_sem = p.createSemaphore(res.core, 0, "final_r_sem");
            if (k.pos > 0) res.foldSem = a.fold_sem = p.createSemaphore(res.core, 0, "fwd_bwd_sem");
        }
        // The line all-gather reader's start barrier (the plan's
        // start_count: one increment from each chip it writes to).
        if (k.phase == 1 && r.lineMulticast && r.startBarrier)
            res.startSem = a.start_sem = p.createSemaphore(res.core, 0, "barrier_sem");
        KernelConfig rc = fabricWorkerConfig(true);
        setOpGate(r, k, rc);
        a.role = 0;
        res.reader = p.createKernel(k.phase ? "ag_fabric_reader" : "rs_fabric_reader", fw::ccl::fabric_ring_reader_main,
                                    res.core, rc);
        if (k.sends)
            res.client = fab.addClient(chip, res.core, k.dir == 0 ? fabric::Dir::E : fabric::Dir::W,
                                       k.unit / ((k.phase ? r.plan.agUnits : r.plan.units) / s.links));
    }
    shareBarrierSemaphores(ctx, g, r);
}

void setOpGate(const AllocatedRing& r, const RingWorkerPlan& k, KernelConfig& cfg) {
    if (r.opGate.empty()) return;
    (k.phase == 0 ? cfg.ends : cfg.after) = r.opGate.at(k.pos);
}

}  // namespace cclsim::ccl
