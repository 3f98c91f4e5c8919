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

std::uint32_t ping_headers(const FabricPingArgs& a) {
    return a.role == 0 ? a.targets : 1;
}
std::uint32_t bw_headers(const FabricBandwidthArgs& a) {
    return a.role == 0 ? 1 : 0;
}

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
        // --fast-forward: the sends are a steady loop (a group per pair); a
        // skip of n packets sends one increment of n in their place (flushed
        // behind the writes before it), so the receiver's count still ends
        // at `packets`. Every packet writes the same bytes to the same
        // buffer, so the skipped ones would not change it.
        SteadyLoop steady(a.packets, std::uint64_t(a.conn.num_slots) + 2, a.stream, true, 1, /*stream=*/true);
        for (std::uint32_t p = 0; p < a.packets; ++p) {
            if (const std::uint64_t n = steady.skip(a.packets - p)) {
                PacketHeader inc = headers[0];
                conn.send_packet(inc.to_noc_unicast_atomic_inc(headers[0].sem_noc_addr(), std::uint32_t(n), true), 0,
                                 0);
                p += std::uint32_t(n) - 1;
                steady.pause();
                continue;
            }
            conn.send_packet(headers[0], a.buffer, a.payload);
        }
        steady.end();
        conn.close();
        l1_write_u32(a.results, std::uint32_t(t0));
        l1_write_u32(a.results + 4, std::uint32_t(t0 >> 32));
    } else {
        WAYPOINT("FBWR");
        {
            SteadyLoop waiting(0, 0, a.stream, true, 1, /*stream=*/true);  // waits on its sender's steady loop
            noc_semaphore_wait_min(a.sem, a.packets);
        }
        const std::uint64_t t1 = get_timestamp();
        testbench_check(a.buffer, a.payload, a.stream, 0);
        l1_write_u32(a.results, std::uint32_t(t1));
        l1_write_u32(a.results + 4, std::uint32_t(t1 >> 32));
    }
    WAYPOINT("DONE");
}

// fabric_ubench (tt-metal's fabric bandwidth test patterns): a sender
// interleaves its flows packet by packet, as tt-metal's test sender does with
// a core's several traffic configs; every flow ends with a fused write +
// increment its receivers (every chip of a multicast) wait for (with `fused`,
// every packet is one and the receivers count them all).
void fabric_ubench_main() {
    using cclsim::microbench::FabricUbenchArgs;
    std::vector<PacketHeader> headers;
    const FabricUbenchArgs a = read_bench_args<FabricUbenchArgs>(
        headers, +[](const FabricUbenchArgs& x) -> std::uint32_t { return x.role == 0 ? 2 * x.n_flows : 0; });
    if (a.role == 0) {
        fw_assert(a.n_conns >= 1 && a.n_conns <= cclsim::microbench::kUbenchMaxConns && a.n_flows >= 1 &&
                      a.n_flows <= cclsim::microbench::kUbenchMaxFlows,
                  "fabric_ubench: flow or connection count out of range (host/kernel mismatch)");
        std::vector<WorkerToFabricEdmSender> conns;
        conns.reserve(a.n_conns);
        for (std::uint32_t c = 0; c < a.n_conns; ++c) conns.emplace_back(a.conn[c]);
        testbench_fill(a.buffer, a.payload, a.stream, 0);
        for (auto& c : conns) c.open();
        const std::uint64_t t0 = get_timestamp();
        WAYPOINT("FUBS");
        for (std::uint32_t p = 0; p < a.packets; ++p) {
            const bool last = a.fused || p + 1 == a.packets;
            for (std::uint32_t f = 0; f < a.n_flows; ++f)
                conns[a.flow_conn[f]].send_packet(headers[2 * f + (last ? 1 : 0)], a.buffer, a.payload);
        }
        for (auto& c : conns) c.close();
        l1_write_u32(a.results, std::uint32_t(t0));
        l1_write_u32(a.results + 4, std::uint32_t(t0 >> 32));
    } else {
        WAYPOINT("FUBR");
        noc_semaphore_wait_min(a.sem, a.fused ? a.packets : 1);
        const std::uint64_t t1 = get_timestamp();
        testbench_check(a.buffer, a.payload, a.stream, 0);  // the sender's bytes, on every chip it wrote
        l1_write_u32(a.results, std::uint32_t(t1));
        l1_write_u32(a.results + 4, std::uint32_t(t1 >> 32));
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench

namespace cclsim::fw::microbench {

using cclsim::microbench::FabricTrafficArgs;
using cclsim::microbench::trafficMessage;
using cclsim::microbench::trafficReadBytes;
using cclsim::microbench::trafficReadStream;

namespace {
std::uint32_t traffic_headers(const FabricTrafficArgs& a) {
    return a.role == 0 ? a.n_peers : 0;
}
}  // namespace

// fabric_traffic: see fabric_bench_args.h. Senders interleave their
// destinations message by message (every direction busy at once); message
// kinds cover every write command; receivers check each source's messages in
// order (a message whose increment arrives before its data would be seen).
void fabric_traffic_main() {
    std::vector<PacketHeader> routes;
    const FabricTrafficArgs a = read_bench_args<FabricTrafficArgs>(routes, traffic_headers);
    if (a.role == 0) {
        WorkerToFabricEdmSender conn(a.conn);
        conn.open();
        WAYPOINT("FTS");
        std::uint32_t k = 0;
        for (std::uint32_t i = 0; i < a.messages; ++i) {
            for (std::uint32_t p = 0; p < a.n_peers; ++p) {
                const auto m = trafficMessage(a.seed, a.chip, a.peer_chip[p], i, a.max_bytes);
                const std::uint32_t x = a.peer_xy[p] >> 16, y = a.peer_xy[p] & 0xffff;
                const std::uint64_t slot = get_noc_addr(x, y, a.peer_region[p] + i * a.slot_bytes);
                const std::uint64_t counter = get_noc_addr(x, y, a.peer_counter[p]);
                PacketHeader h = routes[p];
                if (m.kind == 3) {
                    conn.send_packet(h.to_noc_unicast_inline_write(slot, i + 1), 0, 0);
                } else {
                    // Refill a staging buffer once its previous contents left L1.
                    const std::uint32_t b = a.staging + (k++ % 2) * a.max_bytes;
                    noc_async_writes_flushed();
                    testbench_fill(b, m.bytes, m.stream, 0);
                    l1_write_u32(b, i + 1);
                    if (m.kind < 2) {
                        // No flush: the increment follows the write (not a tt-metal test).
                        conn.send_packet(
                            h.to_noc_fused_unicast_write_atomic_inc(slot, counter, 1, m.bytes, /*flush=*/false), b,
                            m.bytes);
                        continue;
                    }
                    conn.send_packet(h.to_noc_unicast_write(slot, m.bytes), b, m.bytes);
                }
                PacketHeader inc = routes[p];
                conn.send_packet(inc.to_noc_unicast_atomic_inc(counter, 1, /*flush=*/false), 0, 0);
            }
        }
        // Reads: each destination's read region, slices of growing size.
        std::uint32_t n = 0;
        for (std::uint32_t r = 0; r < a.reads; ++r) {
            for (std::uint32_t p = 0; p < a.n_peers; ++p, ++n) {
                const std::uint32_t size = trafficReadBytes(r, p, a.read_max);
                const std::uint32_t x = a.peer_xy[p] >> 16, y = a.peer_xy[p] & 0xffff;
                PacketHeader h = routes[p];
                h.to_noc_unicast_read(get_noc_addr(x, y, a.read_src + 16 * r), size,
                                      get_noc_addr(a.reply + n * a.max_bytes), get_noc_addr(a.reply_sem), 1);
                conn.send_packet(h, 0, 0);
            }
        }
        WAYPOINT("FTSR");
        noc_semaphore_wait_min(a.reply_sem, n);
        n = 0;
        for (std::uint32_t r = 0; r < a.reads; ++r)
            for (std::uint32_t p = 0; p < a.n_peers; ++p, ++n)
                testbench_check(a.reply + n * a.max_bytes, trafficReadBytes(r, p, a.read_max),
                                trafficReadStream(a.peer_chip[p]), 16 * r);
        conn.close();
    } else {
        WAYPOINT("FTR");
        for (std::uint32_t i = 0; i < a.messages; ++i) {
            for (std::uint32_t p = 0; p < a.n_peers; ++p) {
                noc_semaphore_wait_min(a.peer_counter[p], i + 1);
                const auto m = trafficMessage(a.seed, a.peer_chip[p], a.chip, i, a.max_bytes);
                const std::uint32_t slot = a.peer_region[p] + i * a.slot_bytes;
                // (Timing-only runs keep no payload bytes: only inline writes are checkable.)
                const std::uint32_t seq = l1_read_u32(slot);
                if (testbench_stores_data() || m.kind == 3)
                    fw_assert_equal(
                        seq, i + 1,
                        "fabric_traffic: a message's increment arrived without its data (lost or reordered)");
                if (m.kind != 3) testbench_check(slot + 16, m.bytes - 16, m.stream, 16);
            }
        }
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
