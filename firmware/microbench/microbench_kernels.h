// Entry points of the microbenchmark kernels and helpers they share.
#pragma once

#include "firmware/api/eth_dataflow_api.h"

#include <cstdint>

namespace cclsim::fw::microbench {

/// Marker that ends every microbenchmark kernel's runtime argument list.
constexpr std::uint32_t kArgsEndMarker = 0xE7D0;

void eth_ping_kernel_main();
void eth_bandwidth_kernel_main();
void ring_ping_kernel_main();
void edm_stream_sender_main();
void edm_stream_receiver_main();
void dram_bandwidth_kernel_main();
void data_movement_kernel_main();   ///< data_movement: N transactions to DRAM or a core, timed
void dispatch_empty_kernel_main();  ///< dispatch: an empty kernel
void fabric_ping_main();            ///< worker: fabric_ping sender or responder
void fabric_bandwidth_main();       ///< worker: fabric_bandwidth sender or receiver
void fabric_traffic_main();         ///< worker: fabric_traffic sender or receiver
void fabric_ubench_main();          ///< worker: fabric_ubench sender or receiver

/// Error unless argument `idx` is the end marker (host and kernel agree).
void check_end_marker(int idx);
/// The channel-sync word at `sync_addr` announces a payload (bytes_sent != 0).
inline bool bytes_arrived(std::uint32_t sync_addr) {
    return l1_word_is_not(sync_addr, 0);
}
/// The receiver freed the buffer whose sync word is at `sync_addr` (bytes_sent == 0).
inline bool buffer_released(std::uint32_t sync_addr) {
    return l1_word_is(sync_addr, 0);
}

}  // namespace cclsim::fw::microbench
