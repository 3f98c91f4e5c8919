// Wiring of the fabric ring's workers to the next chip, and their writers.
#include "host/ccl/factory/FabricRingConnection.h"

#include "firmware/ccl/ccl_kernels.h"

#include <fmt/format.h>

#include <stdexcept>

namespace cclsim::ccl {

namespace {

/// The next chip's landing tensor and the semaphores a sending worker
/// increments there.
void wireToNext(const CclGroup& g, const AllocatedRing& r, const RingWorkerPlan& k, unsigned next, FabricRingArgs& a) {
    const FabricRingPlan& plan = r.plan;
    const auto xyOf = [&](std::size_t i) { return fabric::packXY(r.res[i].core.x, r.res[i].core.y); };
    if (k.phase == 1) {
        a.next_landing = g.ranks[next].output.base;
        const std::size_t nk = plan.index.at({1, next, k.dir, k.unit});
        a.next_sem_xy[0] = xyOf(nk);
        a.next_sem[0] = r.res[nk].recvSem;
        // A line multicast writes these addresses on every chip it reaches,
        // and its start barrier (tt-metal's, on the same route; none with
        // persistent buffers) the start semaphore of the workers of the other
        // direction there.
        const unsigned hops = k.args.steps ? ring_step::mcast_hops(k.args.dst[0]) : 0;
        if (hops && r.startBarrier) {
            const std::size_t ok = plan.index.at({1, next, 1 - k.dir, k.unit});
            a.next_sem_xy[1] = xyOf(ok);
            a.next_sem[1] = r.res[ok].startSem;
        }
        for (unsigned j = 2; j <= hops; ++j) {
            const unsigned p = k.dir == 0 ? k.pos + j : k.pos - j;
            const std::size_t pk = plan.index.at({1, p, k.dir, k.unit});
            const std::size_t po = plan.index.at({1, p, 1 - k.dir, k.unit});
            const bool barrierDiffers =
                r.startBarrier && (xyOf(po) != a.next_sem_xy[1] || r.res[po].startSem != a.next_sem[1]);
            if (g.ranks[p].output.base != a.next_landing || xyOf(pk) != a.next_sem_xy[0] ||
                r.res[pk].recvSem != a.next_sem[0] || barrierDiffers)
                throw std::logic_error(
                    fmt::format("fabric all-gather: the line multicast from position {} reaches positions whose output "
                                "tensors or workers differ (position {} vs {})",
                                k.pos, p, next));
        }
        return;
    }
    a.next_landing = r.inter[k.dir][next].base;
    const auto nk = plan.index.find({0, next, k.dir, k.unit});
    if (nk != plan.index.end()) {
        a.next_sem_xy[0] = xyOf(nk->second);
        a.next_sem[0] = r.res[nk->second].recvSem;
    }
    // A line's backward worker ends with the next chip's own block: R_b
    // goes to that chip's backward worker's final_r_sem (sem_sel 2).
    if (!r.ring && k.dir == 1) {
        const std::size_t w = plan.index.at({0, next, 1, k.unit});
        a.next_sem_xy[2] = xyOf(w);
        a.next_sem[2] = r.res[w].finalR;
    }
}

}  // namespace

void connectRing(Runtime& rt, const CclGroup& g, const fabric::FabricBuilder& fab, AllocatedRing& r, unsigned stream) {
    const CclTopology& t = g.topo;
    const unsigned n = t.size();
    const auto at = [n](long p) { return unsigned(((p % long(n)) + long(n)) % long(n)); };
    // Fast-forward skips only a ring's all-gather or reduce-scatter. An
    // all-reduce runs exactly: when it was one fused op its all-gather's
    // lanes ran at very unequal rates (T3000 8-ring, lane 0 three to six
    // times the others') and skipping them missed exact simulation by 1.3 %
    // at 256 MiB. As two ops in sequence, skipped (measured, not kept): six
    // of ten drawn configurations within 0.42 %, but 62 MiB bf16 with 1 KB
    // pages +6.45 %, where each op alone misses by +0.55 % and -2.1 %
    // (bench/fast_forward_accuracy.py --random 10 --seed 21 --ops all_reduce).
    // (An all-reduce whose reduce-scatter is the direct op stays exact too.)
    bool phases[2] = {r.phases.rsDirect, false};
    for (const RingWorkerPlan& k : r.plan.workers) phases[k.phase] = true;
    const bool steady = t.ring() && !(phases[0] && phases[1]);
    for (std::size_t i = 0; i < r.plan.workers.size(); ++i) {
        const RingWorkerPlan& k = r.plan.workers[i];
        const RingWorkerResources& res = r.res[i];
        FabricRingArgs a = k.args;
        const unsigned next = k.dir == 0 ? at(long(k.pos) + 1) : at(long(k.pos) - 1);
        a.next_chip = t.order[next];
        if (k.sends) {
            a.has_conn = 1;
            a.conn = fab.connection(res.client);
            wireToNext(g, r, k, next, a);
        }
        // A line's forward worker that folds L into the own block tells the
        // backward worker of its chip, which adds R on top.
        if (k.phase == 0 && !r.ring && k.dir == 0 && !k.stores && k.pos > 0) {
            const std::size_t w = r.plan.index.at({0, k.pos, 1, k.unit});
            a.fold_xy = fabric::packXY(r.res[w].core.x, r.res[w].core.y);
            a.fold_to = r.res[w].foldSem;
        }
        // A line's start barrier also reaches the other direction's
        // workers (the same core on every chip).
        if (a.barrier_count && !r.ring) {
            const RingWorkerPlan& o = r.plan.workers[r.plan.index.at({k.phase, k.pos, 1 - k.dir, k.unit})];
            a.barrier_xy2 = o.args.barrier_xy;
        }
        // The start barrier's multicast names one core and semaphore for
        // every chip it reaches.
        if (a.barrier_count) {
            const RingWorkerPlan& o = r.plan.workers[r.plan.index.at({k.phase, next, k.dir, k.unit})];
            const auto* other = r.ring ? nullptr : &r.plan.workers[r.plan.index.at({k.phase, next, 1 - k.dir, k.unit})];
            if (o.args.barrier_xy != a.barrier_xy || o.args.barrier_sem != a.barrier_sem ||
                (other && (other->args.barrier_xy != a.barrier_xy2 || other->args.barrier_sem != a.barrier_sem)))
                throw std::logic_error(fmt::format(
                    "fabric ring: the start barrier of position {} names a core or semaphore that position {} lacks",
                    k.pos, next));
        }
        Program& p = rt.program(t.order[k.pos]);
        // role: reader 0 / writer 1, the op's stream, the worker's lane
        // (phase, direction, unit: the lane's workers on every chip form one
        // chain of producers and consumers, fast-forward's loop group) and
        // whether its loops are steady (bit 15 of the lane: only a ring's
        // lanes are alike on every chip, and not an all-reduce's, above).
        const std::uint32_t lane = (steady ? 1u << 15 : 0u) | (k.phase << 14) | (k.dir << 12) | k.unit;
        if (stream > 0xff || k.unit >= (1u << 12))
            throw std::logic_error("connectRing: stream or unit does not fit the role word");
        FabricRingArgs reader = a;
        reader.role = 0 | stream << 8 | lane << 16;
        FabricRingArgs writer = a;
        writer.role = 1 | stream << 8 | lane << 16;
        KernelConfig wc = fabricWorkerConfig(false);
        setOpGate(r, k, wc);
        const KernelHandle wh = p.createKernel(k.phase ? "ag_fabric_writer" : "rs_fabric_writer",
                                               fw::ccl::fabric_ring_writer_main, res.core, wc);
        p.setRuntimeArgs(wh, pack_args(writer));
        p.setRuntimeArgs(res.reader, pack_args(reader));
    }
}

}  // namespace cclsim::ccl
