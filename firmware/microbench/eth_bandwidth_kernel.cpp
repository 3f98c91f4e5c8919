// eth_bandwidth: raw Ethernet bandwidth between the two ERISCs of a link.
//
// Both ends run this kernel with the same buffer layout. Each end has C
// sender channels (tx buffers) and C receiver channels (rx buffers); sender
// channel i of one end writes into receiver channel i of the other. A buffer
// is payload + a 16 B eth_channel_sync_t merged at its end, so one
// eth_send_packet carries both (Ethernet guide, "End-to-End Flow Control"):
//
//   sender ch i                               receiver ch i (other end)
//   tx sync = {P, 0}; send tx_i -> rx_i ----> rx sync.bytes_sent != 0
//                                             rx sync = {0, 0}
//   tx sync.bytes_sent == 0 <---------------- send rx sync -> tx sync ("done")
//   (buffer free: send the next packet)
//
// Sends only start while tx_cmd_q 0 has room; channels are used round-robin
// so up to C packets are outstanding per direction, and because the link is
// in order each end only watches the next channel of each direction. Credits
// (released buffers) go out before new data: every arrived buffer's credit
// is sent before the next payload, so a credit waits behind at most the one
// payload command already in the queue. Credits go on tx_cmd_q 0 with the
// data by default: on Wormhole only tx_cmd_q 0 is open to kernels (Ethernet
// guide), and tt-metal's Wormhole fabric router sends its credits there too;
// --credit-txq 1 puts them on the reserved queue (experiments). The kernel
// ends after its last packet was released and its last expected packet
// arrived.
//
// --fast-forward: see the steady loop below; payloads are the same bytes
// every round (the tx buffers are never refilled), so skipping packets
// leaves the rx buffers as a full run would.
//
// Args (runtime):
//   0 channels C            1 payload bytes P          2 packets to send per channel
//   3 packets to receive per channel                   4 tx buffer base (C x (P+16))
//   5 rx buffer base        6 handshake scratch addr   7 is handshake sender
//   8 results (4 words: start lo/hi, end lo/hi)
//   9 tx_cmd_q for credits (0: shared with the data; 1: the reserved queue)
//   10 end marker
#include "firmware/microbench/microbench_kernels.h"

#include <cstdint>

namespace cclsim::fw::microbench {

void eth_bandwidth_kernel_main() {
    const std::uint32_t channels = get_arg_val<std::uint32_t>(0);
    const std::uint32_t payload = get_arg_val<std::uint32_t>(1);
    const std::uint32_t to_send = get_arg_val<std::uint32_t>(2);
    const std::uint32_t to_receive = get_arg_val<std::uint32_t>(3);
    const std::uint32_t tx_base = get_arg_val<std::uint32_t>(4);
    const std::uint32_t rx_base = get_arg_val<std::uint32_t>(5);
    const std::uint32_t handshake = get_arg_val<std::uint32_t>(6);
    const bool handshake_sender = get_arg_val<std::uint32_t>(7) != 0;
    const std::uint32_t results = get_arg_val<std::uint32_t>(8);
    const std::uint32_t credit_txq = get_arg_val<std::uint32_t>(9);
    check_end_marker(10);

    const std::uint32_t stride = payload + sizeof(eth_channel_sync_t);
    const std::uint32_t words = stride >> 4;
    auto tx_sync = [&](std::uint32_t i) { return tx_base + i * stride + payload; };
    auto rx_sync = [&](std::uint32_t i) { return rx_base + i * stride + payload; };
    for (std::uint32_t i = 0; i < channels; ++i) {
        eth_write_channel_sync(tx_sync(i), eth_channel_sync_t{0, 0, 0, 0});
        eth_write_channel_sync(rx_sync(i), eth_channel_sync_t{0, 0, 0, 0});
    }
    eth_setup_handshake(handshake, handshake_sender);
    // --fast-forward: this end's sends are a steady loop (one group: the
    // link). A skip takes whole rounds of the channels, so the next channel
    // stays the one the other end watches, and the count of skipped packets
    // rides in the next real packet's sync word (reserved_1): the receiver
    // takes them off what it still expects. An end that only receives
    // waits inside a loop of no packets. With credits on tx_cmd_q 0 (the
    // default) the stream is not steady for fast-forward: credits queue
    // behind data, a pause lets that queue drain, and the stream resumes in
    // a faster regime (16 KB packets: 1.9 % fast against the exact run;
    // 3 % to 5.6 % before credits were drained ahead of data), so those
    // runs stay exact; --credit-txq 1 runs skip.
    SteadyLoop steady(std::uint64_t(channels) * to_send, 2 * std::uint64_t(channels) + 2, 0, credit_txq != 0, channels,
                      /*stream=*/true);
    std::uint32_t skipped = 0;  // skipped packets the next real one reports
    SkipReport other_end;       // skips of the other end, taken off receives_left

    const std::uint64_t start = get_timestamp();
    // The link delivers in order and the channels are used round-robin, so
    // each end only needs to watch the next channel in each direction.
    std::uint32_t sends_left = channels * to_send;
    std::uint32_t receives_left = channels * to_receive;
    std::uint32_t next_tx = 0, next_rx = 0;
    WAYPOINT("BW");
    while (sends_left || receives_left) {
        // Receiver first: a released buffer is a credit the other end waits
        // for, so it takes the next free tx_cmd_q slot before new data does.
        while (receives_left && bytes_arrived(rx_sync(next_rx)) && !eth_txq_is_busy(credit_txq)) {
            // The other end's skipped packets before this one (read only
            // while a skip is outstanding).
            const std::uint32_t before =
                other_end.take(steady.skips_ordered(), [&] { return l1_read_u32(rx_sync(next_rx) + 8); });
            if (before) {
                fw_assert(before < receives_left, "eth_bandwidth: the other end skipped more packets than remain");
                receives_left -= before;
            }
            eth_write_channel_sync(rx_sync(next_rx), eth_channel_sync_t{0, 0, 0, 0});
            eth_send_packet(credit_txq, rx_sync(next_rx) >> 4, tx_sync(next_rx) >> 4, 1);
            next_rx = next_rx + 1 == channels ? 0 : next_rx + 1;
            --receives_left;
        }
        if (sends_left && !eth_txq_is_busy(0) && buffer_released(tx_sync(next_tx))) {
            if (const std::uint64_t n = steady.skip(sends_left)) {
                sends_left -= std::uint32_t(n);
                skipped += std::uint32_t(n);
                steady.pause();
                continue;
            }
            eth_write_channel_sync(tx_sync(next_tx), eth_channel_sync_t{payload, 0, skipped, 0});
            skipped = 0;
            eth_send_packet(0, (tx_base + next_tx * stride) >> 4, (rx_base + next_tx * stride) >> 4, words);
            next_tx = next_tx + 1 == channels ? 0 : next_tx + 1;
            --sends_left;
        }
    }
    fw_assert(skipped == 0, "eth_bandwidth: a fast-forward skip took the last packets");
    steady.end();
    // Teardown: wait for the credits of the last packets (guide: "Teardown").
    WAYPOINT("TEAR");
    for (std::uint32_t i = 0; i < channels; ++i)
        while (!buffer_released(tx_sync(i))) {
        }
    const std::uint64_t end = get_timestamp();
    l1_write_u32(results + 0, std::uint32_t(start));
    l1_write_u32(results + 4, std::uint32_t(start >> 32));
    l1_write_u32(results + 8, std::uint32_t(end));
    l1_write_u32(results + 12, std::uint32_t(end >> 32));
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
