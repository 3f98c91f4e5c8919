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
void reduce_ring_worker_main();   ///< ring reduce_scatter (and all_reduce's first phase)
void reduce_line_worker_main();   ///< line reduce_scatter, one per direction
void all_to_all_sender_main();
void all_to_all_receiver_main();

// ---- helpers --------------------------------------------------------------------

/// Read the runtime arguments of layout A and check the end marker.
template <class A> A read_args() {
    return read_layout_args<A>(kArgsEndMarker, "CCL worker runtime arguments end with the end marker 0xCC10 "
                                               "(host/kernel layout mismatch)");
}

/// Visit this unit's chunks of one block, each staged in the next of two
/// alternating L1 slots once the slot's previous contents have left L1:
/// f(first page of the chunk, pages in it, L1 address of the slot).
template <class F> void for_each_chunk(const UnitArgs& u, std::uint32_t& slot, F&& f) {
    const std::uint32_t chunks = num_chunks(u.block_pages, u.pages_per_chunk);
    const std::uint32_t mine = unit_chunk_count(chunks, u.chunk_first, u.chunk_stride);
    const std::uint32_t slot_bytes = u.pages_per_chunk * u.page_bytes;
    for (std::uint32_t i = 0; i < mine; ++i) {
        const std::uint32_t c = u.chunk_first + i * u.chunk_stride;
        noc_async_writes_flushed();
        f(chunk_first_page(c, u.pages_per_chunk), chunk_pages(c, u.block_pages, u.pages_per_chunk),
          u.staging + slot * slot_bytes);
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

/// Sender side of an EDM channel: wait until the EDM offers its buffer,
/// clear our semaphore, write `bytes` from L1, signal "payload ready" (the
/// increment rides the same VC, so it lands after the payload).
void edm_push(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes);
/// Receiver side: wait for a payload, clear our semaphore, copy `bytes` of it
/// to L1, then tell the EDM the buffer may be overwritten.
void edm_pull(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes);

void semaphore_inc(const RemoteSem& s, std::uint32_t incr = 1);

}  // namespace cclsim::fw::ccl
