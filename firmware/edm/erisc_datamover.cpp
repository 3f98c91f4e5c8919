// ERISC Data Mover (EDM): a multi-channel, bidirectional data mover that runs
// on the Ethernet cores at both ends of a link (CCL developer guide, "ERISC
// Data Mover (EDM) Engine"; tt-metal's legacy ccl/kernels/edm).
//
// Every channel owns a ring of N slots in this core's L1 (N = buffers per
// channel, a compile-time argument like tt-metal's num_buffers_per_channel):
// slot k is a payload followed by its own eth_channel_sync_t. A sender
// channel of one EDM is paired with the receiver channel of the same index on
// the other EDM, at the same addresses; a payload and its sync word go out in
// one eth_send_packet (sync last, so the receiver never sees the sync before
// the data). Both ends and their workers walk the slots in the same order
// (0, 1, ..., N-1, 0, ...), so no slot index travels with a message.
//
// Worker <-> EDM, per channel and message (two semaphores, one on each side):
//
//   sender worker                 EDM sender ch        EDM receiver ch        receiver worker
//   wait worker_sem >= 1  <------ inc worker_sem (slot k may be filled)
//   worker_sem = 0
//   noc_async_write(slot k)
//   noc_semaphore_inc(edm_sem) -> edm_sem >= workers
//                                 edm_sem = 0
//                                 send slot k+sync --> bytes_sent != 0
//                                 (k = k+1: signal the worker for slot k+1
//                                  once that slot's previous message was acked)
//                                 receiver_ack != 0 <-- first-level ack (from a separate ack word)
//                                                      inc worker_sem ------> wait worker_sem >= 1
//                                                                             worker_sem = 0
//                                                                             noc_async_read(slot k)
//                                                      edm_sem >= workers <-- noc_semaphore_inc(edm_sem)
//                                                      edm_sem = 0
//                                 bytes_sent == 0 <--- done (cleared sync word of slot k): remote slot free
//
// With one slot the worker refills the buffer only after the first-level ack
// of the previous message, a round trip over the link; with N slots it fills
// slot k+1 while slot k is on the wire, and the link carries up to N messages
// of a channel at once. A sender sends slot k only when the remote slot k is
// free (its bytes_sent == 0 again) and tx_cmd_q 0 has room. Acks and dones
// travel on the credit tx_cmd_q (default 1) so they never wait behind queued
// payloads. The EDM signals a worker for one slot at a time (the next one only
// after the worker filled or emptied the current one), so a worker semaphore
// never holds two signals and resetting it to 0 loses nothing.
//
// Start (the launch barrier): both EDMs clear their channel words, then
// handshake over the link (the side whose lowest sender channel id is lower
// than its lowest receiver channel id sends the handshake; a side with no
// receiver channels always does), so a late-starting peer never finds
// payloads in a buffer it is still initialising and neither side moves data
// before both have started. Termination: MESSAGE_COUNT_REACHED (fixed count
// per channel) or WORKER_INITIATED (the worker adds worker_signal::kTerminate
// to its last signal). Teardown (the exit barrier): a sender waits for the
// final done of every slot of each channel, so it cannot finish before the
// receiving end has drained it, and no credit from this op can be misread by
// the next one.
//
// Fast-forward (--fast-forward; fw::SteadyLoop): a sender worker that skips
// n messages (whole rounds of the slots, so the slot it fills next is still
// the one this EDM offers) writes n into the second word of this channel's
// semaphore slot before its next real signal. While a skip is ordered that a
// channel has not accounted for, the sender channel reads that word, counts
// the n messages as moved, and carries n in the sync word's third word
// (reserved_1) of the next real message; the receiver channel counts them
// too, and its worker reads them from the same sync word before it signals.
// So both ends' message counts (MESSAGE_COUNT_REACHED) hold without a
// message of protocol per skipped message. The EDM itself pauses with the
// skip at its next round (fw::SteadyService), so what its slots hold waits
// out the stretch as on a board that ran through it. Without --fast-forward
// none of this runs.
//
// Context switch: the ERISC's base firmware (link training, retraining) runs
// only when the kernel calls run_routing(). Like tt-metal's fabric EDM
// (WAIT_FOR_IDLE), the main loop and the teardown wait count the rounds in a
// row in which no channel changed state and yield after `idle rounds` of
// them; a link retrain therefore completes once the traffic it stopped has
// left the EDM idle that long.
//
// Args:
//   compile-time: 0 termination mode, 1 credit tx_cmd_q, 2 buffers per channel,
//                 3 idle rounds before a context switch (arch eth.context_switch)
//   runtime:      0 handshake address, 1 ack word address (16 B, {1,1,0,0}),
//                 2 number of channels; per channel: is_sender, address of slot 0,
//                 payload bytes, messages (MESSAGE_COUNT_REACHED), EDM semaphore
//                 address, worker semaphore address, number of workers, then
//                 one packed (x,y) per worker; finally the end marker 0xED0E.
//                 Slot k is at slot 0 + k * (payload bytes + 16).
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
    std::uint32_t buffer = 0;  ///< slot 0
    std::uint32_t payload = 0;
    std::uint32_t messages = 0;
    std::uint32_t edm_sem = 0;
    std::uint32_t worker_sem = 0;
    std::vector<std::uint32_t> workers;  ///< packed (x, y)
    std::uint32_t slots = 1;
    std::uint32_t index = 0;      ///< the slot the channel works on now
    std::uint32_t moved = 0;      ///< sender: messages sent; receiver: messages emptied
    bool last_signalled = false;  ///< worker sent kTerminate with its signal
    SkipReport skips;             ///< fast-forward skip counts this channel has passed on
    ChannelState state = DONE;

    std::uint32_t stride() const { return payload + sizeof(eth_channel_sync_t); }
    std::uint32_t slot(std::uint32_t k) const { return buffer + k * stride(); }
    std::uint32_t sync(std::uint32_t k) const { return slot(k) + payload; }
    std::uint32_t sync() const { return sync(index); }
    std::uint32_t previous() const { return index == 0 ? slots - 1 : index - 1; }
    void advance() { index = index + 1 == slots ? 0 : index + 1; }
    std::uint32_t words() const { return stride() >> 4; }
    std::uint32_t num_workers() const { return std::uint32_t(workers.size()); }
};

class Datamover {
public:
    Datamover(TerminationMode mode, std::uint32_t credit_txq, std::uint32_t slots, std::uint32_t idle_rounds)
        : mode_(mode), credit_txq_(credit_txq), slots_(slots), idle_rounds_(idle_rounds) {
        fw_assert(slots >= 1 && slots <= kMaxBuffersPerChannel, "EDM buffers per channel out of range");
        fw_assert(idle_rounds >= 1, "EDM idle rounds before a context switch must be >= 1");
    }

    void read_args() {
        handshake_ = get_arg_val<std::uint32_t>(0);
        ack_word_ = get_arg_val<std::uint32_t>(1);
        const std::uint32_t n = get_arg_val<std::uint32_t>(2);
        int a = 3;
        for (std::uint32_t i = 0; i < n; ++i) {
            Channel c;
            c.slots = slots_;
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
        // (The skipped-count word after each channel semaphore is not cleared
        // here: an L1 write would shift this EDM's start under --fast-forward
        // and make a run that skips nothing differ from an exact one. Every
        // count a worker writes is taken and zeroed before its next message.)
        fast_forward_ = service_.enabled();
        // Clear our words before the handshake: after it, the peer may send.
        for (std::uint32_t i = 0; i < channels_.size(); ++i) {
            Channel& c = channels_[i];
            noc_semaphore_set(c.edm_sem, 0);
            for (std::uint32_t k = 0; k < c.slots; ++k)
                eth_write_channel_sync(c.sync(k), eth_channel_sync_t{0, 0, 0, 0});
            const bool active = mode_ == TerminationMode::WORKER_INITIATED || c.messages > 0;
            set_state(i, !active ? DONE : c.is_sender ? SENDER_SIGNALING_WORKER : RECEIVER_WAITING_FOR_ETH);
        }
    }

    void run() {
        eth_setup_handshake(handshake_, is_handshake_sender());
        WAYPOINT("EDM");
        // --fast-forward: the EDM only passes its workers' skips on, so it
        // waits inside a loop of no packets (it never skips by itself and
        // does not keep the board exact), and pauses with every skip.
        SteadyLoop passing(0, 0, 0, true, 1, /*stream=*/true);
        for (;;) {
            if (fast_forward_) service_.point();
            bool all_done = true;
            const std::uint32_t before = transitions_;
            for (std::uint32_t i = 0; i < channels_.size(); ++i) {
                if (channels_[i].state == DONE) continue;
                all_done = false;
                step(i);
            }
            if (all_done) break;
            run_routing_when_idle(transitions_ != before, idle_rounds_);
        }
        passing.end();
        teardown();
    }

private:
    void set_state(std::uint32_t i, ChannelState s) {
        ++transitions_;
        channels_[i].state = s;
        trace_value(i, s);
    }

    /// Slot k's last message got its first-level ack (or already its done,
    /// or the slot was never used): the worker may fill it again.
    static bool slot_refillable(const Channel& c, std::uint32_t k) {
        return l1_word_is_not(c.sync(k) + 4, 0) || l1_word_is(c.sync(k), 0);
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

    /// Fast-forward skips the board has ordered (0 without --fast-forward).
    std::uint64_t skips_ordered() const { return fast_forward_ ? service_.skips_ordered() : 0; }

    /// Messages the channel's sender worker skipped before the one it just
    /// signalled (the word after the channel semaphore, cleared once taken).
    std::uint32_t take_sender_skips(Channel& c) {
        return c.skips.take(skips_ordered(), [&] {
            const std::uint32_t n = l1_read_u32(c.edm_sem + 4);
            if (n) l1_write_u32(c.edm_sem + 4, 0);
            return n;
        });
    }

    /// Messages the sending end skipped before the one in the current slot
    /// (its sync word's third word).
    std::uint32_t take_receiver_skips(Channel& c) {
        return c.skips.take(skips_ordered(), [&] { return l1_read_u32(c.sync() + 8); });
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
                // The remote slot is free once its receiver's done cleared bytes_sent.
                if (l1_word_is(c.sync(), 0) && !eth_txq_is_busy(0)) {
                    const std::uint32_t skipped = take_sender_skips(c);
                    c.moved += skipped;
                    eth_write_channel_sync(c.sync(), eth_channel_sync_t{c.payload, 0, skipped, 0});
                    eth_send_packet(0, c.slot(c.index) >> 4, c.slot(c.index) >> 4, c.words());
                    ++c.moved;
                    c.advance();
                    set_state(i, SENDER_WAITING_FOR_ETH);
                }
                break;
            case SENDER_WAITING_FOR_ETH:
                if (more_messages(c)) {
                    // The next slot may be filled once its previous message was acked.
                    if (slot_refillable(c, c.index)) set_state(i, SENDER_SIGNALING_WORKER);
                } else if (slot_refillable(c, c.previous())) {
                    // The last message arrived (its done is awaited at teardown).
                    set_state(i, DONE);
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
                    c.moved += take_receiver_skips(c);
                    eth_write_channel_sync(c.sync(), eth_channel_sync_t{0, 0, 0, 0});
                    eth_send_packet(credit_txq_, c.sync() >> 4, c.sync() >> 4, 1);
                    ++c.moved;
                    c.advance();
                    set_state(i, more_messages(c) ? RECEIVER_WAITING_FOR_ETH : DONE);
                }
                break;
            case DONE: break;
        }
    }

    void teardown() {
        WAYPOINT("TEAR");
        for (const Channel& c : channels_) {
            if (!c.is_sender) continue;
            for (std::uint32_t k = 0; k < c.slots; ++k)
                while (!l1_word_is(c.sync(k), 0)) run_routing_when_idle(false, idle_rounds_);
        }
        WAYPOINT("DONE");
    }

    TerminationMode mode_;
    std::uint32_t credit_txq_;
    std::uint32_t slots_;
    std::uint32_t idle_rounds_;
    std::uint32_t transitions_ = 0;  ///< channel state changes so far (a round that made none was idle)
    bool fast_forward_ = false;      ///< --fast-forward is on
    SteadyService service_;          ///< pauses with fast-forward skips
    std::uint32_t handshake_ = 0;
    std::uint32_t ack_word_ = 0;
    std::vector<Channel> channels_;
};

}  // namespace

void erisc_datamover_kernel_main() {
    Datamover dm(static_cast<TerminationMode>(get_compile_time_arg_val(0)), get_compile_time_arg_val(1),
                 get_compile_time_arg_val(2), get_compile_time_arg_val(3));
    dm.read_args();
    dm.init();
    dm.run();
}

}  // namespace cclsim::fw::edm
