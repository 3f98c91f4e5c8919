// eth_ping: there-and-back over one Ethernet link.
//
// Both ends run this kernel. The master sends a packet (payload with its
// channel-sync word merged at the end) to the responder's rx buffer; the
// responder answers from its own tx buffer into the master's rx buffer; the
// master times the round trip with its wall-clock timer. The first round trip
// is not measured (it also absorbs the start-time skew between the chips).
//
//   master                              responder
//   t0 = timer
//   send tx -> peer rx ---------------> rx sync != 0
//   t1 = timer (issue cost)             clear rx sync
//                      <--------------- send tx -> peer rx
//   rx sync != 0, t2 = timer
//   clear rx sync
//
// Args (runtime):
//   0 is_master            1 if this end starts and times the pings
//   1 num_samples          measured round trips (one extra unmeasured first)
//   2 payload_bytes        multiple of 16
//   3 tx_buffer            L1 address: payload + 16 B sync word
//   4 rx_buffer            L1 address: payload + 16 B sync word (same on both ends)
//   5 results              L1 address of 4 words: sum, min, max round trip, sum issue (cycles)
//   6 handshake_addr       16 B scratch word for the start handshake
//   7 end marker           0xE7D0 (host and kernel argument lists must agree)
#include "firmware/api/eth_dataflow_api.h"
#include "firmware/microbench/microbench_kernels.h"

#include <algorithm>
#include <cstdint>

namespace cclsim::fw::microbench {

void eth_ping_kernel_main() {
    const bool is_master = get_arg_val<std::uint32_t>(0) != 0;
    const std::uint32_t num_samples = get_arg_val<std::uint32_t>(1);
    const std::uint32_t payload = get_arg_val<std::uint32_t>(2);
    const std::uint32_t tx = get_arg_val<std::uint32_t>(3);
    const std::uint32_t rx = get_arg_val<std::uint32_t>(4);
    const std::uint32_t results = get_arg_val<std::uint32_t>(5);
    const std::uint32_t handshake = get_arg_val<std::uint32_t>(6);
    check_end_marker(7);

    const std::uint32_t tx_sync = tx + payload;
    const std::uint32_t rx_sync = rx + payload;
    const std::uint32_t words = (payload + sizeof(eth_channel_sync_t)) >> 4;
    eth_write_channel_sync(rx_sync, eth_channel_sync_t{0, 0, 0, 0});
    eth_setup_handshake(handshake, is_master);

    std::uint64_t sum = 0, issue_sum = 0, lo = ~0ull, hi = 0;
    for (std::uint32_t s = 0; s <= num_samples; ++s) {
        if (is_master) {
            WAYPOINT("PING");
            const std::uint64_t t0 = get_timestamp();
            eth_write_channel_sync(tx_sync, eth_channel_sync_t{payload, 0, 0, 0});
            eth_send_packet(0, tx >> 4, rx >> 4, words);
            const std::uint64_t t1 = get_timestamp();
            while (!bytes_arrived(rx_sync)) {
            }
            const std::uint64_t t2 = get_timestamp();
            eth_write_channel_sync(rx_sync, eth_channel_sync_t{0, 0, 0, 0});
            if (s > 0) {  // the first round trip only flushes the path
                sum += t2 - t0;
                issue_sum += t1 - t0;
                lo = std::min<std::uint64_t>(lo, t2 - t0);
                hi = std::max<std::uint64_t>(hi, t2 - t0);
            }
        } else {
            WAYPOINT("PONG");
            while (!bytes_arrived(rx_sync)) {
            }
            eth_write_channel_sync(rx_sync, eth_channel_sync_t{0, 0, 0, 0});
            eth_write_channel_sync(tx_sync, eth_channel_sync_t{payload, 0, 0, 0});
            eth_send_packet(0, tx >> 4, rx >> 4, words);
        }
    }
    if (is_master) {
        l1_write_u32(results + 0, std::uint32_t(sum));
        l1_write_u32(results + 4, std::uint32_t(num_samples ? lo : 0));
        l1_write_u32(results + 8, std::uint32_t(hi));
        l1_write_u32(results + 12, std::uint32_t(issue_sum));
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
