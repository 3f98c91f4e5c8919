// ring_ping: a packet goes around a ring of Ethernet hops (Ethernet guide,
// "Example Multi-Chip Program Implementation Walkthrough").
//
// Every hop has a Sender on the Ethernet core that leads to the next chip and
// a Receiver on the core the previous chip sends to. The Receiver forwards
// each packet over the NoC to its chip's Sender (payload write + semaphore
// increment on the same VC, so the increment lands after the data), acks the
// upstream Sender and frees the buffer. The master Receiver on the first chip
// injects the packet and times its return; the first round trip is not
// measured (it also absorbs the chips' different start times).
//
//   chip k Receiver            chip k Sender                 chip k+1 Receiver
//   arrival (sync != 0)
//   noc_async_write -------->  buffer
//   noc_semaphore_inc ------>  sem >= 1, sem = 0
//   done -> upstream           eth send ------------------>  arrival ...
//                              wait until downstream done <- done
//
// When the ring runs both ways over one link (N300: chip 0 -> chip 1 ->
// chip 0) both roles share one Ethernet core and this kernel plays both; the
// forward is then a NoC write to the core itself.
//
// Signalling: merged (payload and its eth_channel_sync_t sent in one packet,
// the recommended form) or separate (payload, then the erisc_info channel
// word in a second packet, with a first-level ack from a separate word).
//
// Args (runtime):
//   0 flags: bit0 master, bit1 has receiver, bit2 has sender, bit3 merged,
//            bit4 handshake sender on the upstream link, bit5 handshake sender
//            on the downstream link, bit6 one link both ways (one handshake)
//   1 samples (measured)   2 channels C   3 payload P
//   receiver role: 4 rx buffer base, 5 sender core x, 6 sender core y,
//                  7 sender tx buffer base, 8 sender semaphore base,
//                  9 ack word, 10 erisc channel base, 11 results
//   sender role:   12 tx buffer base, 13 semaphore base, 14 downstream rx buffer base,
//                  15 erisc channel base
//   16 handshake scratch address
//   17 upstream Sender's tx buffer base (where a merged "done" is written)
//   18 end marker
#include "firmware/microbench/microbench_kernels.h"

#include <algorithm>
#include <cstdint>

namespace cclsim::fw::microbench {

namespace {

struct RingArgs {
    bool master, has_rx, has_tx, merged, hs_up_sender, hs_down_sender, one_link;
    std::uint32_t samples, channels, payload;
    std::uint32_t rx_base, fwd_x, fwd_y, fwd_tx_base, fwd_sem_base, ack_word, rx_chan_base, results;
    std::uint32_t tx_base, sem_base, down_rx_base, tx_chan_base;
    std::uint32_t handshake, up_tx_base;
};

RingArgs read_args() {
    RingArgs a{};
    const std::uint32_t f = get_arg_val<std::uint32_t>(0);
    a.master = f & 1;
    a.has_rx = f & 2;
    a.has_tx = f & 4;
    a.merged = f & 8;
    a.hs_up_sender = f & 16;
    a.hs_down_sender = f & 32;
    a.one_link = f & 64;
    a.samples = get_arg_val<std::uint32_t>(1);
    a.channels = get_arg_val<std::uint32_t>(2);
    a.payload = get_arg_val<std::uint32_t>(3);
    a.rx_base = get_arg_val<std::uint32_t>(4);
    a.fwd_x = get_arg_val<std::uint32_t>(5);
    a.fwd_y = get_arg_val<std::uint32_t>(6);
    a.fwd_tx_base = get_arg_val<std::uint32_t>(7);
    a.fwd_sem_base = get_arg_val<std::uint32_t>(8);
    a.ack_word = get_arg_val<std::uint32_t>(9);
    a.rx_chan_base = get_arg_val<std::uint32_t>(10);
    a.results = get_arg_val<std::uint32_t>(11);
    a.tx_base = get_arg_val<std::uint32_t>(12);
    a.sem_base = get_arg_val<std::uint32_t>(13);
    a.down_rx_base = get_arg_val<std::uint32_t>(14);
    a.tx_chan_base = get_arg_val<std::uint32_t>(15);
    a.handshake = get_arg_val<std::uint32_t>(16);
    a.up_tx_base = get_arg_val<std::uint32_t>(17);
    check_end_marker(18);
    return a;
}

std::uint32_t stride(const RingArgs& a) {
    return a.payload + sizeof(eth_channel_sync_t);
}

/// Master: put one packet per channel into the ring (towards this chip's Sender).
void inject(const RingArgs& a) {
    for (std::uint32_t ch = 0; ch < a.channels; ++ch) {
        noc_async_write(a.rx_base + ch * stride(a), get_noc_addr(a.fwd_x, a.fwd_y, a.fwd_tx_base + ch * stride(a)),
                        a.payload);
        noc_semaphore_inc(get_noc_addr(a.fwd_x, a.fwd_y, a.fwd_sem_base + 16 * ch), 1);
    }
}

/// Sender role: send channel `ch`'s packet over Ethernet once the Receiver handed it over.
void send_one(const RingArgs& a, std::uint32_t ch) {
    const std::uint32_t sem = a.sem_base + 16 * ch;
    const std::uint32_t buf = a.tx_base + ch * stride(a);
    noc_semaphore_wait(sem, 1);
    noc_semaphore_set(sem, 0);
    if (a.merged) {
        // The previous packet on this channel must have been released downstream.
        while (!buffer_released(buf + a.payload)) {
        }
        eth_write_channel_sync(buf + a.payload, eth_channel_sync_t{a.payload, 0, 0, 0});
        eth_send_packet(0, buf >> 4, (a.down_rx_base + ch * stride(a)) >> 4, stride(a) >> 4);
    } else {
        while (!eth_is_receiver_channel_done(a.tx_chan_base + ch)) {
        }
        eth_send_bytes_over_channel(buf, a.down_rx_base + ch * stride(a), a.payload, a.tx_chan_base + ch, a.payload);
    }
}

/// Receiver role: wait for channel `ch`'s packet; forward it to the Sender unless master.
void receive_one(const RingArgs& a, std::uint32_t ch) {
    const std::uint32_t buf = a.rx_base + ch * stride(a);
    if (a.merged) {
        while (!bytes_arrived(buf + a.payload)) {
        }
    } else {
        while (!eth_bytes_are_available_on_channel(a.rx_chan_base + ch)) {
        }
    }
    if (!a.master) {
        noc_async_write(buf, get_noc_addr(a.fwd_x, a.fwd_y, a.fwd_tx_base + ch * stride(a)), a.payload);
        noc_semaphore_inc(get_noc_addr(a.fwd_x, a.fwd_y, a.fwd_sem_base + 16 * ch), 1);
    }
}

/// Receiver role: acknowledge and free channel `ch`'s buffer for the upstream Sender.
void release_one(const RingArgs& a, std::uint32_t ch) {
    const std::uint32_t buf = a.rx_base + ch * stride(a);
    if (a.merged) {
        noc_async_write_barrier();
        eth_write_channel_sync(buf + a.payload, eth_channel_sync_t{0, 0, 0, 0});
        eth_send_packet(0, (buf + a.payload) >> 4, (a.up_tx_base + ch * stride(a) + a.payload) >> 4, 1);
    } else {
        // Ack as soon as possible, then free the buffer once it was read.
        eth_receiver_channel_ack(a.rx_chan_base + ch, a.ack_word);
        noc_async_write_barrier();
        eth_receiver_channel_done(a.rx_chan_base + ch);
    }
}

}  // namespace

void ring_ping_kernel_main() {
    const RingArgs a = read_args();
    for (std::uint32_t ch = 0; ch < a.channels; ++ch) {
        if (a.has_rx) eth_write_channel_sync(a.rx_base + ch * stride(a) + a.payload, eth_channel_sync_t{0, 0, 0, 0});
        if (a.has_tx) eth_write_channel_sync(a.tx_base + ch * stride(a) + a.payload, eth_channel_sync_t{0, 0, 0, 0});
    }
    // One link, or a core that sends: the role towards the downstream chip.
    eth_setup_handshake(a.handshake, a.one_link || a.has_tx ? a.hs_down_sender : a.hs_up_sender);

    std::uint64_t sum = 0, lo = ~0ull, hi = 0;
    for (std::uint32_t s = 0; s <= a.samples; ++s) {
        WAYPOINT(a.master ? "RPM" : "RPH");
        std::uint64_t t0 = 0;
        if (a.master) {
            t0 = get_timestamp();
            inject(a);
            if (a.has_tx)
                for (std::uint32_t ch = 0; ch < a.channels; ++ch) send_one(a, ch);
        }
        if (a.master) {
            // The master stops its timer when every packet is back.
            for (std::uint32_t ch = 0; ch < a.channels; ++ch) receive_one(a, ch);
            const std::uint64_t t1 = get_timestamp();
            for (std::uint32_t ch = 0; ch < a.channels; ++ch) release_one(a, ch);
            if (s > 0) {  // the first round trip only clears the ring
                sum += t1 - t0;
                lo = std::min<std::uint64_t>(lo, t1 - t0);
                hi = std::max<std::uint64_t>(hi, t1 - t0);
            }
        } else {
            for (std::uint32_t ch = 0; ch < a.channels; ++ch) {
                if (a.has_rx) receive_one(a, ch);
                // A relay sends on before it frees the upstream buffer, as the
                // separate Sender kernel of the walkthrough would.
                if (a.has_tx) send_one(a, ch);
                if (a.has_rx) release_one(a, ch);
            }
        }
    }
    // Teardown: wait for the downstream end to release the last packets.
    if (a.has_tx) {
        for (std::uint32_t ch = 0; ch < a.channels; ++ch) {
            if (a.merged) {
                while (!buffer_released(a.tx_base + ch * stride(a) + a.payload)) {
                }
            } else {
                while (!eth_is_receiver_channel_done(a.tx_chan_base + ch)) {
                }
            }
        }
    }
    if (a.master) {
        l1_write_u32(a.results + 0, std::uint32_t(sum));
        l1_write_u32(a.results + 4, std::uint32_t(sum >> 32));
        l1_write_u32(a.results + 8, std::uint32_t(a.samples ? lo : 0));
        l1_write_u32(a.results + 12, std::uint32_t(hi));
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
