// Reduce-scatter: the worker kernel (one mover per worker unit and
// direction). all_reduce runs it first and gathers its results with the
// all-gather kernels.
//
// One schedule serves every method (ReducePlan in ccl_schedule.h): the
// partial of fracture f moving in direction 0 collects the chips left of f,
// the partial moving in direction 1 the chips right of f, each starting with
// the farthest chip's own data and adding one chip per hop:
//
//   clockwise ring (CCL guide, "(Ring) Reduce Scatter")
//       direction 0 only, reach n-1:  x_{f+1} -> (+x_{f+2}) -> ... -> (+x_f) = out_f on chip f
//   anticlockwise ring   direction 1 only, reach n-1
//   bidirectional pair   each half of the fracture's pages one way round
//   meet in the middle   both, reach ceil((n-1)/2) and floor((n-1)/2)
//   line                 both, to the ends
//
//   out_f = ((L_f (+) g(x_f)) (+) R_f)
//
// With both sides, the direction-0 mover on chip f computes T = L_f (+)
// g(x_f), commits it to the output and hands it to the direction-1 mover
// (semaphore), which adds R_f and stores out_f; with one side its mover
// stores. MEAN divides the stored value by n (eltwise_finalize); SQUARE_ADD
// squares every chip's own data before it joins (eltwise_prepare). The
// golden reference defines the same order per method.
//
// Per chunk of its range a mover visits the fractures whose partial passes
// it, farthest destination first, so its first visit only sends: a ring of
// movers never waits on itself, and each EDM channel needs to hold only one
// message (the tensor slicer's deadlock rule; more slots add slack):
//
//   mover of chip p, direction 0, one chunk (clockwise: reach n-1):
//     f = p-1 (start)  read x_p[f] ---------------------------------> push
//     f = p-2 ... p+1  read x_p[f], pull partial, partial (+) g(x) --> push
//     f = p (own)      read x_p[p], pull partial, partial (+) g(x) --> output
//
// For all_reduce, the mover that stores a finished chunk signals the
// all-gather senders whose range is this mover's (notify), after the chunk
// is committed.
//
// Staging: four chunk slots: own data (X), the incoming partial (P) and two
// alternating outgoing slots (O), so a push can still be leaving L1 while
// the next result is computed.
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

/// After a finished chunk is committed: tell the all-gather sender(s).
void notify_finished(const ReduceWorkerArgs& a) {
    if (a.notify_mask == 0) return;
    noc_async_write_barrier();
    for (std::uint32_t d = 0; d < 2; ++d)
        if (a.notify_mask >> d & 1u) semaphore_inc(a.notify[d]);
}

}  // namespace

void reduce_worker_main() {
    const ReduceWorkerArgs a = read_args<ReduceWorkerArgs>();
    const UnitArgs& u = a.unit;
    const std::uint32_t B = u.block_pages, dir = a.dir;
    const reduce_op op = reduce_op(a.redop);
    const dtype_code t = dtype_code(a.dtype);
    ReducePlan plan;
    plan.ranks = u.ranks;
    plan.ring = u.ring != 0;
    plan.ring_reach[0] = a.reach0;
    plan.ring_reach[1] = a.reach1;
    const Slots s(u);
    std::uint32_t out_slot = 0, handoffs = 0;

    WAYPOINT(dir == 0 ? "RSR" : "RSL");
    const std::uint32_t mine = unit_chunks(u);
    for (std::uint32_t i = 0; i < mine; ++i) {
        const std::uint32_t first = unit_chunk_first_page(u, i), pages = unit_chunk_pages(u, i);
        const std::uint32_t bytes = pages * u.page_bytes;
        auto output_page = [&](std::uint32_t j) { return a.output_block * B + first + j; };
        plan.for_each_step(u.rank, dir, [&](std::uint32_t f, bool starts, bool own) {
            const bool finish_t = own && dir == 1 && plan.handoff(f);  // add R_f to T
            noc_async_writes_flushed();  // X and the O slot about to be reused have left L1
            if (finish_t) {
                noc_semaphore_wait_min(a.handoff_sem, ++handoffs);
                read_pages(a.output, u.page_bytes, pages, s.x, output_page);
            } else {
                read_pages(a.input, u.page_bytes, pages, s.x, [&](std::uint32_t j) { return f * B + first + j; });
            }
            if (!starts) edm_pull(a.in, s.p, bytes);
            noc_async_read_barrier();
            if (!finish_t) eltwise_prepare(s.x, s.x, bytes, op, t);  // g(x): square_add squares
            std::uint32_t result = s.x;
            if (!starts) {
                result = s.o[out_slot];
                out_slot ^= 1;
                // L (+) g(x) moving right; g(x) (+) R, or T (+) R, moving left.
                if (dir == 0)
                    eltwise_reduce(result, s.p, s.x, bytes, op, t);
                else
                    eltwise_reduce(result, s.x, s.p, bytes, op, t);
            }
            if (!own) {
                edm_push(a.out, result, bytes);
                return;
            }
            if (dir == 0 && plan.handoff(f)) {
                // Hand T to the direction-1 mover, which adds R_f.
                write_pages(a.output, u.page_bytes, pages, result, output_page);
                noc_async_write_barrier();
                semaphore_inc(a.peer_handoff);
                return;
            }
            eltwise_finalize(result, bytes, op, t, a.group_size);
            write_pages(a.output, u.page_bytes, pages, result, output_page);
            notify_finished(a);
        });
    }
    noc_async_write_barrier();
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

// The broadcast method (GCL user guide 3.4.3): every rank's whole input
// reaches every rank first (an all-gather of whole inputs), then each rank
// reduces locally in rank order: out = ((g(x_0) (+) g(x_1)) (+) ...) (+)
// g(x_{n-1}). The network latency is paid once; memory and bytes grow with n.
// reduce_scatter keeps only its fracture's elements (an unaligned copy into
// an output page that is written when full).
void local_reduce_main() {
    const LocalReduceArgs a = read_args<LocalReduceArgs>();
    const UnitArgs& u = a.unit;
    const reduce_op op = reduce_op(a.redop);
    const dtype_code t = dtype_code(a.dtype);
    // Staging: one chunk slot per rank (slot 0 accumulates), then the output page.
    const std::uint32_t slot = u.pages_per_chunk * u.page_bytes;
    const std::uint32_t acc = u.staging, out = u.staging + u.ranks * slot;
    const std::uint32_t page_elems = u.page_bytes / a.elem_bytes;
    std::uint32_t out_page = 0, out_fill = 0;  // extract: the output page being filled, elements in it
    WAYPOINT("LRW");
    noc_semaphore_wait_min(a.done_sem, a.done_count);  // every rank's input has arrived
    WAYPOINT("LRED");
    const std::uint32_t mine = unit_chunks(u);
    for (std::uint32_t i = 0; i < mine; ++i) {
        const std::uint32_t first = unit_chunk_first_page(u, i), pages = unit_chunk_pages(u, i);
        const std::uint32_t bytes = pages * u.page_bytes;
        noc_async_writes_flushed();  // the last output has left L1
        // Every rank's chunk at once (the reads overlap), then fold in rank order.
        for (std::uint32_t r = 0; r < u.ranks; ++r)
            read_pages(a.gathered, u.page_bytes, pages, acc + r * slot,
                       [&](std::uint32_t j) { return r * a.segment_pages + first + j; });
        noc_async_read_barrier();
        for (std::uint32_t r = 0; r < u.ranks; ++r) {
            eltwise_prepare(acc + r * slot, acc + r * slot, bytes, op, t);
            if (r > 0) eltwise_reduce(acc, acc, acc + r * slot, bytes, op, t);
        }
        eltwise_finalize(acc, bytes, op, t, a.group_size);
        if (!a.extract) {
            write_pages(a.output, u.page_bytes, pages, acc, [&](std::uint32_t j) { return first + j; });
            continue;
        }
        // Keep the fracture's elements of this chunk, in output order.
        const std::uint32_t lo = std::max(first * page_elems, a.frac_first);
        const std::uint32_t hi = std::min((first + pages) * page_elems, a.frac_first + a.frac_elems);
        for (std::uint32_t e = lo; e < hi;) {
            const std::uint32_t n = std::min(hi - e, page_elems - out_fill);
            eltwise_copy(out + out_fill * a.elem_bytes, acc + (e - first * page_elems) * a.elem_bytes,
                         n * a.elem_bytes);
            out_fill += n;
            e += n;
            if (out_fill == page_elems || out_page * page_elems + out_fill == a.frac_elems) {
                // The last page of a short fracture: zeros past its end (the padding).
                eltwise_fill_zero(out + out_fill * a.elem_bytes, (page_elems - out_fill) * a.elem_bytes);
                write_pages(a.output, u.page_bytes, 1, out, [&](std::uint32_t) { return out_page; });
                noc_async_writes_flushed();
                ++out_page;
                out_fill = 0;
            }
        }
    }
    noc_async_write_barrier();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
