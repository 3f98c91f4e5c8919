// Reduce-scatter (ring and line): the worker kernels. all_reduce runs the
// same kernels first and gathers their results with the all-gather kernels.
//
// Ring (CCL guide, "(Ring) Reduce Scatter"; one worker core per unit, one
// EDM channel in, one out, data moving to the next chip). The partial of
// fracture f starts on chip f+1 with that chip's own data and travels once
// round the ring; each chip adds its own fracture-f data; chip f adds last
// and stores the result. Per slice (chunk) the worker sees all n fractures
// before it moves on, so the pipeline never holds more than one message per
// channel (the tensor slicer's deadlock rule):
//
//   chip p, one slice:
//     k = 0      read x_p[p-1] ------------------------------> push
//     k = 1..n-2 read x_p[p-1-k], pull partial, add ---------> push
//     k = n-1    read x_p[p],     pull partial, add ---------> output
//
//   fracture f: x_{f+1} -> (+x_{f+2}) -> ... -> (+x_f) = out_f on chip f
//
// Line (no wrap): two movers per unit. The right-mover carries partials of
// the fractures right of it towards higher positions, the left-mover those
// left of it towards lower positions. On chip f the right-mover computes
// T = L_f + x_f, commits it to the output and hands it to the left-mover
// (semaphore), which finishes out_f = T + R_f:
//
//   out_f = ((x_0 + ... + x_{f-1}) + x_f) + (x_{n-1} + ... + x_{f+1})
//            `------- L_f, moving right ----'   `------ R_f, moving left ---'
//
// (on the ends the missing side is skipped: out_0 = x_0 + R_0, out_{n-1} =
// L_{n-1} + x_{n-1}). The right-movers never wait for left-movers, so the
// hand-over cannot deadlock.
//
// Each add is elementwise in fp32 (bf16 rounded to nearest even after every
// add) on the worker's compute engine; the golden reference defines the same
// order. For all_reduce, the worker that stores a finished slice signals the
// all-gather senders of its unit (notify) after the slice is committed.
//
// Staging: four chunk slots: own data (X), the incoming partial (P) and two
// alternating outgoing slots (O), so a push can still be leaving L1 while
// the next sum is computed.
//
// Args: ReduceWorkerArgs (firmware/ccl/ccl_args.h).
#include "firmware/ccl/ccl_kernels.h"

namespace cclsim::fw::ccl {

namespace {

struct Slots {
    std::uint32_t x, p, o[2];
    explicit Slots(const UnitArgs& u) {
        const std::uint32_t s = u.pages_per_chunk * u.page_bytes;
        x = u.staging;
        p = u.staging + s;
        o[0] = u.staging + 2 * s;
        o[1] = u.staging + 3 * s;
    }
};

/// After a finished slice is committed: tell the all-gather sender(s).
void notify_finished(const ReduceWorkerArgs& a, std::uint32_t slice_index) {
    if (a.notify_mask == 0) return;
    noc_async_write_barrier();
    for (std::uint32_t d = 0; d < 2; ++d) {
        if (!(a.notify_mask >> d & 1u)) continue;
        if (a.notify_alternate && slice_index % 2 != d) continue;
        semaphore_inc(a.notify[d]);
    }
}

}  // namespace

void reduce_ring_worker_main() {
    const ReduceWorkerArgs a = read_args<ReduceWorkerArgs>();
    const UnitArgs& u = a.unit;
    const std::uint32_t n = u.ranks, B = u.block_pages;
    const std::uint32_t chunks = num_chunks(B, u.pages_per_chunk);
    const std::uint32_t mine = unit_chunk_count(chunks, u.chunk_first, u.chunk_stride);
    const Slots s(u);
    std::uint32_t out_slot = 0;

    WAYPOINT("RSR");
    for (std::uint32_t i = 0; i < mine; ++i) {
        const std::uint32_t c = u.chunk_first + i * u.chunk_stride;
        const std::uint32_t pages = chunk_pages(c, B, u.pages_per_chunk);
        const std::uint32_t first = chunk_first_page(c, u.pages_per_chunk);
        const std::uint32_t bytes = pages * u.page_bytes;
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t f = ring_rs_fracture(u.rank, k, n);
            noc_async_writes_flushed();  // X and the O slot about to be reused have left L1
            read_pages(a.input, u.page_bytes, pages, s.x, [&](std::uint32_t j) { return f * B + first + j; });
            if (k > 0) edm_pull(a.in, s.p, bytes);
            noc_async_read_barrier();
            std::uint32_t result = s.x;
            if (k > 0) {
                result = s.o[out_slot];
                out_slot ^= 1;
                eltwise_add(result, s.p, s.x, bytes, a.dtype);
            }
            if (k + 1 < n) {
                edm_push(a.out, result, bytes);
            } else {
                write_pages(a.output, u.page_bytes, pages, result,
                            [&](std::uint32_t j) { return a.output_block * B + first + j; });
                notify_finished(a, i);
            }
        }
    }
    noc_async_write_barrier();
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

void reduce_line_worker_main() {
    const ReduceWorkerArgs a = read_args<ReduceWorkerArgs>();
    const UnitArgs& u = a.unit;
    const std::uint32_t n = u.ranks, B = u.block_pages, dir = a.dir;
    const std::uint32_t chunks = num_chunks(B, u.pages_per_chunk);
    const std::uint32_t mine = unit_chunk_count(chunks, u.chunk_first, u.chunk_stride);
    const std::uint32_t steps = line_rs_steps(u.rank, dir, n);
    const Slots s(u);
    std::uint32_t out_slot = 0, handoffs = 0;

    WAYPOINT(dir == 0 ? "RSLR" : "RSLL");
    for (std::uint32_t i = 0; i < mine; ++i) {
        const std::uint32_t c = u.chunk_first + i * u.chunk_stride;
        const std::uint32_t pages = chunk_pages(c, B, u.pages_per_chunk);
        const std::uint32_t first = chunk_first_page(c, u.pages_per_chunk);
        const std::uint32_t bytes = pages * u.page_bytes;
        auto output_page = [&](std::uint32_t j) { return a.output_block * B + first + j; };
        for (std::uint32_t step = 0; step < steps; ++step) {
            const std::uint32_t f = line_rs_fracture(u.rank, dir, step, n);
            const bool own = f == u.rank;
            noc_async_writes_flushed();
            if (own && dir == 1 && u.rank > 0) {
                // T = L_f + x_f, committed by the right-mover.
                noc_semaphore_wait_min(a.handoff_sem, ++handoffs);
                read_pages(a.output, u.page_bytes, pages, s.x, output_page);
            } else {
                read_pages(a.input, u.page_bytes, pages, s.x, [&](std::uint32_t j) { return f * B + first + j; });
            }
            if (a.has_in) edm_pull(a.in, s.p, bytes);
            noc_async_read_barrier();
            std::uint32_t result = s.x;
            if (a.has_in) {
                result = s.o[out_slot];
                out_slot ^= 1;
                eltwise_add(result, s.p, s.x, bytes, a.dtype);
            }
            if (!own) {
                edm_push(a.out, result, bytes);
                continue;
            }
            write_pages(a.output, u.page_bytes, pages, result, output_page);
            if (dir == 0 && u.rank + 1 < n) {
                // Hand T to the left-mover, which adds R_f.
                noc_async_write_barrier();
                semaphore_inc(a.peer_handoff);
            } else {
                notify_finished(a, i);
            }
        }
    }
    noc_async_write_barrier();
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
