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

// DRAM (tt-metal's DRAM read microbenchmarks on a whole Wormhole chip):
// interleaved reads from many cores ~190 GB/s, sharded reads (one reader
// per bank, beside it) ~240 GB/s, and 211-238 GB/s for the same 12 readers
// at 900 MHz. Interleaved is lower because every reader's responses leave
// every endpoint: a response blocked on a busy link holds its endpoint
// (wormhole back-pressure), so the next response, to an idle reader, waits.
TEST(DramBandwidth, Gddr6ReadInterleaved) {
    const auto rep = runT3000({"dram_bandwidth"});
    EXPECT_EQ(result(rep, "peak_GBps"), 288.0);
    EXPECT_WITHIN_PCT(result(rep, "GBps"), 190.0, 5);
}

TEST(DramBandwidth, Gddr6ReadSharded) {
    const auto rep = runT3000({"dram_bandwidth", "--sharded", "--batch", "64"});
    EXPECT_WITHIN_PCT(result(rep, "GBps"), 240.0, 5);
}

TEST(DramBandwidth, Gddr6ReadShardedAt900MHz) {
    const auto rep = runT3000({"dram_bandwidth", "--sharded", "--batch", "64", "--aiclk-mhz", "900"});
    EXPECT_GE(result(rep, "GBps"), 211.0);
    EXPECT_LE(result(rep, "GBps"), 238.0);
    EXPECT_EQ(rep["params"]["aiclk_mhz"], 900.0);
}

// Small pages are request-rate bound: a DRAM endpoint takes one read request
// per 6.8 cycles per NoC, so 12 endpoints move at most 12 x 32 B / 6.8 ns =
// 56 GB/s; 64 readers with 64 reads in flight each come close (without the
// limit the model gives 58.6 GB/s).
TEST(DramBandwidth, SmallPagesAreRequestRateBound) {
    const auto rep = runT3000({"dram_bandwidth", "--page", "32", "--bytes", "1048576", "--batch", "64"});
    EXPECT_LE(result(rep, "GBps"), 12 * 32 / 6.8);
    EXPECT_GE(result(rep, "GBps"), 0.75 * 12 * 32 / 6.8);
}

TEST(DramBandwidth, Gddr6WriteAggregate) {
    const auto rep = runT3000({"dram_bandwidth", "--write", "--bytes", "33554432"});
    EXPECT_GE(result(rep, "GBps"), 0.75 * 288);
    EXPECT_LE(result(rep, "GBps"), 288.0);
}

// The HBM variant (more channels, pseudo-channels) is selected the same way
// (--arch) and moves more than the GDDR6 chip with the same readers; the NoC
// around the DRAM columns, not the memory, limits it.
TEST(DramBandwidth, HbmVariantExceedsGddr6) {
    const auto rep = runT3000({"dram_bandwidth", "--bytes", "33554432", "--arch",
                               CCLSIM_SOURCE_DIR "/platforms/arch/wormhole_b0_hbm.yaml"});
    EXPECT_EQ(result(rep, "peak_GBps"), 576.0);
    EXPECT_GT(result(rep, "GBps"), 1.2 * 190.0);
}
