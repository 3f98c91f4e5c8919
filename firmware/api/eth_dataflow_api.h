// Ethernet data-movement API for ERISC kernels (tt-metal eth/dataflow_api).
//
// eth_send_packet queues a send of 16 B words from this core's L1 to the L1
// of the core at the other end of its link; it returns once the command is in
// the tx command queue (it waits while the queue is busy). Completion is
// invisible to the sender: flow control is built from the erisc_info
// channel-sync words (eth_channel_sync_t) that both ends exchange:
//
//   sender                                   receiver
//   send payload; channels[c].bytes_sent=N
//   send channels[c] ----------------------> bytes_sent != 0: data available
//                    <---------------------- eth_receiver_channel_ack: receiver_ack=1
//   eth_is_receiver_channel_send_acked
//                    <---------------------- eth_receiver_channel_done: bytes_sent=0
//   eth_is_receiver_channel_done (buffer free)
#pragma once

#include "firmware/api/dataflow_api.h"

#include <cstdint>

namespace cclsim::fw {

struct eth_channel_sync_t {
    std::uint32_t bytes_sent;    ///< non-zero: a payload of this size is available
    std::uint32_t receiver_ack;  ///< non-zero: the receiver got the last payload
    std::uint32_t reserved_1;
    std::uint32_t reserved_2;
};
static_assert(sizeof(eth_channel_sync_t) == 16, "one Ethernet word");

/// ERISC_L1_UNRESERVED_BASE: start of the kernel region (the first 16 B are
/// the handshake scratch word).
std::uint32_t eth_l1_unreserved_base();
/// End of the kernel region (exclusive).
std::uint32_t eth_l1_kernel_region_end();
/// L1 address of erisc_info->channels[channel].
std::uint32_t erisc_info_channel_addr(std::uint32_t channel);
std::uint32_t eth_max_concurrent_transactions();

eth_channel_sync_t eth_read_channel_sync(std::uint32_t addr);
void eth_write_channel_sync(std::uint32_t addr, const eth_channel_sync_t& sync);

/// Queue a send of `num_words` 16 B words on tx_cmd_q `q_num`. `stream`
/// (not in tt-metal: simulator bookkeeping) names the op the bytes belong to
/// for the per-op link accounting of concurrent runs; 0: untagged.
void eth_send_packet(std::uint32_t q_num, std::uint32_t src_word_addr, std::uint32_t dest_word_addr,
                     std::uint32_t num_words, std::uint32_t stream = 0);
bool eth_txq_is_busy(std::uint32_t q_num = 0);
/// Offset of a tx command queue's ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD register
/// (tt-metal's eth_l1_address_map / tt_eth_ss_regs): how many Ethernet packets
/// the queue accepts before the earlier ones are sent.
constexpr std::uint32_t ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD = 0x6C;
/// Write a register of tx_cmd_q `q_num` (tt-metal's eth_txq_reg_write). The
/// model has one writable register, ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD: with
/// N > 0 the MAC takes a command while the commands it holds ahead of the
/// wire are at most N packets, so eth_txq_is_busy clears long before the
/// wire does. It stays set after the kernel ends, as a register would.
void eth_txq_reg_write(std::uint32_t q_num, std::uint32_t offset, std::uint32_t val);
/// Queue a remote register write on tx_cmd_q `q_num`: `val` is added to the
/// 32-bit stream register at `reg_addr` of the core at the other end (stream
/// registers increment on write; in the model they are L1 words the host
/// reserved). Waits while the queue is busy, like eth_send_packet.
void eth_write_remote_reg(std::uint32_t q_num, std::uint32_t reg_addr, std::uint32_t val, std::uint32_t stream = 0);

void eth_send_bytes(std::uint32_t src_addr, std::uint32_t dst_addr, std::uint32_t num_bytes,
                    std::uint32_t num_bytes_per_send = 16);
void eth_send_bytes_over_channel(std::uint32_t src_addr, std::uint32_t dst_addr, std::uint32_t num_bytes,
                                 std::uint32_t channel, std::uint32_t num_bytes_per_send = 16);
void eth_wait_for_bytes(std::uint32_t num_bytes);
bool eth_bytes_are_available_on_channel(std::uint32_t channel);
void eth_wait_for_bytes_on_channel(std::uint32_t num_bytes, std::uint32_t channel);
/// First-level ack, sent from a separate 16 B source word holding
/// {bytes_sent != 0, receiver_ack = 1} (see the Ethernet guide's race note).
void eth_receiver_channel_ack(std::uint32_t channel, std::uint32_t eth_transaction_ack_word_addr);
/// Second-level ack: the buffer is free again.
void eth_receiver_channel_done(std::uint32_t channel);
bool eth_is_receiver_channel_send_acked(std::uint32_t channel);
bool eth_is_receiver_channel_send_done(std::uint32_t channel);
inline bool eth_is_receiver_channel_done(std::uint32_t channel) {
    return eth_is_receiver_channel_send_done(channel);
}
void eth_clear_sender_channel_ack(std::uint32_t channel);
void eth_wait_for_receiver_done();
void eth_wait_for_receiver_channel_done(std::uint32_t channel);

void eth_noc_semaphore_wait(std::uint32_t sem_addr, std::uint32_t val);
void eth_noc_async_write_barrier();
void eth_noc_async_read_barrier();

/// Give the base firmware a chance to run (link retraining); costs time.
void run_routing();
/// The context switch of an EDM or fabric router main loop (tt-metal's
/// WAIT_FOR_IDLE type): call once per round, saying whether the round moved
/// anything; after `idle_rounds` idle rounds in a row it calls run_routing().
/// (While the loop sleeps in the model, its rounds still count: the turn
/// comes when the real loop would have reached it.) Free: the count is a
/// register increment folded into the loop's poll cost.
void run_routing_when_idle(bool did_something, std::uint32_t idle_rounds);

/// Start-of-kernel handshake over the link (guide: "Ethernet Kernel Setup").
void eth_setup_handshake(std::uint32_t handshake_addr, bool is_sender);

}  // namespace cclsim::fw
