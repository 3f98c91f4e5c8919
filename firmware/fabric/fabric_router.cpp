// Fabric router: the ERISC firmware of the board-wide packet fabric (in the
// spirit of tt-metal's TT-Fabric "fabric EDM", fabric_erisc_router.cpp).
//
// One router runs on the Ethernet core of every link the fabric uses; it
// owns that link in both directions. Workers hand it packets (header +
// payload) through a channel; it sends them over Ethernet to the router at
// the other end, which either performs the header's NoC command on its chip
// or forwards the packet, over the NoC, to the router of the next hop's link
// on the same chip.
//
// Channels (each a ring of equal slots of header + largest payload in L1):
//   sender 0          local workers, one connection at a time (a mux shares it)
//   sender 1 (.. 3)   packets forwarded by this chip's other routers
//                     (1D: the router of the opposite direction; 2D: one per
//                     other direction)
//   sender last       read replies this router makes itself
//   receiver          packets from the peer router over Ethernet
//
// Flow control uses free-running counters (32-bit words that only grow,
// incremented by NoC atomics or Ethernet register writes, so no update is
// ever lost or needs a reset):
//
//   producer (worker/router)      this router                    peer router
//   write slot, inc wr_counter -> wr_counter != sent
//                                 eth send slot -> rx slot ---->  (same address)
//                                 remote reg: rx_pkts_sent += 1 -> new packet
//                                                    acked[c] += 1 <- (ring/torus: first-level ack)
//                                                                   forward / perform the command
//                                                completed[c] += 1 <- its NoC writes left the slot
//   "slots freed" <-------------- on ack (ring/torus) or completion:
//   (worker: inline write of rd;   the sender slot is free again
//    router: inc its ds_free)
//
// A sender may send when the peer's receiver has a free slot: rx_slots -
// (sent - completed) >= 1, or >= 2 for an *injection* channel on a ring or a
// wrapped torus axis (bubble flow control: a channel that brings new packets
// into a ring never takes its last free slot, so packets already in the ring
// can always move and the ring cannot deadlock). Lines and meshes without
// wraparound cannot form a cycle of channels with dimension-ordered routes.
//
// The main loop steps every sender channel, then the receiver, then the
// worker connection; each step moves at most one packet. Every status read
// is a modelled spin-loop read (an idle router sleeps until a word changes).
//
// Args: FabricRouterArgs (firmware/fabric/fabric_types.h), end marker 0xFAB0.
#include "firmware/fabric/fabric_kernels.h"

#include "firmware/api/eth_dataflow_api.h"
#include "firmware/api/fabric_api.h"

#include <vector>

namespace cclsim::fw::fabric_fw {

using namespace cclsim::fabric;

namespace {

/// Credit tx queue: acks and completions never wait behind payloads.
constexpr std::uint32_t kDataTxq = 0;
constexpr std::uint32_t kCreditTxq = 1;

std::uint32_t round16(std::uint32_t n) { return (n + 15) / 16 * 16; }

class Router {
public:
    explicit Router(const FabricRouterArgs& a) : a_(a), l_(a.layout()), dir_(Dir(a.dir)) {
        for (unsigned c = 0; c < a_.n_senders; ++c) senders_[c].slots = a_.sender_slots[c];
        rx_src_.resize(a_.rx_slots);
    }

    void run() {
        eth_setup_handshake(l_.handshake, a_.handshake_sender != 0);
        WAYPOINT("FAB");
        for (;;) {
            for (unsigned c = 0; c < a_.n_senders; ++c) sender_step(c);
            receiver_step();
            connection_step();
        }
    }

private:
    struct Sender {
        std::uint32_t slots = 0;
        std::uint32_t sent = 0;       ///< packets sent over Ethernet
        std::uint32_t freed = 0;      ///< slots given back to the producer
        std::uint32_t completed = 0;  ///< completions seen from the peer
    };

    std::uint32_t sender_slot(unsigned c, std::uint32_t i) const {
        return l_.sender_buffers[c] + (i % senders_[c].slots) * a_.slot_bytes;
    }
    std::uint32_t rx_slot(std::uint32_t i) const { return l_.rx_buffer + (i % a_.rx_slots) * a_.slot_bytes; }
    std::uint32_t remote_free() const { return a_.rx_slots - (total_sent_ - total_completed_); }
    std::uint8_t fnoc() const { return std::uint8_t(a_.forward_noc); }
    std::uint8_t cnoc() const { return std::uint8_t(a_.credit_noc); }

    // ---- sender channels ------------------------------------------------------

    void sender_step(unsigned c) {
        Sender& s = senders_[c];
        // Credits: slots of this channel the peer acked (ring/torus) or
        // completed. (Each status word is read once per pass: a spin loop
        // that re-reads a word it just found unchanged is idle.)
        if (l1_word_is_not(l_.completed(c), s.completed)) {
            const std::uint32_t done = l1_read_u32(l_.completed(c));
            total_completed_ += done - s.completed;
            s.completed = done;
            if (!a_.first_level_ack) free_slots(c, done);
        }
        if (a_.first_level_ack && l1_word_is_not(l_.acked(c), s.freed)) free_slots(c, l1_read_u32(l_.acked(c)));
        // The next packet, if the producer wrote one and the peer has room.
        if (!l1_word_is_not(l_.wr_counter(c), s.sent)) return;
        const std::uint32_t need = (a_.bubble && (a_.injection_mask >> c & 1u)) ? 2 : 1;
        if (remote_free() < need) return;
        if (eth_txq_is_busy(kDataTxq)) return;
        const std::uint32_t slot = sender_slot(c, s.sent);
        const std::uint32_t cmd = l1_read_u32(slot);
        const std::uint32_t payload = cmd >> 16;
        // Tell the receiving router which channel to credit.
        l1_write_u32(slot, (cmd & ~0xff00u) | (c << 8));
        const std::uint32_t bytes = a_.header_bytes + round16(payload);
        eth_send_packet(kDataTxq, slot >> 4, rx_slot(total_sent_) >> 4, bytes >> 4);
        // Behind the payload on the same queue: the receiver sees the data first.
        eth_write_remote_reg(kDataTxq, l_.rx_pkts_sent, 1);
        ++s.sent;
        ++total_sent_;
        trace_value(0, total_sent_);
    }

    void free_slots(unsigned c, std::uint32_t upto) {
        Sender& s = senders_[c];
        while (s.freed != upto) {
            ++s.freed;
            credit_producer(c);
        }
    }

    void credit_producer(unsigned c) {
        if (c == a_.reply_channel) return;  // our own channel
        if (c == kWorkerChannel) {
            const std::uint32_t rd = l1_read_u32(l_.rd_counter(c)) + 1;
            l1_write_u32(l_.rd_counter(c), rd);
            if (worker_open_) noc_inline_dw_write(get_noc_addr(worker_x_, worker_y_, worker_rd_), rd, cnoc());
            return;
        }
        // An upstream router: one more free slot in the channel it feeds.
        const std::uint32_t p = a_.producer_xy[c];
        noc_semaphore_inc(get_noc_addr(p >> 16, p & 0xffff, l_.ds_free_of(dir_)), 1, cnoc());
    }

    // ---- receiver channel --------------------------------------------------------

    void receiver_step() {
        // The credit queue is read at most once per pass.
        int credit_q = -1;
        auto credit_q_free = [&] {
            if (credit_q < 0) credit_q = eth_txq_is_busy(kCreditTxq) ? 0 : 1;
            return credit_q == 1;
        };
        // Completions, in order: a slot is free once its NoC writes left it.
        if (completing_ != processed_ &&
            noc_async_write_trid_flushed(completing_ % NOC_MAX_TRANSACTION_ID_COUNT, fnoc()) && credit_q_free()) {
            eth_write_remote_reg(kCreditTxq, l_.completed(rx_src_[completing_ % a_.rx_slots]), 1);
            ++completing_;
            credit_q = -1;
        }
        if (!l1_word_is_not(l_.rx_pkts_sent, processed_)) return;
        const std::uint32_t slot = rx_slot(processed_);
        const std::uint32_t cmd = l1_read_u32(slot);
        const std::uint32_t src_ch = (cmd >> 8) & 0xff;
        if (a_.first_level_ack && acked_ == processed_) {
            if (!credit_q_free()) return;
            eth_write_remote_reg(kCreditTxq, l_.acked(src_ch), 1);
            ++acked_;
        }
        // Decoding the header and choosing the way (once per packet).
        if (decoded_ != processed_) {
            spin_cycles(a_.packet_cycles);
            decoded_ = processed_;
        }
        const std::uint32_t route = l1_read_u32(slot + hdr::kRoute);
        const std::uint32_t trid = processed_ % NOC_MAX_TRANSACTION_ID_COUNT;
        bool local = false;
        Dir out = dir_;
        if (!a_.is_2d) {
            const std::uint32_t bits = route & 3u;
            fw_assert(bits == route1d::WRITE_ONLY || bits == route1d::FORWARD_ONLY,
                      "fabric router: 1D route field holds neither WRITE_ONLY nor FORWARD_ONLY (multicast is not "
                      "supported, or the hop count was wrong)");
            local = bits == route1d::WRITE_ONLY;
            out = opposite(dir_);
        } else {
            const std::uint32_t idx = route & 0xff;
            const std::uint32_t nib = (l1_read_u32(slot + hdr::kRoute2d + 4 * (idx / 8)) >> (4 * (idx % 8))) & 0xf;
            fw_assert(nib == route2d::kLocal || nib < kDirs, "fabric router: 2D route nibble is not a direction");
            local = nib == route2d::kLocal;
            if (!local) {
                out = Dir(nib);
                fw_assert(out != dir_, "fabric router: a 2D route turns back through the link it arrived on");
            }
        }
        if (local) {
            if (!deliver(slot, cmd, trid)) return;
        } else {
            if (!forward(slot, cmd, route, out, trid)) return;
        }
        rx_src_[processed_ % a_.rx_slots] = src_ch;
        ++processed_;
        trace_value(1, processed_);
    }

    /// Copy the packet into the sender channel that router `out` keeps for
    /// packets from our direction; false if it has no free slot yet.
    bool forward(std::uint32_t slot, std::uint32_t cmd, std::uint32_t route, Dir out, std::uint32_t trid) {
        const std::uint32_t xy = a_.downstream_xy[unsigned(out)];
        fw_assert(xy != kNoCore, "fabric router: route leaves through a direction with no router on this chip");
        const unsigned d = unsigned(out);
        const std::uint32_t freed = l1_word_is_not(l_.ds_free_of(out), ds_freed_[d]) ? l1_read_u32(l_.ds_free_of(out))
                                                                                      : ds_freed_[d];
        ds_freed_[d] = freed;
        if (forwarded_[d] - freed >= a_.downstream_slots) return false;
        // Next hop's routing field.
        if (!a_.is_2d) {
            l1_write_u32(slot + hdr::kRoute, route >> 2);
            if (a_.header_bytes >= hdr::kMinBytes1dLong) shift_route_ext(slot);
        } else {
            l1_write_u32(slot + hdr::kRoute, (route & ~0xffu) | ((route & 0xff) + 1));
        }
        const unsigned ch = upstreamChannel(out, dir_, a_.is_2d != 0);
        const std::uint32_t dst = l_.sender_buffers[ch] + (forwarded_[d] % a_.downstream_slots) * a_.slot_bytes;
        const std::uint32_t x = xy >> 16, y = xy & 0xffff;
        noc_async_write_one_packet_with_trid(slot, get_noc_addr(x, y, dst), a_.header_bytes + round16(cmd >> 16),
                                             trid, fnoc());
        noc_semaphore_inc(get_noc_addr(x, y, l_.wr_counter(ch)), 1, fnoc());
        ++forwarded_[d];
        return true;
    }

    void shift_route_ext(std::uint32_t slot) {
        // Route words 1..3 follow at kRouteExt: move two bits down each.
        std::uint32_t w[4] = {l1_read_u32(slot + hdr::kRoute)};
        for (unsigned i = 1; i < 4; ++i) w[i] = l1_read_u32(slot + hdr::kRouteExt + 4 * (i - 1));
        w[0] |= (w[1] & 3u) << 30;
        for (unsigned i = 1; i < 4; ++i) {
            w[i] = (w[i] >> 2) | (i + 1 < 4 ? (w[i + 1] & 3u) << 30 : 0u);
            l1_write_u32(slot + hdr::kRouteExt + 4 * (i - 1), w[i]);
        }
        l1_write_u32(slot + hdr::kRoute, w[0]);
    }

    /// Perform the packet's command on this chip; false if it must wait.
    bool deliver(std::uint32_t slot, std::uint32_t cmd, std::uint32_t trid) {
        const auto type = NocSendType(cmd & 0xff);
        const std::uint32_t size = cmd >> 16;
        auto rd64 = [&](std::uint32_t off) {
            return std::uint64_t(l1_read_u32(slot + off)) | (std::uint64_t(l1_read_u32(slot + off + 4)) << 32);
        };
        const std::uint64_t addr = rd64(hdr::kNocAddr);
        const std::uint32_t payload = slot + a_.header_bytes;
        switch (type) {
            case NocSendType::NOC_UNICAST_WRITE:
                if (size) noc_async_write_one_packet_with_trid(payload, addr, size, trid, fnoc());
                return true;
            case NocSendType::NOC_UNICAST_INLINE_WRITE:
                noc_inline_dw_write(addr, l1_read_u32(slot + hdr::kValue), fnoc());
                return true;
            case NocSendType::NOC_UNICAST_ATOMIC_INC:
                noc_semaphore_inc(addr, l1_read_u32(slot + hdr::kValue), fnoc());
                return true;
            case NocSendType::NOC_FUSED_UNICAST_ATOMIC_INC:
                noc_async_write_fused_atomic_inc(payload, addr, size, rd64(hdr::kSemAddr),
                                                 l1_read_u32(slot + hdr::kValue), trid, fnoc());
                return true;
            case NocSendType::NOC_UNICAST_READ: return serve_read(slot, addr);
        }
        fw_assert(false, "fabric router: unknown NoC command in a packet header");
        return true;
    }

    /// Read the requested bytes into a slot of our reply channel and queue a
    /// fused write + increment back to the requester along the reply route.
    bool serve_read(std::uint32_t slot, std::uint64_t src) {
        const unsigned rc = a_.reply_channel;
        Sender& r = senders_[rc];
        if (reply_written_ - r.freed >= r.slots) return false;
        const std::uint32_t size = l1_read_u32(slot + hdr::kFlags);
        fw_assert(size + a_.header_bytes <= a_.slot_bytes, "fabric router: read request larger than a slot");
        const std::uint32_t out = sender_slot(rc, reply_written_);
        WAYPOINT("FRD");
        if (size) {
            noc_async_read(src, out + a_.header_bytes, size, fnoc());
            noc_async_read_barrier(fnoc());
        }
        PacketHeader h = fabric_read_header(slot, a_.header_bytes);
        PacketHeader reply;
        auto get64 = [&](std::uint32_t off) {
            return std::uint64_t(h.words[off / 4]) | (std::uint64_t(h.words[off / 4 + 1]) << 32);
        };
        reply.to_noc_fused_unicast_write_atomic_inc(get64(hdr::kSemAddr), get64(hdr::kReplySem), h.value(), size);
        reply.set_chips(h.dst_chip(), h.src_chip());
        if (!a_.is_2d) {
            reply.words[hdr::kRoute / 4] = h.words[hdr::kReplyRoute / 4];
        } else {
            reply.words[hdr::kRoute / 4] = 1;  // nibble 0 is this router's own hop
            for (unsigned i = 0; i < 4; ++i) reply.words[hdr::kRoute2d / 4 + i] = h.words[hdr::kReplyRoute2d / 4 + i];
        }
        fabric_write_header(out, reply, a_.header_bytes);
        ++reply_written_;
        l1_write_u32(l_.wr_counter(rc), reply_written_);
        WAYPOINT("FAB");
        return true;
    }

    // ---- the worker connection -----------------------------------------------------

    void connection_step() {
        const std::uint32_t state = l_.connection + conn::kState;
        if (!worker_open_) {
            if (!l1_word_is(state, conn::kOpen)) return;
            const std::uint32_t xy = l1_read_u32(l_.connection + conn::kWorkerXY);
            worker_x_ = xy >> 16;
            worker_y_ = xy & 0xffff;
            worker_rd_ = l1_read_u32(l_.connection + conn::kWorkerRd);
            worker_open_ = true;
            return;
        }
        if (!l1_word_is(state, conn::kCloseRequested)) return;
        // Every packet the worker wrote must have left our slots.
        Sender& w = senders_[kWorkerChannel];
        if (!l1_word_is(l_.wr_counter(kWorkerChannel), w.freed)) return;
        noc_inline_dw_write(get_noc_addr(worker_x_, worker_y_, l1_read_u32(l_.connection + conn::kWorkerTeardown)), 1,
                            cnoc());
        l1_write_u32(state, conn::kClosed);
        worker_open_ = false;
    }

    FabricRouterArgs a_;
    RouterLayout l_;
    Dir dir_;
    Sender senders_[kMaxSenderChannels];
    std::uint32_t total_sent_ = 0;
    std::uint32_t total_completed_ = 0;
    std::uint32_t processed_ = 0;   ///< packets taken from the receiver channel
    std::uint32_t acked_ = 0;       ///< first-level acks sent
    std::uint32_t decoded_ = ~0u;   ///< the packet whose header was decoded
    std::uint32_t completing_ = 0;  ///< completions sent
    std::vector<std::uint32_t> rx_src_;  ///< sender channel of each received slot (to credit)
    std::uint32_t forwarded_[kDirs] = {};
    std::uint32_t ds_freed_[kDirs] = {};
    std::uint32_t reply_written_ = 0;
    bool worker_open_ = false;
    std::uint32_t worker_x_ = 0, worker_y_ = 0, worker_rd_ = 0;
};

}  // namespace

void fabric_router_main() {
    const FabricRouterArgs a = read_fabric_args<FabricRouterArgs>();
    fw_assert(a.n_senders >= 2 && a.n_senders <= kMaxSenderChannels, "fabric router: bad number of sender channels");
    fw_assert(a.rx_slots >= 1 && a.rx_slots <= NOC_MAX_TRANSACTION_ID_COUNT,
              "fabric router: receiver slots must be 1..16 (one NoC transaction id each)");
    Router r(a);
    r.run();
}

}  // namespace cclsim::fw::fabric_fw
