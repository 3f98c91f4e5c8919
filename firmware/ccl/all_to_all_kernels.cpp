// All-to-all over a ring or a line: the worker kernels.
//
// Rank r's input holds one block per destination (block d goes to rank d);
// rank d's output holds one block per source (block r came from rank r).
// Only neighbours are connected, so a block for a chip k hops away is
// relayed by the k-1 chips in between, each storing it in a DRAM scratch
// buffer until its sender forwards it. A block takes one direction: on a
// ring the shorter way (ties and `ring_split` decide), on a line towards
// its destination.
//
// Schedule of one direction (AllToAllPlan, shared with the host): in round
// k = 1, 2, ... every chip sends its own block for the chip k hops
// downstream, then relays the round-k blocks of the chips 1..k-1 hops
// upstream, in that order; those arrive in the same round (the upstream
// chip sends them right after its own block), so a sender never waits for
// something its own pushes hold up:
//
//   chip p, round k:   push own(p -> p+k), relay(p-1 -> p-1+k), ..., relay(p-k+1 -> p+1)
//   chip p receives:   (p-1 -> p-1+k) relay, ..., (p-k+1 -> p+1) relay, (p-k -> p) store
//
// The block a rank keeps for itself is copied locally (input -> output) by
// one sender per unit. The receiver writes relayed chunks to scratch slot = relay sequence number
// (both kernels count relays in the same order) and signals the sender per
// chunk; the sender reads them back and pushes them on. Scratch is never
// reused, so the receiver never blocks on the sender and the ring cannot
// deadlock.
//
// Args: AllToAllArgs (firmware/ccl/ccl_args.h).
#include "firmware/ccl/ccl_kernels.h"

namespace cclsim::fw::ccl {

namespace {

AllToAllPlan plan_of(const AllToAllArgs& a) {
    AllToAllPlan p;
    p.ranks = a.unit.ranks;
    p.ring = a.unit.ring != 0;
    p.ring_split = a.ring_split;
    return p;
}

}  // namespace

void all_to_all_sender_main() {
    const AllToAllArgs a = read_args<AllToAllArgs>();
    const UnitArgs& u = a.unit;
    const std::uint32_t B = u.block_pages;
    std::uint32_t slot = 0, relays = 0, relays_seen = 0;

    WAYPOINT("A2AS");
    if (a.copy_local) {
        // The rank's own block: input block `rank` -> output block `rank`.
        for_each_chunk(u, slot, [&](std::uint32_t first, std::uint32_t n, std::uint32_t l1) {
            auto page = [&](std::uint32_t j) { return u.rank * B + first + j; };
            read_pages(a.input, u.page_bytes, n, l1, page);
            noc_async_read_barrier();
            write_pages(a.output, u.page_bytes, n, l1, page);
        });
    }
    plan_of(a).for_each_sent(u.rank, a.dir, [&](std::uint32_t, std::uint32_t, std::uint32_t dst, bool own) {
        const std::uint32_t relay_slot = own ? 0 : relays++;
        for_each_chunk(u, slot, [&](std::uint32_t first, std::uint32_t n, std::uint32_t l1) {
            if (own) {
                read_pages(a.input, u.page_bytes, n, l1, [&](std::uint32_t j) { return dst * B + first + j; });
            } else {
                noc_semaphore_wait_min(a.relay_sem, ++relays_seen);
                read_pages(a.scratch, u.page_bytes, n, l1, [&](std::uint32_t j) { return relay_slot * B + first + j; });
            }
            noc_async_read_barrier();
            edm_push(a.edm, l1, n * u.page_bytes);
        });
    });
    noc_async_write_barrier();
    signal_done(a.done);
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

void all_to_all_receiver_main() {
    const AllToAllArgs a = read_args<AllToAllArgs>();
    const UnitArgs& u = a.unit;
    const std::uint32_t B = u.block_pages;
    std::uint32_t slot = 0, relays = 0;

    WAYPOINT("A2AR");
    plan_of(a).for_each_received(u.rank, a.dir, [&](std::uint32_t, std::uint32_t src, std::uint32_t, bool here) {
        const std::uint32_t relay_slot = here ? 0 : relays++;
        for_each_chunk(u, slot, [&](std::uint32_t first, std::uint32_t n, std::uint32_t l1) {
            edm_pull(a.edm, l1, n * u.page_bytes);
            if (here) {
                write_pages(a.output, u.page_bytes, n, l1, [&](std::uint32_t j) { return src * B + first + j; });
            } else {
                write_pages(a.scratch, u.page_bytes, n, l1,
                            [&](std::uint32_t j) { return relay_slot * B + first + j; });
                noc_async_write_barrier();
                semaphore_inc(a.sender_relay_sem);
            }
        });
    });
    noc_async_write_barrier();
    signal_done(a.done);
    noc_async_atomic_barrier();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
