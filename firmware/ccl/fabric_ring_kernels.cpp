// The --impl fabric all-gather and reduce-scatter workers, as tt-metal's
// current ops run them on Wormhole (all_gather_async "minimal default" and
// reduce_scatter_minimal_async): per link and direction, W workers, each a
// reader (ncrisc) and a writer (brisc) on one core, a fabric mux in front of
// the router when W > 1. Data moves one hop at a time: a writer unicasts its
// pages into the next chip's landing tensor (two pages per packet with a
// scatter write when they fit the fabric's payload), then increments the
// semaphore of the next chip's worker of the same direction; that worker's
// reader waits for it, reads the block back from its landing tensor and hands
// it to its writer, which sends it on. Nothing is forwarded by the routers,
// except on a line's all-gather (tt-metal's multicast all-gather, one worker
// per link): a writer sends its own block once each way as a line multicast
// (rs::mcast_hops of the step) that every chip on the way stores, and the
// semaphore increment after it reaches each of them the same way.
//
//   chip p (direction E)                          chip p+1 (direction E)
//   reader: block b -> CB slot ----.
//   writer: slot -> fabric --------+--> landing[b] pages (scatter write)
//           every sync_pages: ------+--> recv_sem += 1
//                                        reader: wait recv_sem, landing[b] (+ own x[b]) -> CB
//                                        writer: -> fabric -> chip p+2 ...
//
// Steps (one block each, host-built, see FabricRingArgs):
//   all-gather, ring: the own block is sent both ways; a block that arrived
//       from the previous chip is sent on while the next chip still needs it
//       (div_up(n-1, 2) chips one way, the rest the other); the own block is
//       also written to the own output. Line: each way to the end.
//   reduce-scatter, ring (both directions, each a full ring pass over its
//       alternate chunks of every worker's pages): step 0 sends g(x[p-1])
//       (direction E; W: x[p+1]), step i adds g(x) of the block that arrived
//       and sends it on, step n-1 adds the own block and writes the output.
//   reduce-scatter, line: direction E carries the blocks of the chips ahead
//       (L_b = x_0 (+) ... (+) x_{b-1}), farthest first, W those behind
//       (R_b); on the chip of block b the E worker writes L_b (+) g(x_b) to
//       the output chunk by chunk and signals the W worker (fwd_bwd_sem),
//       which adds R_b: ((L_b (+) g(x_b)) (+) R_b).
//
// The reader and writer share a circular buffer of `cb_slots` packets in L1:
// cb_filled counts packets the reader completed, cb_freed packets whose
// pages have left L1 (the writer's NoC writes flushed).
//
// Args: FabricRingArgs (firmware/ccl/ccl_args.h), end marker 0xCC10.
#include "firmware/api/fabric_api.h"
#include "firmware/ccl/ccl_kernels.h"

#include <vector>

namespace cclsim::fw::ccl {

using cclsim::fabric::PacketHeader;
namespace rs = cclsim::ccl::ring_step;

namespace {

/// This worker's pages of every block, in order.
std::vector<std::uint32_t> pages_of(const FabricRingArgs& a) {
    std::vector<std::uint32_t> p;
    for_each_ring_page(a.range_first, a.range_pages, a.split != 0, a.takes_first != 0, a.granularity,
                       [&](std::uint32_t page) { p.push_back(page); });
    return p;
}

std::uint32_t landing_page(const FabricRingArgs& a, std::uint32_t block, std::uint32_t p) {
    return gathered_page(block, p, a.land_blocks, a.block_pages, a.land_row_pages);
}

/// Packets at the end of a worker's loop that fast-forward never skips: the
/// circular buffer's depth and a sync group, so the final handshakes and
/// the last semaphore increments are simulated.
std::uint64_t steady_margin(const FabricRingArgs& a) {
    const std::uint32_t ppp = std::max<std::uint32_t>(a.pages_per_packet, 1);
    return std::uint64_t(a.cb_slots) + (a.sync_pages + ppp - 1) / ppp + 2;
}

/// Packets of a worker's loop: every step moves its `n` pages (or a half of
/// them) in packets of up to pages_per_packet pages.
std::uint64_t loop_packets(const FabricRingArgs& a, std::uint32_t n) {
    const std::uint32_t ppp = std::max<std::uint32_t>(a.pages_per_packet, 1);
    std::uint64_t packets = 0;
    for (std::uint32_t s = 0; s < a.steps; ++s) {
        std::uint32_t lo = 0, hi = 0;
        rs::step_pages(a.dst[s], n, lo, hi);
        packets += (hi - lo + ppp - 1) / ppp;
    }
    return packets;
}

/// May fast-forward skip packets of this worker's loop? Only on a ring
/// (lane bit 15 of the role word), where every chip's workers of a lane do
/// the same work at one rate. On a line they do not (the chips near the ends
/// move fewer blocks, a reduce-scatter's final step joins two directions),
/// and skipping by lane rate missed exact simulation by up to 11 % (4-chip
/// line, 256 MiB: all-gather -1.1 %, all-reduce -3.3 %, reduce-scatter
/// +11.5 %). The host clears the bit for an all-reduce too
/// (FabricRingConnection.cpp). A loop that is not
/// steady keeps the whole board exact.
bool steady_worker(const FabricRingArgs& a) {
    return (a.role >> 31) & 1u;
}

bool needs_recv(std::uint32_t kind) {
    return kind == rs::kSrcRecv || kind == rs::kSrcReduce || kind == rs::kSrcFoldL;
}

}  // namespace

void fabric_ring_reader_main() {
    const FabricRingArgs a = read_args<FabricRingArgs>();
    fw_assert((a.role & 0xff) == 0, "fabric_ring_reader: arguments of a writer");
    const std::vector<std::uint32_t> mine = pages_of(a);
    const std::uint32_t n = std::uint32_t(mine.size());
    const std::uint32_t ppp = a.pages_per_packet;
    const std::uint32_t slot_bytes = ppp * a.page_bytes;
    const auto op = reduce_op(a.redop);
    const auto t = dtype_code(a.dtype);
    WAYPOINT("FRS");
    if (a.start_count) noc_semaphore_wait_min(a.start_sem, a.start_count);
    // The writer upstream increments once per sync group of a step; the
    // group holding page i + k - 1 has landed once the count reaches
    // ceil((i + k) / sync_pages) for this step (one group: 1).
    auto groups_upto = [&](std::uint32_t groups, std::uint32_t pages) {
        return std::min(groups, a.sync_pages ? (pages + a.sync_pages - 1) / a.sync_pages : 1u);
    };
    std::uint32_t filled = 0;
    std::uint32_t seen = 0;  // recv_sem increments of earlier steps
    // --fast-forward: a skipped packet counts as filled without being read
    // (the writer counts it freed without sending it). The start wait above
    // is outside the loop: while an all-reduce's all-gather phase waits
    // there for its reduce-scatter, nothing is skipped (counting that wait
    // in the loop let the reduce-scatter skip, and the 256 MiB ring
    // all-reduce came out 2.8 % slow; not understood yet).
    const std::uint64_t total = loop_packets(a, n);
    std::uint64_t done = 0, skipping = 0;
    SteadyLoop steady(total, steady_margin(a), a.role >> 16, steady_worker(a));
    for (std::uint32_t s = 0; s < a.steps; ++s) {
        const std::uint32_t kind = a.kind[s], b = a.block[s];
        const bool last_local = (a.dst[s] & rs::kDstLocal) && !(a.dst[s] & rs::kDstSend);
        std::uint32_t lo = 0, hi = 0;  // the pages of this step (split forwarding: a half)
        rs::step_pages(a.dst[s], n, lo, hi);
        // A half step forwards half of a block that landed whole: the counts
        // of its sync groups match only with one increment per block.
        fw_assert(hi - lo == n || a.sync_pages == 0, "fabric_ring_reader: a half step with sync groups");
        const std::uint32_t groups = ring_syncs(hi - lo, a.sync_pages);
        std::uint32_t synced = 0;  // sync groups of this step already waited for
        for (std::uint32_t i = lo; i < hi; i += ppp) {
            const std::uint32_t k = std::min(ppp, hi - i);
            if (!skipping) skipping = steady.skip(total - done, (hi - i + ppp - 1) / ppp);
            ++done;
            if (skipping) {
                synced = std::max(synced, groups_upto(groups, i - lo + k));
                ++filled;
                if (--skipping == 0) {
                    l1_write_u32(a.cb_filled, filled);
                    steady.pause();
                }
                continue;
            }
            // Wait for the packets this chunk needs to have landed (the line's
            // own block: R on its own semaphore).
            const bool lands_r = kind == rs::kSrcFinal || kind == rs::kSrcFoldR;
            const std::uint32_t need = groups_upto(groups, i - lo + k);
            if (need > synced && (needs_recv(kind) || lands_r)) {
                if (needs_recv(kind)) noc_semaphore_wait_min(a.recv_sem, seen + need);
                if (lands_r) noc_semaphore_wait_min(a.final_r_sem, need);
                synced = need;
            }
            // ... and for the forward worker's fold of the output chunk
            // holding these pages (tt-metal: one fwd_bwd_sem increment per
            // chunk, after its writes landed).
            if (kind == rs::kSrcFoldR)
                noc_semaphore_wait_min(a.fold_sem, (i - lo + k + a.granularity - 1) / a.granularity);
            // A free slot of the circular buffer.
            if (filled >= a.cb_slots) noc_semaphore_wait_min(a.cb_freed, filled - a.cb_slots + 1);
            const std::uint32_t slot = a.cb + (filled % a.cb_slots) * slot_bytes;
            const std::uint32_t bytes = k * a.page_bytes;
            auto read_into = [&](const TensorArgs& src, std::uint32_t l1, bool landing) {
                read_pages(src, a.page_bytes, k, l1, [&](std::uint32_t j) {
                    const std::uint32_t p = mine[i + j];
                    return landing ? landing_page(a, b, p) : b * a.block_pages + p;
                });
            };
            auto read_output = [&](std::uint32_t l1) {
                read_pages(a.output, a.page_bytes, k, l1, [&](std::uint32_t j) {
                    return gathered_page(a.out_block, mine[i + j], a.out_blocks, a.block_pages, a.out_row_pages);
                });
            };
            auto read_own = [&](std::uint32_t l1) {
                read_pages(a.source, a.page_bytes, k, l1,
                           [&](std::uint32_t j) { return (a.source_single ? 0 : b) * a.block_pages + mine[i + j]; });
            };
            switch (kind) {
                case rs::kSrcOwn:
                    read_own(slot);
                    noc_async_read_barrier();
                    if (a.group_size) eltwise_prepare(slot, slot, bytes, op, t);  // reduce-scatter's first send: g(x)
                    break;
                case rs::kSrcRecv:
                    read_into(a.landing, slot, true);
                    noc_async_read_barrier();
                    break;
                case rs::kSrcReduce:
                case rs::kSrcFoldL: {  // the line's L (+) g(x): the backward worker adds R (has_r)
                    const bool fold = kind == rs::kSrcFoldL;
                    read_into(a.landing, slot, true);
                    read_into(a.input, a.scratch, false);
                    noc_async_read_barrier();
                    eltwise_prepare(a.scratch, a.scratch, bytes, op, t);
                    if (!fold && last_local && a.has_r)
                        eltwise_reduce(slot, a.scratch, slot, bytes, op, t);  // g(x_f) (+) R
                    else
                        eltwise_reduce(slot, slot, a.scratch, bytes, op, t);  // partial (+) g(x)
                    if (fold ? !a.has_r : last_local) eltwise_finalize(slot, bytes, op, t, a.group_size);
                    break;
                }
                case rs::kSrcFinal:  // the first chip of a line: g(x) (+) R
                    read_into(a.input, a.scratch, false);
                    read_into(a.landing, slot, true);
                    noc_async_read_barrier();
                    eltwise_prepare(a.scratch, a.scratch, bytes, op, t);
                    eltwise_reduce(slot, a.scratch, slot, bytes, op, t);
                    eltwise_finalize(slot, bytes, op, t, a.group_size);
                    break;
                case rs::kSrcFoldR:  // (L (+) g(x)) from the output, (+) R
                    read_output(slot);
                    read_into(a.landing, a.scratch, true);
                    noc_async_read_barrier();
                    eltwise_reduce(slot, slot, a.scratch, bytes, op, t);
                    eltwise_finalize(slot, bytes, op, t, a.group_size);
                    break;
                default: fw_assert(false, "fabric_ring_reader: unknown step kind");
            }
            ++filled;
            l1_write_u32(a.cb_filled, filled);
        }
        if (needs_recv(kind)) seen += groups;
    }
    fw_assert(skipping == 0, "fabric_ring_reader: a fast-forward skip ran past the loop's end");
    // Blocks that only land here (the end of their way): wait for all of them
    // (still inside the steady loop: a wait on the others' progress, which
    // fast-forward may skip through; its count includes the skipped groups).
    if (a.recv_count) {
        WAYPOINT("FRW");
        noc_semaphore_wait_min(a.recv_sem, a.recv_count);
    }
    WAYPOINT("DONE");
}

void fabric_ring_writer_main() {
    const FabricRingArgs a = read_args<FabricRingArgs>();
    fw_assert((a.role & 0xff) == 1, "fabric_ring_writer: arguments of a reader");
    const std::vector<std::uint32_t> mine = pages_of(a);
    const std::uint32_t n = std::uint32_t(mine.size());
    const std::uint32_t ppp = a.pages_per_packet;
    fw_assert(ppp >= 1 && ppp <= fabric::hdr::kScatterMaxChunks,
              "fabric_ring_writer: a packet carries 1..4 pages (a scatter write's chunks)");
    const std::uint32_t slot_bytes = ppp * a.page_bytes;
    const std::uint32_t stream = (a.role >> 8) & 0xff;
    WorkerToFabricEdmSender tx;
    if (a.has_conn) {
        tx = WorkerToFabricEdmSender(a.conn);
        tx.open();
    }
    auto next_page_addr = [&](std::uint32_t block, std::uint32_t p) {
        TensorArgs next = a.landing;  // the next chip's landing tensor lies as ours does
        next.base = a.next_landing;
        return tensor_page_addr(next, landing_page(a, block, p), a.page_bytes);
    };
    // The route of the current step: the next chip, or a line multicast to
    // the chips up to `hops` ahead (the same addresses on each of them).
    std::uint32_t hops = 0;
    auto route = [&](PacketHeader& h) {
        if (hops)
            h.set_route_1d_multicast(1, hops);
        else
            h.set_route_1d(1);
    };
    // An increment of the semaphore `sem` on core `xy` of the chips the
    // current route reaches, behind everything sent before it.
    auto atomic_inc = [&](std::uint32_t xy, std::uint32_t sem, std::uint32_t by) {
        PacketHeader h;
        route(h);
        h.set_chips(a.chip, a.next_chip);
        h.to_noc_unicast_atomic_inc(get_noc_addr(xy >> 16, xy & 0xffff, sem), by, /*flush=*/true);
        h.set_stream(stream);
        tx.send_packet(h, 0, 0);
    };
    auto sem_inc = [&](std::uint32_t sel, std::uint32_t by) { atomic_inc(a.next_sem_xy[sel], a.next_sem[sel], by); };
    WAYPOINT("FRS");
    // A line multicast all-gather's start barrier (tt-metal, without a
    // persistent output): tell the chips this worker writes to that this
    // chip started; their readers wait for it (sem_sel 1 of the first step).
    if (a.steps && rs::mcast_hops(a.dst[0]) && a.next_sem[1]) {
        hops = rs::mcast_hops(a.dst[0]);
        sem_inc(1, 1);
    }
    // The op's start barrier (tt-metal's reduce-scatter and all-gather
    // writers, with buffers the op allocated): tell every other chip's
    // worker of this lane that this chip has started, by one multicast
    // increment round the ring (on a line: to the chips this worker sends
    // to, at the workers of both directions), and send nothing before all
    // of them have. The reader meanwhile fills the circular buffer.
    if (a.barrier_count) {
        if (a.barrier_hops) {
            hops = a.barrier_hops;
            atomic_inc(a.barrier_xy, a.barrier_sem, 1);
            if (a.barrier_xy2) atomic_inc(a.barrier_xy2, a.barrier_sem, 1);
        }
        WAYPOINT("FRB");
        noc_semaphore_wait_min(a.barrier_sem, a.barrier_count);
        noc_semaphore_set(a.barrier_sem, 0);
    }
    std::uint32_t used = 0;
    // --fast-forward: a skipped packet is freed without being sent; the
    // semaphore increments it owes the next chip go out at once, one packet
    // per semaphore carrying their sum, before the pause.
    const std::uint64_t total = loop_packets(a, n);
    std::uint64_t done = 0, skipping = 0;
    std::uint32_t owed[3] = {0, 0, 0};
    SteadyLoop steady(total, steady_margin(a), a.role >> 16, steady_worker(a));
    auto settle = [&] {
        for (std::uint32_t sel = 0; sel < 3; ++sel)
            if (owed[sel]) sem_inc(sel, owed[sel]);
        owed[0] = owed[1] = owed[2] = 0;
        l1_write_u32(a.cb_freed, used);
        steady.pause();
    };
    for (std::uint32_t s = 0; s < a.steps; ++s) {
        const std::uint32_t b = a.block[s];
        const bool send = a.dst[s] & rs::kDstSend, local = a.dst[s] & rs::kDstLocal;
        fw_assert(!send || a.has_conn, "fabric_ring_writer: a send step without a fabric connection");
        hops = rs::mcast_hops(a.dst[s]);
        std::uint32_t lo = 0, hi = 0;  // the pages of this step (split forwarding: a half)
        rs::step_pages(a.dst[s], n, lo, hi);
        std::uint32_t since_sync = 0, folded = 0;
        for (std::uint32_t i = lo; i < hi; i += ppp) {
            const std::uint32_t k = std::min(ppp, hi - i);
            if (!skipping) skipping = steady.skip(total - done, (hi - i + ppp - 1) / ppp);
            ++done;
            if (skipping) {
                fw_assert(!a.fold_to, "fabric_ring_writer: fast-forward through a line's fold");
                since_sync += send ? k : 0;
                if (send && a.sync_pages && since_sync >= a.sync_pages && i + k < hi) {
                    ++owed[a.sem_sel[s]];
                    since_sync = 0;
                }
                ++used;
                if (--skipping == 0) settle();
                continue;
            }
            noc_semaphore_wait_min(a.cb_filled, used + 1);
            const std::uint32_t slot = a.cb + (used % a.cb_slots) * slot_bytes;
            if (send) {
                PacketHeader h;
                route(h);
                h.set_chips(a.chip, a.next_chip);
                if (k >= 2) {
                    std::uint64_t to[fabric::hdr::kScatterMaxChunks];
                    for (std::uint32_t j = 0; j < k; ++j) to[j] = next_page_addr(b, mine[i + j]);
                    h.to_noc_unicast_scatter_write(to, k, a.page_bytes, k * a.page_bytes);
                } else {
                    h.to_noc_unicast_write(next_page_addr(b, mine[i]), a.page_bytes);
                }
                h.set_stream(stream);
                tx.send_packet(h, slot, k * a.page_bytes);
                since_sync += k;
                if (a.sync_pages && since_sync >= a.sync_pages && i + k < hi) {
                    sem_inc(a.sem_sel[s], 1);
                    since_sync = 0;
                }
            }
            if (local) {
                const TensorArgs& out = a.output;
                const std::uint32_t ob = a.out_same_block ? b : a.out_block;
                write_pages(out, a.page_bytes, k, slot, [&](std::uint32_t j) {
                    return gathered_page(ob, mine[i + j], a.out_blocks, a.block_pages, a.out_row_pages);
                });
            }
            noc_async_writes_flushed();  // the slot's pages have left L1
            ++used;
            l1_write_u32(a.cb_freed, used);
            // The line's forward worker: a chunk of the own block folded
            // into the output, once its writes have landed, for the
            // backward worker of this chip to add R.
            if (local && a.fold_to) {
                folded += k;
                if (folded >= a.granularity || i + k >= hi) {
                    noc_async_write_barrier();
                    noc_semaphore_inc(get_noc_addr(a.fold_xy >> 16, a.fold_xy & 0xffff, a.fold_to), 1);
                    folded = 0;
                }
            }
        }
        if (send) {
            if (skipping)
                ++owed[a.sem_sel[s]];
            else
                sem_inc(a.sem_sel[s], 1);
        }
    }
    fw_assert(skipping == 0, "fabric_ring_writer: a fast-forward skip ran past the loop's end");
    noc_async_write_barrier();
    noc_async_atomic_barrier();
    if (tx.is_open()) tx.close();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
