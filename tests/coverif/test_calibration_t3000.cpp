// Calibration figures measured on T3000 rings (the Ethernet guide's ring ping).
#include "tests/coverif/CoverifHelpers.h"

using cclsim::test::result;
using cclsim::test::runT3000;

// Merged signalling: ~650 ns per hop, ~5.2 us for the 8-hop round trip (+-5%).
TEST(CalibrationT3000, RingPing8HopsMerged) {
    const auto rep = runT3000({"ring_ping", "--hops", "8"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 650.0, 5);
    EXPECT_WITHIN_PCT(result(rep, "round_trip_ns"), 5200.0, 5);
    EXPECT_EQ(rep["params"]["order"], nlohmann::json::array({0, 4, 5, 1, 2, 6, 7, 3}));
}

// Separate signal packet: ~690 ns per hop (+-5%).
TEST(CalibrationT3000, RingPing8HopsSeparate) {
    const auto rep = runT3000({"ring_ping", "--hops", "8", "--separate-sync"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 690.0, 5);
}

// The 12-hop ring revisits chips over their second links; per hop it stays
// close to the 8-hop figure.
TEST(CalibrationT3000, RingPing12Hops) {
    const auto rep = runT3000({"ring_ping", "--hops", "12"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 650.0, 5);
    EXPECT_EQ(rep["results"]["hops"].size(), 12u);
}

// 1 KB packets: ~1 us per hop (+-15%).
TEST(CalibrationT3000, RingPing1K) {
    const auto rep = runT3000({"ring_ping", "--hops", "8", "--packet", "1024"});
    EXPECT_WITHIN_PCT(result(rep, "per_hop_ns"), 1000.0, 15);
}

// A ring that needs more links than a chip pair has is refused with the reason.
TEST(CalibrationT3000, RingNeedingMissingLinksIsRefused) {
    const auto rep = runT3000({"ring_ping", "--hops", "4", "--order", "0,4,0,4"}, 3);
    EXPECT_NE(rep["error"].get<std::string>().find("user links"), std::string::npos) << rep.dump();
}

// DRAM: many workers streaming pages reach most of the 288 GB/s of the
// twelve GDDR6 channels (reads on NoC0, writes on NoC1, as tt-metal's
// readers and writers do).
TEST(DramBandwidth, Gddr6ReadAggregate) {
    const auto rep = runT3000({"dram_bandwidth", "--bytes", "33554432"});
    EXPECT_EQ(result(rep, "peak_GBps"), 288.0);
    EXPECT_GE(result(rep, "GBps"), 0.75 * 288);
    EXPECT_LE(result(rep, "GBps"), 288.0);
}

TEST(DramBandwidth, Gddr6WriteAggregate) {
    const auto rep = runT3000({"dram_bandwidth", "--write", "--bytes", "33554432"});
    EXPECT_GE(result(rep, "GBps"), 0.75 * 288);
    EXPECT_LE(result(rep, "GBps"), 288.0);
}

// The HBM variant (more channels, pseudo-channels) is selected the same way
// (--arch) and moves more than the GDDR6 chip's peak; the NoC around the DRAM
// columns, not the memory, limits it.
TEST(DramBandwidth, HbmVariantExceedsGddr6) {
    const auto rep = runT3000({"dram_bandwidth", "--bytes", "33554432", "--arch",
                               CCLSIM_SOURCE_DIR "/platforms/arch/wormhole_b0_hbm.yaml"});
    EXPECT_EQ(result(rep, "peak_GBps"), 576.0);
    EXPECT_GT(result(rep, "GBps"), 288.0);
}
