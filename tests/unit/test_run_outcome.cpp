// The one mapping from what happened to a board run to its exit code and
// reason (cli/RunOutcome.h): every exception kind and every outcome, the
// reason as reports and the terminal give it. No simulation.
#include "cli/RunOutcome.h"
#include "models/common/ConfigError.h"
#include "tools/sweep/SweepPlot.h"

#include <gtest/gtest.h>
#include <systemc>

#include <stdexcept>

namespace cclsim {
namespace {

using Kind = RunOutcome::Kind;

/// The outcome of `thrown`, classified as a catch block of the CLI would.
template <class E> RunOutcome outcomeOf(const E& thrown) {
    try {
        throw thrown;
    } catch (...) {
        return RunOutcome::fromCurrentException();
    }
}

TEST(RunOutcome, SuccessIsExitZeroWithoutAReason) {
    const RunOutcome ok;
    EXPECT_EQ(ok.kind(), Kind::Ok);
    EXPECT_EQ(ok.exitCode(), 0);
    EXPECT_EQ(ok.message(), "");
    EXPECT_FALSE(ok.endsInError());
    EXPECT_EQ(RunOutcome::ok().exitCode(), 0);
}

TEST(RunOutcome, AConfigErrorIsExitThreeAndSaysConfigurationError) {
    const RunOutcome o = outcomeOf(ConfigError("--start 9:0: chip 9 does not exist"));
    EXPECT_EQ(o.kind(), Kind::ConfigError);
    EXPECT_EQ(o.exitCode(), 3);
    EXPECT_EQ(o.message(), "configuration error: --start 9:0: chip 9 does not exist");
    EXPECT_EQ(o.terminalMessage(), o.message());
    EXPECT_EQ(o.terminalLine(), "cclsim: configuration error: --start 9:0: chip 9 does not exist\n");
    EXPECT_EQ(o.errorReport(), (nlohmann::json{{"error", o.message()}}));
    EXPECT_EQ(o.errorFile(), (nlohmann::json{{"error", o.message()}, {"exit_code", 3}}));
    EXPECT_TRUE(o.writesErrorFile());
    EXPECT_EQ(RunOutcome::configError("x").message(), "configuration error: x");
}

TEST(RunOutcome, APlotErrorIsExitThreeAndLeavesTheSweepReportAlone) {
    const RunOutcome o = outcomeOf(sweep::PlotError("--plot: gnuplot failed"));
    EXPECT_EQ(o.kind(), Kind::PlotError);
    EXPECT_EQ(o.exitCode(), 3);
    EXPECT_EQ(o.terminalLine(), "cclsim: --plot: gnuplot failed\n");
    EXPECT_FALSE(o.writesErrorFile());  // the sweep's JSON is written before the plot
}

TEST(RunOutcome, ASystemCReportIsASimulationErrorExitFour) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    RunOutcome o;
    try {
        SC_REPORT_ERROR("/cclsim/test", "port not bound");
    } catch (...) {
        o = RunOutcome::fromCurrentException();
    }
    EXPECT_EQ(o.kind(), Kind::ModelError);
    EXPECT_EQ(o.exitCode(), 4);
    EXPECT_EQ(o.message(), "simulation error port not bound");
    EXPECT_EQ(o.terminalLine(), "cclsim: simulation error port not bound\n");
}

TEST(RunOutcome, AnyOtherExceptionIsExitFourAndSaysErrorOnlyOnTheTerminal) {
    const RunOutcome o = outcomeOf(std::runtime_error("noc_async_write: destination outside L1"));
    EXPECT_EQ(o.kind(), Kind::Error);
    EXPECT_EQ(o.exitCode(), 4);
    // runInProcess and a sweep point report the exception's text as it is;
    // the executable's stderr and --json file prefix it.
    EXPECT_EQ(o.errorReport(), (nlohmann::json{{"error", "noc_async_write: destination outside L1"}}));
    EXPECT_EQ(o.terminalLine(), "cclsim: error: noc_async_write: destination outside L1\n");
    EXPECT_EQ(o.errorFile(),
              (nlohmann::json{{"error", "error: noc_async_write: destination outside L1"}, {"exit_code", 4}}));
}

TEST(RunOutcome, SomethingThatIsNoStdExceptionIsRethrown) {
    EXPECT_THROW(outcomeOf(42), int);
}

TEST(RunOutcome, AUsageErrorIsExitTwo) {
    const RunOutcome o = RunOutcome::usageError("--plot draws a sweep: add the workload's --sweep");
    EXPECT_EQ(o.exitCode(), 2);
    EXPECT_EQ(o.errorFile(),
              (nlohmann::json{{"error", "--plot draws a sweep: add the workload's --sweep"}, {"exit_code", 2}}));
}

TEST(RunOutcome, AFailedDataCheckIsExitOneWithTheFirstFailure) {
    const RunOutcome o = RunOutcome::dataCheckFailed("chip 1 byte 4096: expected 0x12, got 0x00");
    EXPECT_EQ(o.exitCode(), 1);
    EXPECT_FALSE(o.endsInError());  // the run has results: summary and CSV as usual
    EXPECT_EQ(o.terminalLine(), "cclsim: data check failed: chip 1 byte 4096: expected 0x12, got 0x00\n");
}

TEST(RunOutcome, AStuckRunIsExitFiveAndPrintsItsStopReportAsItStands) {
    const std::string report = "deadlock at 12.000 ns: kernels did not finish.\n  chip0 brisc waits\n";
    const RunOutcome o = RunOutcome::stuck(report);
    EXPECT_EQ(o.exitCode(), 5);
    EXPECT_TRUE(o.endsInError());
    EXPECT_EQ(o.message(), report);
    EXPECT_EQ(o.terminalLine(), "cclsim: " + report);  // no newline of ours
}

TEST(RunOutcome, ARunLostToAFaultIsExitSix) {
    const RunOutcome o = RunOutcome::lostToFault("lost to a fault:\n  link chip 0 ch 9 -> chip 1 ch 1: down\n");
    EXPECT_EQ(o.kind(), Kind::LostToFault);
    EXPECT_EQ(o.exitCode(), 6);
    EXPECT_TRUE(o.endsInError());
    EXPECT_EQ(o.terminalLine(), "cclsim: lost to a fault:\n  link chip 0 ch 9 -> chip 1 ch 1: down\n");
}

}  // namespace
}  // namespace cclsim
