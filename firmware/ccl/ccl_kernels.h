// Worker kernels of the collectives and the device-side helpers they share.
#pragma once

#include "firmware/api/compute_api.h"
#include "firmware/api/dataflow_api.h"
#include "firmware/ccl/ccl_args.h"
#include "firmware/ccl/ccl_schedule.h"

#include <cstdint>

namespace cclsim::fw::ccl {

using namespace cclsim::ccl;

// ---- entry points (kernel_main of each worker kernel) -------------------------

void gather_sender_main();    ///< all_gather and broadcast: own block, then forwards
void gather_receiver_main();  ///< all_gather and broadcast: store and signal forwards
void reduce_worker_main();    ///< reduce_scatter (and all_reduce's first phase): one mover per direction
void all_to_all_sender_main();
void all_to_all_receiver_main();
void local_reduce_main();  ///< the broadcast method's local reduction
void edm_relay_main();
void fabric_exchange_main();          ///< the broadcast method (and --impl fabric broadcast): whole input to every rank
void fabric_ring_reader_main();       ///< --impl fabric all-gather / reduce-scatter: a worker's reader (ncrisc)
void fabric_ring_writer_main();       ///< ... and its writer (brisc)
void fabric_direct_rs_reader_main();  ///< --impl fabric direct reduce-scatter (ring, small): reader (ncrisc)
void fabric_direct_rs_writer_main();  ///< ... and its writer (brisc)

// ---- helpers --------------------------------------------------------------------

/// A 1D unicast header from chip `src` to chip `dst`, `hops` away (tt-metal:
/// fabric_set_unicast_route); the caller sets the command.
inline cclsim::fabric::PacketHeader fabric_unicast_header(std::uint32_t src, std::uint32_t dst, std::uint32_t hops) {
    cclsim::fabric::PacketHeader h;
    h.set_route_1d(hops);
    h.set_chips(src, dst);
    return h;
}

/// A 1D line multicast header from `chip` to the chips 1..range hops away
/// (tt-metal: the low-latency multicast route); the caller sets the command.
inline cclsim::fabric::PacketHeader fabric_line_multicast_header(std::uint32_t chip, std::uint32_t range) {
    cclsim::fabric::PacketHeader h;
    h.set_route_1d_multicast(1, range);
    h.set_chips(chip, chip);
    return h;
}

/// Read the runtime arguments of layout A and check the end marker.
template <class A> A read_args() {
    return read_layout_args<A>(kArgsEndMarker,
                               "CCL worker runtime arguments end with the end marker 0xCC10 "
                               "(host/kernel layout mismatch)");
}

/// Chunks of the unit's range of a block: how many it moves, and chunk i's
/// first page (in the block) and page count.
inline std::uint32_t unit_chunks(const UnitArgs& u) {
    return unit_chunk_count(num_chunks(u.range_pages, u.pages_per_chunk), u.chunk_first, u.chunk_stride);
}
inline std::uint32_t unit_chunk_first_page(const UnitArgs& u, std::uint32_t i) {
    return u.range_first + chunk_first_page(u.chunk_first + i * u.chunk_stride, u.pages_per_chunk);
}
inline std::uint32_t unit_chunk_pages(const UnitArgs& u, std::uint32_t i) {
    return chunk_pages(u.chunk_first + i * u.chunk_stride, u.range_pages, u.pages_per_chunk);
}

/// Visit this unit's chunks of one block, each staged in the next of two
/// alternating L1 slots once the slot's previous contents have left L1:
/// f(first page of the chunk, pages in it, L1 address of the slot).
template <class F> void for_each_chunk(const UnitArgs& u, std::uint32_t& slot, F&& f) {
    const std::uint32_t mine = unit_chunks(u);
    const std::uint32_t slot_bytes = u.pages_per_chunk * u.page_bytes;
    for (std::uint32_t i = 0; i < mine; ++i) {
        noc_async_writes_flushed();
        f(unit_chunk_first_page(u, i), unit_chunk_pages(u, i), u.staging + slot * slot_bytes);
        slot ^= 1;
    }
}

/// NoC address of page `page` of an interleaved tensor.
std::uint64_t tensor_page_addr(const TensorArgs& t, std::uint32_t page, std::uint32_t page_bytes);

/// Issue reads of `n` pages into consecutive L1 slots: page i of the chunk is
/// tensor page `page_of(i)`. Completion: noc_async_read_barrier().
template <class PageOf>
void read_pages(const TensorArgs& t, std::uint32_t page_bytes, std::uint32_t n, std::uint32_t l1, PageOf&& page_of) {
    for (std::uint32_t i = 0; i < n; ++i)
        noc_async_read(tensor_page_addr(t, page_of(i), page_bytes), l1 + i * page_bytes, page_bytes);
}
/// Issue writes of `n` consecutive L1 pages to tensor pages `page_of(i)`.
template <class PageOf>
void write_pages(const TensorArgs& t, std::uint32_t page_bytes, std::uint32_t n, std::uint32_t l1, PageOf&& page_of) {
    for (std::uint32_t i = 0; i < n; ++i)
        noc_async_write(l1 + i * page_bytes, tensor_page_addr(t, page_of(i), page_bytes), page_bytes);
}

/// Sender side of an EDM channel: wait until the EDM offers its next slot,
/// clear our semaphore, write `bytes` from L1 into that slot, signal "payload
/// ready" (the increment rides the same VC, so it lands after the payload).
void edm_push(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes);
/// Receiver side: wait for a payload in the next slot, clear our semaphore,
/// copy `bytes` of it to L1, then tell the EDM the slot may be overwritten.
void edm_pull(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes);

void semaphore_inc(const RemoteSem& s, std::uint32_t incr = 1);
/// A finished kernel's signal: commit its writes, then increment `done` (if set).
void signal_done(const RemoteSem& done);

}  // namespace cclsim::fw::ccl
