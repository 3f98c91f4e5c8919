// Calibration figures measured on T3000 rings (the Ethernet guide's ring ping).
#include "platforms/ClusterDescriptor.h"
#include "tests/coverif/CoverifHelpers.h"
#include "tests/coverif/SubprocessRunner.h"

#include <algorithm>
#include <set>
#include <tuple>

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
    // The revisits of 1 -> 2 and 3 -> 0 take the pairs' second links.
    EXPECT_EQ(rep["results"]["hops"][7], "chip 1 ch 7 -> chip 2 ch 7");
    EXPECT_EQ(rep["results"]["hops"][11], "chip 3 ch 1 -> chip 0 ch 1");
}

namespace {

double perHop(const std::string& args) {
    return cclsim::test::runBinary(CCLSIM_T3000_BIN, "ring_ping " + args)["results"]["per_hop_ns"].get<double>();
}

/// Every --links assignment of a ring order: per hop an index below the pair's
/// user-link count, a revisited pair never taking the same link twice.
std::vector<std::string> linkAssignments(const std::vector<unsigned>& order) {
    const auto d = cclsim::loadClusterDescriptor(CCLSIM_SOURCE_DIR "/platforms/t3000.yaml");
    const std::size_t h = order.size();
    std::vector<std::string> out;
    std::vector<unsigned> pick(h, 0);
    while (true) {
        std::set<std::tuple<unsigned, unsigned, unsigned>> used;
        bool ok = true;
        for (std::size_t i = 0; i < h && ok; ++i) ok = used.insert({order[i], order[(i + 1) % h], pick[i]}).second;
        if (ok) {
            std::string s;
            for (unsigned p : pick) s += (s.empty() ? "" : ",") + std::to_string(p);
            out.push_back(s);
        }
        std::size_t i = 0;
        for (; i < h; ++i) {
            if (++pick[i] < d.userLinksBetween(order[i], order[(i + 1) % h]).size()) break;
            pick[i] = 0;
        }
        if (i == h) return out;
    }
}

}  // namespace

// Ethernet guide: per hop, the 12-hop ring is "similar, though slightly
// higher" than the 8-hop one. Nothing in a hop's firmware differs between the
// rings; the difference is the NoC0 hand-off from each chip's receiving to its
// sending Ethernet core (tt-metal's Receiver kernel runs on NoC0), longer on
// the PCIe chips that make up 8 of the 12-hop ring's stops. With the
// descriptor's link order that (+0.17 NoC hops per hop) and the round trip's
// fixed cost spread over more hops nearly cancel (README: +0.07 ns), so this
// asserts only "similar"; the sign is asserted over every link choice below.
TEST(CalibrationT3000, RingPing12HopsSimilarTo8Hops) {
    for (const char* sync : {"", " --separate-sync"}) {
        const double eight = perHop(std::string("--hops 8") + sync);
        const double twelve = perHop(std::string("--hops 12") + sync);
        EXPECT_NEAR(twelve, eight, 0.01 * eight) << sync;
    }
}

// Which of a pair's two links a hop takes (tt-metal's host takes them in the
// order of a hash set, not published with the guide's figure) moves the
// per-hop figure by the NoC0 distance between the Ethernet cores. Averaged
// over every link assignment the 12-hop ring is slightly above the 8-hop one
// (README: +6.3 ns, +0.9%), and so in most pairings.
TEST(CalibrationT3000, RingPing12HopsAboveOnAverageOverLinkChoices) {
    auto mean = [](const std::vector<unsigned>& order, unsigned hops, std::vector<double>& all) {
        double sum = 0;
        for (const auto& links : linkAssignments(order)) {
            all.push_back(perHop("--hops " + std::to_string(hops) + " --links " + links));
            sum += all.back();
        }
        return sum / all.size();
    };
    std::vector<double> eight, twelve;
    const double m8 = mean({0, 4, 5, 1, 2, 6, 7, 3}, 8, eight);
    const double m12 = mean({0, 4, 5, 1, 2, 3, 0, 1, 2, 6, 7, 3}, 12, twelve);
    EXPECT_EQ(eight.size(), 16u);
    EXPECT_EQ(twelve.size(), 64u);
    EXPECT_GT(m12, m8);
    EXPECT_LT(m12, m8 * 1.02);
    std::size_t above = 0;
    for (double a : eight)
        for (double b : twelve) above += b > a;
    EXPECT_GT(above, eight.size() * twelve.size() * 3 / 4);
    // The link choice matters: the spread of one ring is larger than the gap of the means.
    EXPECT_GT(*std::max_element(eight.begin(), eight.end()) - *std::min_element(eight.begin(), eight.end()), m12 - m8);
}

// --links picks a hop's link; a link a revisit already used, or one the pair
// does not have, is refused with the hop and the chips.
TEST(CalibrationT3000, RingPingLinksOption) {
    const auto rep = runT3000({"ring_ping", "--hops", "8", "--links", "0,0,0,0,0,0,0,1"});
    EXPECT_EQ(rep["results"]["hops"][7], "chip 3 ch 1 -> chip 0 ch 1");
    EXPECT_EQ(rep["params"]["links"], nlohmann::json::array({0, 0, 0, 0, 0, 0, 0, 1}));
}
TEST(CalibrationT3000, RingPingLinksErrors) {
    auto err = [](const std::vector<std::string>& args) { return runT3000(args, 3)["error"].get<std::string>(); };
    EXPECT_NE(err({"ring_ping", "--hops", "8", "--links", "0,0,1,0,0,0,0,0"}).find("hop 2 (5 -> 1) asks for link 1"),
              std::string::npos);
    EXPECT_NE(err({"ring_ping", "--hops", "8", "--links", "0,0"}).find("--links has 2 entries"), std::string::npos);
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
// tt-metal's data movement tests (platforms/calibration/wormhole_data_movement.csv
// holds the figures): one core, N transactions, one barrier, the cycles in between.
TEST(DataMovement, MoreTransactionsTakeLongerAtHigherRate) {
    const auto one = runT3000({"data_movement", "--test", "dram_read", "--transactions", "1", "--bytes", "2048"});
    EXPECT_GT(result(one, "latency_cycles"), 0.0);
    EXPECT_NEAR(result(one, "bytes_per_cycle"), 2048.0 / result(one, "latency_cycles"), 1e-9);
    EXPECT_EQ(one["results"]["core"], "1-1");  // logical 0,0
}

TEST(DataMovement, RefusesWhatTheChipLacks) {
    const auto bank = runT3000({"data_movement", "--bank", "12"}, 3);
    EXPECT_NE(bank["error"].get<std::string>().find("--bank 12: the chip has 12 DRAM banks"), std::string::npos);
}

TEST(DataMovement, DramPagesAreWholeMultiplesOf32Bytes) {
    const auto rep = runT3000({"data_movement", "--test", "dram_write", "--bytes", "100"}, 3);
    EXPECT_NE(rep["error"].get<std::string>().find("--bytes 100: a DRAM transaction is one page"), std::string::npos)
        << rep.dump();
}

TEST(DataMovement, PeerMustBeAnotherCore) {
    const auto rep = runT3000({"data_movement", "--test", "one_from_one", "--core", "1,1", "--peer", "1,1"}, 3);
    EXPECT_NE(rep["error"].get<std::string>().find("--peer is the --core itself"), std::string::npos);
}

// Found by the config campaign (seed 49): the peer's span named a core and
// sizes but no option.
TEST(DataMovement, SpanLargerThanThePeersL1NamesTheOptions) {
    const auto rep = runT3000({"data_movement", "--test", "one_to_one", "--bytes", "65536", "--transactions", "64"}, 3);
    EXPECT_NE(rep["error"].get<std::string>().find("--bytes 65536 x --transactions 64"), std::string::npos)
        << rep.dump();
}

TEST(DataMovement, CoreOutsideTheGrid) {
    const auto rep = runT3000({"data_movement", "--core", "8,0"}, 3);
    EXPECT_NE(rep["error"].get<std::string>().find("--core 8,0: the chip's worker grid is 8 x 10"), std::string::npos);
}

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
    const auto rep = runT3000(
        {"dram_bandwidth", "--bytes", "33554432", "--arch", CCLSIM_SOURCE_DIR "/platforms/arch/wormhole_b0_hbm.yaml"});
    EXPECT_EQ(result(rep, "peak_GBps"), 576.0);
    EXPECT_GT(result(rep, "GBps"), 1.2 * 190.0);
}
