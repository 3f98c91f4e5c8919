// edm_stream worker kernels: a sender worker that pushes packets into an EDM
// sender channel and a receiver worker that pulls them from the EDM receiver
// channel on the other chip, following the CCL guide's worker <-> EDM
// semaphore protocol. The payload is a reference byte stream (standing in for
// a tensor read from DRAM) and the receiver checks every byte it gets.
//
// The channel has one or more slots; both workers walk them in order, as the
// EDM does (slot k at the channel buffer + k * stride).
//
// --fast-forward (timing only): the sender's messages are a steady loop (a
// group of its own). A skip takes whole rounds of the slots, and its count
// goes to the EDM in the word after the EDM channel semaphore, written just
// before the next real message's signal; the EDMs carry it to the receiver
// (firmware/edm/erisc_datamover.cpp), which reads it from the slot's sync
// word into the third word of its own semaphore slot (kept in --no-data
// mode by the host) and counts the skipped messages off.
//
// Args (runtime, both kernels):
//   0 EDM core x   1 EDM core y   2 EDM channel buffer (slot 0)   3 EDM channel semaphore
//   4 local semaphore (incremented by the EDM)          5 messages
//   6 payload bytes   7 local L1 buffer   8 reference stream id
//   9 flags: bit 0 worker-initiated termination (else by message count);
//     bit 1 not steady: the sender's loop is never fast-forwarded (the host
//     sets it when the EDMs' acks queue behind data: both directions with
//     the acks on tx_cmd_q 0, where a pause lets that queue drain and the
//     stream does not resume at its measured rate; as eth_bandwidth with its
//     credits on tx_cmd_q 0)
//   10 slots per channel   11 slot stride   12 end marker
#include "firmware/edm/edm_types.h"
#include "firmware/microbench/microbench_kernels.h"

#include <cstdint>

namespace cclsim::fw::microbench {

namespace {
struct StreamArgs {
    std::uint64_t edm_buffer, edm_sem;
    std::uint32_t local_sem, messages, payload, local_buffer, stream, slots, stride;
    bool worker_terminates, steady;
};
StreamArgs stream_args() {
    const std::uint32_t x = get_arg_val<std::uint32_t>(0), y = get_arg_val<std::uint32_t>(1);
    StreamArgs a{};
    a.edm_buffer = get_noc_addr(x, y, get_arg_val<std::uint32_t>(2));
    a.edm_sem = get_noc_addr(x, y, get_arg_val<std::uint32_t>(3));
    a.local_sem = get_arg_val<std::uint32_t>(4);
    a.messages = get_arg_val<std::uint32_t>(5);
    a.payload = get_arg_val<std::uint32_t>(6);
    a.local_buffer = get_arg_val<std::uint32_t>(7);
    a.stream = get_arg_val<std::uint32_t>(8);
    const std::uint32_t flags = get_arg_val<std::uint32_t>(9);
    a.worker_terminates = (flags & 1u) != 0;
    a.steady = (flags & 2u) == 0;
    a.slots = get_arg_val<std::uint32_t>(10);
    a.stride = get_arg_val<std::uint32_t>(11);
    check_end_marker(12);
    fw_assert(a.slots >= 1, "edm_stream: a channel needs at least one slot");
    return a;
}
/// NoC address of the slot message i uses.
std::uint64_t slot_addr(const StreamArgs& a, std::uint32_t i) {
    return a.edm_buffer + std::uint64_t(i % a.slots) * a.stride;
}
std::uint32_t signal(const StreamArgs& a, std::uint32_t i) {
    const bool last = i + 1 == a.messages;
    return edm::worker_signal::kNextMessage + (a.worker_terminates && last ? edm::worker_signal::kTerminate : 0);
}
}  // namespace

void edm_stream_sender_main() {
    const StreamArgs a = stream_args();
    // The last rounds of slots stay exact: the EDMs' final handshakes. Each
    // channel is its own group: the channels of a link do not share it
    // evenly (the first ones get more of it and finish first), and a skip
    // at one common rate would even them out.
    SteadyLoop steady(a.messages, 2 * std::uint64_t(a.slots) + 2, a.stream, a.steady, a.slots, /*stream=*/true);
    std::uint32_t skipped = 0;  // skipped messages the next real one reports
    for (std::uint32_t i = 0; i < a.messages; ++i) {
        if (const std::uint64_t n = steady.skip(a.messages - i)) {
            i += std::uint32_t(n) - 1;
            skipped += std::uint32_t(n);
            steady.pause();
            continue;
        }
        // Produce the next packet while the previous one may still be in flight
        // to the EDM: reuse the buffer only once the NoC has read it.
        noc_async_writes_flushed();
        testbench_fill(a.local_buffer, a.payload, a.stream, std::uint64_t(i) * a.payload);
        // Wait for the EDM to offer its buffer, reset our semaphore first.
        noc_semaphore_wait(a.local_sem, 1);
        noc_semaphore_set(a.local_sem, 0);
        if (skipped) {
            noc_inline_dw_write(a.edm_sem + 4, skipped);
            skipped = 0;
        }
        noc_async_write(a.local_buffer, slot_addr(a, i), a.payload);
        // Same VC as the write: the increment lands after the payload.
        noc_semaphore_inc(a.edm_sem, signal(a, i));
    }
    fw_assert(skipped == 0, "edm_stream: a fast-forward skip took the last messages");
    steady.end();
    noc_async_write_barrier();
    noc_async_atomic_barrier();
}

void edm_stream_receiver_main() {
    const StreamArgs a = stream_args();
    SteadyLoop waiting(0, 0, 0, true, 1, /*stream=*/true);  // waits on its sender's steady loop
    SkipReport sender;                                      // the sender's skipped messages, from the slot's sync word
    const std::uint32_t skip_word = a.local_sem + 8;
    for (std::uint32_t i = 0; i < a.messages; ++i) {
        noc_semaphore_wait(a.local_sem, 1);
        noc_semaphore_set(a.local_sem, 0);
        const std::uint32_t n = sender.take(waiting.skips_ordered(), [&] {
            noc_async_read(slot_addr(a, i) + a.payload + 8, skip_word, 4);
            noc_async_read_barrier();
            return l1_read_u32(skip_word);
        });
        if (n) {
            fw_assert(n < a.messages - i, "edm_stream: the sender skipped more messages than remain");
            i += n;
        }
        noc_async_read(slot_addr(a, i), a.local_buffer, a.payload);
        noc_async_read_barrier();
        // The EDM may now refill its buffer.
        noc_semaphore_inc(a.edm_sem, signal(a, i));
        testbench_check(a.local_buffer, a.payload, a.stream, std::uint64_t(i) * a.payload);
    }
    noc_async_atomic_barrier();
}

}  // namespace cclsim::fw::microbench
