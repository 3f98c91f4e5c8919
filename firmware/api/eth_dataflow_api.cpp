#include "firmware/api/eth_dataflow_api.h"

#include "firmware/api/api_internal.h"

#include <cstring>

namespace cclsim::fw {

using detail::ctx;
using detail::erisc;

namespace {

/// The blocking waits below spin on run_routing() in tt-metal: while one
/// lasts, a retrain gets its turn (KernelContext::beginYieldingWait).
class YieldingWait {
public:
    explicit YieldingWait(KernelContext& k) : k_(k) { k_.beginYieldingWait(); }
    ~YieldingWait() { k_.endYieldingWait(); }
    YieldingWait(const YieldingWait&) = delete;
    YieldingWait& operator=(const YieldingWait&) = delete;

private:
    KernelContext& k_;
};

std::uint32_t channelAddr(KernelContext& k, EriscCore& e, std::uint32_t channel, const char* api) {
    if (channel >= e.config().maxConcurrentTransactions)
        CCLSIM_ERROR(k.name(), "{}: channel {} does not exist (erisc_info has {} channels)", api, channel,
                     e.config().maxConcurrentTransactions);
    return e.config().channelSyncAddr(channel);
}

/// Check a byte-addressed send before it is split into word commands (the
/// word form would silently drop misaligned low bits).
void checkBytes(EriscCore& e, std::uint32_t src, std::uint32_t dst, std::uint32_t n) {
    e.eth.check(0, src, dst, n);
}

/// Send one 16 B word from `src` to `dst` on tx_cmd_q 0.
void sendWord(std::uint32_t src, std::uint32_t dst) {
    eth_send_packet(0, src >> 4, dst >> 4, 1);
}

}  // namespace

std::uint32_t eth_l1_unreserved_base() {
    return erisc(ctx(), "eth_l1_unreserved_base").config().unreservedBase;
}
std::uint32_t eth_l1_kernel_region_end() {
    return erisc(ctx(), "eth_l1_kernel_region_end").config().kernelRegionEnd();
}
std::uint32_t eth_max_concurrent_transactions() {
    return erisc(ctx(), "eth_max_concurrent_transactions").config().maxConcurrentTransactions;
}

std::uint32_t erisc_info_channel_addr(std::uint32_t channel) {
    KernelContext& k = ctx();
    return channelAddr(k, erisc(k, "erisc_info_channel_addr"), channel, "erisc_info_channel_addr");
}

eth_channel_sync_t eth_read_channel_sync(std::uint32_t addr) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "eth_read_channel_sync", addr, 16);
    k.sync();
    k.advance(k.core().costs().l1Access);
    eth_channel_sync_t s;
    k.core().l1.readBytes(addr, 16, reinterpret_cast<std::uint8_t*>(&s));
    return s;
}

void eth_write_channel_sync(std::uint32_t addr, const eth_channel_sync_t& s) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "eth_write_channel_sync", addr, 16);
    k.advance(k.core().costs().l1Access);
    k.syncForStore();
    // Word stores: channel-sync words are control words in every mode.
    const std::uint32_t w[4] = {s.bytes_sent, s.receiver_ack, s.reserved_1, s.reserved_2};
    k.core().l1.writeWords(addr, w, 4);
    k.acted();
}

bool eth_txq_is_busy(std::uint32_t q) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_txq_is_busy");
    bool busy = false;
    k.poll(detail::txqKey(q), PollDesc{PollDesc::TxQueue, "eth_txq_is_busy", q, 0}, [&] {
        busy = e.eth.busy(q);
        return !busy;
    });
    return busy;
}

void eth_txq_reg_write(std::uint32_t q, std::uint32_t offset, std::uint32_t val) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_txq_reg_write");
    if (q >= e.config().eth.txQueues)
        CCLSIM_ERROR(k.name(), "eth_txq_reg_write: tx_cmd_q {} does not exist (this core has {})", q,
                     e.config().eth.txQueues);
    if (offset != ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD)
        CCLSIM_ERROR(k.name(),
                     "eth_txq_reg_write: register offset {:#x} of tx_cmd_q {} is not modelled (only "
                     "ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD, {:#x})",
                     offset, q, ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD);
    k.advance(k.core().costs().l1Access);
    k.sync();
    e.eth.setAcceptAhead(q, val);
    k.acted();
}

void eth_send_packet(std::uint32_t q, std::uint32_t src_word_addr, std::uint32_t dest_word_addr,
                     std::uint32_t num_words, std::uint32_t stream) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_send_packet");
    const std::uint32_t w = e.config().eth.wordBytes;
    // Validate first so misuse is reported at the call, with its values.
    e.eth.check(q, src_word_addr * w, dest_word_addr * w, num_words * w);
    k.setWaypoint("ETXW");
    while (!k.poll(detail::txqKey(q), PollDesc{PollDesc::TxQueue, "eth_send_packet", q, 0},
                   [&] { return !e.eth.busy(q); })) {
    }
    k.setWaypoint("ETXD");
    k.advance(k.core().costs().ethSendIssue);
    k.sync();
    e.eth.send(q, src_word_addr * w, dest_word_addr * w, num_words * w, stream);
    k.acted();
}

void eth_write_remote_reg(std::uint32_t q, std::uint32_t reg_addr, std::uint32_t val, std::uint32_t stream) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_write_remote_reg");
    k.setWaypoint("ETXW");
    while (!k.poll(detail::txqKey(q), PollDesc{PollDesc::TxQueue, "eth_write_remote_reg", q, 0},
                   [&] { return !e.eth.busy(q); })) {
    }
    k.setWaypoint("ETXD");
    k.advance(k.core().costs().ethSendIssue);
    k.sync();
    e.eth.sendRegAdd(q, reg_addr, val, stream);
    k.acted();
}

void eth_send_bytes(std::uint32_t src, std::uint32_t dst, std::uint32_t num_bytes, std::uint32_t per_send) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_send_bytes");
    if (per_send == 0 || per_send % 16)
        CCLSIM_ERROR(k.name(), "eth_send_bytes: num_bytes_per_send {} must be a non-zero multiple of 16", per_send);
    checkBytes(e, src, dst, num_bytes);
    for (std::uint32_t sent = 0; sent < num_bytes; sent += per_send)
        eth_send_packet(0, (src + sent) >> 4, (dst + sent) >> 4, std::min(per_send, num_bytes - sent) >> 4);
    const std::uint32_t ch0 = e.config().channelSyncAddr(0);
    l1_write_u32(ch0, l1_read_u32(ch0) + num_bytes);
}

void eth_send_bytes_over_channel(std::uint32_t src, std::uint32_t dst, std::uint32_t num_bytes, std::uint32_t channel,
                                 std::uint32_t per_send) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_send_bytes_over_channel");
    const std::uint32_t sync = channelAddr(k, e, channel, "eth_send_bytes_over_channel");
    if (per_send == 0 || per_send % 16)
        CCLSIM_ERROR(k.name(), "eth_send_bytes_over_channel: num_bytes_per_send {} must be a non-zero multiple of 16",
                     per_send);
    checkBytes(e, src, dst, num_bytes);
    for (std::uint32_t sent = 0; sent < num_bytes; sent += per_send)
        eth_send_packet(0, (src + sent) >> 4, (dst + sent) >> 4, std::min(per_send, num_bytes - sent) >> 4);
    eth_write_channel_sync(sync, eth_channel_sync_t{num_bytes, 0, 0, 0});
    sendWord(sync, sync);
}

void eth_wait_for_bytes(std::uint32_t num_bytes) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_wait_for_bytes");
    const std::uint32_t a = e.config().channelSyncAddr(0);
    L1Memory& l1 = k.core().l1;
    k.setWaypoint("EWB");
    const YieldingWait yielding(k);
    detail::waitL1(k, "eth_wait_for_bytes", a, num_bytes, [&] { return l1.readU32(a) == num_bytes; });
    k.setWaypoint("EWBD");
}

bool eth_bytes_are_available_on_channel(std::uint32_t channel) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_bytes_are_available_on_channel");
    const std::uint32_t a = channelAddr(k, e, channel, "eth_bytes_are_available_on_channel");
    L1Memory& l1 = k.core().l1;
    return k.poll(detail::l1Key(a), PollDesc{PollDesc::L1Word, "eth_bytes_are_available_on_channel", a, 1},
                  [&] { return l1.readU32(a) != 0; });
}

void eth_wait_for_bytes_on_channel(std::uint32_t /*num_bytes*/, std::uint32_t channel) {
    KernelContext& k = ctx();
    k.setWaypoint("EWBC");
    const YieldingWait yielding(k);
    while (!eth_bytes_are_available_on_channel(channel)) {
    }
    k.setWaypoint("EWBD");
}

void eth_receiver_channel_ack(std::uint32_t channel, std::uint32_t ack_word) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_receiver_channel_ack");
    const std::uint32_t sync = channelAddr(k, e, channel, "eth_receiver_channel_ack");
    detail::checkLocal(k, "eth_receiver_channel_ack", ack_word, 16);
    if (ack_word == sync)
        CCLSIM_ERROR(k.name(), "eth_receiver_channel_ack: the ack word 0x{:x} must not alias channel {}'s sync word",
                     ack_word, channel);
    if (l1_read_u32(ack_word) == 0)
        CCLSIM_ERROR(k.name(),
                     "eth_receiver_channel_ack: ack word 0x{:x} must hold bytes_sent != 0 (it overwrites the "
                     "sender's bytes_sent)",
                     ack_word);
    l1_write_u32(ack_word + 4, 1);
    sendWord(ack_word, sync);
}

void eth_receiver_channel_done(std::uint32_t channel) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_receiver_channel_done");
    const std::uint32_t sync = channelAddr(k, e, channel, "eth_receiver_channel_done");
    eth_write_channel_sync(sync, eth_channel_sync_t{0, 0, 0, 0});
    sendWord(sync, sync);
}

bool eth_is_receiver_channel_send_acked(std::uint32_t channel) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_is_receiver_channel_send_acked");
    const std::uint32_t a = channelAddr(k, e, channel, "eth_is_receiver_channel_send_acked") + 4;
    L1Memory& l1 = k.core().l1;
    return k.poll(detail::l1Key(a), PollDesc{PollDesc::L1Word, "eth_is_receiver_channel_send_acked", a, 1},
                  [&] { return l1.readU32(a) != 0; });
}

bool eth_is_receiver_channel_send_done(std::uint32_t channel) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_is_receiver_channel_send_done");
    const std::uint32_t a = channelAddr(k, e, channel, "eth_is_receiver_channel_send_done");
    L1Memory& l1 = k.core().l1;
    return k.poll(detail::l1Key(a), PollDesc{PollDesc::L1Word, "eth_is_receiver_channel_send_done", a, 0},
                  [&] { return l1.readU32(a) == 0; });
}

void eth_clear_sender_channel_ack(std::uint32_t channel) {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_clear_sender_channel_ack");
    l1_write_u32(channelAddr(k, e, channel, "eth_clear_sender_channel_ack") + 4, 0);
}

void eth_wait_for_receiver_done() {
    KernelContext& k = ctx();
    EriscCore& e = erisc(k, "eth_wait_for_receiver_done");
    const std::uint32_t ch0 = e.config().channelSyncAddr(0);
    sendWord(ch0, ch0);
    k.setWaypoint("EWRD");
    const YieldingWait yielding(k);
    while (!eth_is_receiver_channel_send_done(0)) {
    }
    k.setWaypoint("EWRC");
}

void eth_wait_for_receiver_channel_done(std::uint32_t channel) {
    KernelContext& k = ctx();
    k.setWaypoint("EWRD");
    const YieldingWait yielding(k);
    while (!eth_is_receiver_channel_send_done(channel)) {
    }
    k.setWaypoint("EWRC");
}

void eth_noc_semaphore_wait(std::uint32_t sem_addr, std::uint32_t val) {
    KernelContext& k = ctx();
    erisc(k, "eth_noc_semaphore_wait");
    detail::checkLocal(k, "eth_noc_semaphore_wait", sem_addr, 4);
    L1Memory& l1 = k.core().l1;
    k.setWaypoint("NSW");
    while (!k.poll(detail::l1Key(sem_addr), PollDesc{PollDesc::L1Word, "eth_noc_semaphore_wait", sem_addr, val},
                   [&] { return l1.readU32(sem_addr) == val; }))
        run_routing();
    k.setWaypoint("NSD");
}

void eth_noc_async_write_barrier() {
    noc_async_write_barrier();
}
void eth_noc_async_read_barrier() {
    noc_async_read_barrier();
}

void run_routing() {
    KernelContext& k = ctx();
    erisc(k, "run_routing");
    k.advance(k.core().costs().runRouting);
    // The base firmware runs: a link retrain waiting for it can complete.
    static_cast<EriscCore&>(k.core()).routingTurn(k.localTime());
}

void run_routing_when_idle(bool did_something, std::uint32_t idle_rounds) {
    KernelContext& k = ctx();
    erisc(k, "run_routing_when_idle");
    if (idle_rounds == 0) CCLSIM_ERROR(k.name(), "run_routing_when_idle: idle_rounds must be > 0");
    if (k.idleRound(did_something, idle_rounds)) run_routing();
}

void eth_setup_handshake(std::uint32_t handshake_addr, bool is_sender) {
    KernelContext& k = ctx();
    k.setWaypoint("HSK");
    if (is_sender) {
        eth_send_bytes(handshake_addr, handshake_addr, 16);
        eth_wait_for_receiver_done();
    } else {
        eth_wait_for_bytes(16);
        eth_receiver_channel_done(0);
    }
    k.setWaypoint("HSKD");
}

}  // namespace cclsim::fw
