// noc_trace: replay of a small trace of our own making (tests/data/
// noc_trace_small.json) on the N300 board: measured cycles from the trace,
// model cycles bounded by the recorded gaps and by the data the barriers wait
// for, and the bad-input errors.
#include "tests/coverif/CoverifHelpers.h"
#include "tests/coverif/SubprocessRunner.h"

#include <fstream>
#include <sstream>

using cclsim::test::result;
using cclsim::test::runBinary;
using cclsim::test::runN300;

namespace {

const std::string kSmall = CCLSIM_SOURCE_DIR "/tests/data/noc_trace_small.json";

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The small trace with every `from` replaced by `to`, written to a temp file.
std::string variant(const std::string& name, const std::string& from, const std::string& to) {
    std::string text = readText(kSmall);
    EXPECT_NE(text.find(from), std::string::npos) << from;
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    const std::string path = std::string(::testing::TempDir()) + name;
    std::ofstream(path) << text;
    return path;
}

std::string errorOf(const nlohmann::json& rep) {
    return rep.value("error", std::string());
}

}  // namespace

TEST(NocTraceReplay, SmallTraceModelAndMeasured) {
    const auto rep = runN300({"noc_trace", "--trace", kSmall});
    // Measured: BRISC 2-1's zone end (1900) minus the first zone begin (0).
    EXPECT_EQ(result(rep, "measured_cycles"), 1900.0);
    EXPECT_EQ(rep.at("results").at("kernels").get<int>(), 3);
    EXPECT_EQ(rep.at("results").at("transfers").get<int>(), 6);
    // BRISC 2-1 issues its barrier no earlier than recorded (520), the barrier
    // returns no earlier than its last 4 KiB read (issued >= 400) has crossed a
    // 32 B/cycle NoC link (128 cycles), and its zone end follows 800 cycles later.
    const double model = result(rep, "model_cycles");
    EXPECT_GE(model, 400.0 + 4096 / 32 + 800);
    EXPECT_GE(model, 520.0 + 800);
    // Counted from the kernels' start, not from the host's enqueue: the
    // program's dispatch (several thousand cycles) is not part of the zone.
    EXPECT_LT(model, 1.25 * 1900.0);
    EXPECT_NEAR(result(rep, "error_pct"), 100.0 * (model - 1900.0) / 1900.0, 1e-9);
}

double modelCycles(const std::string& trace) {
    return runBinary(CCLSIM_N300_BIN, "noc_trace --trace " + trace).at("results").at("model_cycles").get<double>();
}

TEST(NocTraceReplay, RecordedGapsCountFromTheModelledBarrierEnd) {
    // BRISC 2-1's zone end moved 98100 cycles later in the recording: the
    // replay's end moves by exactly as much (the gap after the barrier end is
    // replayed as recorded; the barrier itself is the model's).
    const auto late = variant("late_end.json", "\"timestamp\": 1001900", "\"timestamp\": 1100000");
    EXPECT_EQ(modelCycles(late) - modelCycles(kSmall), 100000.0 - 1900.0);
}

TEST(NocTraceReplay, BarrierWaitsForTheData) {
    // The two READ_WITH_STATE of BRISC 2-1 take their size from the set-state:
    // with 8 KiB each, 16 KiB must cross the link into core 2-1 (<= 32 B/cycle)
    // after the first read's recorded issue (250) before the barrier returns,
    // and the zone end follows 800 cycles later.
    const auto bigger = variant("bigger.json", "\"num_bytes\": 4096", "\"num_bytes\": 8192");
    const double base = modelCycles(kSmall);
    const double big = modelCycles(bigger);
    EXPECT_GE(big, 250.0 + 2 * 8192 / 32 + 800);
    EXPECT_GT(big, base);
}

TEST(NocTraceReplay, GapsNoneIssuesAsSoonAsTheModelAllows) {
    // Without the recorded gaps the same commands take only what the model
    // needs: less than the replay with gaps, but no less than BRISC 2-1's
    // 8 KiB crossing the link into core 2-1 at <= 32 B/cycle.
    const auto rep = runBinary(CCLSIM_N300_BIN, "noc_trace --gaps none --trace " + kSmall);
    const double none = rep.at("results").at("model_cycles").get<double>();
    EXPECT_EQ(rep.at("results").at("gaps").get<std::string>(), "none");
    EXPECT_LT(none, modelCycles(kSmall));
    EXPECT_GE(none, 2.0 * 4096 / 32);
    EXPECT_LT(none, 1900.0);
    EXPECT_EQ(rep.at("results").at("measured_cycles").get<double>(), 1900.0);
}

TEST(NocTraceReplay, UnsupportedEventNamesFileAndIndex) {
    const auto f = variant("mcast.json", "\"READ_WITH_STATE\"", "\"WRITE_MULTICAST\"");
    const auto rep = runN300({"noc_trace", "--trace", f}, 3);
    EXPECT_NE(errorOf(rep).find(f + ": event 12: event type 'WRITE_MULTICAST'"), std::string::npos) << errorOf(rep);
}

TEST(NocTraceReplay, IssuerMustBeAWorker) {
    const auto f = variant("issuer.json", "\"sx\": 2, \"sy\": 1", "\"sx\": 0, \"sy\": 0");
    const auto rep = runN300({"noc_trace", "--trace", f}, 3);
    EXPECT_NE(errorOf(rep).find("BRISC at 0-0 is not a worker core"), std::string::npos) << errorOf(rep);
}

TEST(NocTraceReplay, RemoteMustBeWorkerOrDram) {
    const auto f = variant("remote.json", "\"dx\": 0, \"dy\": 11", "\"dx\": 9, \"dy\": 0");
    const auto rep = runN300({"noc_trace", "--trace", f}, 3);
    EXPECT_NE(errorOf(rep).find("event 2: read from core 9-0, which is neither a worker core nor a DRAM endpoint"),
              std::string::npos)
        << errorOf(rep);
}

TEST(NocTraceReplay, TraceOptionIsRequired) {
    const auto rep = runN300({"noc_trace"}, 2);
    EXPECT_NE(errorOf(rep).find("--trace"), std::string::npos) << errorOf(rep);
}
