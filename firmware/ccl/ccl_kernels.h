// Worker kernels of the collectives and the device-side helpers they share.
#pragma once

#include "firmware/api/dataflow_api.h"
#include "firmware/edm/edm_types.h"

#include <cstdint>

namespace cclsim::fw::ccl {

/// Ends every CCL worker kernel's runtime argument list.
constexpr std::uint32_t kArgsEndMarker = 0xCC10;

void all_gather_sender_main();
void all_gather_receiver_main();
void reduce_scatter_worker_main();

/// One EDM channel as a worker sees it (CCL guide, "EDM Communication Interface").
struct EdmChannel {
    std::uint64_t buffer;     ///< NoC address of the channel buffer on the Ethernet core
    std::uint64_t semaphore;  ///< NoC address of the EDM channel semaphore
    std::uint32_t local_sem;  ///< this worker's semaphore the EDM increments
};

/// Sender side: wait until the EDM offers its buffer, write `bytes` from L1,
/// signal "payload ready" (with kTerminate on the worker's last message).
void edm_push(const EdmChannel& ch, std::uint32_t l1, std::uint32_t bytes, bool last);
/// Receiver side: wait for a payload, copy `bytes` of it to L1, then free
/// the EDM buffer (with kTerminate on the worker's last message).
void edm_pull(const EdmChannel& ch, std::uint32_t l1, std::uint32_t bytes, bool last);

/// Where page `page` of rank `rank`'s block lands in a gathered tensor:
/// dim 0 concatenates blocks; dim 1 (row_pages > 0) concatenates rows of
/// row_pages pages.
inline std::uint32_t gathered_page(std::uint32_t rank, std::uint32_t page, std::uint32_t ranks,
                                   std::uint32_t rank_pages, std::uint32_t row_pages) {
    if (row_pages == 0) return rank * rank_pages + page;
    return (page / row_pages) * (ranks * row_pages) + rank * row_pages + page % row_pages;
}

/// Elementwise dst = a + b on the worker's compute engine (dtype 0 bf16, 1 fp32;
/// each pairwise add in fp32, bf16 results rounded to nearest even).
void eltwise_add(std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::uint32_t bytes, std::uint32_t dtype);

}  // namespace cclsim::fw::ccl
