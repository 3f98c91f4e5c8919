// The fabric ring's per-worker step lists (pure).
#include "host/ccl/plan/FabricRingPlan.h"

#include "firmware/ccl/ccl_schedule.h"
#include "host/ccl/CclOpError.h"

#include <algorithm>

namespace cclsim::ccl {

namespace {

namespace rs = cclsim::ccl::ring_step;

/// Plans the workers of one group; the phases add to `out` in creation order.
class RingPlanner {
public:
    RingPlanner(const FabricRingInput& in, FabricRingPlan& out) : in_(in), out_(out), n_(in.ranks) {
        out.pagesPerPacket = fabricPagesPerPacket(false, in.payloadBytes, in.pageBytes);
        out.agPagesPerPacket = fabricPagesPerPacket(!in.lineMulticast, in.payloadBytes, in.pageBytes);
        out.granularity = out.pagesPerPacket < 4 ? 4 * out.pagesPerPacket : 8;
        out.units = in.links * in.workers;
        out.agUnits = in.links * in.agWorkers;
    }

    void reduceScatter() {
        for (unsigned pos = 0; pos < n_; ++pos)
            for (unsigned d : {0u, 1u})
                for (unsigned u = 0; u < out_.units; ++u) {
                    RingWorkerPlan k = worker(pos, 0, d, u);
                    FabricRingArgs& a = k.args;
                    a.group_size = n_;
                    a.land_blocks = n_;
                    a.out_block = in_.phases.allGather ? pos : 0;  // all_reduce: the own block of the output
                    a.out_blocks = in_.phases.allGather ? n_ : 1;
                    if (in_.ring)
                        ringReduceSteps(k);
                    else if (!lineReduceSteps(k))
                        continue;
                    const unsigned chunksCap = in_.ring ? 80 : 20;  // tt-metal default_chunks_per_sync
                    const std::uint32_t G = out_.granularity;
                    const std::uint32_t chunks =
                        std::min<std::uint32_t>(chunksCap, std::max<std::uint32_t>(1, pagesOf(a) / G / 2));
                    a.sync_pages = chunks * G;
                    add(k);
                }
    }

    void allGather() {
        for (unsigned pos = 0; pos < n_; ++pos) {
            const unsigned copyDir = reach(pos, 0) > 0 ? 0 : 1;
            for (unsigned d : {0u, 1u})
                for (unsigned u = 0; u < out_.agUnits; ++u) {
                    RingWorkerPlan k = worker(pos, 1, d, u);
                    FabricRingArgs& a = k.args;
                    // Split forwarding (tt-metal all_gather_async on a ring of
                    // an even size above 2, for a worker with at least two
                    // pages): the diametric slice's last hop carries its first
                    // half clockwise, and the anticlockwise direction gains
                    // a hop that carries the second half.
                    const bool halves = splitForwarding() && pagesOf(a) >= 2;
                    const unsigned reachD = reach(pos, d) + (halves && d == 1 ? 1 : 0);
                    const unsigned arrives = in_.ring ? reachD : arriving(pos, d);
                    if (reachD == 0 && arrives == 0) continue;
                    a.land_blocks = n_;
                    a.land_row_pages = in_.rowPages;
                    a.out_blocks = n_;
                    a.out_row_pages = a.land_row_pages;
                    a.out_same_block = 1;
                    // all_reduce reads the own block from the output (the
                    // reduce-scatter left it there); all_gather from its input.
                    if (!in_.phases.reduceScatter) a.source_single = 1;
                    if (reachD > 0) {
                        const bool copyOwn = d == copyDir && !in_.phases.reduceScatter;
                        // A line multicast reaches every chip ahead at once.
                        const std::uint32_t mc = mcast() ? reachD << rs::kDstMcastShift : 0u;
                        addStep(a, rs::kSrcOwn, pos, rs::kDstSend | (copyOwn ? rs::kDstLocal : 0u) | mc);
                        k.sends = true;
                        // tt-metal's start barrier (no persistent output tensor):
                        // the chips it writes to have started the op.
                        if (mcast() && in_.startBarrier) a.start_count = reachD;
                    }
                    // Store and forward: what arrives goes on while chips ahead need it.
                    for (unsigned kk = 1; kk <= arrives && !mcast(); ++kk) {
                        const unsigned b = d == 0 ? at(long(pos) - kk) : at(long(pos) + kk);
                        const bool onward = in_.ring ? kk < reachD : reachD > 0;
                        if (onward) {  // else it only lands here
                            // The hop to the diametric chip: one half each way.
                            const std::uint32_t half =
                                halves && kk + 1 == reachD ? (d == 0 ? rs::kDstFirstHalf : rs::kDstSecondHalf) : 0u;
                            addStep(a, rs::kSrcRecv, b, rs::kDstSend | half);
                            k.sends = true;
                        }
                    }
                    a.sync_pages = 0;                                               // tt-metal: one increment per slice
                    a.recv_count = arrives * ring_syncs(pagesOf(a), a.sync_pages);  // every block that arrives
                    add(k);
                }
        }
    }

private:
    /// The all-gather phase multicasts along a line.
    bool mcast() const { return in_.lineMulticast && !in_.ring; }
    /// tt-metal's split forwarding applies: a ring of an even size above 2.
    bool splitForwarding() const { return in_.ring && n_ % 2 == 0 && n_ > 2; }
    unsigned at(long p) const { return unsigned(((p % long(n_)) + long(n_)) % long(n_)); }
    /// All-gather: hops a block travels from `pos` in direction d (ring:
    /// div_up(n-1, 2) one way, the rest the other), and blocks arriving.
    unsigned reach(unsigned pos, unsigned d) const {
        const unsigned te = n_ / 2, tw = n_ - 1 - te;
        return in_.ring ? (d == 0 ? te : tw) : (d == 0 ? n_ - 1 - pos : pos);
    }
    unsigned arriving(unsigned pos, unsigned d) const {
        return in_.ring ? reach(pos, d) : (d == 0 ? pos : n_ - 1 - pos);
    }

    /// A worker with the fields every worker has.
    RingWorkerPlan worker(unsigned pos, unsigned phase, unsigned dir, unsigned unit) const {
        RingWorkerPlan k;
        k.pos = pos, k.phase = phase, k.dir = dir, k.unit = unit;
        FabricRingArgs& a = k.args;
        const std::uint32_t B = in_.blockPages, U = phase == 1 ? out_.agUnits : out_.units;
        a.page_bytes = in_.pageBytes;
        a.pages_per_packet = phase == 1 ? out_.agPagesPerPacket : out_.pagesPerPacket;
        a.block_pages = B;
        a.range_first = unit * B / U;
        a.range_pages = (unit + 1) * B / U - unit * B / U;
        a.granularity = out_.granularity;
        // Circular buffer slots of pages_per_packet pages (tt-metal: triple
        // buffering; the reduce-scatter's reader keeps three granules).
        a.cb_slots = phase == 0 ? std::max<std::uint32_t>(3, 3 * out_.granularity / out_.pagesPerPacket) : 3;
        a.redop = in_.redop;
        a.dtype = in_.dtype;
        return k;
    }

    /// Ring reduce-scatter: n - 1 sends of partials, the last one kept.
    void ringReduceSteps(RingWorkerPlan& k) const {
        FabricRingArgs& a = k.args;
        const unsigned pos = k.pos, d = k.dir;
        a.split = 1;
        a.takes_first = d == 0;
        for (unsigned i = 0; i < n_; ++i) {
            const unsigned b = d == 0 ? at(long(pos) - 1 - i) : at(long(pos) + 1 + i);
            if (i + 1 < n_)
                addStep(a, i == 0 ? rs::kSrcOwn : rs::kSrcReduce, b, rs::kDstSend);
            else
                addStep(a, rs::kSrcReduce, b, rs::kDstLocal);
        }
        a.has_r = d == 1;  // the final fold of the anticlockwise side: g(x_f) (+) R
        k.sends = true;
        k.stores = true;
    }

    /// Line reduce-scatter (tt-metal's line reduce_scatter_minimal_async):
    /// direction 0 carries the blocks of the chips ahead, direction 1 those
    /// behind. Each sends the farthest chip's block first (forward n-1 down
    /// to pos+1, backward 0 up to pos-1), so every chip down the line reduces
    /// and passes on a block while it still arrives and the links of a
    /// direction stream at once. The own block is folded by both: the
    /// forward worker writes L (+) g(x) to the output, the backward worker
    /// adds R to it (the first chip, without L: g(x) (+) R; the last, without
    /// R: the forward worker alone). False: no worker here.
    bool lineReduceSteps(RingWorkerPlan& k) const {
        FabricRingArgs& a = k.args;
        const unsigned pos = k.pos;
        const bool ahead = pos + 1 < n_, behind = pos > 0;
        if (k.dir == 0) {
            for (unsigned b = n_ - 1; b > pos; --b) addStep(a, behind ? rs::kSrcReduce : rs::kSrcOwn, b, rs::kDstSend);
            if (behind) addStep(a, rs::kSrcFoldL, pos, rs::kDstLocal);
            a.has_r = ahead;
            k.sends = ahead;
            k.stores = !ahead;
            return true;
        }
        for (unsigned b = 0; b < pos; ++b)
            addStep(a, ahead ? rs::kSrcReduce : rs::kSrcOwn, b, rs::kDstSend, b + 1 == pos ? 2u : 0u);
        k.sends = behind;
        if (ahead) {
            addStep(a, behind ? rs::kSrcFoldR : rs::kSrcFinal, pos, rs::kDstLocal);
            a.has_r = 1;
            k.stores = true;
        }
        return a.steps > 0;
    }

    static void addStep(FabricRingArgs& a, std::uint32_t kind, std::uint32_t block, std::uint32_t dst,
                        std::uint32_t sel = 0) {
        if (a.steps >= kMaxRingSteps)
            throw CclOpError("impl",
                             fmt::format("{}: too many ranks for one worker's steps", specRef("impl", "fabric")));
        a.kind[a.steps] = kind, a.block[a.steps] = block, a.dst[a.steps] = dst, a.sem_sel[a.steps] = sel;
        ++a.steps;
    }

    /// Pages of a block one worker moves per step.
    static std::uint32_t pagesOf(const FabricRingArgs& a) {
        std::uint32_t c = 0;
        for_each_ring_page(a.range_first, a.range_pages, a.split != 0, a.takes_first != 0, a.granularity,
                           [&](std::uint32_t) { ++c; });
        return c;
    }

    void add(const RingWorkerPlan& k) {
        out_.index[{k.phase, k.pos, k.dir, k.unit}] = out_.workers.size();
        out_.workers.push_back(k);
    }

    const FabricRingInput& in_;
    FabricRingPlan& out_;
    unsigned n_;
};

}  // namespace

const RingWorkerPlan* FabricRingPlan::find(unsigned phase, unsigned pos, unsigned dir, unsigned unit) const {
    const auto it = index.find({phase, pos, dir, unit});
    return it == index.end() ? nullptr : &workers[it->second];
}

FabricRingPlan planFabricRing(const FabricRingInput& in) {
    FabricRingPlan out;
    RingPlanner p(in, out);
    if (in.phases.reduceScatter && !in.phases.rsDirect) p.reduceScatter();
    if (in.phases.allGather) p.allGather();
    return out;
}

}  // namespace cclsim::ccl
