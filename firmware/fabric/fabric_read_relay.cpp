// Fabric read relay: serves the remote reads that arrive at one router
// (tt-metal's UDM mode: fabric_router_relay_extension on a Tensix core beside
// each router, answering with tt_fabric_udm's fabric_fast_read_ack).
//
// Wormhole's fabric has no remote read of its own: a read request is a
// header-only packet that the owner answers by writing. The router hands
// each request it must perform on this chip to the relay (a NoC write of the
// header into one of the relay's request slots, then an increment of its
// counter); the relay copies the request into its registered-response queue
// at once and gives the slot back, so the router never waits on a reply. It
// then answers the queue in order: reads up to `pool_slots` pieces of the
// fabric's largest payload from the source into its staging pool (one read
// barrier), and sends each piece back as a write packet through its own
// fabric connection (the router's worker channel, shared through a mux);
// the request's last piece is a fused write + increment of the requester's
// reply counter, so one request of any length is one increment.
//
//   requester               router (chip of the data)        relay
//   read request --------->  NoC write header -> slot s -->   queue += request
//                            inc relay wr_counter -------->   inc router relay_free
//                                                              NoC read pieces -> pool
//   data lands <----------- (worker channel) <------------   write, ..., write + inc
//
// The relay never blocks on the fabric: while its connection has no free
// slot it keeps taking requests, so requests and replies (both on VC0) never
// wait on each other in a cycle. The queue's capacity comes from the host
// (the relay's free L1 in 32 B entries, as tt-metal's RegisteredResponsePool);
// overflowing it is an error, as it is an assertion there.
//
// Args: FabricReadRelayArgs (firmware/fabric/fabric_types.h), end marker 0xFAB0.
#include "firmware/api/fabric_api.h"
#include "firmware/fabric/fabric_kernels.h"

#include <algorithm>
#include <deque>

namespace cclsim::fw::fabric_fw {

using namespace cclsim::fabric;

namespace {

class Relay {
public:
    explicit Relay(const FabricReadRelayArgs& a) : a_(a), conn_(a.conn) {}

    void run() {
        conn_.open();
        WAYPOINT("FRLY");
        for (;;) {
            take_requests();
            if (sent_ < staged_) {
                send_piece();
            } else if (!queue_.empty()) {
                stage();
            } else {
                wait_for_request();
            }
        }
    }

private:
    /// One registered request (tt-metal: RegisteredResponse, 32 B).
    struct Request {
        std::uint64_t src = 0;        ///< where the data is (this chip)
        std::uint64_t dst = 0;        ///< where it goes (requester's chip)
        std::uint64_t reply_sem = 0;  ///< incremented by the last piece
        std::uint32_t size = 0, done = 0, inc = 0;
        std::uint32_t chips = 0, route = 0, stream = 0;
    };
    /// A staged piece: pool slot i holds bytes [off, off + len) of the head request.
    struct Piece {
        std::uint32_t off = 0, len = 0;
    };

    std::uint32_t request_slot(std::uint32_t i) const { return a_.requests + (i % a_.request_slots) * a_.header_bytes; }
    std::uint32_t pool_slot(std::uint32_t i) const { return a_.pool + i * a_.pool_slot_bytes; }

    /// Every request the router handed over: into the queue, its slot back.
    void take_requests() {
        while (l1_word_is_not(a_.wr_counter, taken_)) {
            const PacketHeader h = fabric_read_header(request_slot(taken_), a_.header_bytes);
            fw_assert(h.noc_send_type() == NocSendType::NOC_UNICAST_READ, "fabric read relay: not a read request");
            fw_assert(queue_.size() < a_.max_registered,
                      "fabric read relay: registered-response queue full (more reads outstanding than its L1 holds)");
            Request r;
            r.src = h.noc_addr();
            r.dst = h.sem_noc_addr();
            r.reply_sem = h.reply_sem_noc_addr();
            r.size = h.read_size();
            r.inc = h.value();
            r.stream = h.stream();  // the op's link accounting
            // The reply goes back to the requester: chips swapped, the reverse route.
            r.chips = (h.dst_chip() & 0xffff) | (h.src_chip() << 16);
            r.route = h.words[hdr::kReplyRoute / 4];
            queue_.push_back(r);
            ++taken_;
            noc_semaphore_inc(get_noc_addr(a_.router_x, a_.router_y, a_.router_free), 1);
            trace_value(0, taken_);
        }
    }

    /// Read the head request's next pieces into the pool (blocking on the reads only).
    void stage() {
        Request& r = queue_.front();
        staged_ = sent_ = 0;
        std::uint32_t off = r.done;
        do {
            const std::uint32_t len = std::min(a_.max_payload, r.size - off);
            if (len) noc_async_read(r.src + off, pool_slot(staged_), len);
            pieces_[staged_++] = {off, len};
            off += len;
        } while (off < r.size && staged_ < a_.pool_slots);
        noc_async_read_barrier();
    }

    /// Send the next staged piece if the connection has a free slot.
    void send_piece() {
        if (!conn_.edm_has_space_for_packet()) return;
        Request& r = queue_.front();
        const Piece p = pieces_[sent_];
        PacketHeader h;
        const bool last = p.off + p.len == r.size;
        if (last)
            h.to_noc_fused_unicast_write_atomic_inc(r.dst + p.off, r.reply_sem, r.inc, p.len);
        else
            h.to_noc_unicast_write(r.dst + p.off, p.len);
        h.set_stream(r.stream);
        h.words[hdr::kChips / 4] = r.chips;
        h.words[hdr::kRoute / 4] = r.route;
        conn_.send_packet(h, pool_slot(sent_), p.len);
        ++sent_;
        r.done = p.off + p.len;
        ++replies_;
        trace_value(1, replies_);
        if (sent_ == staged_) {
            // The pool is refilled only once its payloads have left L1.
            noc_async_writes_flushed();
            if (last) queue_.pop_front();
        }
    }

    /// Nothing to do: a modelled spin on the request counter.
    void wait_for_request() {
        while (!l1_word_is_not(a_.wr_counter, taken_)) {
        }
    }

    FabricReadRelayArgs a_;
    WorkerToFabricEdmSender conn_;
    std::deque<Request> queue_;
    Piece pieces_[kMaxRelayPoolSlots];
    std::uint32_t taken_ = 0;              ///< requests taken from the slots
    std::uint32_t staged_ = 0, sent_ = 0;  ///< pieces in the pool, and sent of them
    std::uint32_t replies_ = 0;            ///< reply packets sent
};

}  // namespace

void fabric_read_relay_main() {
    const FabricReadRelayArgs a = read_fabric_args<FabricReadRelayArgs>();
    fw_assert(a.pool_slots >= 1 && a.pool_slots <= kMaxRelayPoolSlots, "fabric read relay: 1..16 pool slots");
    fw_assert(a.request_slots >= 1, "fabric read relay: no request slots");
    Relay r(a);
    r.run();
}

}  // namespace cclsim::fw::fabric_fw
