// Link faults injected into a run (--faults), through the n300 executable:
// each fault kind once, deterministically (issue 12's first part).
//   ber     the FEC corrects most codewords, CRC failures are replayed:
//           the stream stays byte-exact, slower, with counters;
//   retrain the EDM's main loop, idle once the link stopped, gives the base
//           firmware its run_routing() turn after its context-switch
//           interval: the retrain completes and the stream stays exact,
//           later; a kernel that never yields (eth_bandwidth) stalls the
//           retrain: exit 6 naming it;
//   down    the EDM's waits give up after timeouts.edm_ms: exit 6 with the
//           link, what stayed queued, the blocked kernels;
//   drop    exit 6: the messages and bytes lost;
//   --skip-links-with-retrain: a link that retrains at init is left out, the
//           Galaxy all-gather runs on fewer links, exact and slower.
// The same plan and seed give the same report (wall-clock fields aside) and
// the same VCD, whose save file groups the counters per link direction.
#include "tests/coverif/SubprocessRunner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace cclsim {
namespace {

const std::string kBin = CCLSIM_N300_BIN;
const std::string kGalaxy = CCLSIM_GALAXY_BIN;
const std::string kT3000 = CCLSIM_T3000_BIN;

void expectContains(const std::string& text, std::initializer_list<std::string> parts) {
    for (const std::string& p : parts)
        EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' missing in: " << text;
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

TEST(Faults, ARetrainCompletesWhenTheIdleEdmYieldsAndTheStreamStaysExact) {
    const auto clean = test::runBinary(kBin, "edm_stream");
    // In the EDMs' start-up handshake (a wait that yields every iteration):
    // the stream pays about the retrain.
    const auto early =
        run(plan("retrain2", "  - {kind: retrain, link: {chip: 0, channel: 9}, at_us: 2, duration_us: 10}\n"), 0);
    EXPECT_EQ(early["data_check"], "pass");
    EXPECT_EQ(early["link_health"][0]["retrain_count"], 1);
    EXPECT_EQ(early["link_health"][1]["retrain_count"], 1);
    const double cleanNs = clean["sim_time_ns"].get<double>();
    EXPECT_GT(early["sim_time_ns"].get<double>(), cleanNs + 5000.0);
    EXPECT_LT(early["sim_time_ns"].get<double>(), cleanNs + 20000.0);
    // In the main loop: the EDMs yield once idle for their context-switch
    // interval (320000 rounds), milliseconds after the link stopped.
    const auto late =
        run(plan("retrain100", "  - {kind: retrain, link: {chip: 0, channel: 9}, at_us: 100, duration_us: 10}\n"), 0);
    EXPECT_EQ(late["data_check"], "pass");
    EXPECT_GT(late["sim_time_ns"].get<double>(), cleanNs + 1.0e6);
    EXPECT_LT(late["sim_time_ns"].get<double>(), cleanNs + 20.0e6);
}

TEST(Faults, ARetrainTheKernelNeverYieldsToStallsTheLink) {
    // eth_bandwidth's kernels stream without ever calling run_routing().
    // Credits on tx_cmd_q 1: with them on q0 (the default) the kernel's loop
    // reads the queue twice per pass, which the spin-loop detector does not
    // take for an idle loop, and the stall is diagnosed only at the run's
    // simulated-time limit, minutes later (docs/known-limits.md).
    const auto rep = test::runBinary(
        kBin,
        "--faults " + plan("stall", "  - {kind: retrain, link: {chip: 0, channel: 9}, at_us: 100, duration_us: 10}\n") +
            " eth_bandwidth --credit-txq 1",
        6);
    const std::string why = rep["fault_diagnosis"]["links"];
    expectContains(why, {"retrain at 100.000 us", "has not completed", "run_routing()"});
}

TEST(Faults, ALinkThatGoesDownEndsTheRunWithADiagnosis) {
    const auto rep = run(plan("down", "  - {kind: down, link: {chip: 1, channel: 1}, at_us: 2}\n"), 6);
    const std::string why = rep["fault_diagnosis"]["links"];
    expectContains(why, {"link chip 0 ch 9 -> chip 1 ch 1: down since 2.000 us"});
    // The EDM protocol's waits give up after their timeout (arch YAML).
    expectContains(rep["fault_diagnosis"]["blocked"].get<std::string>(),
                   {"a firmware wait timed out", "gave up its wait", "timeouts.edm_ms", "edm_stream", "blocked"});
    expectContains(rep["error"].get<std::string>(), {"after 1000.000 ms without a change"});
}

TEST(Faults, DroppedPacketsAreCountedAndEndTheRun) {
    const auto rep = run(plan("drop", "  - {kind: drop, link: {chip: 0, channel: 9}, at_us: 2, packets: 2}\n"), 6);
    expectContains(rep["fault_diagnosis"]["links"].get<std::string>(), {"lost 2 message(s)"});
    EXPECT_EQ(rep["link_health"][0]["lost_packets"], 2);
}

TEST(Faults, LinksThatRetrainAtInitAreSkippedAndTheOpRunsOnFewerLinks) {
    // Galaxy neighbours have four user links: the fabric's routing planes.
    // With a link less the op spreads over three: each carries more.
    const std::string args = " all_gather --size 2M --impl fabric";
    const auto all = test::runBinary(kGalaxy, args);
    const std::string p = plan("skip", "  - {kind: retrain, link: {chip: 0, channel: 12}, at_us: 0, duration_us: 5}\n");
    const auto fewer = test::runBinary(kGalaxy, "--faults " + p + " --skip-links-with-retrain" + args);
    EXPECT_EQ(fewer["data_check"], "pass");
    ASSERT_EQ(fewer["skipped_links"].size(), 1u);
    EXPECT_EQ(fewer["skipped_links"][0]["peer_chip"], 1);
    EXPECT_EQ(all["results"]["links"].get<unsigned>(), 4u);
    EXPECT_EQ(fewer["results"]["links"].get<unsigned>(), 3u);
    EXPECT_GT(fewer["results"]["linkbw_GBps"].get<double>(), 1.2 * all["results"]["linkbw_GBps"].get<double>());
    // Without the option the op keeps the link and waits out its retrain.
    const auto kept = test::runBinary(kGalaxy, "--faults " + p + " all_gather --size 64K --impl fabric");
    EXPECT_EQ(kept["data_check"], "pass");
    EXPECT_EQ(kept["results"]["links"], 4);
    EXPECT_EQ(kept["link_health"][0]["retrain_count"], 1);
    EXPECT_EQ(test::runExitCode(kGalaxy, "--skip-links-with-retrain" + args), 3);
}

TEST(Faults, TheVcdOfAFaultyRunIsDeterministicAndGroupsTheCountersPerLink) {
    const std::string p = plan("vcd", "  - {kind: ber, link: all, rate: 5.0e-4}\n");
    const std::string dir = std::string(::testing::TempDir()) + "cclsim_faults_vcd_" + std::to_string(getpid());
    const std::string a = dir + "_a.vcd", b = dir + "_b.vcd";
    test::runBinary(kBin, "--faults " + p + " --vcd " + a + " edm_stream");
    test::runBinary(kBin, "--faults " + p + " --vcd " + b + " edm_stream");
    const std::string va = test::slurp(a), vb = test::slurp(b);
    ASSERT_FALSE(va.empty());
    // The header's date line is the only difference allowed.
    auto body = [](const std::string& v) { return v.substr(v.find("$timescale")); };
    EXPECT_EQ(body(va), body(vb));
    expectContains(va, {"link_health", "crc_errors", "retransmitted_frames"});
    const std::string gtkw = test::slurp(dir + "_a.gtkw");
    expectContains(gtkw, {"-link health (--faults)", "link_health.crc_errors"});
}

TEST(Faults, AnOpThatFinishesWithWrongDataAfterADropIsLostToTheFault) {
    // The fabric's payload of a dropped packet never lands, but the op still
    // finishes: the data check catches it and the faults explain it (exit 6,
    // not a bare data-check failure).
    const std::string p = plan("dropdata", "  - {kind: drop, link: {chip: 4, channel: 1}, at_us: 22, packets: 2}\n");
    const auto rep = test::runBinary(kT3000, "--faults " + p + " all_reduce --size 256K --impl fabric", 6);
    EXPECT_EQ(rep["data_check"], "fail");
    expectContains(rep["fault_diagnosis"]["data"].get<std::string>(), {"differs from the golden reference"});
    expectContains(rep["fault_diagnosis"]["links"].get<std::string>(), {"lost 1 message(s)"});
}

TEST(Faults, FirmwareThatTripsOverADroppedPacketIsLostToTheFault) {
    // Dropped fabric packets whose counter update still arrives leave stale
    // headers in the router's slots: its assertion stops the run, and the
    // faults explain it (exit 6, not a simulation error).
    const std::string p = plan("droptrip", "  - {kind: drop, link: {chip: 0, channel: 0}, at_us: 11, packets: 3}\n");
    const auto rep = test::runBinary(kT3000, "--faults " + p + " all_gather --size 64K --impl fabric", 6);
    expectContains(rep["fault_diagnosis"]["blocked"].get<std::string>(), {"firmware stopped at", "fabric router"});
    expectContains(rep["fault_diagnosis"]["links"].get<std::string>(), {"lost 3 message(s)"});
}

TEST(Faults, ARetrainKeepsTheOrderOfFramesOnTheLink) {
    // A short command behind a held one must not land first: the IPCQ
    // invariant checker (data before its head update) watches every slot.
    const std::string p =
        plan("order", "  - {kind: retrain, link: {chip: 2, channel: 9}, at_us: 30.164, duration_us: 8.952}\n");
    const auto rep = test::runBinary(kT3000, "--faults " + p + " ipcq_allreduce --size 256K", 0);
    EXPECT_EQ(rep["data_check"], "pass");
}

TEST(Faults, APlanNamingAnUncabledChannelIsAConfigurationError) {
    const std::string p = plan("bad", "  - {kind: down, link: {chip: 0, channel: 3}, at_us: 2}\n");
    EXPECT_EQ(test::runExitCode(kBin, "--faults " + p + " edm_stream"), 3);
}

}  // namespace
}  // namespace cclsim
