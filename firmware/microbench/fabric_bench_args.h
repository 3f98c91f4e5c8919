// Runtime-argument layouts of the fabric microbenchmark kernels (shared by
// fabric_bench_host.cpp and fabric_bench_kernels.cpp).
#pragma once

#include "firmware/fabric/fabric_types.h"

#include <cstdint>
#include <vector>

namespace cclsim::microbench {

constexpr std::uint32_t kFabricBenchEndMarker = 0xFB0E;

/// fabric_ping: the sender pings responders at 1, 2, ... hops in turn; each
/// responder echoes every packet back with the same command and size.
struct FabricPingArgs {
    std::uint32_t role = 0;        ///< 0 sender, 1 responder
    std::uint32_t mode = 0;        ///< 0 write (poll the data), 1 fused write + inc, 2 atomic inc only
    std::uint32_t samples = 0;     ///< measured round trips per target (one more unmeasured first)
    std::uint32_t payload = 0;     ///< payload bytes (multiple of 16; >= 16 in write mode)
    std::uint32_t tx = 0;          ///< L1: payload source (first word: the sample's sequence number)
    std::uint32_t rx = 0;          ///< L1: where echoes/pings land (same address on every core)
    std::uint32_t sem = 0;         ///< L1: semaphore of fused/atomic modes (same address everywhere)
    std::uint32_t results = 0;     ///< sender: per target sum, min, max round trip (cycles)
    std::uint32_t targets = 0;     ///< sender: number of responders; responder: its index
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
    std::uint32_t role = 0;        ///< 0 sender, 1 receiver
    std::uint32_t packets = 0;
    std::uint32_t payload = 0;
    std::uint32_t buffer = 0;      ///< sender: source; receiver: destination
    std::uint32_t sem = 0;         ///< receiver: counts packets
    std::uint32_t results = 0;     ///< sender: start timestamp; receiver: end timestamp (2 words each)
    std::uint32_t stream = 0;      ///< testbench byte stream of the payload
    std::uint32_t header_words = 0;
    cclsim::fabric::FabricConnectionArgs conn;
    template <class V> void visit(V& v) {
        v(role), v(packets), v(payload), v(buffer), v(sem), v(results), v(stream), v(header_words);
        conn.visit(v);
    }
};

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
