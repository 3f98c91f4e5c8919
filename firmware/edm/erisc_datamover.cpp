// ERISC Data Mover (EDM): a multi-channel, bidirectional data mover that runs
// on the Ethernet cores at both ends of a link (CCL developer guide, "ERISC
// Data Mover (EDM) Engine").
//
// Every channel owns one buffer in this core's L1: the payload followed by an
// eth_channel_sync_t. A sender channel of one EDM is paired with the receiver
// channel of the same index on the other EDM, at the same address; a payload
// and its sync word go out in one eth_send_packet (sync last, so the receiver
// never sees the sync before the data).
//
// Worker <-> EDM, per channel (two semaphores, one on each side):
//
//   sender worker                 EDM sender ch        EDM receiver ch        receiver worker
//   wait worker_sem >= 1  <------ inc worker_sem
//   worker_sem = 0
//   noc_async_write(buffer)
//   noc_semaphore_inc(edm_sem) -> edm_sem >= workers
//                                 edm_sem = 0
//                                 send payload+sync --> bytes_sent != 0
//                                 receiver_ack != 0 <-- first-level ack (from a separate ack word)
//                                 inc worker_sem ... (buffer may be refilled)
//                                                      inc worker_sem ------> wait worker_sem >= 1
//                                                                             worker_sem = 0
//                                                                             noc_async_read(buffer)
//                                                      edm_sem >= workers <-- noc_semaphore_inc(edm_sem)
//                                                      edm_sem = 0
//                                 bytes_sent == 0 <--- done (cleared sync word): remote buffer free
//
// A sender sends its next payload only when the remote buffer is free
// (bytes_sent == 0 again) and tx_cmd_q 0 has room. Acks and dones travel on
// the credit tx_cmd_q (default 1) so they never wait behind queued payloads.
//
// Start: both EDMs clear their channel words, then handshake over the link
// (the side whose lowest sender channel id is lower than its lowest receiver
// channel id sends the handshake; a side with no receiver channels always
// does), so a late-starting peer never finds payloads in a buffer it is
// still initialising. Termination: MESSAGE_COUNT_REACHED (fixed count per
// channel) or WORKER_INITIATED (the worker adds worker_signal::kTerminate to
// its last signal). Teardown: a sender waits for the final done of each
// channel, so no credit from this op can be misread by the next one.
//
// Args:
//   compile-time: 0 termination mode, 1 credit tx_cmd_q
//   runtime:      0 handshake address, 1 ack word address (16 B, {1,1,0,0}),
//                 2 number of channels; per channel: is_sender, buffer address,
//                 payload bytes, messages (MESSAGE_COUNT_REACHED), EDM semaphore
//                 address, worker semaphore address, number of workers, then
//                 one packed (x,y) per worker; finally the end marker 0xED0E.
#include "firmware/edm/erisc_datamover.h"

#include "firmware/api/eth_dataflow_api.h"
#include "firmware/edm/edm_types.h"

#include <cstdint>
#include <vector>

namespace cclsim::fw::edm {

using namespace cclsim::edm;

namespace {

struct Channel {
    bool is_sender = false;
    std::uint32_t buffer = 0;
    std::uint32_t payload = 0;
    std::uint32_t messages = 0;
    std::uint32_t edm_sem = 0;
    std::uint32_t worker_sem = 0;
    std::vector<std::uint32_t> workers;  ///< packed (x, y)
    std::uint32_t moved = 0;
    bool last_signalled = false;         ///< worker sent kTerminate with its signal
    ChannelState state = DONE;

    std::uint32_t sync() const { return buffer + payload; }
    std::uint32_t words() const { return (payload + sizeof(eth_channel_sync_t)) >> 4; }
    std::uint32_t num_workers() const { return std::uint32_t(workers.size()); }
};

class Datamover {
public:
    Datamover(TerminationMode mode, std::uint32_t credit_txq) : mode_(mode), credit_txq_(credit_txq) {}

    void read_args() {
        handshake_ = get_arg_val<std::uint32_t>(0);
        ack_word_ = get_arg_val<std::uint32_t>(1);
        const std::uint32_t n = get_arg_val<std::uint32_t>(2);
        int a = 3;
        for (std::uint32_t i = 0; i < n; ++i) {
            Channel c;
            c.is_sender = get_arg_val<std::uint32_t>(a++) != 0;
            c.buffer = get_arg_val<std::uint32_t>(a++);
            c.payload = get_arg_val<std::uint32_t>(a++);
            c.messages = get_arg_val<std::uint32_t>(a++);
            c.edm_sem = get_arg_val<std::uint32_t>(a++);
            c.worker_sem = get_arg_val<std::uint32_t>(a++);
            const std::uint32_t workers = get_arg_val<std::uint32_t>(a++);
            for (std::uint32_t w = 0; w < workers; ++w) c.workers.push_back(get_arg_val<std::uint32_t>(a++));
            channels_.push_back(c);
        }
        // Host and kernel must agree on the argument layout.
        fw_assert(get_arg_count() > std::uint32_t(a) && get_arg_val<std::uint32_t>(a) == kArgsEndMarker,
                  "EDM runtime arguments do not end with the EDM end marker (builder/kernel mismatch)");
    }

    /// The handshake sender: lowest sender channel id below lowest receiver channel id.
    bool is_handshake_sender() const {
        std::uint32_t first_tx = ~0u, first_rx = ~0u;
        for (std::uint32_t i = 0; i < channels_.size(); ++i) {
            if (channels_[i].is_sender && first_tx == ~0u) first_tx = i;
            if (!channels_[i].is_sender && first_rx == ~0u) first_rx = i;
        }
        return first_tx < first_rx;
    }

    void init() {
        // Clear our words before the handshake: after it, the peer may send.
        for (std::uint32_t i = 0; i < channels_.size(); ++i) {
            Channel& c = channels_[i];
            noc_semaphore_set(c.edm_sem, 0);
            eth_write_channel_sync(c.sync(), eth_channel_sync_t{0, 0, 0, 0});
            const bool active = mode_ == TerminationMode::WORKER_INITIATED || c.messages > 0;
            set_state(i, !active ? DONE : c.is_sender ? SENDER_SIGNALING_WORKER : RECEIVER_WAITING_FOR_ETH);
        }
    }

    void run() {
        eth_setup_handshake(handshake_, is_handshake_sender());
        WAYPOINT("EDM");
        for (;;) {
            bool all_done = true;
            for (std::uint32_t i = 0; i < channels_.size(); ++i) {
                if (channels_[i].state == DONE) continue;
                all_done = false;
                step(i);
            }
            if (all_done) break;
        }
        teardown();
    }

private:
    void set_state(std::uint32_t i, ChannelState s) {
        channels_[i].state = s;
        trace_value(i, s);
    }

    bool more_messages(const Channel& c) const {
        return mode_ == TerminationMode::MESSAGE_COUNT_REACHED ? c.moved < c.messages : !c.last_signalled;
    }

    /// Every worker of the channel signalled its semaphore (a terminating
    /// signal adds kTerminate on top of the count, so it passes this test too).
    bool workers_signalled(Channel& c) {
        if (!l1_word_at_least(c.edm_sem, c.num_workers())) return false;
        const std::uint32_t v = l1_read_u32(c.edm_sem);
        if ((v & worker_signal::kCountMask) < c.num_workers()) return false;
        if (mode_ == TerminationMode::WORKER_INITIATED && (v >> 16) >= c.num_workers()) c.last_signalled = true;
        noc_semaphore_set(c.edm_sem, 0);
        return true;
    }

    void signal_workers(const Channel& c) {
        for (std::uint32_t w : c.workers)
            noc_semaphore_inc(get_noc_addr(unpackX(w), unpackY(w), c.worker_sem), worker_signal::kNextMessage);
    }

    void step(std::uint32_t i) {
        Channel& c = channels_[i];
        switch (c.state) {
            case SENDER_SIGNALING_WORKER:
                signal_workers(c);
                set_state(i, SENDER_WAITING_FOR_WORKER);
                break;
            case SENDER_WAITING_FOR_WORKER:
                if (workers_signalled(c)) set_state(i, SENDER_READY_FOR_ETH_TRANSFER);
                break;
            case SENDER_READY_FOR_ETH_TRANSFER:
                // The remote buffer is free once its receiver's done cleared bytes_sent.
                if (l1_word_is(c.sync(), 0) && !eth_txq_is_busy(0)) {
                    eth_write_channel_sync(c.sync(), eth_channel_sync_t{c.payload, 0, 0, 0});
                    eth_send_packet(0, c.buffer >> 4, c.buffer >> 4, c.words());
                    set_state(i, SENDER_WAITING_FOR_ETH);
                }
                break;
            case SENDER_WAITING_FOR_ETH:
                // First-level ack (receiver_ack) or already the done (bytes_sent == 0).
                if (l1_word_is_not(c.sync() + 4, 0) || l1_word_is(c.sync(), 0)) {
                    ++c.moved;
                    if (more_messages(c)) {
                        set_state(i, SENDER_SIGNALING_WORKER);
                    } else {
                        set_state(i, DONE);
                    }
                }
                break;
            case RECEIVER_WAITING_FOR_ETH:
                if (l1_word_is_not(c.sync(), 0) && !eth_txq_is_busy(credit_txq_)) {
                    // First-level ack from the separate ack word, not the channel's sync word.
                    eth_send_packet(credit_txq_, ack_word_ >> 4, c.sync() >> 4, 1);
                    set_state(i, RECEIVER_SIGNALING_WORKER);
                }
                break;
            case RECEIVER_SIGNALING_WORKER:
                signal_workers(c);
                set_state(i, RECEIVER_WAITING_FOR_WORKER);
                break;
            case RECEIVER_WAITING_FOR_WORKER:
                if (!eth_txq_is_busy(credit_txq_) && workers_signalled(c)) {
                    eth_write_channel_sync(c.sync(), eth_channel_sync_t{0, 0, 0, 0});
                    eth_send_packet(credit_txq_, c.sync() >> 4, c.sync() >> 4, 1);
                    ++c.moved;
                    set_state(i, more_messages(c) ? RECEIVER_WAITING_FOR_ETH : DONE);
                }
                break;
            case DONE:
                break;
        }
    }

    void teardown() {
        WAYPOINT("TEAR");
        for (const Channel& c : channels_) {
            if (!c.is_sender) continue;
            while (!l1_word_is(c.sync(), 0)) {
            }
        }
        WAYPOINT("DONE");
    }

    TerminationMode mode_;
    std::uint32_t credit_txq_;
    std::uint32_t handshake_ = 0;
    std::uint32_t ack_word_ = 0;
    std::vector<Channel> channels_;
};

}  // namespace

void erisc_datamover_kernel_main() {
    Datamover dm(static_cast<TerminationMode>(get_compile_time_arg_val(0)), get_compile_time_arg_val(1));
    dm.read_args();
    dm.init();
    dm.run();
}

}  // namespace cclsim::fw::edm
