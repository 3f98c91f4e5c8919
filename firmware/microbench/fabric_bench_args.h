// Runtime-argument layouts of the fabric microbenchmark kernels (shared by
// host/microbench/Fabric{Ping,Bandwidth,Traffic}.cpp and fabric_bench_kernels.cpp).
#pragma once

#include "firmware/fabric/fabric_types.h"

#include <cstdint>
#include <vector>

namespace cclsim::microbench {

constexpr std::uint32_t kFabricBenchEndMarker = 0xFB0E;

/// fabric_ping: the sender pings responders at 1, 2, ... hops in turn; each
/// responder echoes every packet back with the same command and size.
struct FabricPingArgs {
    std::uint32_t role = 0;     ///< 0 sender, 1 responder
    std::uint32_t mode = 0;     ///< 0 write (poll the data), 1 fused write + inc, 2 atomic inc only
    std::uint32_t samples = 0;  ///< measured round trips per target (one more unmeasured first)
    std::uint32_t payload = 0;  ///< payload bytes (multiple of 16; >= 16 in write mode)
    std::uint32_t tx = 0;       ///< L1: payload source (first word: the sample's sequence number)
    std::uint32_t rx = 0;       ///< L1: where echoes/pings land (same address on every core)
    std::uint32_t sem = 0;      ///< L1: semaphore of fused/atomic modes (same address everywhere)
    std::uint32_t results = 0;  ///< sender: per target sum, min, max round trip (cycles)
    std::uint32_t targets = 0;  ///< sender: number of responders; responder: its index
    std::uint32_t header_words = 0;
    cclsim::fabric::FabricConnectionArgs conn;
    template <class V> void visit(V& v) {
        v(role), v(mode), v(samples), v(payload), v(tx), v(rx), v(sem), v(results), v(targets), v(header_words);
        conn.visit(v);
    }
};

/// fabric_bandwidth: a sender streams `packets` fused write + increment
/// packets to its receiver, which waits for all increments.
struct FabricBandwidthArgs {
    std::uint32_t role = 0;  ///< 0 sender, 1 receiver
    std::uint32_t packets = 0;
    std::uint32_t payload = 0;
    std::uint32_t buffer = 0;   ///< sender: source; receiver: destination
    std::uint32_t sem = 0;      ///< receiver: counts packets
    std::uint32_t results = 0;  ///< sender: start timestamp; receiver: end timestamp (2 words each)
    std::uint32_t stream = 0;   ///< testbench byte stream of the payload
    std::uint32_t header_words = 0;
    cclsim::fabric::FabricConnectionArgs conn;
    template <class V> void visit(V& v) {
        v(role), v(packets), v(payload), v(buffer), v(sem), v(results), v(stream), v(header_words);
        conn.visit(v);
    }
};

/// fabric_ubench: tt-metal's fabric bandwidth patterns. A sender streams
/// `packets` write packets on each of its flows in turn (flow f on connection
/// flow_conn[f]), the last of each flow a fused write + increment; a
/// receiver waits for its flow's increment. Headers: one write and one fused
/// per flow (sender), none (receiver).
constexpr std::uint32_t kUbenchMaxFlows = 8;
constexpr std::uint32_t kUbenchMaxConns = 2;
struct FabricUbenchArgs {
    std::uint32_t role = 0;  ///< 0 sender, 1 receiver
    std::uint32_t packets = 0;
    std::uint32_t payload = 0;
    std::uint32_t buffer = 0;   ///< sender: source; receiver: where its flow's packets land (checked)
    std::uint32_t sem = 0;      ///< receiver: its flow's increment lands here
    std::uint32_t results = 0;  ///< sender: start timestamp; receiver: end timestamp (2 words each)
    std::uint32_t stream = 0;   ///< testbench byte stream of the payload (receiver: its flow's sender's)
    std::uint32_t header_words = 0;
    std::uint32_t n_flows = 0;  ///< sender
    std::uint32_t n_conns = 0;  ///< sender
    std::uint32_t fused = 0;    ///< every packet a fused write + increment (tt-metal ntype fused_atomic_inc)
    std::uint32_t flow_conn[kUbenchMaxFlows] = {};
    cclsim::fabric::FabricConnectionArgs conn[kUbenchMaxConns];
    template <class V> void visit(V& v) {
        v(role), v(packets), v(payload), v(buffer), v(sem), v(results), v(stream), v(header_words), v(n_flows),
            v(n_conns), v(fused);
        for (std::uint32_t& f : flow_conn) v(f);
        for (auto& c : conn) c.visit(v);
    }
};

/// fabric_traffic: every chip's senders send `messages` packets to every
/// other chip (one sender per first-hop direction), of pseudo-random size
/// and command; every chip's receiver checks each source's messages in
/// order. Slot i of a source's region holds message i; its first 16 bytes
/// carry the sequence number i + 1.
constexpr std::uint32_t kTrafficMaxPeers = 64;
struct FabricTrafficArgs {
    std::uint32_t role = 0;        ///< 0 sender, 1 receiver
    std::uint32_t chip = 0;        ///< this chip
    std::uint32_t messages = 0;    ///< per (source, destination) pair
    std::uint32_t max_bytes = 0;   ///< largest message (multiple of 16, >= 32)
    std::uint32_t slot_bytes = 0;  ///< stride of a message slot in a region
    std::uint32_t seed = 0;
    std::uint32_t reads = 0;      ///< sender: read requests per destination (verified)
    std::uint32_t read_max = 0;   ///< largest read the fabric allows
    std::uint32_t staging = 0;    ///< sender: two max_bytes staging buffers; receiver: unused
    std::uint32_t reply = 0;      ///< sender: reply buffer (reads x max_bytes)
    std::uint32_t reply_sem = 0;  ///< sender: incremented by every read reply
    std::uint32_t read_src = 0;   ///< receiver region others read from (same on every receiver)
    std::uint32_t header_words = 0;
    std::uint32_t n_peers = 0;  ///< sender: destinations; receiver: sources
    /// Per peer: chip, receiver core (x << 16 | y), region base on the receiver, counter address on the receiver.
    std::uint32_t peer_chip[kTrafficMaxPeers] = {};
    std::uint32_t peer_xy[kTrafficMaxPeers] = {};
    std::uint32_t peer_region[kTrafficMaxPeers] = {};
    std::uint32_t peer_counter[kTrafficMaxPeers] = {};
    cclsim::fabric::FabricConnectionArgs conn;  ///< sender only
    template <class V> void visit(V& v) {
        v(role), v(chip), v(messages), v(max_bytes), v(slot_bytes), v(seed), v(reads), v(read_max), v(staging),
            v(reply), v(reply_sem), v(read_src), v(header_words), v(n_peers);
        for (auto& x : peer_chip) v(x);
        for (auto& x : peer_xy) v(x);
        for (auto& x : peer_region) v(x);
        for (auto& x : peer_counter) v(x);
        conn.visit(v);
    }
};

/// Size and command of message i from `src` to `dst` (shared by both ends).
struct TrafficMessage {
    std::uint32_t bytes;   ///< multiple of 16, 32 .. max_bytes
    std::uint32_t kind;    ///< 0, 1 fused write + inc; 2 write then inc; 3 inline write then inc
    std::uint32_t stream;  ///< reference byte stream of the payload
};
inline TrafficMessage trafficMessage(std::uint32_t seed, std::uint32_t src, std::uint32_t dst, std::uint32_t i,
                                     std::uint32_t max_bytes) {
    std::uint64_t x = (std::uint64_t(seed) << 40) ^ (std::uint64_t(src) << 28) ^ (std::uint64_t(dst) << 16) ^ i;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    const std::uint32_t units = max_bytes / 16 - 1;  // 32 .. max_bytes in 16 B steps
    return TrafficMessage{32 + std::uint32_t(x % units) * 16, std::uint32_t((x >> 20) % 4),
                          0x7A000000u ^ (src << 16) ^ (dst << 8) ^ i};
}
inline std::uint32_t trafficReadStream(std::uint32_t chip) {
    return 0x7B000000u ^ chip;
}
/// Size of read r of a sender to its peer p.
inline std::uint32_t trafficReadBytes(std::uint32_t r, std::uint32_t p, std::uint32_t read_max) {
    return 16 * (1 + (r * 7 + p) % (read_max / 16));
}

/// Argument vector: the layout, then the header images (`header_words`
/// words each), then the end marker.
template <class A>
std::vector<std::uint32_t> packFabricBench(A a, const std::vector<cclsim::fabric::PacketHeader>& headers) {
    std::vector<std::uint32_t> out;
    auto push = [&out](std::uint32_t& f) { out.push_back(f); };
    a.visit(push);
    for (const auto& h : headers)
        for (std::uint32_t i = 0; i < a.header_words; ++i) out.push_back(h.words[i]);
    out.push_back(kFabricBenchEndMarker);
    return out;
}

}  // namespace cclsim::microbench
