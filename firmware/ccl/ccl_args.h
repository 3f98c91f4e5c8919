// Runtime-argument layouts of the collectives' worker kernels.
//
// Each layout is a struct whose `visit` lists its fields in argument order;
// the host packs it with `pack_args` and the kernel reads it with
// `read_args`, so the two cannot drift apart, and the kernel checks the end
// marker the host appends.
#pragma once

#include "firmware/api/kernel_api.h"
#include "firmware/fabric/fabric_types.h"
#include "models/core/ShardMap.h"

#include <cstdint>
#include <vector>

namespace cclsim::ccl {

/// Ends every CCL worker kernel's runtime argument list.
constexpr std::uint32_t kArgsEndMarker = 0xCC10;

/// One EDM channel as a worker sees it (CCL guide, "EDM Communication
/// Interface"): where the channel's slots and semaphore live on the Ethernet
/// core, and the worker's own semaphore the EDM increments. The worker walks
/// the slots in order, as the EDM does (tt-metal's WorkerToEdmSender /
/// WorkerToEdmReader keep the same buffer index).
struct EdmPort {
    std::uint32_t x = 0, y = 0;   ///< the EDM's Ethernet core
    std::uint32_t buffer = 0;     ///< slot 0 of the channel in its L1
    std::uint32_t semaphore = 0;  ///< EDM channel semaphore in its L1
    std::uint32_t local_sem = 0;  ///< this worker's semaphore (EDM -> worker)
    std::uint32_t slots = 1;      ///< buffers per channel
    std::uint32_t stride = 0;     ///< bytes from one slot to the next
    /// Device-side state, not an argument: the slot the worker uses next.
    mutable std::uint32_t next_slot = 0;
    template <class V> void visit(V& v) { v(x), v(y), v(buffer), v(semaphore), v(local_sem), v(slots), v(stride); }
};

/// A semaphore on another worker core of the same chip.
struct RemoteSem {
    std::uint32_t x = 0, y = 0, addr = 0;
    template <class V> void visit(V& v) { v(x), v(y), v(addr); }
};

/// An interleaved tensor: page i in bank i % banks at base + (i / banks) * page.
struct TensorArgs {
    /// `dram` bit 1: the shard words follow (a sharded tensor); an
    /// interleaved tensor's arguments are its two words, as before sharding
    /// existed (their size is part of the dispatch time).
    static constexpr std::uint32_t kShardedBit = 2;
    std::uint32_t base = 0;
    std::uint32_t dram = 1;  ///< bit 0 - 1: DRAM banks, 0: worker L1 banks; bit 1: sharded
    ShardGeometry shard;     ///< sharded (models/core/ShardMap.h), else interleaved
    bool in_dram() const { return dram & 1u; }
    template <class V> void visit(V& v) {
        v(base), v(dram);
        if (dram & kShardedBit) shard.visit(v);
    }
};

/// Fields every worker unit has: page geometry, its chunks, the ring.
struct UnitArgs {
    std::uint32_t page_bytes = 0;
    std::uint32_t pages_per_chunk = 0;  ///< M: pages per EDM message
    std::uint32_t block_pages = 0;      ///< B
    std::uint32_t range_first = 0;      ///< the pages of every block this unit moves:
    std::uint32_t range_pages = 0;      ///< [range_first, range_first + range_pages)
    std::uint32_t chunk_first = 0;
    std::uint32_t chunk_stride = 1;
    std::uint32_t ranks = 0;
    std::uint32_t rank = 0;     ///< this chip's position in the order
    std::uint32_t ring = 1;     ///< 1 ring, 0 line
    std::uint32_t staging = 0;  ///< L1: two chunk-sized slots (or more, per kernel)
    template <class V> void visit(V& v) {
        v(page_bytes), v(pages_per_chunk), v(block_pages), v(range_first), v(range_pages), v(chunk_first),
            v(chunk_stride), v(ranks), v(rank), v(ring), v(staging);
    }
};

/// all_gather / broadcast stream plan of one direction (see GatherPlan).
struct GatherPlanArgs {
    std::uint32_t dir = 0;
    std::uint32_t reach0 = 0, reach1 = 0;  ///< ring reach per direction
    std::uint32_t root = 0xffffffff;       ///< broadcast root, or all origins
    std::uint32_t row_pages = 0;           ///< 0: gather along dim 0
    template <class V> void visit(V& v) { v(dir), v(reach0), v(reach1), v(root), v(row_pages); }
};

/// All-gather / broadcast sender: own block (from the input, copied to the
/// output too; or from the output once a producer signals it), then the
/// blocks its receiver commits to the output.
struct GatherSenderArgs {
    UnitArgs unit;
    GatherPlanArgs plan;
    TensorArgs input, output;
    EdmPort edm;
    std::uint32_t forward_sem = 0;      ///< incremented by the receiver per committed chunk
    std::uint32_t own_from_output = 0;  ///< 1: own block is in the output already (all_reduce)
    std::uint32_t own_ready_sem = 0;    ///< ... incremented per ready chunk by the producer
    std::uint32_t copy_own = 1;         ///< 1: also write the own block to the output
    RemoteSem done;                     ///< incremented when finished (addr 0: nobody waits)
    template <class V> void visit(V& v) {
        unit.visit(v), plan.visit(v), input.visit(v), output.visit(v), edm.visit(v);
        v(forward_sem), v(own_from_output), v(own_ready_sem), v(copy_own);
        done.visit(v);
    }
};

/// All-gather / broadcast receiver.
struct GatherReceiverArgs {
    UnitArgs unit;
    GatherPlanArgs plan;
    TensorArgs output;
    EdmPort edm;
    RemoteSem sender_forward_sem;  ///< the sender of the same unit and direction
    RemoteSem done;                ///< incremented when finished (addr 0: nobody waits)
    template <class V> void visit(V& v) {
        unit.visit(v), plan.visit(v), output.visit(v), edm.visit(v), sender_forward_sem.visit(v), done.visit(v);
    }
};

/// Reduce-scatter mover of one direction (ReducePlan). Staging holds four
/// chunk slots.
struct ReduceWorkerArgs {
    UnitArgs unit;
    std::uint32_t dir = 0;                 ///< this mover's direction
    std::uint32_t reach0 = 0, reach1 = 0;  ///< ring: chips a partial collects per direction (line: to the ends)
    std::uint32_t redop = 0;               ///< fw::reduce_op
    std::uint32_t dtype = 0;               ///< fw::dtype_code
    std::uint32_t group_size = 0;          ///< n (mean)
    TensorArgs input, output;
    std::uint32_t output_block = 0;  ///< block of the output the result goes to (all_reduce: own rank)
    EdmPort in, out;
    /// Hand-over of T = L (+) g(x) for the own fracture from the direction-0 mover to the direction-1 mover.
    std::uint32_t handoff_sem = 0;  ///< direction 1: incremented by the direction-0 mover
    RemoteSem peer_handoff;         ///< direction 0: the direction-1 mover's handoff_sem
    /// all_reduce: the all-gather senders (per direction) to signal per finished chunk.
    std::uint32_t notify_mask = 0;  ///< bit d: notify[d] is a sender
    RemoteSem notify[2];
    template <class V> void visit(V& v) {
        unit.visit(v), v(dir), v(reach0), v(reach1), v(redop), v(dtype), v(group_size), input.visit(v), output.visit(v),
            v(output_block);
        in.visit(v), out.visit(v), v(handoff_sem), peer_handoff.visit(v), v(notify_mask);
        notify[0].visit(v), notify[1].visit(v);
    }
};

/// All-to-all sender / receiver of one direction. Relayed chunks pass
/// through a DRAM scratch buffer (slot = relay sequence number).
struct AllToAllArgs {
    UnitArgs unit;
    std::uint32_t dir = 0;
    std::uint32_t ring_split = 0;
    TensorArgs input, output, scratch;
    EdmPort edm;
    std::uint32_t relay_sem = 0;   ///< sender: incremented by the receiver per staged relay chunk
    RemoteSem sender_relay_sem;    ///< receiver: the sender's relay_sem
    std::uint32_t copy_local = 0;  ///< sender: also copy the rank's own block (input -> output)
    RemoteSem done;                ///< incremented when finished (addr 0: nobody waits)
    template <class V> void visit(V& v) {
        unit.visit(v), v(dir), v(ring_split), input.visit(v), output.visit(v), scratch.visit(v), edm.visit(v);
        v(relay_sem), sender_relay_sem.visit(v), v(copy_local);
        done.visit(v);
    }
};

/// The broadcast method's local reduction: once every rank's input has
/// arrived (`done_sem` reaches `done_count`), the reduction of page p is the
/// fold over ranks s = 0..n-1 of g(gathered[s * segment + p]). all_reduce
/// writes every reduced page to the output; reduce_scatter keeps the
/// elements of its fracture [frac_first, frac_first + frac_elems) and writes
/// them to the output from element 0.
struct LocalReduceArgs {
    UnitArgs unit;  ///< range = the segment's pages; staging: ranks + 1 chunk slots
    std::uint32_t redop = 0, dtype = 0, group_size = 0;
    TensorArgs gathered, output;
    std::uint32_t segment_pages = 0;  ///< pages each rank contributed (its whole input)
    std::uint32_t done_sem = 0, done_count = 0;
    std::uint32_t extract = 0;  ///< 1: reduce_scatter (keep the fracture only)
    std::uint32_t frac_first = 0, frac_elems = 0, elem_bytes = 0;
    template <class V> void visit(V& v) {
        unit.visit(v), v(redop), v(dtype), v(group_size), gathered.visit(v), output.visit(v), v(segment_pages);
        v(done_sem), v(done_count), v(extract), v(frac_first), v(frac_elems), v(elem_bytes);
    }
};

/// edm_relay: a worker on a chip between two members of a relayed hop
/// (communication groups whose members are not neighbours): every message
/// of the inbound EDM channel goes on into the outbound one.
struct EdmRelayArgs {
    EdmPort in, out;
    std::uint32_t messages = 0;
    std::uint32_t bytes = 0;    ///< the EDM payload (a channel buffer)
    std::uint32_t staging = 0;  ///< two buffers of `bytes` in this worker's L1
    template <class V> void visit(V& v) { in.visit(v), out.visit(v), v(messages), v(bytes), v(staging); }
};

/// fabric_exchange: a rank writes its whole input (or its share of the pages)
/// into block `pos` of every rank's destination tensor over the packet
/// fabric (its own by NoC), ending each stream with a fused write +
/// increment of the destination's done semaphore. Used by the broadcast
/// method (destination: the gathered scratch) and by the fabric
/// implementation of all-gather and broadcast (destination: the output).
constexpr std::uint32_t kMaxExchangeRanks = 32;
struct FabricExchangeArgs {
    std::uint32_t pos = 0, ranks = 0;
    std::uint32_t page_bytes = 0, pages = 0;  ///< the input: `pages` pages (B)
    std::uint32_t block = 0;                  ///< this rank's block in the destination (pos; broadcast: 0)
    std::uint32_t blocks = 1;                 ///< blocks of the destination (ranks; broadcast: 1)
    std::uint32_t row_pages = 0;              ///< destination page: gathered_page(block, p, blocks, pages, row_pages)
    std::uint32_t worker = 0, workers = 1;    ///< this kernel sends pages worker, worker + workers, ...
    std::uint32_t send = 1;                   ///< 0: this rank sends nothing (broadcast: not the root)
    /// all_to_all: input block q (of `pages`) to rank q's block `block`: 1 on
    /// a line, 2 on a ring, 3 on an even ring (the diametric block split
    /// between the directions); 0: not all_to_all.
    std::uint32_t a2a = 0;
    std::uint32_t own_copy = 1;    ///< also write the own block locally (and count it)
    std::uint32_t wait_count = 0;  ///< then wait until the own done semaphore reaches this
    TensorArgs input;
    std::uint32_t batch = 1;                             ///< pages read per batch
    std::uint32_t staging = 0;                           ///< two batches of pages in L1
    std::uint32_t scratch_base[kMaxExchangeRanks] = {};  ///< every rank's destination tensor
    std::uint32_t scratch_dram = 1;                      ///< as TensorArgs::dram (bit 1: scratch_shard follows)
    ShardGeometry scratch_shard;                         ///< the destinations' layout (the same on every rank)
    std::uint32_t done_xy[kMaxExchangeRanks] = {}, done_addr[kMaxExchangeRanks] = {};
    std::uint32_t dir[kMaxExchangeRanks] = {};   ///< first fabric hop towards each rank (0 E, 1 W)
    std::uint32_t hops[kMaxExchangeRanks] = {};  ///< 1D route length to each rank
    std::uint32_t chip[kMaxExchangeRanks] = {};  ///< each rank's chip (header chips)
    /// Line multicast (every rank's destination and done semaphore at the same
    /// addresses): chips 1..mcast_range[d] hops away in direction d (0 E, 1 W)
    /// get one packet per page; 0 in both: one unicast per rank.
    std::uint32_t mcast_range[2] = {};
    std::uint32_t has_conn[2] = {};
    cclsim::fabric::FabricConnectionArgs conn[2];
    /// all_to_all's start barrier (tt-metal all_to_all_async_generic's init
    /// semaphore; 0: none). This kernel's init semaphore (L1); a kernel with
    /// init_range[d] multicasts one increment d-ward to the chips 1..range
    /// away, at init_xy / init_target (the waiter's init semaphore: one core
    /// and address on every chip). The waiter (init_count = ranks - 1) waits for the
    /// count, then releases the rank's other kernels (release_xy /
    /// release_addr); they wait for that one increment.
    std::uint32_t init_sem = 0, init_xy = 0, init_target = 0, init_count = 0;
    std::uint32_t init_range[2] = {};
    std::uint32_t releases = 0;
    std::uint32_t release_xy[kMaxExchangeRanks] = {}, release_addr[kMaxExchangeRanks] = {};
    template <class V> void visit(V& v) {
        v(pos), v(ranks), v(page_bytes), v(pages), v(block), v(blocks), v(row_pages), v(worker), v(workers), v(send),
            v(a2a), v(own_copy), v(wait_count), input.visit(v), v(batch), v(staging);
        v(init_sem);
        if (init_sem) {
            v(init_xy), v(init_target), v(init_count), v(init_range[0]), v(init_range[1]), v(releases);
            for (std::uint32_t i = 0; i < releases && i < kMaxExchangeRanks; ++i) v(release_xy[i]), v(release_addr[i]);
        }
        for (auto& x : mcast_range) v(x);
        for (auto& x : scratch_base) v(x);
        v(scratch_dram);
        if (scratch_dram & TensorArgs::kShardedBit) scratch_shard.visit(v);
        for (auto& x : done_xy) v(x);
        for (auto& x : done_addr) v(x);
        for (auto& x : dir) v(x);
        for (auto& x : hops) v(x);
        for (auto& x : chip) v(x);
        for (auto& x : has_conn) v(x);
        for (auto& c : conn) c.visit(v);
    }
};

/// fabric_ring_reader / fabric_ring_writer: one worker of one direction of
/// the --impl fabric all-gather / reduce-scatter (tt-metal all_gather_async
/// and reduce_scatter_minimal_async): a reader (ncrisc) and a writer (brisc)
/// on one core, a circular buffer of `cb_slots` packets between them, and a
/// list of steps, each one block of this worker's pages.
constexpr std::uint32_t kMaxRingSteps = 64;
namespace ring_step {
constexpr std::uint32_t kSrcOwn = 0;     ///< read the block from `source` (own input or own output block)
constexpr std::uint32_t kSrcRecv = 1;    ///< wait for it to land (recv_sem), read it from `landing`
constexpr std::uint32_t kSrcReduce = 2;  ///< wait; landing (+) g(input); (last ring step: finalize)
// The line reduce-scatter's own block b = ((L_b (+) g(x_b)) (+) R_b), as
// tt-metal's line reduce_scatter_minimal_async folds it: the forward worker
// folds L into the output chunk by chunk and signals the backward worker of
// its chip, which folds R on top (the first chip has no L: kSrcFinal).
constexpr std::uint32_t kSrcFinal = 3;  ///< line, the first chip: g(x) (+) R (R from landing, final_r_sem); finalize
constexpr std::uint32_t kSrcFoldL = 4;  ///< line, forward worker: wait; L (+) g(x) to the output (finalize if !has_r)
constexpr std::uint32_t kSrcFoldR =
    5;                                 ///< line, backward worker: wait fold_sem and final_r_sem; output (+) R; finalize
constexpr std::uint32_t kDstSend = 1;  ///< bit: to the next chip's landing tensor, same block
constexpr std::uint32_t kDstLocal = 2;  ///< bit: to this chip's output
/// Bits: the step moves only the first (floor(n / 2)) or only the second
/// half of the worker's n pages of the block (tt-metal's split forwarding:
/// on an even ring the slice diametrically opposite its owner reaches it
/// half one way round and half the other, so both directions carry n / 2
/// slices instead of one direction n / 2 and the other n / 2 - 1).
constexpr std::uint32_t kDstFirstHalf = 4;
constexpr std::uint32_t kDstSecondHalf = 8;
/// Bits 16..23 of a send step: a line multicast to the chips 1..h hops
/// ahead (tt-metal's all_gather on a linear fabric); 0: the next chip only.
constexpr std::uint32_t kDstMcastShift = 16;
inline std::uint32_t mcast_hops(std::uint32_t dst) {
    return (dst >> kDstMcastShift) & 0xff;
}
/// The worker's pages [lo, hi) of its `n` that a step with `dst` moves.
inline void step_pages(std::uint32_t dst, std::uint32_t n, std::uint32_t& lo, std::uint32_t& hi) {
    lo = (dst & kDstSecondHalf) ? n / 2 : 0;
    hi = (dst & kDstFirstHalf) ? n / 2 : n;
}
}  // namespace ring_step
struct FabricRingArgs {
    /// Bits 0..7: 0 reader, 1 writer. Bits 8..15: the op's stream tag, set in
    /// every packet header it sends (concurrent runs' per-op link accounting;
    /// 0 untagged). One word, so the argument count and the dispatch stay as they were.
    std::uint32_t role = 0;
    std::uint32_t page_bytes = 0;
    std::uint32_t pages_per_packet = 1;              ///< 1, or 2 with scatter writes
    std::uint32_t block_pages = 0;                   ///< B: pages of a block
    std::uint32_t range_first = 0, range_pages = 0;  ///< this worker's pages of every block
    std::uint32_t split = 0;        ///< 1: ring reduce-scatter, chunks of `granularity` alternate between directions
    std::uint32_t takes_first = 0;  ///< split: this direction takes the first chunk
    std::uint32_t granularity = 1;
    std::uint32_t cb = 0, cb_slots = 3;  ///< circular buffer: cb_slots x pages_per_packet pages
    std::uint32_t scratch = 0;           ///< reader: pages_per_packet pages for the own input and the second side
    std::uint32_t cb_filled = 0, cb_freed = 0;  ///< L1 counters of packets filled (reader) and freed (writer)
    std::uint32_t steps = 0;
    std::uint32_t kind[kMaxRingSteps] = {}, block[kMaxRingSteps] = {}, dst[kMaxRingSteps] = {};
    std::uint32_t sem_sel[kMaxRingSteps] = {};  ///< which semaphore of the next chip a send step increments (0..2)
    std::uint32_t has_r = 0;  ///< kSrcFinal, kSrcFoldL: a backward side (R) follows; ring: the final fold's order
    TensorArgs source, input, landing, output;
    std::uint32_t land_blocks = 1, land_row_pages = 0;  ///< landing page = gathered_page(block, p, land_blocks, B, row)
    std::uint32_t out_block = 0, out_blocks = 1, out_row_pages = 0;  ///< output page of a local write
    std::uint32_t out_same_block = 0;            ///< 1: local writes go to the step's block (all-gather's own slice)
    std::uint32_t sync_pages = 0;                ///< pages per semaphore increment (0: one per step)
    std::uint32_t recv_sem = 0, recv_count = 0;  ///< own: increments from the previous chip; total expected
    /// Own, the line reduce-scatter's backward worker: chunks of the own
    /// block the forward worker has folded into the output (fwd_bwd_sem),
    /// and increments for R_b from the next chip (final_r_sem).
    std::uint32_t fold_sem = 0, final_r_sem = 0;
    /// Writer of the line reduce-scatter's forward worker: the backward
    /// worker's fold_sem on this chip, one increment per `granularity` pages
    /// of its kSrcFoldL step once they are written (0: none).
    std::uint32_t fold_xy = 0, fold_to = 0;
    std::uint32_t start_sem = 0,
                  start_count = 0;  ///< wait before the first read (all_reduce: the reduce-scatter's output)
    /// Writer: the op's start barrier (tt-metal's barrier_sem, without
    /// persistent buffers): one atomic increment multicast over
    /// `barrier_hops` chips ahead to the same core and address (barrier_xy,
    /// barrier_sem) and, on a line, one more to the other direction's core
    /// (barrier_xy2; 0: none), then a wait for `barrier_count` increments
    /// from the others (0: no barrier).
    std::uint32_t barrier_sem = 0, barrier_xy = 0, barrier_xy2 = 0, barrier_hops = 0, barrier_count = 0;
    std::uint32_t next_landing = 0;  ///< the next chip's landing tensor base (same kind as `landing`)
    std::uint32_t next_sem_xy[3] = {}, next_sem[3] = {};  ///< the next chip's semaphores per sem_sel
    std::uint32_t chip = 0, next_chip = 0;
    std::uint32_t source_single = 0;  ///< 1: `source` is one block (all-gather's input): own page p is page p
    std::uint32_t redop = 0, dtype = 0, group_size = 0;
    std::uint32_t has_conn = 0;
    cclsim::fabric::FabricConnectionArgs conn;
    template <class V> void visit(V& v) {
        v(role), v(page_bytes), v(pages_per_packet), v(block_pages), v(range_first), v(range_pages), v(split),
            v(takes_first), v(granularity), v(cb), v(cb_slots), v(scratch), v(cb_filled), v(cb_freed), v(steps);
        for (auto& x : kind) v(x);
        for (auto& x : block) v(x);
        for (auto& x : dst) v(x);
        for (auto& x : sem_sel) v(x);
        v(has_r);
        source.visit(v), input.visit(v), landing.visit(v), output.visit(v);
        v(land_blocks), v(land_row_pages), v(out_block), v(out_blocks), v(out_row_pages), v(out_same_block),
            v(sync_pages), v(recv_sem), v(recv_count), v(fold_sem), v(final_r_sem), v(fold_xy), v(fold_to),
            v(start_sem), v(start_count), v(barrier_sem), v(barrier_xy), v(barrier_xy2), v(barrier_hops),
            v(barrier_count), v(next_landing);
        for (auto& x : next_sem_xy) v(x);
        for (auto& x : next_sem) v(x);
        v(chip), v(next_chip);
        v(source_single), v(redop), v(dtype), v(group_size), v(has_conn);
        conn.visit(v);
    }
};

/// fabric_direct_rs_reader / fabric_direct_rs_writer: one worker (one core,
/// one per link) of the direct (one-shot) reduce-scatter on a ring
/// (tt-metal's reduce_scatter_minimal_direct). Every rank unicasts its input
/// block q straight to rank q over the fabric (q's ring distance in hops,
/// the shorter way, ties forward), farthest destination first; rank q folds
/// the n - 1 arrivals and its own block into its output. The worker of link
/// l owns chunks [chunk_first, chunk_first + chunk_count) of every block
/// (pages [page_first, page_first + page_count)).
struct FabricDirectRsArgs {
    std::uint32_t role = 0;  ///< 0 reader (ncrisc), 1 writer (brisc)
    std::uint32_t pos = 0, ranks = 0;
    std::uint32_t page_bytes = 0, block_pages = 0;  ///< B: pages of a block
    std::uint32_t granularity = 1;                  ///< G: pages of a chunk
    std::uint32_t pages_per_packet = 1;             ///< payload / page (a contiguous write)
    std::uint32_t chunks_per_block = 1;             ///< ceil(B / G)
    std::uint32_t chunk_first = 0, chunk_count = 0;
    std::uint32_t page_first = 0, page_count = 0;
    TensorArgs input, output;
    std::uint32_t out_block = 0, out_blocks = 1;  ///< output page = gathered_page(out_block, p, out_blocks, B, 0)
    /// Where the arrivals land. aliased = 1: in this core's L1 at `staging`
    /// (the same address on the peer core of every chip), row k * ranks + b
    /// of G pages holding block b of the worker's chunk k (b = 0 the own
    /// input, b >= 1 the other ranks in position order). aliased = 0: the
    /// interleaved chunk-paged tensor `staging_tensor` (page = G pages,
    /// page s * chunks_per_block + chunk from rank s), read back into
    /// `scratch` (ranks rows of G pages).
    std::uint32_t aliased = 1, staging = 0, scratch = 0;
    TensorArgs staging_tensor;
    /// Reader -> writer circular buffers of two chunks each: the input chunks
    /// to send (cb_send) and the reduced output chunks (cb_out); L1 counters
    /// of chunks filled by the reader and freed by the writer.
    std::uint32_t cb_send = 0, send_filled = 0, send_freed = 0;
    std::uint32_t cb_out = 0, out_filled = 0, out_freed = 0;
    /// Arrival counters on this core, one per source rank (the same addresses
    /// on every chip); the writer increments arrival[pos] on the peer core.
    std::uint32_t arrival[kMaxExchangeRanks] = {};
    std::uint32_t peer_xy = 0;  ///< this worker's core: its peer on every chip
    /// The start barrier (off with persistent buffers: init_sem 0): one
    /// increment multicast init_range[d] chips d-ward, at init_sem of the
    /// peer core; the writer waits for ranks - 1.
    std::uint32_t init_sem = 0, init_range[2] = {};
    /// Destinations in send order (farthest first): rank, connection (0
    /// forward, 1 backward), hops; every rank's chip (header chips).
    std::uint32_t dest[kMaxExchangeRanks] = {}, dest_conn[kMaxExchangeRanks] = {}, dest_hops[kMaxExchangeRanks] = {};
    std::uint32_t chip[kMaxExchangeRanks] = {};
    std::uint32_t redop = 0, dtype = 0;
    std::uint32_t has_conn[2] = {};
    cclsim::fabric::FabricConnectionArgs conn[2];
    template <class V> void visit(V& v) {
        v(role), v(pos), v(ranks), v(page_bytes), v(block_pages), v(granularity), v(pages_per_packet),
            v(chunks_per_block), v(chunk_first), v(chunk_count), v(page_first), v(page_count);
        input.visit(v), output.visit(v);
        v(out_block), v(out_blocks), v(aliased), v(staging), v(scratch);
        staging_tensor.visit(v);
        v(cb_send), v(send_filled), v(send_freed), v(cb_out), v(out_filled), v(out_freed);
        for (std::uint32_t i = 0; i < ranks && i < kMaxExchangeRanks; ++i) v(arrival[i]);
        v(peer_xy), v(init_sem), v(init_range[0]), v(init_range[1]);
        for (std::uint32_t i = 0; i + 1 < ranks && i < kMaxExchangeRanks; ++i)
            v(dest[i]), v(dest_conn[i]), v(dest_hops[i]);
        for (std::uint32_t i = 0; i < ranks && i < kMaxExchangeRanks; ++i) v(chip[i]);
        v(redop), v(dtype), v(has_conn[0]), v(has_conn[1]);
        if (role == 1) conn[0].visit(v), conn[1].visit(v);
    }
};

/// Host side: the argument vector of `a`, end marker last.
template <class A> std::vector<std::uint32_t> pack_args(A a) {
    return fw::pack_layout_args(a, kArgsEndMarker);
}

}  // namespace cclsim::ccl
