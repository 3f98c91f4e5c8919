// Small golden traces: a few short n300 runs whose VCD must stay byte-identical
// to the copies in traces/golden/. They pin down, signal by signal and
// picosecond by picosecond, what the model does on an Ethernet ping, a fabric
// and an EDM all-gather and an IPCQ send/recv, so a change meant to be
// timing-neutral (a speed-up, a refactoring) shows any drift at once, with the
// first line that moved. A change that is meant to move the timing updates the
// copies on purpose:
//
//   CCLSIM_UPDATE_GOLDEN=1 build/tests/coverif/coverif_golden_traces
#include "tests/coverif/SubprocessRunner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

const std::string kBin = CCLSIM_N300_BIN;
const std::string kGolden = std::string(CCLSIM_SOURCE_DIR) + "/traces/golden/";

using cclsim::test::slurp;

/// Line number (1-based) and text of the first line where `a` and `b` differ.
std::string firstDifference(const std::string& a, const std::string& b) {
    std::istringstream ia(a), ib(b);
    std::string la, lb;
    for (int n = 1;; ++n) {
        const bool ga = bool(std::getline(ia, la)), gb = bool(std::getline(ib, lb));
        if (!ga && !gb) return "identical";
        if (ga != gb || la != lb)
            return "line " + std::to_string(n) + ": golden '" + (gb ? lb : "<end>") + "' vs run '" +
                   (ga ? la : "<end>") + "'";
    }
}

void checkGolden(const std::string& name, const std::string& args) {
    const std::string vcd = std::string(::testing::TempDir()) + "cclsim_golden_" + name + ".vcd";
    ASSERT_EQ(cclsim::test::runExitCode(kBin, args + " --quiet --vcd " + vcd), 0) << "n300 " << args << " failed";
    const std::string run = slurp(vcd);
    ASSERT_FALSE(run.empty()) << vcd;
    const std::string golden = kGolden + name + ".vcd";
    if (std::getenv("CCLSIM_UPDATE_GOLDEN")) {
        std::ofstream(golden) << run;
        GTEST_SKIP() << "updated " << golden;
    }
    const std::string want = slurp(golden);
    ASSERT_FALSE(want.empty()) << "no golden trace " << golden << " (CCLSIM_UPDATE_GOLDEN=1 writes it)";
    EXPECT_TRUE(run == want) << "n300 " << args << ": the VCD differs from " << golden << " at "
                             << firstDifference(run, want);
}

TEST(GoldenTraces, EthPing) {
    checkGolden("n300_eth_ping", "eth_ping");
}

TEST(GoldenTraces, FabricAllGather) {
    checkGolden("n300_all_gather_fabric_16K", "all_gather --size 16K");
}

TEST(GoldenTraces, EdmAllGather) {
    checkGolden("n300_all_gather_edm_16K", "all_gather --impl edm --size 16K");
}

TEST(GoldenTraces, IpcqSendRecv) {
    checkGolden("n300_ipcq_latency", "ipcq_latency");
}

}  // namespace
