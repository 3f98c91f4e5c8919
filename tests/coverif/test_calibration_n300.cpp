// Published calibration figures (README) reproduced by the firmware on the N300 model.
#include "tests/coverif/CoverifHelpers.h"

using cclsim::test::result;
using cclsim::test::runN300;

// Ethernet guide: single-link one-way latency 530-620 ns, round trip ~1100 ns.
TEST(CalibrationN300, EthPingLatency) {
    const auto rep = runN300({"eth_ping", "--samples", "20"});
    EXPECT_GE(result(rep, "one_way_ns"), 530.0);
    EXPECT_LE(result(rep, "one_way_ns"), 620.0);
    EXPECT_WITHIN_PCT(result(rep, "round_trip_ns"), 1100.0, 10);
    // ~80 ns to issue a send, timer reads included.
    EXPECT_WITHIN_PCT(result(rep, "send_issue_ns"), 80.0, 15);
}

// Ring ping, signals merged with the payload: ~650 ns per hop (N300's 2-hop
// ring over one link in both directions: +-10%).
TEST(CalibrationN300, RingPingMergedPerHop) {
    const auto rep = runN300({"ring_ping", "--hops", "2"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 650.0, 10);
    EXPECT_NEAR(result(rep, "round_trip_ns"), 2 * result(rep, "per_hop_ns"), 1e-6);
}

// Ring ping with a separate signal packet: ~690 ns per hop, above merged.
TEST(CalibrationN300, RingPingSeparatePerHop) {
    const auto rep = runN300({"ring_ping", "--hops", "2", "--separate-sync"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 690.0, 10);
}

// Ring ping with 1 KB packets: ~1 us per hop (+-15%).
TEST(CalibrationN300, RingPing1KPerHop) {
    const auto rep = runN300({"ring_ping", "--hops", "2", "--packet", "1024"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 1000.0, 15);
}

// Bandwidth with 4-16 KB packets and enough channels reaches >= 90% of
// 12.5 GB/s x P/(P + 50*ceil(P/1500)) in each direction at once.
class BandwidthLargePackets : public ::testing::TestWithParam<unsigned> {};
TEST_P(BandwidthLargePackets, ReachesFramingLimit) {
    const unsigned p = GetParam();
    const auto rep = runN300({"eth_bandwidth", "--packet", std::to_string(p), "--channels", "0", "--bytes", "4194304"});
    EXPECT_EQ(result(rep, "directions"), 2.0);
    const double framing = 12.5 * p / (p + 50.0 * ((p + 1499) / 1500));
    EXPECT_NEAR(result(rep, "framing_limit_GBps"), framing, 1e-9);
    EXPECT_GE(result(rep, "payload_GBps_per_direction"), 0.9 * framing);
}
INSTANTIATE_TEST_SUITE_P(CalibrationN300, BandwidthLargePackets, ::testing::Values(4096u, 8192u, 16384u));

// Small packets on one channel are latency-bound: one packet per credit round
// trip, far below the line rate.
TEST(CalibrationN300, BandwidthSmallPacketsLatencyBound) {
    const auto rep = runN300({"eth_bandwidth", "--packet", "64", "--channels", "1", "--bytes", "65536"});
    const double rtt_ns = 64.0 / result(rep, "payload_GBps_per_direction");  // time per packet
    EXPECT_LT(result(rep, "line_rate_pct"), 2.0);
    EXPECT_GT(rtt_ns, 1000.0);  // at least a link round trip per packet
}
