// The process pool of a sweep (cli/SweepPool.h): what a point's process
// came to (its wait status and output), the failure line, and results handed
// on in point order when points finish out of order. The pool's children run
// small functions here, no simulation.
#include "cli/SweepPool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace cclsim {
namespace {

TEST(SweepPool, APointsReportAndExitCodeAreWhatItsProcessLeft) {
    const PointResult ok = SweepPool::readPoint(3, W_EXITCODE(0, 0), R"({"results": {"x": 1}})");
    EXPECT_EQ(ok.exitCode, 0);
    EXPECT_EQ(ok.report["results"]["x"], 1);
    const PointResult stuck = SweepPool::readPoint(3, W_EXITCODE(5, 0), R"({"error": "deadlock"})");
    EXPECT_EQ(stuck.exitCode, 5);
    EXPECT_EQ(stuck.report["error"], "deadlock");
}

TEST(SweepPool, APointWithoutAReadableReportIsASimulationError) {
    const PointResult crashed = SweepPool::readPoint(2, W_EXITCODE(0, SIGSEGV), "");
    EXPECT_EQ(crashed.exitCode, 4);
    EXPECT_EQ(crashed.report["error"], "sweep point 2 crashed (signal 11)");
    const PointResult silent = SweepPool::readPoint(2, W_EXITCODE(0, 0), "");
    EXPECT_EQ(silent.exitCode, 4);
    EXPECT_EQ(silent.report["error"], "sweep point 2 wrote no report");
    const PointResult torn = SweepPool::readPoint(2, W_EXITCODE(0, 0), R"({"results": )");
    EXPECT_EQ(torn.exitCode, 4);
    EXPECT_NE(torn.report["error"].get<std::string>().find("sweep point 2: unreadable report: "), std::string::npos);
    // A failure code of its own stands.
    EXPECT_EQ(SweepPool::readPoint(2, W_EXITCODE(3, 0), "").exitCode, 3);
}

TEST(SweepPool, TheFailureLineIsTheFirstLineOfWhy) {
    EXPECT_EQ(SweepPool::failureLine(4, PointResult{{{"error", "time limit reached at 30 ns.\n  chip0 ...\n"}}, 5}),
              "sweep point 4 failed (exit 5): time limit reached at 30 ns. ...\n");
    EXPECT_EQ(SweepPool::failureLine(0, PointResult{{{"error", "configuration error: bad"}}, 3}),
              "sweep point 0 failed (exit 3): configuration error: bad\n");
    // A failed data check has a complete report: the first failure says why.
    EXPECT_EQ(SweepPool::failureLine(1, PointResult{{{"data_check_failure", "byte 7"}, {"results", {}}}, 1}),
              "sweep point 1 failed (exit 1): data check failed: byte 7\n");
}

TEST(SweepPool, ResultsComeInPointOrderWhateverOrderThePointsFinishIn) {
    // Point 0 finishes last: nothing may be handed on before it.
    SweepPool pool(4, 4);
    std::vector<std::size_t> order;
    const std::vector<PointResult> results = pool.run(
        [](std::size_t i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 300 : 20 * i));
            return PointResult{nlohmann::json{{"point", i}}, i == 2 ? 5 : 0};
        },
        [&](std::size_t i, const PointResult& r) {
            EXPECT_EQ(r.report["point"], i);
            order.push_back(i);
        });
    EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3}));
    ASSERT_EQ(results.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(results[i].report["point"], i);
        EXPECT_EQ(results[i].exitCode, i == 2 ? 5 : 0);
    }
}

TEST(SweepPool, OnePointAtATimeAndAChildThatDiesAreStillEveryPoint) {
    SweepPool pool(3, 1);
    const std::vector<PointResult> results = pool.run(
        [](std::size_t i) {
            if (i == 1) std::abort();
            return PointResult{nlohmann::json{{"point", i}}, 0};
        },
        [](std::size_t, const PointResult&) {});
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].report["point"], 0);
    EXPECT_EQ(results[1].exitCode, 4);
    EXPECT_EQ(results[1].report["error"], "sweep point 1 crashed (signal 6)");
    EXPECT_EQ(results[2].report["point"], 2);
}

}  // namespace
}  // namespace cclsim
