// Types shared by the fabric router firmware, the fabric mux, the worker-side
// fabric API and the host-side FabricBuilder: directions, packet commands,
// the packet header's byte layout and the runtime-argument layouts.
//
// The packet header (tt-metal: PacketHeader / LowLatencyPacketHeader for 1D,
// HybridMeshPacketHeader for 2D) is written by the sender into L1 and travels
// in front of the payload in every channel slot. Its size on the wire is a
// configuration value (arch YAML `fabric.header_bytes_1d` / `_2d`: 48 B for 1D
// routes of up to 16 hops, 64 B beyond, 96 B for 2D); the fields below use the
// first 48 (1D) or 80 (2D) bytes of it:
//
//   off  size  field
//    0    1    noc_send_type (NocSendType, bits 0..2) | stream << 3: the op
//              that sent the packet (bits 3..7; not in tt-metal, simulator
//              bookkeeping for the per-op link accounting of concurrent runs;
//              0: untagged)
//    1    1    src_ch_id: the sender channel of the router that sent it last
//    2    2    payload_size_bytes
//    4    4    route: 1D two bits per remaining hop (low bits = next chip),
//              2D the index of the next route nibble
//    8    8    noc_addr: write/atomic target (read: source) on the destination chip
//   16    8    sem_noc_addr: fused increment target (read: where the reply is written;
//              scatter write: the second chunk's address)
//   24    4    value: inline value / atomic addend (read: reply increment; scatter
//              write: chunk size | chunk count << 16)
//   28    2    src_chip      30  2  dst_chip
//   32    4    flags
//   36    4    reply_route (1D read requests: the route back)
//   40    8    reply_sem_noc_addr (read requests: incremented when the reply lands;
//              scatter write: the third chunk's address, the fourth at 32..39)
//   48   12    1D route extension words (routes of 17..64 hops; 64 B header)
//   48   16    2D route: one nibble per chip from the sender on (Dir, or kLocal)
//   64   16    2D reply route (read requests)
#pragma once

#include <cstdint>
#include <string>

namespace cclsim::fabric {

/// A router's link direction on its chip. 1D fabrics use E (towards the
/// next chip of the line/ring order) and W (towards the previous one).
enum class Dir : std::uint32_t { E = 0, W = 1, N = 2, S = 3 };
constexpr unsigned kDirs = 4;
constexpr const char* dirName(Dir d) {
    return d == Dir::E ? "E" : d == Dir::W ? "W" : d == Dir::N ? "N" : "S";
}
constexpr Dir opposite(Dir d) {
    return d == Dir::E ? Dir::W : d == Dir::W ? Dir::E : d == Dir::N ? Dir::S : Dir::N;
}
/// E/W is the X axis, N/S the Y axis.
constexpr bool isX(Dir d) {
    return d == Dir::E || d == Dir::W;
}

/// What the destination router does with a packet (tt-metal NocSendType).
enum class NocSendType : std::uint8_t {
    NOC_UNICAST_WRITE = 0,
    NOC_UNICAST_INLINE_WRITE = 1,
    NOC_UNICAST_ATOMIC_INC = 2,
    NOC_FUSED_UNICAST_ATOMIC_INC = 3,  ///< write, then increment a semaphore
    NOC_UNICAST_SCATTER_WRITE = 4,     ///< the payload in 2..4 chunks to as many NoC addresses
    NOC_UNICAST_READ = 7,              ///< read; the reply comes back as a fused write
};
const char* nocSendTypeName(NocSendType t);

/// 1D low-latency routing: two bits per hop (tt-metal RoutingFieldsConstants::LowLatency).
namespace route1d {
constexpr std::uint32_t NOOP = 0;
constexpr std::uint32_t WRITE_ONLY = 1;    ///< this chip is the destination
constexpr std::uint32_t FORWARD_ONLY = 2;  ///< pass it on in the same direction
constexpr std::uint32_t WRITE_AND_FORWARD = 3;
constexpr unsigned kHopsPerWord = 16;
constexpr unsigned kMaxHops = 64;  ///< four route words (64 B header)
}  // namespace route1d

/// 2D routing: one nibble per chip on the path, from the sender's own hop.
namespace route2d {
constexpr std::uint32_t kLocal = 0xF;  ///< deliver at this chip
constexpr unsigned kMaxHops = 31;      ///< 32 nibbles, the last one kLocal
}  // namespace route2d

namespace hdr {
constexpr std::uint32_t kCmd = 0;  ///< noc_send_type | src_ch_id << 8 | payload_size << 16
constexpr std::uint32_t kRoute = 4;
constexpr std::uint32_t kNocAddr = 8;
constexpr std::uint32_t kSemAddr = 16;
constexpr std::uint32_t kValue = 24;
constexpr std::uint32_t kChips = 28;  ///< src_chip | dst_chip << 16
constexpr std::uint32_t kFlags = 32;
constexpr std::uint32_t kFlagFlush = 1;  ///< atomic increment: flush earlier writes first
constexpr std::uint32_t kReplyRoute = 36;
constexpr std::uint32_t kReplySem = 40;
constexpr std::uint32_t kRouteExt = 48;  ///< 1D: three more route words
constexpr std::uint32_t kRoute2d = 48;   ///< 2D: 16 bytes of nibbles
constexpr std::uint32_t kReplyRoute2d = 64;
/// Scatter write: where each chunk's NoC address is (tt-metal's
/// NocUnicastScatterCommandHeader, NOC_SCATTER_WRITE_MAX_CHUNKS = 4; fields a
/// write does not use: the increment's, the read's and the flags).
constexpr unsigned kScatterMaxChunks = 4;
constexpr std::uint32_t kScatterAddr[kScatterMaxChunks] = {kNocAddr, kSemAddr, kReplySem, kFlags};
constexpr std::uint32_t kMinBytes1d = 48;
constexpr std::uint32_t kMinBytes1dLong = 64;
constexpr std::uint32_t kMinBytes2d = 80;
constexpr std::uint32_t kWords = 24;       ///< 96 B: the largest header we build
constexpr std::uint32_t kTypeMask = 0x7;   ///< noc_send_type bits of word 0
constexpr std::uint32_t kStreamShift = 3;  ///< stream tag: bits 3..7 of word 0
constexpr std::uint32_t kMaxStream = 31;
/// The stream tag of a header's command word (0: untagged).
constexpr std::uint32_t stream_of(std::uint32_t cmd) {
    return (cmd >> kStreamShift) & kMaxStream;
}
}  // namespace hdr

/// A packet header in host/firmware form; `words` is its L1 image.
struct PacketHeader {
    std::uint32_t words[hdr::kWords] = {};

    NocSendType noc_send_type() const { return NocSendType(words[0] & hdr::kTypeMask); }
    std::uint32_t stream() const { return hdr::stream_of(words[0]); }
    /// Tag the packet with the op that sends it (after the to_noc_* call).
    PacketHeader& set_stream(std::uint32_t s) {
        words[0] = (words[0] & ~(hdr::kMaxStream << hdr::kStreamShift)) | ((s & hdr::kMaxStream) << hdr::kStreamShift);
        return *this;
    }
    std::uint32_t src_ch_id() const { return (words[0] >> 8) & 0xff; }
    std::uint32_t payload_size_bytes() const { return words[0] >> 16; }
    std::uint64_t noc_addr() const { return get64(hdr::kNocAddr); }
    std::uint64_t sem_noc_addr() const { return get64(hdr::kSemAddr); }
    std::uint32_t value() const { return words[hdr::kValue / 4]; }
    std::uint32_t src_chip() const { return words[hdr::kChips / 4] & 0xffff; }
    std::uint32_t dst_chip() const { return words[hdr::kChips / 4] >> 16; }

    PacketHeader& to_noc_unicast_write(std::uint64_t noc_addr, std::uint32_t size) {
        set_cmd(NocSendType::NOC_UNICAST_WRITE, size);
        set64(hdr::kNocAddr, noc_addr);
        return *this;
    }
    PacketHeader& to_noc_unicast_inline_write(std::uint64_t noc_addr, std::uint32_t value) {
        set_cmd(NocSendType::NOC_UNICAST_INLINE_WRITE, 0);
        set64(hdr::kNocAddr, noc_addr);
        words[hdr::kValue / 4] = value;
        return *this;
    }
    /// `flush` (tt-metal's NocUnicastAtomicIncCommandHeader::flush, true
    /// unless the kernel says otherwise): the destination router first waits
    /// until every write it performed before is acknowledged, so a semaphore
    /// that follows separate data packets never overtakes them.
    PacketHeader& to_noc_unicast_atomic_inc(std::uint64_t noc_addr, std::uint32_t val, bool flush = true) {
        set_cmd(NocSendType::NOC_UNICAST_ATOMIC_INC, 0);
        set64(hdr::kNocAddr, noc_addr);
        words[hdr::kValue / 4] = val;
        words[hdr::kFlags / 4] = flush ? hdr::kFlagFlush : 0u;
        return *this;
    }
    /// Scatter write (tt-metal NocUnicastScatterCommandHeader): the payload
    /// in `count` (2..4) chunks to `addrs[0..count)`, the first count - 1 of
    /// `chunk` bytes each, the last the rest of the `size` bytes (tt-metal's
    /// collectives send a packet's tiles to their pages this way; its header
    /// carries every chunk's size, the model's one, as its tiles are equal).
    PacketHeader& to_noc_unicast_scatter_write(const std::uint64_t* addrs, unsigned count, std::uint32_t chunk,
                                               std::uint32_t size) {
        set_cmd(NocSendType::NOC_UNICAST_SCATTER_WRITE, size);
        for (unsigned i = 0; i < count && i < hdr::kScatterMaxChunks; ++i) set64(hdr::kScatterAddr[i], addrs[i]);
        words[hdr::kValue / 4] = (chunk & 0xffffu) | (count << 16);
        return *this;
    }
    /// Two chunks: bytes [0, first_size) to `noc_addr`, the rest to `noc_addr2`.
    PacketHeader& to_noc_unicast_scatter_write(std::uint64_t noc_addr, std::uint64_t noc_addr2,
                                               std::uint32_t first_size, std::uint32_t size) {
        const std::uint64_t addrs[2] = {noc_addr, noc_addr2};
        return to_noc_unicast_scatter_write(addrs, 2, first_size, size);
    }
    /// `flush` (tt-metal's NocUnicastAtomicIncFusedCommandHeader::flush,
    /// true unless the kernel says otherwise): the destination router issues
    /// the write, then waits until every write of its receiver channel is
    /// acknowledged (the forward of a multicast included) and only then
    /// increments. Without it the increment follows the write at once.
    PacketHeader& to_noc_fused_unicast_write_atomic_inc(std::uint64_t noc_addr, std::uint64_t sem_noc_addr,
                                                        std::uint32_t val, std::uint32_t size, bool flush = true) {
        set_cmd(NocSendType::NOC_FUSED_UNICAST_ATOMIC_INC, size);
        set64(hdr::kNocAddr, noc_addr);
        set64(hdr::kSemAddr, sem_noc_addr);
        words[hdr::kValue / 4] = val;
        words[hdr::kFlags / 4] = flush ? hdr::kFlagFlush : 0u;
        return *this;
    }
    /// Read `size` bytes at `src_noc_addr` on the destination chip; the reply
    /// is written to `reply_noc_addr` on this chip and increments
    /// `reply_sem_noc_addr` by `reply_inc` (set the reply route too).
    PacketHeader& to_noc_unicast_read(std::uint64_t src_noc_addr, std::uint32_t size, std::uint64_t reply_noc_addr,
                                      std::uint64_t reply_sem_noc_addr, std::uint32_t reply_inc) {
        set_cmd(NocSendType::NOC_UNICAST_READ, 0);
        words[hdr::kFlags / 4] = size;  // the read length travels in the flags word (no payload)
        set64(hdr::kNocAddr, src_noc_addr);
        set64(hdr::kSemAddr, reply_noc_addr);
        set64(hdr::kReplySem, reply_sem_noc_addr);
        words[hdr::kValue / 4] = reply_inc;
        return *this;
    }
    std::uint32_t read_size() const { return words[hdr::kFlags / 4]; }
    std::uint64_t reply_sem_noc_addr() const { return get64(hdr::kReplySem); }

    void set_chips(std::uint32_t src, std::uint32_t dst) { words[hdr::kChips / 4] = (src & 0xffff) | (dst << 16); }
    /// 1D: `hops` chips away (forward hops-1 times, then write).
    void set_route_1d(unsigned hops) { set_route_words(hdr::kRoute, hdr::kRouteExt, hops); }
    void set_reply_route_1d(unsigned hops) { words[hdr::kReplyRoute / 4] = route_word(hops, 0); }
    /// 1D line multicast (tt-metal: the low-latency multicast route): pass
    /// the first start-1 chips, then perform the command on `range` chips in
    /// a row (chips start .. start+range-1 hops away).
    void set_route_1d_multicast(unsigned start, unsigned range) {
        words[hdr::kRoute / 4] = mcast_word(start, range, 0);
        for (unsigned w = 1; w < 4; ++w) words[hdr::kRouteExt / 4 + w - 1] = mcast_word(start, range, w);
    }
    /// 2D: nibble i = what chip i of the path does (i = 0 the sender's own
    /// hop: the router it sends through); the last is route2d::kLocal.
    void set_route_2d(const std::uint8_t* nibbles, unsigned n) { set_nibbles(hdr::kRoute2d, nibbles, n); }
    void set_reply_route_2d(const std::uint8_t* nibbles, unsigned n) { set_nibbles(hdr::kReplyRoute2d, nibbles, n); }

    /// Two bits per hop of a multicast to chips start .. start+range-1 hops away.
    static std::uint32_t mcast_word(unsigned start, unsigned range, unsigned word) {
        std::uint32_t w = 0;
        const unsigned last = start + range - 1;  // hops are counted from 1
        for (unsigned h = word * route1d::kHopsPerWord; h < last && h < (word + 1) * route1d::kHopsPerWord; ++h) {
            const unsigned hop = h + 1;
            const std::uint32_t bits = hop < start   ? route1d::FORWARD_ONLY
                                       : hop == last ? route1d::WRITE_ONLY
                                                     : route1d::WRITE_AND_FORWARD;
            w |= bits << (2 * (h % route1d::kHopsPerWord));
        }
        return w;
    }
    /// Two bits per hop for hops 16*word .. 16*word+15 of a route of `hops`.
    static std::uint32_t route_word(unsigned hops, unsigned word) {
        std::uint32_t w = 0;
        for (unsigned h = word * route1d::kHopsPerWord; h < hops && h < (word + 1) * route1d::kHopsPerWord; ++h)
            w |= (h + 1 == hops ? route1d::WRITE_ONLY : route1d::FORWARD_ONLY) << (2 * (h % route1d::kHopsPerWord));
        return w;
    }

private:
    void set_cmd(NocSendType t, std::uint32_t size) {
        words[0] = std::uint32_t(t) | (size << 16);
        words[hdr::kFlags / 4] = 0;
    }
    void set64(std::uint32_t off, std::uint64_t v) {
        words[off / 4] = std::uint32_t(v);
        words[off / 4 + 1] = std::uint32_t(v >> 32);
    }
    std::uint64_t get64(std::uint32_t off) const {
        return std::uint64_t(words[off / 4]) | (std::uint64_t(words[off / 4 + 1]) << 32);
    }
    void set_route_words(std::uint32_t first, std::uint32_t ext, unsigned hops) {
        words[first / 4] = route_word(hops, 0);
        for (unsigned w = 1; w < 4; ++w) words[ext / 4 + w - 1] = route_word(hops, w);
    }
    void set_nibbles(std::uint32_t off, const std::uint8_t* n, unsigned count) {
        for (unsigned i = 0; i < 4; ++i) words[off / 4 + i] = 0xffffffffu;
        for (unsigned i = 0; i < count && i < 32; ++i) {
            std::uint32_t& w = words[off / 4 + i / 8];
            const unsigned sh = 4 * (i % 8);
            w = (w & ~(0xfu << sh)) | (std::uint32_t(n[i] & 0xf) << sh);
        }
    }
};

/// Route nibble `i` of a 2D route stored at word offset `off` of a header image.
inline std::uint32_t route_nibble(const std::uint32_t* words, std::uint32_t off, unsigned i) {
    return (words[off / 4 + i / 8] >> (4 * (i % 8))) & 0xf;
}

/// A sender's view of one fabric channel it may write packets into: a router's
/// worker channel or a mux client channel (tt-metal WorkerToFabricEdmSender's
/// build-from-args). Host and kernel share this layout.
struct FabricConnectionArgs {
    std::uint32_t x = 0, y = 0;  ///< the router's (or mux's) core
    std::uint32_t buffer = 0;    ///< slot 0 of the channel in its L1
    std::uint32_t num_slots = 0;
    std::uint32_t slot_bytes = 0;  ///< header + largest payload
    std::uint32_t header_bytes = 0;
    std::uint32_t wr_counter = 0;      ///< its "packets written" word (we increment it)
    std::uint32_t rd_counter = 0;      ///< its copy of "slots freed" (read at open)
    std::uint32_t location = 0;        ///< its connection block: our xy, rd addr, teardown addr, state
    std::uint32_t local_rd = 0;        ///< our L1 word it writes "slots freed" into
    std::uint32_t local_teardown = 0;  ///< our L1 word it sets when a close is done
    std::uint32_t local_scratch = 0;   ///< 16 B of our L1 for the open handshake
    std::uint32_t header_pool = 0;     ///< num_slots headers of header_bytes in our L1
    template <class V> void visit(V& v) {
        v(x), v(y), v(buffer), v(num_slots), v(slot_bytes), v(header_bytes), v(wr_counter), v(rd_counter), v(location),
            v(local_rd), v(local_teardown), v(local_scratch), v(header_pool);
    }
};

/// The connection block of a channel that accepts worker connections.
namespace conn {
constexpr std::uint32_t kWorkerXY = 0;  ///< (x << 16) | y
constexpr std::uint32_t kWorkerRd = 4;  ///< L1 address of the worker's "slots freed" word
constexpr std::uint32_t kWorkerTeardown = 8;
constexpr std::uint32_t kState = 12;
constexpr std::uint32_t kClosed = 0, kOpen = 1, kCloseRequested = 2;
/// kState names, indexed by value (the router's worker_conn trace signal).
inline constexpr const char* kStateNames[] = {"CLOSED", "OPEN", "CLOSE_REQUESTED"};
constexpr std::uint32_t kBytes = 16;
}  // namespace conn

/// Sender channels of a router, on two virtual channels (VCs):
///   VC0  0            local workers, one connection at a time (a mux shares it)
///        1 .. U       packets forwarded by this chip's routers of the other
///                     directions (U = 1 on a 1D fabric, 3 on a 2D one)
///   VC1  U + 1        read replies this router makes itself
///        U + 2 .. 2U+1  read replies forwarded by the other routers
/// Each VC has its own receiver channel at the peer. Replies never wait for
/// VC0 resources, so a read request waiting for a reply slot cannot close a
/// cycle (request/reply deadlock).
constexpr unsigned kMaxSenderChannels = 8;
constexpr unsigned kWorkerChannel = 0;
constexpr unsigned kVcs = 2;
constexpr unsigned numUpstream(bool is2d) {
    return is2d ? 3 : 1;
}
constexpr unsigned replyChannel(bool is2d) {
    return numUpstream(is2d) + 1;
}
constexpr unsigned numSenderChannels(bool is2d) {
    return 2 * numUpstream(is2d) + 2;
}
constexpr unsigned channelVc(unsigned ch, bool is2d) {
    return ch > numUpstream(is2d) ? 1 : 0;
}

/// The sender channel (on `vc`) of the router of direction `router` that
/// takes packets arriving at this chip through the router of direction
/// `inbound` (2D: the other directions in E, W, N, S order).
constexpr unsigned upstreamChannel(Dir router, Dir inbound, bool is2d, unsigned vc = 0) {
    const unsigned base = vc ? replyChannel(is2d) + 1 : 1;
    if (!is2d) return base;
    unsigned ch = base;
    for (unsigned d = 0; d < kDirs; ++d) {
        if (Dir(d) == router) continue;
        if (Dir(d) == inbound) return ch;
        ++ch;
    }
    return 0;  // router == inbound: no such channel
}

/// L1 layout of a router; the same on every router of a fabric, so each
/// router writes its peer's words at its own addresses. Every word sits in
/// its own 16 B (NoC and Ethernet atomics).
struct RouterLayout {
    std::uint32_t handshake = 0;
    std::uint32_t rx_pkts_sent[kVcs] = {};  ///< packets the peer sent into our receiver of each VC
    std::uint32_t counters = 0;             ///< per sender channel: 4 words of 16 B (see below)
    std::uint32_t ds_free = 0;              ///< per VC and downstream direction: slots it freed for us
    std::uint32_t connection = 0;           ///< connection block of the worker channel
    std::uint32_t relay_free = 0;           ///< read relay: request slots it gave back (0: no relay)
    std::uint32_t sender_buffers[kMaxSenderChannels] = {};
    std::uint32_t rx_buffer[kVcs] = {};
    std::uint32_t end = 0;

    // Per sender channel c, at counters + c * 64:
    std::uint32_t wr_counter(unsigned c) const { return counters + c * 64; }  ///< producers increment
    std::uint32_t acked(unsigned c) const { return counters + c * 64 + 16; }  ///< the peer's receiver increments
    std::uint32_t completed(unsigned c) const { return counters + c * 64 + 32; }
    std::uint32_t rd_counter(unsigned c) const { return counters + c * 64 + 48; }  ///< slots freed (ours)
    std::uint32_t ds_free_of(unsigned vc, Dir d) const { return ds_free + (vc * kDirs + std::uint32_t(d)) * 16; }
};

/// Runtime arguments of a fabric router (firmware/fabric/fabric_router.cpp).
struct FabricRouterArgs {
    std::uint32_t dir = 0;  ///< Dir of this router's link
    std::uint32_t is_2d = 0;
    std::uint32_t chip = 0;  ///< this chip (logs and reports)
    std::uint32_t header_bytes = 0;
    std::uint32_t slot_bytes[kVcs] = {};  ///< header + max payload, per VC (VC1: read replies)
    std::uint32_t first_level_ack = 0;    ///< ack each packet on arrival (ring/torus)
    std::uint32_t bubble = 0;             ///< bubble flow control on this router's sender channels
    std::uint32_t handshake_sender = 0;
    std::uint32_t sender_slots[kMaxSenderChannels] = {};
    std::uint32_t injection_mask = 0;  ///< bit c: channel c injects into a ring (needs 2 free remote slots)
    std::uint32_t rx_slots[kVcs] = {};
    // Layout (the same on every router of the fabric).
    std::uint32_t l_handshake = 0, l_counters = 0, l_ds_free = 0, l_connection = 0;
    std::uint32_t l_rx_pkts_sent[kVcs] = {};
    std::uint32_t l_sender_buffers[kMaxSenderChannels] = {};
    std::uint32_t l_rx_buffer[kVcs] = {};
    /// Producer of each upstream sender channel: the router that forwards into
    /// it, packed (x << 16) | y (0xffffffff: none).
    std::uint32_t producer_xy[kMaxSenderChannels] = {};
    /// Downstream routers on this chip (for forwarding): packed (x << 16) | y
    /// per Dir, 0xffffffff where there is none; and their upstream channels'
    /// slots per VC.
    std::uint32_t downstream_xy[kDirs] = {};
    std::uint32_t downstream_slots[kVcs] = {};
    std::uint32_t forward_noc = 1;    ///< NoC of forwards and local writes
    std::uint32_t credit_noc = 0;     ///< NoC of credits to producers
    std::uint32_t packet_cycles = 0;  ///< header decode and routing per received packet

    template <class V> void visit(V& v) {
        v(dir), v(is_2d), v(chip), v(header_bytes);
        for (auto& b : slot_bytes) v(b);
        v(first_level_ack), v(bubble), v(handshake_sender);
        for (auto& s : sender_slots) v(s);
        v(injection_mask);
        for (auto& r : rx_slots) v(r);
        v(l_handshake), v(l_counters), v(l_ds_free), v(l_connection);
        for (auto& r : l_rx_pkts_sent) v(r);
        for (auto& b : l_sender_buffers) v(b);
        for (auto& b : l_rx_buffer) v(b);
        for (auto& p : producer_xy) v(p);
        for (auto& d : downstream_xy) v(d);
        for (auto& d : downstream_slots) v(d);
        v(forward_noc), v(credit_noc), v(packet_cycles);
    }
    RouterLayout layout() const {
        RouterLayout l;
        l.handshake = l_handshake;
        l.counters = l_counters;
        l.ds_free = l_ds_free;
        l.connection = l_connection;
        for (unsigned v = 0; v < kVcs; ++v) {
            l.rx_pkts_sent[v] = l_rx_pkts_sent[v];
            l.rx_buffer[v] = l_rx_buffer[v];
        }
        for (unsigned c = 0; c < kMaxSenderChannels; ++c) l.sender_buffers[c] = l_sender_buffers[c];
        return l;
    }
};

/// Runtime arguments of a fabric mux (firmware/fabric/fabric_mux.cpp): N
/// client channels, each with its own connection block, drained into one
/// router worker channel.
constexpr unsigned kMaxMuxClients = 16;
struct FabricMuxArgs {
    std::uint32_t n_clients = 0;
    std::uint32_t client_slots = 0;
    std::uint32_t slot_bytes = 0;
    std::uint32_t header_bytes = 0;
    std::uint32_t buffers = 0;      ///< client c's slots at buffers + c * client_slots * slot_bytes
    std::uint32_t counters = 0;     ///< client c: wr_counter, rd_counter at counters + c * 32 (+0, +16)
    std::uint32_t connections = 0;  ///< client c's connection block at connections + c * 16
    FabricConnectionArgs router;    ///< our connection to the router's worker channel
    template <class V> void visit(V& v) {
        v(n_clients), v(client_slots), v(slot_bytes), v(header_bytes), v(buffers), v(counters), v(connections);
        router.visit(v);
    }
};

/// Compile-time arguments of a fabric router (tt-metal compiles UDM mode into
/// the router): after the idle rounds, its read relay (kNoCore: none, the
/// router serves reads itself on VC1), the relay's request slots and counter,
/// and the router's word the relay gives slots back in.
namespace router_ct {
constexpr unsigned kIdleRounds = 0, kRelayXY = 1, kRelayRequests = 2, kRelaySlots = 3, kRelayWrCounter = 4,
                   kRelayFree = 5, kTxqAcceptAhead = 6, kCount = 7;
}  // namespace router_ct

/// Runtime arguments of a fabric read relay (firmware/fabric/fabric_read_relay.cpp):
/// the request slots its router writes into, its staging pool and its fabric
/// connection (the router's worker channel, through a mux).
constexpr unsigned kMaxRelayPoolSlots = 16;
struct FabricReadRelayArgs {
    std::uint32_t header_bytes = 0;
    std::uint32_t requests = 0;  ///< request slot i at requests + (i % request_slots) * header_bytes
    std::uint32_t request_slots = 0;
    std::uint32_t wr_counter = 0;  ///< requests the router handed over (it increments)
    std::uint32_t router_x = 0, router_y = 0;
    std::uint32_t router_free = 0;  ///< the router's word we increment per slot given back
    std::uint32_t pool = 0;         ///< staging slot i at pool + i * pool_slot_bytes
    std::uint32_t pool_slots = 0, pool_slot_bytes = 0;
    std::uint32_t max_payload = 0;     ///< largest reply piece (the fabric's payload)
    std::uint32_t max_registered = 0;  ///< requests the queue holds (32 B each in the relay's free L1)
    FabricConnectionArgs conn;
    template <class V> void visit(V& v) {
        v(header_bytes), v(requests), v(request_slots), v(wr_counter), v(router_x), v(router_y), v(router_free),
            v(pool), v(pool_slots), v(pool_slot_bytes), v(max_payload), v(max_registered);
        conn.visit(v);
    }
};

/// Ends the runtime arguments of the fabric kernels.
constexpr std::uint32_t kArgsEndMarker = 0xFAB0;

constexpr std::uint32_t packXY(std::uint32_t x, std::uint32_t y) {
    return (x << 16) | y;
}
constexpr std::uint32_t kNoCore = 0xffffffffu;

}  // namespace cclsim::fabric
