// All-gather (ring and line) and broadcast: the worker kernels.
//
// CCL guide, "(Ring/Line) All Gather": each logical worker unit is two cores
// per direction, a sender and a receiver. The sender reads the chip's own
// input block, writes it to the chip's slot of the output tensor and pushes
// it into an EDM sender channel towards the next chip; the receiver pulls
// the blocks of upstream chips from the EDM receiver channel, commits them to
// their slots of the output, and, for every chunk that must travel further,
// increments a semaphore on the sender, which then reads that chunk back
// from the output tensor and pushes it on.
//
//   chip p (direction 0 shown)                                      chip p+1
//   input --read--> [sender] --write--> output[p]
//                      |  ^ forward_sem (one per committed chunk)
//                      |  |
//                      |  [receiver] <--pull-- EDM rx <==== Ethernet ==== chip p-1
//                      |      \--write--> output[p-1], output[p-2], ...
//                      \--push--> EDM tx ================ Ethernet ============> EDM rx -> [receiver]
//
// Which blocks a chip sends and receives comes from a GatherPlan (shared with
// the host): a ring block travels `reach` hops (n-1 one way; both ways with
// half the chunks each, "halves"; or ceil/floor((n-1)/2) hops each way with
// the whole block, "full"), a line block travels to both ends, and a
// broadcast has one origin (the root) whose block is the whole tensor.
// Blocks arrive in order of distance (1 hop upstream first), and a sender
// forwards them in the order they arrived, so channels never reorder.
//
// A unit moves chunks first, first + stride, ... of every block (up to M
// pages per EDM message); units share the links and directions.
//
// Buffering: two chunk slots in L1 per kernel. A slot is refilled only after
// the writes out of it have left L1 (noc_async_writes_flushed). The receiver
// commits (write barrier) before it signals a forward, because the sender
// reads the chunk back from the output tensor.
//
// Args: GatherSenderArgs / GatherReceiverArgs (firmware/ccl/ccl_args.h).
#include "firmware/ccl/ccl_kernels.h"

namespace cclsim::fw::ccl {

namespace {

GatherPlan plan_of(const UnitArgs& u, const GatherPlanArgs& p) {
    GatherPlan g;
    g.ranks = u.ranks;
    g.ring = u.ring != 0;
    g.ring_reach[0] = p.reach0;
    g.ring_reach[1] = p.reach1;
    g.root = p.root == 0xffffffffu ? -1 : std::int32_t(p.root);
    return g;
}

/// Output page of page `page` of origin `origin`'s block.
std::uint32_t output_page(const UnitArgs& u, const GatherPlanArgs& p, std::uint32_t origin, std::uint32_t page) {
    if (p.root != 0xffffffffu) return page;  // broadcast: the block is the whole tensor
    return gathered_page(origin, page, u.ranks, u.block_pages, p.row_pages);
}

}  // namespace

void gather_sender_main() {
    const GatherSenderArgs a = read_args<GatherSenderArgs>();
    const UnitArgs& u = a.unit;
    const GatherPlan plan = plan_of(u, a.plan);
    const std::uint32_t dir = a.plan.dir;
    std::uint32_t slot = 0, forwards_seen = 0, own_seen = 0;

    // One block: read each of this unit's chunks into a slot, push it.
    auto send_block = [&](std::uint32_t origin, bool own) {
        for_each_chunk(u, slot, [&](std::uint32_t first, std::uint32_t n, std::uint32_t l1) {
            auto out_page = [&](std::uint32_t k) { return output_page(u, a.plan, origin, first + k); };
            if (own && !a.own_from_output) {
                read_pages(a.input, u.page_bytes, n, l1, [&](std::uint32_t k) { return first + k; });
            } else {
                // Wait until the chunk is in the output tensor.
                if (own)
                    noc_semaphore_wait_min(a.own_ready_sem, ++own_seen);
                else
                    noc_semaphore_wait_min(a.forward_sem, ++forwards_seen);
                read_pages(a.output, u.page_bytes, n, l1, out_page);
            }
            noc_async_read_barrier();
            if (own && !a.own_from_output && a.copy_own) write_pages(a.output, u.page_bytes, n, l1, out_page);
            edm_push(a.edm, l1, n * u.page_bytes);
        });
    };

    WAYPOINT("AGS");
    if (plan.sends_own(u.rank, dir)) send_block(u.rank, true);
    for (std::uint32_t k = 1; k < u.ranks; ++k)
        if (plan.forwards(u.rank, k, dir))
            send_block(std::uint32_t(upstream(u.rank, k, dir, u.ranks, plan.ring)), false);
    noc_async_write_barrier();
    signal_done(a.done);
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

void gather_receiver_main() {
    const GatherReceiverArgs a = read_args<GatherReceiverArgs>();
    const UnitArgs& u = a.unit;
    const GatherPlan plan = plan_of(u, a.plan);
    const std::uint32_t dir = a.plan.dir;
    std::uint32_t slot = 0;

    WAYPOINT("AGR");
    for (std::uint32_t k = 1; k < u.ranks; ++k) {
        if (!plan.receives(u.rank, k, dir)) continue;
        const std::uint32_t origin = std::uint32_t(upstream(u.rank, k, dir, u.ranks, plan.ring));
        const bool forward = plan.forwards(u.rank, k, dir);
        for_each_chunk(u, slot, [&](std::uint32_t first, std::uint32_t n, std::uint32_t l1) {
            edm_pull(a.edm, l1, n * u.page_bytes);
            write_pages(a.output, u.page_bytes, n, l1,
                        [&](std::uint32_t j) { return output_page(u, a.plan, origin, first + j); });
            if (forward) {
                // The sender reads the chunk back from the output: commit first.
                noc_async_write_barrier();
                semaphore_inc(a.sender_forward_sem);
            }
        });
    }
    noc_async_write_barrier();
    signal_done(a.done);
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
