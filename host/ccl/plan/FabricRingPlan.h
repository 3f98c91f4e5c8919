// The step plan of the packet-fabric ring (Impl::Fabric all-gather,
// reduce-scatter and all-reduce as tt-metal's all_gather_async and
// reduce_scatter_minimal_async run them): per group position, direction and
// worker unit, which slices a worker reads, reduces, sends on to the next
// chip or stores, in order. Pure: the schedule fields of FabricRingArgs are
// filled here; buffers, cores and semaphores are the allocation's
// (factory/FabricRingAllocation), the routers and wiring the connection's
// (factory/FabricRingConnection).
//
// Reduce-scatter phase (phase 0), one worker per position, direction and
// unit. On a ring (tt-metal: split) the two directions alternate chunks of
// `granularity` pages of every block; the worker of direction 0 sends the
// block one position behind it first (its own input), then reduces what
// lands and sends it on, n - 1 times, and keeps the last reduction (the
// block it owns). On a line direction 0 carries the blocks ahead of a
// position and direction 1 those behind; the direction-1 worker folds both
// sides into the own block (kSrcFinal).
//
// All-gather phase (phase 1): a block travels div_up(n-1, 2) hops one way
// and the rest the other (a line: to its ends), each chip storing it and
// forwarding it until its reach is used up. On a line with lineMulticast
// (tt-metal's current all_gather on a linear fabric) the owner sends it once
// each way as a line multicast that every chip on the way stores, with
// agWorkers per link. Before its first packet a worker waits for the start
// barrier: one increment from each chip it writes to (their workers of the
// other direction multicast it back when they start). On a ring of even n > 2
// (tt-metal: split forwarding) the block's last hop to the diametric chip
// carries only its first half clockwise, and the second half goes the
// other way, one hop further than it otherwise would, so both directions
// carry n / 2 - 1 whole blocks and a half.
#pragma once

#include "firmware/ccl/ccl_args.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace cclsim::ccl {

/// Which phases a fabric ring runs: all_gather one, reduce_scatter the
/// other, all_reduce both (the reduce-scatter then the all-gather).
struct RingPhases {
    bool reduceScatter = false;
    bool allGather = false;
    /// all_reduce: its reduce-scatter is the direct op (built beside the
    /// ring, factory/FabricDirectReduceScatter): the ring plans only the
    /// all-gather, which still reads the own block from the output.
    bool rsDirect = false;
};

struct FabricRingInput {
    unsigned ranks = 0;
    bool ring = true;  ///< a ring of at least three chips (else a line)
    RingPhases phases;
    std::uint32_t blockPages = 0;    ///< B
    std::uint32_t pageBytes = 0;     ///< must fit payloadBytes
    std::uint32_t payloadBytes = 0;  ///< the fabric's largest packet payload
    unsigned links = 1;              ///< routing planes used
    unsigned workers = 1;            ///< workers per link and direction
    /// Line all-gather phase (tt-metal's all_gather on a linear fabric,
    /// AllGatherMulticastFactory): each chip multicasts its own block to
    /// every chip ahead in each direction, nothing is forwarded.
    bool lineMulticast = false;
    /// Workers per link and direction of the all-gather phase (all_reduce's
    /// all-gather is an op of its own, with its own count).
    unsigned agWorkers = 1;
    /// The op's start barrier (tt-metal's barrier_sem; off with persistent
    /// buffers): a line multicast all-gather's readers wait for the chips
    /// they write to (start_count).
    bool startBarrier = true;
    std::uint32_t rowPages = 0;  ///< all-gather along dim 1: pages per rank row; 0: dim 0
    std::uint32_t redop = 0, dtype = 0;
};

/// One worker (one core, a reader and a writer kernel) of the ring.
struct RingWorkerPlan {
    unsigned pos = 0, phase = 0, dir = 0, unit = 0;  ///< phase 0 reduce-scatter, 1 all-gather
    bool sends = false;                              ///< has a fabric connection to the next chip
    bool stores = false;                             ///< reduce-scatter: writes the finished own block last
    FabricRingArgs args;                             ///< schedule fields only
};

/// Pages in one fabric packet of a collective, as tt-metal's factories set
/// num_tiles_to_write_per_packet: as many as `payloadBytes` holds, at most
/// four on the ring all-gather (all_gather_async's minimal default factory,
/// NOC_SCATTER_WRITE_MAX_CHUNKS) and two on the reduce-scatter and the line's
/// multicast all-gather.
inline std::uint32_t fabricPagesPerPacket(bool ringAllGather, std::uint32_t payloadBytes, std::uint32_t pageBytes) {
    return std::min<std::uint32_t>(ringAllGather ? 4 : 2, payloadBytes / pageBytes);
}

struct FabricRingPlan {
    /// Pages per packet of the reduce-scatter and the line all-gather
    /// (tt-metal's reduce_scatter_minimal_async and multicast all-gather: a
    /// scatter write of at most two pages) ...
    std::uint32_t pagesPerPacket = 1;
    /// ... and of the ring all-gather (all_gather_async's minimal default
    /// factory: at most four, NOC_SCATTER_WRITE_MAX_CHUNKS).
    std::uint32_t agPagesPerPacket = 1;
    std::uint32_t granularity = 1;        ///< G: reduce-scatter tile_granularity
    unsigned units = 0;                   ///< links x workers per direction
    unsigned agUnits = 0;                 ///< the all-gather phase's: links x agWorkers
    std::vector<RingWorkerPlan> workers;  ///< in the order they take cores
    /// (phase, pos, dir, unit) -> index into workers.
    std::map<std::array<unsigned, 4>, std::size_t> index;

    /// The worker at (phase, pos, dir, unit), or null.
    const RingWorkerPlan* find(unsigned phase, unsigned pos, unsigned dir, unsigned unit) const;
};

/// Plan every worker of one group (CclOpError when a worker would need more
/// than kMaxRingSteps steps).
FabricRingPlan planFabricRing(const FabricRingInput& in);

}  // namespace cclsim::ccl
