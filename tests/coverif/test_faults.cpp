// Link faults injected into a run (--faults), through the n300 executable:
// each fault kind once, deterministically (issue 12's first part).
//   ber     the FEC corrects most codewords, CRC failures are replayed:
//           the stream stays byte-exact, slower, with counters;
//   retrain the EDM kernel never gives the base firmware its run_routing()
//           turn, so the retrain cannot complete: exit 6 naming it;
//   down    exit 6: the link, what stayed queued, the blocked kernels;
//   drop    exit 6: the messages and bytes lost.
// The same plan and seed give the same report (wall-clock fields aside).
#include "tests/coverif/SubprocessRunner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace cclsim {
namespace {

const std::string kBin = CCLSIM_N300_BIN;

void expectContains(const std::string& text, std::initializer_list<std::string> parts) {
    for (const std::string& p : parts) EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' missing in: " << text;
}

std::string plan(const std::string& tag, const std::string& faults) {
    const std::string path =
        std::string(::testing::TempDir()) + "cclsim_faults_" + tag + "_" + std::to_string(getpid()) + ".yaml";
    std::ofstream(path) << "seed: 7\nfaults:\n" << faults;
    return path;
}

nlohmann::json run(const std::string& planFile, int expected) {
    return test::runBinary(kBin, "--faults " + planFile + " edm_stream", expected);
}

TEST(Faults, BitErrorsAreCorrectedOrReplayedAndTheStreamStaysExact) {
    const auto clean = test::runBinary(kBin, "edm_stream");
    const std::string p = plan("ber", "  - {kind: ber, link: all, rate: 5.0e-4}\n");
    auto faulty = run(p, 0);
    EXPECT_EQ(faulty["data_check"], "pass");
    EXPECT_GT(faulty["sim_time_ns"].get<double>(), clean["sim_time_ns"].get<double>());
    // link: all is both N300 links (the dispatch link too), both directions each.
    ASSERT_EQ(faulty["link_health"].size(), 4u);
    nlohmann::json fwd;
    for (const auto& row : faulty["link_health"])
        if (row["chip"] == 0 && row["channel"] == 9) fwd = row;
    ASSERT_FALSE(fwd.is_null());
    EXPECT_GT(fwd["corrected_codewords"].get<std::uint64_t>(), 0u);
    EXPECT_GT(fwd["crc_errors"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(fwd["crc_errors"], fwd["uncorrected_codewords"]);
    EXPECT_GT(fwd["retransmitted_frames"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(fwd["lost_messages"], 0);

    // Deterministic: the same plan and seed, the same report.
    auto again = run(p, 0);
    for (auto* j : {&faulty, &again}) {
        j->erase("wall_seconds");
        j->erase("peak_rss_mib");
        (*j)["stats"].erase("eth_packets_per_wall_second");
        (*j)["stats"].erase("eth_commands_per_wall_second");
        (*j)["results"].erase("messages_per_wall_second");
    }
    EXPECT_EQ(faulty, again);
}

TEST(Faults, ARetrainTheKernelNeverYieldsToStallsTheLink) {
    const auto rep = run(plan("retrain", "  - {kind: retrain, link: {chip: 0, channel: 9}, at_us: 2, duration_us: 10}\n"), 6);
    EXPECT_EQ(rep["link_health"][0]["retrain_count"], 1);
    EXPECT_EQ(rep["link_health"][1]["retrain_count"], 1);
    const std::string why = rep["fault_diagnosis"]["links"];
    expectContains(why, {"retrain at 2.000 us", "has not completed", "run_routing()"});
}

TEST(Faults, ALinkThatGoesDownEndsTheRunWithADiagnosis) {
    const auto rep = run(plan("down", "  - {kind: down, link: {chip: 1, channel: 1}, at_us: 2}\n"), 6);
    const std::string why = rep["fault_diagnosis"]["links"];
    expectContains(why, {"link chip 0 ch 9 -> chip 1 ch 1: down since 2.000 us"});
    expectContains(rep["fault_diagnosis"]["blocked"].get<std::string>(), {"edm_stream", "blocked"});
}

TEST(Faults, DroppedPacketsAreCountedAndEndTheRun) {
    const auto rep = run(plan("drop", "  - {kind: drop, link: {chip: 0, channel: 9}, at_us: 2, packets: 2}\n"), 6);
    expectContains(rep["fault_diagnosis"]["links"].get<std::string>(), {"lost 2 message(s)"});
    EXPECT_EQ(rep["link_health"][0]["lost_packets"], 2);
}

TEST(Faults, APlanNamingAnUncabledChannelIsAConfigurationError) {
    const std::string p = plan("bad", "  - {kind: down, link: {chip: 0, channel: 3}, at_us: 2}\n");
    EXPECT_EQ(test::runExitCode(kBin, "--faults " + p + " edm_stream"), 3);
}

}  // namespace
}  // namespace cclsim
