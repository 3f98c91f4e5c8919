// The direct (one-shot) reduce-scatter on a ring, as tt-metal's
// reduce_scatter_minimal_direct runs it (ttnn.reduce_scatter takes it on a
// ring up to 512 KiB of input per chip): one worker core per link, a reader
// (ncrisc) and a writer (brisc) on it.
//
// Every rank sends its input block q straight to rank q as a multi-hop
// fabric unicast (q's ring distance in hops the shorter way round, ties
// forward), farthest destination first; nothing is relayed or reduced on
// the way. The block lands in rank q's staging in the slot of its source,
// and the destination's last packet from a source is a fused write +
// increment of that source's arrival counter. Once every counter moved, the
// destination folds the n - 1 arrivals and its own block chunk by chunk and
// writes its output. One traversal instead of the ring's n - 1
// store-and-forward steps, for about 2.3x the link bytes on an 8-ring.
//
//   reader: phase 1  input block q, chunk k -> cb_send       (send order)
//   writer:          cb_send -> fabric -> rank q's staging[pos], chunk k
//                    (a flush after every packet; the last one +1 arrival[pos])
//   reader: phase 2  own chunk k; wait every arrival (k = 0); staging chunk k
//                    of every source; fold -> cb_out
//   writer:          cb_out -> output pages
//
// Staging: with `aliased` the arrivals land in this core's L1 (tt-metal:
// the staging shard is the reduce circular buffer, when it fits the core),
// so the reader reads nothing back; else in an interleaved chunk-paged
// tensor, read back after the last arrival.
//
// Order of the reduction (golden Method::Direct): the other ranks' blocks
// folded left to right in position order, then the own block:
// finalize((g(x_a) (+) g(x_b) (+) ...) (+) g(x_own)).
//
// Args: FabricDirectRsArgs (firmware/ccl/ccl_args.h), end marker 0xCC10.
#include "firmware/api/fabric_api.h"
#include "firmware/ccl/ccl_kernels.h"

namespace cclsim::fw::ccl {

using cclsim::fabric::PacketHeader;

namespace {

/// Pages of this worker's chunk k (the block's last chunk may be short).
std::uint32_t chunk_pages_of(const FabricDirectRsArgs& a, std::uint32_t k) {
    const std::uint32_t first = k * a.granularity;
    return first < a.page_count ? std::min(a.granularity, a.page_count - first) : 0;
}

/// Block b's row of chunk k in the aliased staging.
std::uint32_t aliased_row(const FabricDirectRsArgs& a, std::uint32_t k, std::uint32_t b) {
    return a.staging + (k * a.ranks + b) * a.granularity * a.page_bytes;
}

/// The block index of source `src` at destination `dst` (0 is the own one).
std::uint32_t block_at(std::uint32_t src, std::uint32_t dst) {
    return src < dst ? src + 1 : src;
}

}  // namespace

void fabric_direct_rs_reader_main() {
    const FabricDirectRsArgs a = read_args<FabricDirectRsArgs>();
    fw_assert(a.role == 0, "fabric_direct_rs_reader: arguments of a writer");
    const std::uint32_t chunk_bytes = a.granularity * a.page_bytes;
    const auto op = reduce_op(a.redop);
    const auto t = dtype_code(a.dtype);
    auto read_chunk = [&](std::uint32_t block, std::uint32_t k, std::uint32_t l1) {
        const std::uint32_t first = a.page_first + k * a.granularity;
        read_pages(a.input, a.page_bytes, chunk_pages_of(a, k), l1,
                   [&](std::uint32_t j) { return block * a.block_pages + first + j; });
    };
    fw_assert(a.ranks >= 3 && a.chunk_count > 0, "fabric_direct_rs_reader: a ring of three or more, chunks to move");
    WAYPOINT("DRS");
    // Phase 1: every destination's chunks, in send order, into cb_send.
    std::uint32_t filled = 0;
    for (std::uint32_t i = 0; i + 1 < a.ranks; ++i)
        for (std::uint32_t k = 0; k < a.chunk_count; ++k) {
            if (filled >= 2) noc_semaphore_wait_min(a.send_freed, filled - 1);
            read_chunk(a.dest[i], k, a.cb_send + (filled % 2) * chunk_bytes);
            noc_async_read_barrier();
            l1_write_u32(a.send_filled, ++filled);
        }
    // Phase 2: fold every chunk of the own block.
    std::uint32_t out = 0;
    for (std::uint32_t k = 0; k < a.chunk_count; ++k) {
        const std::uint32_t bytes = chunk_pages_of(a, k) * a.page_bytes;
        const std::uint32_t own = a.aliased ? aliased_row(a, k, 0) : a.scratch;
        // The own chunk first: it needs no arrival, so it lands while we wait.
        read_chunk(a.pos, k, own);
        if (k == 0) {
            WAYPOINT("DRSW");
            for (std::uint32_t s = 0; s < a.ranks; ++s)
                if (s != a.pos) noc_semaphore_wait_min(a.arrival[s], 1);
        }
        auto row = [&](std::uint32_t b) { return a.aliased ? aliased_row(a, k, b) : a.scratch + b * chunk_bytes; };
        if (!a.aliased)
            for (std::uint32_t s = 0; s < a.ranks; ++s) {
                if (s == a.pos) continue;
                const std::uint32_t page = s * a.chunks_per_block + a.chunk_first + k;
                noc_async_read(tensor_page_addr(a.staging_tensor, page, chunk_bytes), row(block_at(s, a.pos)), bytes);
            }
        noc_async_read_barrier();
        if (out >= 2) noc_semaphore_wait_min(a.out_freed, out - 1);
        const std::uint32_t acc = a.cb_out + (out % 2) * chunk_bytes;
        // (g(x_a) (+) g(x_b) (+) ...) over the other ranks, then (+) g(x_own).
        for (std::uint32_t b = 1; b < a.ranks; ++b) eltwise_prepare(row(b), row(b), bytes, op, t);
        eltwise_reduce(acc, row(1), row(2), bytes, op, t);
        for (std::uint32_t b = 3; b < a.ranks; ++b) eltwise_reduce(acc, acc, row(b), bytes, op, t);
        eltwise_prepare(row(0), row(0), bytes, op, t);
        eltwise_reduce(acc, acc, row(0), bytes, op, t);
        eltwise_finalize(acc, bytes, op, t, a.ranks);
        l1_write_u32(a.out_filled, ++out);
    }
    WAYPOINT("DONE");
}

void fabric_direct_rs_writer_main() {
    const FabricDirectRsArgs a = read_args<FabricDirectRsArgs>();
    fw_assert(a.role == 1, "fabric_direct_rs_writer: arguments of a reader");
    const std::uint32_t chunk_bytes = a.granularity * a.page_bytes;
    WorkerToFabricEdmSender tx[2];
    for (unsigned d = 0; d < 2; ++d)
        if (a.has_conn[d]) {
            tx[d] = WorkerToFabricEdmSender(a.conn[d]);
            tx[d].open();
        }
    const std::uint32_t px = a.peer_xy >> 16, py = a.peer_xy & 0xffff;
    WAYPOINT("DRS");
    // The start barrier: every chip has started before anything lands in it.
    if (a.init_sem) {
        for (unsigned d = 0; d < 2; ++d) {
            if (!a.init_range[d]) continue;
            fw_assert(a.has_conn[d], "fabric_direct_rs_writer: a barrier direction without a connection");
            PacketHeader h = fabric_line_multicast_header(a.chip[a.pos], a.init_range[d]);
            h.to_noc_unicast_atomic_inc(get_noc_addr(px, py, a.init_sem), 1, /*flush=*/true);
            tx[d].send_packet(h, 0, 0);
            noc_async_writes_flushed();
        }
        WAYPOINT("DRSB");
        noc_semaphore_wait_min(a.init_sem, a.ranks - 1);
    }
    const std::uint64_t arrival = get_noc_addr(px, py, a.arrival[a.pos]);
    std::uint32_t used = 0;
    for (std::uint32_t i = 0; i + 1 < a.ranks; ++i) {
        const std::uint32_t q = a.dest[i], d = a.dest_conn[i];
        fw_assert(a.has_conn[d], "fabric_direct_rs_writer: a destination without its connection");
        for (std::uint32_t k = 0; k < a.chunk_count; ++k) {
            noc_semaphore_wait_min(a.send_filled, used + 1);
            const std::uint32_t slot = a.cb_send + (used % 2) * chunk_bytes;
            const std::uint32_t pages = chunk_pages_of(a, k);
            for (std::uint32_t p = 0; p < pages; p += a.pages_per_packet) {
                const std::uint32_t n = std::min(a.pages_per_packet, pages - p);
                std::uint64_t dst;
                if (a.aliased)
                    dst = get_noc_addr(px, py, aliased_row(a, k, block_at(a.pos, q)) + p * a.page_bytes);
                else
                    dst = tensor_page_addr(a.staging_tensor, a.pos * a.chunks_per_block + a.chunk_first + k,
                                           chunk_bytes) +
                          p * a.page_bytes;
                PacketHeader h = fabric_unicast_header(a.chip[a.pos], a.chip[q], a.dest_hops[i]);
                if (k + 1 == a.chunk_count && p + n == pages)
                    h.to_noc_fused_unicast_write_atomic_inc(dst, arrival, 1, n * a.page_bytes);
                else
                    h.to_noc_unicast_write(dst, n * a.page_bytes);
                tx[d].send_packet(h, slot + p * a.page_bytes, n * a.page_bytes);
                noc_async_writes_flushed();  // tt-metal: on the wire before the next packet
            }
            l1_write_u32(a.send_freed, ++used);
        }
    }
    // The folded output chunks.
    for (std::uint32_t k = 0; k < a.chunk_count; ++k) {
        noc_semaphore_wait_min(a.out_filled, k + 1);
        const std::uint32_t first = a.page_first + k * a.granularity;
        write_pages(
            a.output, a.page_bytes, chunk_pages_of(a, k), a.cb_out + (k % 2) * chunk_bytes,
            [&](std::uint32_t j) { return gathered_page(a.out_block, first + j, a.out_blocks, a.block_pages, 0); });
        noc_async_writes_flushed();
        l1_write_u32(a.out_freed, k + 1);
    }
    noc_async_write_barrier();
    noc_async_atomic_barrier();
    for (unsigned d = 0; d < 2; ++d)
        if (tx[d].is_open()) tx[d].close();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
