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
// Channels (each a ring of equal slots of header + largest payload in L1),
// on two virtual channels:
//   VC0 sender 0        local workers, one connection at a time (a mux shares it)
//   VC0 sender 1 (..3)  packets forwarded by this chip's other routers
//                       (1D: the router of the opposite direction; 2D: one per
//                       other direction)
//   VC1 sender          read replies this router makes, and (one per other
//                       direction) replies forwarded by the other routers
//   receiver per VC     packets from the peer router over Ethernet
// A read request (VC0) that finds the reply channel full waits; replies
// (VC1) never wait for VC0, so requests and replies cannot wait on each
// other in a cycle. In UDM mode (a read relay beside the router, as tt-metal
// builds it) the router only hands read requests to the relay, which answers
// them with ordinary write packets through the worker channel.
//
// Flow control uses free-running counters (32-bit words that only grow,
// incremented by NoC atomics or Ethernet register writes, so no update is
// ever lost or needs a reset):
//
//   producer (worker/router)      this router                    peer router
//   write slot, inc wr_counter -> wr_counter != sent
//                                 eth send slot -> rx slot ---->  (same address, same VC)
//                                 remote reg: rx_pkts_sent += 1 -> new packet
//                                                    acked[c] += 1 <- (ring/torus: first-level ack, on arrival)
//                                                                   forward / perform the command
//                                                completed[c] += 1 <- its NoC writes left the slot
//   "slots freed" <-------------- on ack (ring/torus) or completion:
//   (worker: inline write of rd;   the sender slot is free again
//    router: inc its ds_free)
//
// A sender may send when the peer's receiver of its VC has a free slot:
// rx_slots - (sent - completed) >= 1, or >= 2 for an *injection* channel on
// a ring or a wrapped torus axis (bubble flow control: a channel that brings
// new packets into a ring never takes its last free slot, so packets already
// in the ring can always move and the ring cannot deadlock). Lines and meshes
// without wraparound cannot form a cycle of channels with dimension-ordered
// routes (replies retrace their request's path: one turn order per VC).
//
// The main loop steps every sender channel, then each receiver, then the
// worker connection; each step moves at most one packet. Every status read
// is a modelled spin-loop read (an idle router sleeps until a word changes).
//
// Context switch: the loop counts rounds that moved nothing and calls
// run_routing() after the compile-time number of them (tt-metal's fabric EDM,
// WAIT_FOR_IDLE), so a link retrain completes once the router is idle.
//
// Args: compile-time (router_ct): idle rounds before a context switch and the
// read relay of UDM mode (firmware/fabric/fabric_read_relay.cpp); runtime:
// FabricRouterArgs (firmware/fabric/fabric_types.h), end marker 0xFAB0.
#include "firmware/api/eth_dataflow_api.h"
#include "firmware/api/fabric_api.h"
#include "firmware/fabric/fabric_kernels.h"

#include <vector>

namespace cclsim::fw::fabric_fw {

using namespace cclsim::fabric;

namespace {

/// Payloads, acks and completions all go on tx_cmd_q 0, as tt-metal's
/// Wormhole router sends them (its receiver tx queue is a second queue only
/// on Blackhole): the Ethernet guide gives kernels q0 alone (q1 is reserved).
/// A credit waits in the MAC's FIFO behind the payload on the wire.
constexpr std::uint32_t kDataTxq = 0;
constexpr std::uint32_t kCreditTxq = 0;

std::uint32_t round16(std::uint32_t n) {
    return (n + 15) / 16 * 16;
}

class Router {
public:
    Router(const FabricRouterArgs& a, std::uint32_t idle_rounds)
        : a_(a),
          idle_rounds_(idle_rounds),
          relay_{get_compile_time_arg_val(router_ct::kRelayXY), get_compile_time_arg_val(router_ct::kRelayRequests),
                 get_compile_time_arg_val(router_ct::kRelaySlots), get_compile_time_arg_val(router_ct::kRelayWrCounter),
                 get_compile_time_arg_val(router_ct::kRelayFree)},
          l_(a.layout()),
          dir_(Dir(a.dir)),
          is2d_(a.is_2d != 0),
          n_senders_(numSenderChannels(is2d_)),
          reply_(replyChannel(is2d_)) {
        for (unsigned c = 0; c < n_senders_; ++c) {
            senders_[c].slots = a_.sender_slots[c];
            senders_[c].vc = channelVc(c, is2d_);
        }
        for (unsigned v = 0; v < kVcs; ++v) rx_[v].src.resize(a_.rx_slots[v]);
    }

    void run() {
        // As tt-metal's router: let the queue accept packets ahead of the wire,
        // so a send returns while the previous payload is still going out.
        if (const std::uint32_t ahead = get_compile_time_arg_val(router_ct::kTxqAcceptAhead))
            eth_txq_reg_write(kDataTxq, ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD, ahead);
        eth_setup_handshake(l_.handshake, a_.handshake_sender != 0);
        WAYPOINT("FAB");
        for (;;) {
            steady_.point();
            const std::uint64_t before = progress();
            for (unsigned c = 0; c < n_senders_; ++c) sender_step(c);
            for (unsigned v = 0; v < kVcs; ++v) receiver_step(v);
            connection_step();
            run_routing_when_idle(progress() != before, idle_rounds_);
        }
    }

private:
    SteadyService steady_;  ///< pauses with fast-forward skips
    /// Grows with everything the router does (a round that left it unchanged
    /// did nothing).
    std::uint64_t progress() const {
        std::uint64_t p = reply_written_ + relay_sent_ + (worker_open_ ? 1u : 0u);
        for (unsigned c = 0; c < n_senders_; ++c) p += senders_[c].sent + senders_[c].freed + senders_[c].completed;
        for (unsigned v = 0; v < kVcs; ++v) {
            p += rx_[v].processed + rx_[v].acked + rx_[v].completing + rx_[v].decoded + rx_[v].passed;
            for (unsigned d = 0; d < kDirs; ++d) p += forwarded_[v][d] + ds_freed_[v][d];
        }
        return p;
    }

    struct Sender {
        std::uint32_t slots = 0;
        unsigned vc = 0;
        std::uint32_t sent = 0;       ///< packets sent over Ethernet
        std::uint32_t freed = 0;      ///< slots given back to the producer
        std::uint32_t completed = 0;  ///< completions seen from the peer
    };
    struct Receiver {
        std::uint32_t processed = 0;     ///< packets taken (forwarded or performed)
        std::uint32_t acked = 0;         ///< first-level acks sent
        std::uint32_t completing = 0;    ///< completions sent
        std::uint32_t decoded = ~0u;     ///< the packet whose header was decoded
        std::uint32_t passed = ~0u;      ///< a multicast packet already forwarded (performing it here waits)
        std::vector<std::uint32_t> src;  ///< sender channel of each slot's packet (to credit)
    };

    std::uint32_t sender_slot(unsigned c, std::uint32_t i) const {
        return l_.sender_buffers[c] + (i % senders_[c].slots) * a_.slot_bytes[senders_[c].vc];
    }
    std::uint32_t rx_slot(unsigned v, std::uint32_t i) const {
        return l_.rx_buffer[v] + (i % a_.rx_slots[v]) * a_.slot_bytes[v];
    }
    std::uint32_t remote_free(unsigned v) const { return a_.rx_slots[v] - (total_sent_[v] - total_completed_[v]); }
    std::uint8_t fnoc() const { return std::uint8_t(a_.forward_noc); }
    std::uint8_t cnoc() const { return std::uint8_t(a_.credit_noc); }
    /// Transaction id of a received packet's NoC writes (VC1 shares the ids:
    /// a shared id only delays a completion until both writes have left).
    static std::uint32_t trid_of(std::uint32_t i) { return i % NOC_MAX_TRANSACTION_ID_COUNT; }

    // ---- sender channels ------------------------------------------------------

    void sender_step(unsigned c) {
        Sender& s = senders_[c];
        // Credits: slots of this channel the peer acked (ring/torus) or
        // completed. (Each status word is read once per pass: a spin loop
        // that re-reads a word it just found unchanged is idle.)
        if (l1_word_is_not(l_.completed(c), s.completed)) {
            const std::uint32_t done = l1_read_u32(l_.completed(c));
            total_completed_[s.vc] += done - s.completed;
            s.completed = done;
            if (!a_.first_level_ack) free_slots(c, done);
        }
        if (a_.first_level_ack && l1_word_is_not(l_.acked(c), s.freed)) free_slots(c, l1_read_u32(l_.acked(c)));
        // The next packet, if the producer wrote one and the peer has room.
        if (!l1_word_is_not(l_.wr_counter(c), s.sent)) return;
        const std::uint32_t need = (a_.bubble && (a_.injection_mask >> c & 1u)) ? 2 : 1;
        if (remote_free(s.vc) < need) return;
        if (eth_txq_is_busy(kDataTxq)) return;
        const std::uint32_t slot = sender_slot(c, s.sent);
        const std::uint32_t cmd = l1_read_u32(slot);
        const std::uint32_t payload = cmd >> 16;
        // Tell the receiving router which channel to credit.
        l1_write_u32(slot, (cmd & ~0xff00u) | (c << 8));
        const std::uint32_t bytes = a_.header_bytes + round16(payload);
        eth_send_packet(kDataTxq, slot >> 4, rx_slot(s.vc, total_sent_[s.vc]) >> 4, bytes >> 4, hdr::stream_of(cmd));
        // Behind the payload on the same queue: the receiver sees the data first.
        eth_write_remote_reg(kDataTxq, l_.rx_pkts_sent[s.vc], 1, hdr::stream_of(cmd));
        ++s.sent;
        ++total_sent_[s.vc];
        trace_value(0, total_sent_[0] + total_sent_[1]);
    }

    void free_slots(unsigned c, std::uint32_t upto) {
        Sender& s = senders_[c];
        while (s.freed != upto) {
            ++s.freed;
            credit_producer(c);
        }
    }

    void credit_producer(unsigned c) {
        if (c == reply_) return;  // our own channel
        if (c == kWorkerChannel) {
            const std::uint32_t rd = l1_read_u32(l_.rd_counter(c)) + 1;
            l1_write_u32(l_.rd_counter(c), rd);
            if (worker_open_) noc_inline_dw_write(get_noc_addr(worker_x_, worker_y_, worker_rd_), rd, cnoc());
            return;
        }
        // An upstream router: one more free slot in the channel it feeds.
        const std::uint32_t p = a_.producer_xy[c];
        noc_semaphore_inc(get_noc_addr(p >> 16, p & 0xffff, l_.ds_free_of(senders_[c].vc, dir_)), 1, cnoc());
    }

    // ---- receiver channels -------------------------------------------------------

    void receiver_step(unsigned v) {
        Receiver& r = rx_[v];
        // The credit queue is read at most once per step.
        int credit_q = -1;
        auto credit_q_free = [&] {
            if (credit_q < 0) credit_q = eth_txq_is_busy(kCreditTxq) ? 0 : 1;
            return credit_q == 1;
        };
        // Completions, in order: a slot is free once its NoC writes left it.
        if (r.completing != r.processed && noc_async_write_trid_flushed(trid_of(r.completing), fnoc()) &&
            credit_q_free()) {
            eth_write_remote_reg(kCreditTxq, l_.completed(r.src[r.completing % a_.rx_slots[v]]), 1);
            ++r.completing;
            credit_q = -1;
        }
        // First-level acks (ring/torus): every packet that landed, whether or
        // not it can move on yet; its sender's slot is free once it is here.
        if (a_.first_level_ack && l1_word_is_not(l_.rx_pkts_sent[v], r.acked) && credit_q_free()) {
            const std::uint32_t src = (l1_read_u32(rx_slot(v, r.acked)) >> 8) & 0xff;
            eth_write_remote_reg(kCreditTxq, l_.acked(src), 1);
            ++r.acked;
            credit_q = -1;
        }
        if (!l1_word_is_not(l_.rx_pkts_sent[v], r.processed)) return;
        const std::uint32_t slot = rx_slot(v, r.processed);
        const std::uint32_t cmd = l1_read_u32(slot);
        const std::uint32_t src_ch = (cmd >> 8) & 0xff;
        // Decoding the header and choosing the way (once per packet).
        if (r.decoded != r.processed) {
            spin_cycles(a_.packet_cycles);
            r.decoded = r.processed;
        }
        const std::uint32_t route = l1_read_u32(slot + hdr::kRoute);
        const std::uint32_t trid = trid_of(r.processed);
        bool local = false;
        Dir out = dir_;
        if (!is2d_) {
            const std::uint32_t bits = route & 3u;
            fw_assert(bits != route1d::NOOP, "fabric router: 1D route field is empty here (the hop count was wrong)");
            out = opposite(dir_);
            if (bits == route1d::WRITE_AND_FORWARD) {
                // Line multicast: pass it on, then perform it on this chip (once
                // each, whichever has to wait), in tt-metal's order
                // (receiver_forward_packet), so a flush on the local command
                // also waits for the forward.
                if (r.passed != r.processed) {
                    if (!forward(v, slot, cmd, route, out, trid)) return;
                    r.passed = r.processed;
                }
                if (!deliver(v, slot, cmd, trid)) return;
                r.src[r.processed % a_.rx_slots[v]] = src_ch;
                ++r.processed;
                trace_value(1, rx_[0].processed + rx_[1].processed);
                return;
            }
            local = bits == route1d::WRITE_ONLY;
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
            if (!deliver(v, slot, cmd, trid)) return;
        } else {
            if (!forward(v, slot, cmd, route, out, trid)) return;
        }
        r.src[r.processed % a_.rx_slots[v]] = src_ch;
        ++r.processed;
        trace_value(1, rx_[0].processed + rx_[1].processed);
    }

    /// Copy the packet into the sender channel (same VC) that router `out`
    /// keeps for packets from our direction; false if it has no free slot yet.
    bool forward(unsigned v, std::uint32_t slot, std::uint32_t cmd, std::uint32_t route, Dir out, std::uint32_t trid) {
        const std::uint32_t xy = a_.downstream_xy[unsigned(out)];
        fw_assert(xy != kNoCore, "fabric router: route leaves through a direction with no router on this chip");
        const unsigned d = unsigned(out);
        const std::uint32_t word = l_.ds_free_of(v, out);
        const std::uint32_t freed = l1_word_is_not(word, ds_freed_[v][d]) ? l1_read_u32(word) : ds_freed_[v][d];
        ds_freed_[v][d] = freed;
        if (forwarded_[v][d] - freed >= a_.downstream_slots[v]) return false;
        // Next hop's routing field.
        if (!is2d_) {
            l1_write_u32(slot + hdr::kRoute, route >> 2);
            if (a_.header_bytes >= hdr::kMinBytes1dLong) shift_route_ext(slot);
        } else {
            l1_write_u32(slot + hdr::kRoute, (route & ~0xffu) | ((route & 0xff) + 1));
        }
        const unsigned ch = upstreamChannel(out, dir_, is2d_, v);
        const std::uint32_t dst =
            l_.sender_buffers[ch] + (forwarded_[v][d] % a_.downstream_slots[v]) * a_.slot_bytes[v];
        const std::uint32_t x = xy >> 16, y = xy & 0xffff;
        noc_async_write_one_packet_with_trid(slot, get_noc_addr(x, y, dst), a_.header_bytes + round16(cmd >> 16), trid,
                                             fnoc());
        noc_semaphore_inc(get_noc_addr(x, y, l_.wr_counter(ch)), 1, fnoc());
        ++forwarded_[v][d];
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
    bool deliver(unsigned v, std::uint32_t slot, std::uint32_t cmd, std::uint32_t trid) {
        const auto type = NocSendType(cmd & hdr::kTypeMask);
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
            case NocSendType::NOC_UNICAST_SCATTER_WRITE: {
                // One NoC write per chunk under the slot's transaction id: the
                // slot is free once all of them have left it.
                const std::uint32_t word = l1_read_u32(slot + hdr::kValue);
                const std::uint32_t chunk = word & 0xffffu, count = word >> 16;
                fw_assert(count >= 2 && count <= hdr::kScatterMaxChunks,
                          "fabric router: a scatter write has 2..4 chunks (NOC_SCATTER_WRITE_MAX_CHUNKS)");
                fw_assert((count - 1) * chunk <= size,
                          "fabric router: scatter write's chunks are larger than its payload");
                for (std::uint32_t c = 0; c < count; ++c) {
                    const std::uint32_t off = c * chunk, len = c + 1 < count ? chunk : size - off;
                    if (len)
                        noc_async_write_one_packet_with_trid(payload + off, c ? rd64(hdr::kScatterAddr[c]) : addr, len,
                                                             trid, fnoc());
                }
                return true;
            }
            case NocSendType::NOC_UNICAST_INLINE_WRITE:
                noc_inline_dw_write(addr, l1_read_u32(slot + hdr::kValue), fnoc());
                return true;
            case NocSendType::NOC_UNICAST_ATOMIC_INC:
                if (l1_read_u32(slot + hdr::kFlags) & hdr::kFlagFlush) flush_write_to_noc_pipeline();
                noc_semaphore_inc(addr, l1_read_u32(slot + hdr::kValue), fnoc());
                return true;
            case NocSendType::NOC_FUSED_UNICAST_ATOMIC_INC:
                if (l1_read_u32(slot + hdr::kFlags) & hdr::kFlagFlush) {
                    // tt-metal's router with the header's flush: the write, then
                    // every write of the channel acknowledged, then the increment.
                    noc_async_write_one_packet_with_trid(payload, addr, size, trid, fnoc());
                    flush_write_to_noc_pipeline();
                    noc_semaphore_inc(rd64(hdr::kSemAddr), l1_read_u32(slot + hdr::kValue), fnoc());
                    return true;
                }
                noc_async_write_fused_atomic_inc(payload, addr, size, rd64(hdr::kSemAddr),
                                                 l1_read_u32(slot + hdr::kValue), trid, fnoc());
                return true;
            case NocSendType::NOC_UNICAST_READ:
                fw_assert(v == 0, "fabric router: a read request arrived on the reply VC");
                if (relay_.xy != kNoCore) return to_relay(slot, trid);
                return serve_read(slot, addr);
        }
        fw_assert(false, "fabric router: unknown NoC command in a packet header");
        return true;
    }

    /// Wait until every write the router issued on its forwarding NoC is
    /// acknowledged. tt-metal's flush_write_to_noc_pipeline polls each
    /// transaction id of the receiver channel (4 on a line, 8 on a ring) on
    /// the local-write and forwarding NoCs until none is outstanding; the
    /// model's local writes and forwards share one NoC and its ids, so one
    /// barrier (which also covers the packets' inline writes) is that
    /// condition in one poll. The whole router waits.
    void flush_write_to_noc_pipeline() { noc_async_write_barrier(fnoc()); }

    /// Hand a read request to this router's read relay (UDM mode): its header
    /// into the relay's next request slot, then an increment of its counter;
    /// false (wait) while every request slot is taken. The relay gives slots
    /// back as soon as it has registered them, so this never waits on a reply.
    bool to_relay(std::uint32_t slot, std::uint32_t trid) {
        if (l1_word_is_not(relay_.free_word, relay_freed_)) relay_freed_ = l1_read_u32(relay_.free_word);
        if (relay_sent_ - relay_freed_ >= relay_.slots) return false;
        const std::uint32_t x = relay_.xy >> 16, y = relay_.xy & 0xffff;
        const std::uint32_t dst = relay_.requests + (relay_sent_ % relay_.slots) * a_.header_bytes;
        noc_async_write_one_packet_with_trid(slot, get_noc_addr(x, y, dst), a_.header_bytes, trid, fnoc());
        noc_semaphore_inc(get_noc_addr(x, y, relay_.wr_counter), 1, fnoc());
        ++relay_sent_;
        return true;
    }

    /// Read the requested bytes into a slot of our reply channel (VC1) and
    /// queue a fused write + increment back to the requester along the reply
    /// route; false (wait) while the reply channel is full.
    bool serve_read(std::uint32_t slot, std::uint64_t src) {
        Sender& r = senders_[reply_];
        fw_assert(r.slots != 0, "fabric router: a read request on a fabric built without reads (no reply channel)");
        if (reply_written_ - r.freed >= r.slots) return false;
        const std::uint32_t size = l1_read_u32(slot + hdr::kFlags);
        fw_assert(size + a_.header_bytes <= a_.slot_bytes[1],
                  "fabric router: read request larger than the reply channel's slots (fabric.read_max_bytes)");
        const std::uint32_t out = sender_slot(reply_, reply_written_);
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
        // No flush: this reply (a router serving reads itself, without UDM's
        // relay) has no tt-metal counterpart.
        reply.to_noc_fused_unicast_write_atomic_inc(get64(hdr::kSemAddr), get64(hdr::kReplySem), h.value(), size,
                                                    /*flush=*/false);
        reply.set_chips(h.dst_chip(), h.src_chip());
        if (!is2d_) {
            reply.words[hdr::kRoute / 4] = h.words[hdr::kReplyRoute / 4];
        } else {
            reply.words[hdr::kRoute / 4] = 1;  // nibble 0 is this router's own hop
            for (unsigned i = 0; i < 4; ++i) reply.words[hdr::kRoute2d / 4 + i] = h.words[hdr::kReplyRoute2d / 4 + i];
        }
        fabric_write_header(out, reply, a_.header_bytes);
        ++reply_written_;
        l1_write_u32(l_.wr_counter(reply_), reply_written_);
        WAYPOINT("FAB");
        return true;
    }

    // ---- the worker connection -----------------------------------------------------

    void connection_step() {
        const std::uint32_t state = l_.connection + conn::kState;
        if (!worker_open_) {
            // A worker that opens and closes at once (a PTO rank with nothing
            // to send) may have requested the close before this router saw
            // the open: either state means a connection was made (tt-metal's
            // router accepts both as a connect request too).
            if (!l1_word_is_not(state, conn::kClosed)) return;  // kOpen or kCloseRequested
            const std::uint32_t xy = l1_read_u32(l_.connection + conn::kWorkerXY);
            worker_x_ = xy >> 16;
            worker_y_ = xy & 0xffff;
            worker_rd_ = l1_read_u32(l_.connection + conn::kWorkerRd);
            worker_open_ = true;
            trace_value(2, conn::kOpen);
            return;
        }
        if (!l1_word_is(state, conn::kCloseRequested)) return;
        trace_value(2, conn::kCloseRequested);  // draining the worker's packets
        // Every packet the worker wrote must have left our slots.
        Sender& w = senders_[kWorkerChannel];
        if (!l1_word_is(l_.wr_counter(kWorkerChannel), w.freed)) return;
        noc_inline_dw_write(get_noc_addr(worker_x_, worker_y_, l1_read_u32(l_.connection + conn::kWorkerTeardown)), 1,
                            cnoc());
        l1_write_u32(state, conn::kClosed);
        worker_open_ = false;
        trace_value(2, conn::kClosed);
    }

    FabricRouterArgs a_;
    std::uint32_t idle_rounds_;  ///< idle rounds before a context switch (tt-metal's SWITCH_INTERVAL)
    /// The read relay (UDM mode, compile-time args router_ct): core, request
    /// slots, their count, its request counter, our word it frees slots in.
    struct RelayCt {
        std::uint32_t xy, requests, slots, wr_counter, free_word;
    } relay_;
    RouterLayout l_;
    Dir dir_;
    bool is2d_;
    unsigned n_senders_;
    unsigned reply_;
    Sender senders_[kMaxSenderChannels];
    Receiver rx_[kVcs];
    std::uint32_t total_sent_[kVcs] = {};
    std::uint32_t total_completed_[kVcs] = {};
    std::uint32_t forwarded_[kVcs][kDirs] = {};
    std::uint32_t ds_freed_[kVcs][kDirs] = {};
    std::uint32_t reply_written_ = 0;
    std::uint32_t relay_sent_ = 0, relay_freed_ = 0;  ///< requests handed to the read relay, slots it freed
    bool worker_open_ = false;
    std::uint32_t worker_x_ = 0, worker_y_ = 0, worker_rd_ = 0;
};

}  // namespace

void fabric_router_main() {
    const FabricRouterArgs a = read_fabric_args<FabricRouterArgs>();
    // VC1 has no slots on a fabric without reads (FabricOptions::reads).
    for (unsigned v = 0; v < kVcs; ++v)
        fw_assert(a.rx_slots[v] >= (v == 0 ? 1u : 0u) && a.rx_slots[v] <= NOC_MAX_TRANSACTION_ID_COUNT,
                  "fabric router: receiver slots must be 1..16 (one NoC transaction id each)");
    Router r(a, get_compile_time_arg_val(router_ct::kIdleRounds));
    r.run();
}

}  // namespace cclsim::fw::fabric_fw
