// The JSON report of a board run built from plain facts (cli/ReportBuilder.h),
// its CSV form, and the terminal's text of a run (cli/TerminalReport.h): the
// keys every report has, a stopped run, a finished one, the data check, the
// blame on the faults. No simulation.
#include "cli/ReportBuilder.h"
#include "cli/TerminalReport.h"
#include "models/common/ConfigError.h"

#include <gtest/gtest.h>

#include <set>

namespace cclsim {
namespace {

ReportBuilder head() {
    return ReportBuilder("n300", "edm_stream", nlohmann::json{{"packets", 8}}, 1234.5, 0.25, 88.0);
}

std::set<std::string> keys(const nlohmann::json& j) {
    std::set<std::string> out;
    for (const auto& [k, v] : j.items()) out.insert(k);
    return out;
}

const std::set<std::string> kHead{"board", "workload", "params", "sim_time_ns", "wall_seconds", "peak_rss_mib"};

std::set<std::string> headAnd(std::initializer_list<std::string> more) {
    std::set<std::string> out = kHead;
    out.insert(more.begin(), more.end());
    return out;
}

TEST(ReportBuilder, AFinishedRunHasTheHeadResultsStatsAndTheCheck) {
    ReportBuilder rb = head();
    rb.addResults(nlohmann::json{{"payload_GBps_per_direction", 11.5}});
    rb.addStats(EthStats{10, 20, 4096.0, 5000.0}, 777, 0.5);
    const RunOutcome o = rb.checked("pass", "", std::nullopt);
    EXPECT_EQ(o.exitCode(), 0);
    const nlohmann::json& r = rb.report();
    EXPECT_EQ(keys(r), headAnd({"results", "stats", "data_check"}));
    EXPECT_EQ(r["board"], "n300");
    EXPECT_EQ(r["workload"], "edm_stream");
    EXPECT_EQ(r["params"]["packets"], 8);
    EXPECT_EQ(r["sim_time_ns"], 1234.5);
    EXPECT_EQ(r["data_check"], "pass");
    EXPECT_EQ(r["results"]["payload_GBps_per_direction"], 11.5);
    EXPECT_EQ(r["stats"], (nlohmann::json{{"eth_commands", 10},
                                          {"eth_packets", 20},
                                          {"eth_payload_bytes", 4096.0},
                                          {"eth_packets_per_wall_second", 40.0},
                                          {"eth_commands_per_wall_second", 20.0},
                                          {"events", 777}}));
}

TEST(ReportBuilder, StatsOfARunWithoutWallTimeHaveNoRate) {
    ReportBuilder rb = head();
    rb.addStats(EthStats{10, 20, 0, 0}, 1, 0.0);
    EXPECT_EQ(rb.report()["stats"]["eth_packets_per_wall_second"], 0.0);
}

TEST(ReportBuilder, AFailedDataCheckNamesTheFirstFailure) {
    ReportBuilder rb = head();
    rb.addResults(nlohmann::json::object());
    const RunOutcome o = rb.checked("fail", "chip 1 byte 64: expected 0x01, got 0x00", std::nullopt);
    EXPECT_EQ(o.exitCode(), 1);
    EXPECT_EQ(rb.report()["data_check"], "fail");
    EXPECT_EQ(rb.report()["data_check_failure"], "chip 1 byte 64: expected 0x01, got 0x00");
    EXPECT_FALSE(rb.report().contains("error"));
    EXPECT_FALSE(rb.report().contains("fault_diagnosis"));
}

TEST(ReportBuilder, AStoppedRunCarriesItsStopReportAndNoExitCode) {
    ReportBuilder rb = head();
    const std::string why = "deadlock at 5.000 ns: kernels did not finish.\n  chip0 erisc waits\n";
    const RunOutcome o = rb.stopped(why, std::nullopt);
    EXPECT_EQ(o.exitCode(), 5);
    EXPECT_EQ(o.message(), why);
    const nlohmann::json& r = rb.report();
    EXPECT_EQ(keys(r), headAnd({"results", "data_check", "error"}));
    EXPECT_EQ(r["error"], why);
    EXPECT_EQ(r["data_check"], "off");
    EXPECT_EQ(r["results"], nlohmann::json::object());
    // The report of a deadlock says why in "error" but carries no
    // "exit_code": only the error file of a failure without a report does.
    EXPECT_FALSE(r.contains("exit_code"));
}

TEST(ReportBuilder, AStoppedRunWhileTheFaultsLostDataIsTheirs) {
    ReportBuilder rb = head();
    const std::string why = "deadlock at 5.000 ns: a firmware wait timed out\n";
    const std::string links = "  link chip 0 ch 9 -> chip 1 ch 1: lost 2 message(s)\n";
    const RunOutcome o = rb.stopped(why, links);
    EXPECT_EQ(o.exitCode(), 6);
    const nlohmann::json& r = rb.report();
    EXPECT_EQ(r["error"], "lost to a fault:\n" + links + why);
    EXPECT_EQ(o.message(), r["error"]);
    EXPECT_EQ(r["fault_diagnosis"], (nlohmann::json{{"links", links}, {"blocked", why}}));
    EXPECT_FALSE(r.contains("exit_code"));
}

TEST(ReportBuilder, WrongDataWhileTheFaultsLostDataIsTheirs) {
    ReportBuilder rb = head();
    rb.addResults(nlohmann::json{{"busbw_GBps", 3.0}});
    const std::string links = "  link chip 0 ch 9 -> chip 4 ch 1: lost 1 message(s)\n";
    const RunOutcome o = rb.checked("fail", "chip 4 byte 0: expected 0x10, got 0x00", links);
    EXPECT_EQ(o.exitCode(), 6);
    EXPECT_TRUE(o.endsInError());
    const nlohmann::json& r = rb.report();
    EXPECT_EQ(r["data_check"], "fail");
    EXPECT_EQ(r["error"], "lost to a fault: the op finished with wrong data\n" + links);
    EXPECT_EQ(r["fault_diagnosis"]["links"], links);
    EXPECT_EQ(r["fault_diagnosis"]["blocked"], "");
    EXPECT_EQ(r["fault_diagnosis"]["data"],
              "the op finished but its output differs from the golden reference: "
              "chip 4 byte 0: expected 0x10, got 0x00");
}

TEST(ReportBuilder, APassingCheckIsNotBlamedOnTheFaults) {
    ReportBuilder rb = head();
    const RunOutcome o = rb.checked("pass", "", std::nullopt);
    EXPECT_EQ(o.exitCode(), 0);
    EXPECT_FALSE(rb.report().contains("fault_diagnosis"));
}

TEST(ReportBuilder, LinkHealthAndSkippedLinks) {
    LinkHealth h;
    h.retrainCount = 1;
    h.crcErrors = 3;
    h.lostFrames = 2;
    h.lostCommands = 1;
    h.lostBytes = 16;
    ReportBuilder rb = head();
    rb.addLinkHealth({LinkHealthRow{0, 9, 1, 1, &h}});
    LinkDesc l;
    l.a = {0, 12};
    l.b = {1, 4};
    rb.addSkippedLinks({&l});
    const nlohmann::json& r = rb.report();
    ASSERT_EQ(r["link_health"].size(), 1u);
    EXPECT_EQ(r["link_health"][0], (nlohmann::json{{"chip", 0},
                                                   {"channel", 9},
                                                   {"direction", "tx"},
                                                   {"peer_chip", 1},
                                                   {"peer_channel", 1},
                                                   {"retrain_count", 1},
                                                   {"crc_errors", 3},
                                                   {"corrected_codewords", 0},
                                                   {"uncorrected_codewords", 0},
                                                   {"retransmitted_frames", 0},
                                                   {"lost_packets", 2},
                                                   {"lost_messages", 1},
                                                   {"lost_bytes", 16.0}}));
    EXPECT_EQ(r["skipped_links"],
              (nlohmann::json::array({{{"chip", 0}, {"channel", 12}, {"peer_chip", 1}, {"peer_channel", 4}}})));
}

/// A workload with a CSV form: one column, the report's "results.x".
class CsvWorkload : public Workload {
public:
    explicit CsvWorkload(bool csv) : csv_(csv) {}
    std::string name() const override { return "csv_test"; }
    std::string description() const override { return "test"; }
    void addOptions(Options&) override {}
    nlohmann::json params() const override { return nlohmann::json::object(); }
    void build(Runtime&) override {}
    nlohmann::json results(Runtime&, const RunResult&) override { return nlohmann::json::object(); }
    std::string summary(const nlohmann::json&) const override { return {}; }
    std::string csvHeader() const override { return csv_ ? "x" : ""; }
    std::string csvRow(const nlohmann::json& report) const override {
        return std::to_string(report["results"]["x"].get<int>());
    }

private:
    bool csv_;
};

TEST(ReportBuilder, CsvHasARowPerReportWithResults) {
    const CsvWorkload w(true);
    const std::vector<nlohmann::json> reports{
        {{"results", {{"x", 1}}}},
        {{"results", nlohmann::json::object()}, {"error", "time limit reached"}},  // a stopped sweep point
        {{"error", "configuration error: ..."}},                                   // a point without a run
        {{"results", {{"x", 3}}}},
    };
    EXPECT_EQ(csvText(w, reports), "x\n1\n3\n");
}

TEST(ReportBuilder, CsvOfAWorkloadWithoutACsvFormIsAConfigError) {
    const CsvWorkload w(false);
    try {
        csvText(w, {});
        FAIL() << "no ConfigError";
    } catch (const ConfigError& e) {
        EXPECT_STREQ(e.what(), "--csv: workload csv_test has no CSV report");
    }
}

TEST(TerminalReport, LinkHealthTableListsOnlyLinksThatSawAFault) {
    LinkHealth clean, hit;
    hit.crcErrors = 12;
    hit.correctedCodewords = 11;
    const std::vector<LinkHealthRow> rows{{0, 9, 1, 1, &clean}, {1, 1, 0, 9, &hit}};
    EXPECT_EQ(
        TerminalReport::linkHealthText(rows),
        "  link health (per direction, tt-metal's counters):\n"
        "    chip ch -> chip ch   retrains  crc_errors  corrected_cw  uncorrected_cw  retransmitted  lost_pkts\n"
        "       1  1 ->    0  9          0          12            11               0              0          0\n");
    EXPECT_EQ(TerminalReport::linkHealthText({{0, 9, 1, 1, &clean}}), "");
}

TEST(TerminalReport, SkippedLinksAndTheRunSummary) {
    LinkDesc l;
    l.a = {0, 12};
    l.b = {1, 4};
    EXPECT_EQ(TerminalReport::skippedLinksText({&l}),
              "  skipping 1 link(s) that retrained at init: chip 0 ch 12 <-> chip 1 ch 4;\n");
    const nlohmann::json rep{{"sim_time_ns", 2500.0}, {"wall_seconds", 1.5}, {"data_check", "pass"}};
    EXPECT_EQ(TerminalReport::runSummaryText(rep, "", ""), "  simulated 2.500 us in 1.50 s wall, data check: pass\n");
    EXPECT_EQ(TerminalReport::runSummaryText(rep, "out/run.vcd", "run.json"),
              "  simulated 2.500 us in 1.50 s wall, data check: pass\n"
              "  trace: out/run.vcd (open with: gtkwave out/run.gtkw)\n"
              "  report: run.json\n");
    // --fast-forward: what was estimated rather than simulated, or why nothing was.
    nlohmann::json ff = rep;
    ff["results"]["fast_forward"] = {{"periods", 2}, {"sim_us_skipped", 1.25}};
    EXPECT_EQ(TerminalReport::runSummaryText(ff, "", ""),
              "  simulated 2.500 us in 1.50 s wall, data check: pass\n"
              "  fast-forward: 2 skip(s), 1.2 of 2.5 us estimated at measured rates, not simulated (within 1 % of "
              "exact on the default configurations, not on every one: docs/known-limits.md)\n");
    ff["results"]["fast_forward"] = {{"periods", 0}, {"sim_us_skipped", 0.0}, {"why_none", "too short"}};
    EXPECT_EQ(TerminalReport::runSummaryText(ff, "", ""),
              "  simulated 2.500 us in 1.50 s wall, data check: pass\n"
              "  fast-forward: nothing skipped (too short)\n");
}

}  // namespace
}  // namespace cclsim
