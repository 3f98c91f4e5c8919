// T5 latency microbenchmark (docs/design/pe-ipcq.md#t5): two neighbouring ranks
// bounce one payload back and forth, first with raw PE_DMA writes, then with
// IPCQ send/recv, and the initiator times every round trip.
//
//   phase raw         the payload as one write that also increments the
//                     peer's arrival counter (fused write + increment: a NoC
//                     write on one chip, a fabric packet across chips); the
//                     peer waits on its counter and answers the same way
//   phase return_slot ipcq_send, ipcq_recv; the slot is released after the
//                     answer left (the credit is off the measured path)
//   phase copy        ipcq_send, ipcq_recv_to (copy_to_dst: copy out of the
//                     slot and emit the credit before returning)
//
// results (initiator L1): three u32 sums of round-trip cycles, in phase
// order, over `samples` round trips after one unmeasured warm-up each.
//
// Under a load kernel on the initiator's core (--compute-stream: `stop` is
// set), the initiator waits a different number of cycles before each round
// trip (0..511, the same sequence in every phase). The load is periodic (one
// write, a flush, the next write), and so is a ping-pong: without the spread
// each phase met the load at one fixed alignment of the two periods, and the
// phases compared alignments rather than costs (IPCQ 18.8 ns one-way below
// the raw write at VC weights 80:20, 15 ns above it at 50:50).
#include "firmware/api/fabric_api.h"
#include "firmware/api/ipcq_api.h"
#include "firmware/ipcq/ipcq_args.h"
#include "firmware/ipcq/ipcq_kernels.h"

#include <vector>

namespace cclsim::fw::ipcq {

using namespace cclsim::ipcq;

void ipcq_pingpong_main() {
    PingArgs a;
    int i = 0;
    auto get = [&i](std::uint32_t& f) { f = get_arg_val<std::uint32_t>(i++); };
    a.visit(get);
    fabric::FabricConnectionArgs conn;
    fabric::PacketHeader header;
    if (a.cross_chip) {
        conn.visit(get);
        for (std::uint32_t w = 0; w < a.header_words; ++w) header.words[w] = get_arg_val<std::uint32_t>(i++);
    }
    fw_assert(get_arg_count() > std::uint32_t(i) && get_arg_val<std::uint32_t>(i) == kIpcqArgsEndMarker,
              "ipcq_pingpong arguments do not end with the end marker 0x1C0E (host/kernel layout mismatch)");
    const bool initiator = a.role == 0;
    const ipcq_dir out = initiator ? ipcq_dir::E : ipcq_dir::W;

    // Phase raw.
    WAYPOINT("PRAW");
    WorkerToFabricEdmSender fab(conn);
    if (a.cross_chip) fab.open();
    auto raw_send = [&] {
        const std::uint64_t dst = get_noc_addr(a.peer_x, a.peer_y, a.raw_rx);
        const std::uint64_t sem = get_noc_addr(a.peer_x, a.peer_y, a.raw_sem);
        if (!a.cross_chip) {
            noc_async_write_fused_atomic_inc(a.buffer, dst, a.bytes, sem, 1);
        } else {
            fabric::PacketHeader h = header;
            h.to_noc_fused_unicast_write_atomic_inc(dst, sem, 1, a.bytes, /*flush=*/false);  // as ipcq_send's
            fab.send_packet(h, a.buffer, a.bytes);
        }
    };
    std::uint32_t sums[3] = {0, 0, 0};
    // Spread each round trip's start over the load's period (see above).
    auto spread = [&](std::uint32_t s) {
        if (a.stop) spin_cycles((s * 97u) % 512u);
    };
    for (std::uint32_t s = 0; s <= a.samples; ++s) {
        if (initiator) {
            spread(s);
            const std::uint64_t t0 = get_timestamp();
            raw_send();
            noc_semaphore_wait_min(a.raw_sem, s + 1);
            const std::uint64_t t1 = get_timestamp();
            if (s) sums[0] += std::uint32_t(t1 - t0);
        } else {
            noc_semaphore_wait_min(a.raw_sem, s + 1);
            raw_send();
        }
    }
    noc_async_writes_flushed();
    if (a.cross_chip) fab.close();

    // Phase return_slot.
    WAYPOINT("PSLT");
    for (std::uint32_t s = 0; s <= a.samples; ++s) {
        if (initiator) {
            spread(s);
            const std::uint64_t t0 = get_timestamp();
            ipcq_send(out, a.buffer, a.bytes);
            const ipcq_slot r = ipcq_recv(out, a.bytes);
            const std::uint64_t t1 = get_timestamp();
            ipcq_release(r);
            if (s) sums[1] += std::uint32_t(t1 - t0);
        } else {
            const ipcq_slot r = ipcq_recv(out, a.bytes);
            ipcq_send(out, a.buffer, a.bytes);
            ipcq_release(r);
        }
    }

    // Phase copy (credit emitted inside the receive).
    WAYPOINT("PCPY");
    for (std::uint32_t s = 0; s <= a.samples; ++s) {
        if (initiator) {
            spread(s);
            const std::uint64_t t0 = get_timestamp();
            ipcq_send(out, a.buffer, a.bytes);
            noc_async_writes_flushed();  // the payload left: the buffer may be overwritten
            ipcq_recv_to(out, a.buffer, a.bytes);
            const std::uint64_t t1 = get_timestamp();
            if (s) sums[2] += std::uint32_t(t1 - t0);
        } else {
            ipcq_recv_to(out, a.buffer, a.bytes);
            ipcq_send(out, a.buffer, a.bytes);
            noc_async_writes_flushed();
        }
    }
    ipcq_close();
    if (initiator)
        for (unsigned k = 0; k < 3; ++k) l1_write_u32(a.results + 4 * k, sums[k]);
    if (a.stop) l1_write_u32(a.stop, 1);
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ipcq
