// Fabric microbenchmark kernels (worker cores), after tt-metal's fabric
// latency and bandwidth tests.
//
// fabric_ping: the sender pings each responder (1, 2, ... hops away) in turn.
// Every ping is one fabric packet; the responder, once it sees the ping,
// sends the same packet shape back, and the sender times the round trip:
//
//   sender (chip s)                      routers ...          responder (chip s+h)
//   tx[0] = seq; t0 = timer
//   send packet -> rx on responder  ===========================>  rx[0] == seq (write mode)
//                                                                 or sem == 1 (fused/atomic)
//                    rx[0] == seq  <===========================  send the same shape back
//   t1 = timer: round trip (first one per responder unmeasured)
//
// fabric_bandwidth: a sender streams fused write + increment packets to its
// receiver (same destination buffer each time); the receiver waits until its
// semaphore counts them all. Both stamp the global timer.
//
// Args: FabricPingArgs / FabricBandwidthArgs (fabric_bench_args.h), then the
// packet header images the host built, then the end marker 0xFB0E.
#include "firmware/api/fabric_api.h"
#include "firmware/microbench/fabric_bench_args.h"
#include "firmware/microbench/microbench_kernels.h"

#include <algorithm>
#include <vector>

namespace cclsim::fw::microbench {

using namespace cclsim::fabric;
using cclsim::microbench::FabricBandwidthArgs;
using cclsim::microbench::FabricPingArgs;
using cclsim::microbench::kFabricBenchEndMarker;

namespace {

template <class A> A read_bench_args(std::vector<PacketHeader>& headers, std::uint32_t count_of_headers(const A&)) {
    A a;
    int i = 0;
    auto get = [&i](std::uint32_t& f) { f = get_arg_val<std::uint32_t>(i++); };
    a.visit(get);
    const std::uint32_t n = count_of_headers(a);
    headers.assign(n, PacketHeader{});
    for (std::uint32_t h = 0; h < n; ++h)
        for (std::uint32_t w = 0; w < a.header_words; ++w) headers[h].words[w] = get_arg_val<std::uint32_t>(i++);
    fw_assert(get_arg_count() > std::uint32_t(i) && get_arg_val<std::uint32_t>(i) == kFabricBenchEndMarker,
              "fabric benchmark arguments do not end with the end marker 0xFB0E (host/kernel mismatch)");
    return a;
}

std::uint32_t ping_headers(const FabricPingArgs& a) { return a.role == 0 ? a.targets : 1; }
std::uint32_t bw_headers(const FabricBandwidthArgs& a) { return a.role == 0 ? 1 : 0; }

/// Wait for the arrival of ping `seq` (write mode: the data itself; else the semaphore).
void wait_arrival(const FabricPingArgs& a, std::uint32_t seq) {
    if (a.mode == 0) {
        while (!l1_word_is(a.rx, seq)) {
        }
    } else {
        noc_semaphore_wait(a.sem, 1);
        noc_semaphore_set(a.sem, 0);
    }
}

}  // namespace

void fabric_ping_main() {
    std::vector<PacketHeader> headers;
    const FabricPingArgs a = read_bench_args<FabricPingArgs>(headers, ping_headers);
    WorkerToFabricEdmSender conn(a.conn);
    conn.open();
    const std::uint32_t rounds = a.samples + 1;
    if (a.role == 0) {
        for (std::uint32_t t = 0; t < a.targets; ++t) {
            std::uint64_t sum = 0, lo = ~0ull, hi = 0;
            WAYPOINT("PING");
            for (std::uint32_t s = 0; s < rounds; ++s) {
                const std::uint32_t seq = t * rounds + s + 1;
                if (a.mode != 2) l1_write_u32(a.tx, seq);
                const std::uint64_t t0 = get_timestamp();
                conn.send_packet(headers[t], a.tx, a.mode == 2 ? 0 : a.payload);
                wait_arrival(a, seq);
                const std::uint64_t rtt = get_timestamp() - t0;
                if (s == 0) continue;  // the first round trip only warms the path
                sum += rtt;
                lo = std::min(lo, rtt);
                hi = std::max(hi, rtt);
            }
            l1_write_u32(a.results + 12 * t, std::uint32_t(sum));
            l1_write_u32(a.results + 12 * t + 4, std::uint32_t(lo));
            l1_write_u32(a.results + 12 * t + 8, std::uint32_t(hi));
        }
    } else {
        WAYPOINT("PONG");
        for (std::uint32_t s = 0; s < rounds; ++s) {
            const std::uint32_t seq = a.targets * rounds + s + 1;
            wait_arrival(a, seq);
            // Echo what arrived: same command, same size, back to the sender.
            conn.send_packet(headers[0], a.rx, a.mode == 2 ? 0 : a.payload);
        }
    }
    conn.close();
    WAYPOINT("DONE");
}

void fabric_bandwidth_main() {
    std::vector<PacketHeader> headers;
    const FabricBandwidthArgs a = read_bench_args<FabricBandwidthArgs>(headers, bw_headers);
    if (a.role == 0) {
        WorkerToFabricEdmSender conn(a.conn);
        testbench_fill(a.buffer, a.payload, a.stream, 0);
        conn.open();
        const std::uint64_t t0 = get_timestamp();
        WAYPOINT("FBWS");
        for (std::uint32_t p = 0; p < a.packets; ++p) conn.send_packet(headers[0], a.buffer, a.payload);
        conn.close();
        l1_write_u32(a.results, std::uint32_t(t0));
        l1_write_u32(a.results + 4, std::uint32_t(t0 >> 32));
    } else {
        WAYPOINT("FBWR");
        noc_semaphore_wait_min(a.sem, a.packets);
        const std::uint64_t t1 = get_timestamp();
        testbench_check(a.buffer, a.payload, a.stream, 0);
        l1_write_u32(a.results, std::uint32_t(t1));
        l1_write_u32(a.results + 4, std::uint32_t(t1 >> 32));
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
