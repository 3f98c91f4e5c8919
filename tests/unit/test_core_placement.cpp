// Worker cores of ops that run at once (host/ccl/CorePlacement): given
// ranges, equal shares of the rest, and the errors (pure logic, no SystemC).
#include "host/ccl/CorePlacement.h"
#include "models/common/ConfigError.h"

#include <gtest/gtest.h>

namespace cclsim::ccl {
namespace {

std::vector<CoreCoord> grid(unsigned n) {
    std::vector<CoreCoord> out;
    for (unsigned i = 0; i < n; ++i) out.push_back(CoreCoord{std::uint8_t(1 + i % 8), std::uint8_t(1 + i / 8)});
    return out;
}

std::string errorOf(std::vector<OpCores> ops, unsigned workers = 64) {
    try {
        placeOpCores(ops, grid(workers));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

TEST(CorePlacement, GivenRangesAndEqualSharesOfTheRest) {
    std::vector<OpCores> ops{{"op1", ""}, {"op2", "48-63"}, {"op3", ""}, {"op4", "7"}};
    // Free: 0-6 and 8-47 (47 cores) -> two shares of 23, in order; 0-6 + 8-23 is not one run.
    EXPECT_NE(errorOf(ops).find("op1: the worker cores left between the given --cores ranges are not one run"),
              std::string::npos);
    ops = {{"op1", ""}, {"op2", "32-63"}, {"op3", ""}};
    placeOpCores(ops, grid(64));
    EXPECT_EQ(ops[0].first, 0u);
    EXPECT_EQ(ops[0].last, 15u);
    EXPECT_EQ(ops[1].first, 32u);
    EXPECT_EQ(ops[1].last, 63u);
    EXPECT_EQ(ops[2].first, 16u);
    EXPECT_EQ(ops[2].last, 31u);
    ops = {{"a", "5"}};
    placeOpCores(ops, grid(64));
    EXPECT_EQ(ops[0].first, 5u);
    EXPECT_EQ(ops[0].last, 5u);
}

TEST(CorePlacement, OverlapsAndBadRangesNameTheOp) {
    EXPECT_EQ(errorOf({{"op1", "0-15"}, {"op2", "8-23"}}),
              "op2: --cores 8-23 overlaps the cores 0-15 of op1 at worker 8 (core 1-2); ops that run at once take "
              "disjoint worker cores");
    EXPECT_NE(errorOf({{"op1", "0-64"}}).find("op1: --cores 0-64: the chip has worker cores 0-63"), std::string::npos);
    EXPECT_NE(errorOf({{"op1", "9-3"}}).find("the range is empty"), std::string::npos);
    for (const char* bad : {"x", "1-", "-3", "1-2-3", "1..4", " 1-2"})
        EXPECT_NE(errorOf({{"op1", bad}}).find("is not a range of worker indices"), std::string::npos) << bad;
    EXPECT_NE(errorOf({{"op1", "0-62"}, {"op2", ""}, {"op3", ""}}).find("2 op(s) without --cores but 1 free"),
              std::string::npos);
}

TEST(CorePlacement, ReservedCoresAreKeptClear) {
    // Cores another op placed itself (PE_IPCQ ranks) are neither shared out nor given.
    std::vector<OpCores> ops{{"op1", ""}, {"op2", ""}};
    placeOpCores(ops, grid(64), {0, 1, 2, 3, 4, 5, 6, 7}, "the IPCQ ranks");
    EXPECT_EQ(ops[0].first, 8u);
    EXPECT_EQ(ops[0].last, 35u);
    EXPECT_EQ(ops[1].first, 36u);
    EXPECT_EQ(ops[1].last, 63u);
    std::vector<OpCores> given{{"op1", "4-9"}};
    try {
        placeOpCores(given, grid(64), {0, 1, 2, 3, 4, 5, 6, 7}, "the IPCQ ranks");
        FAIL() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_STREQ(e.what(), "op1: --cores 4-9 overlaps the cores of the IPCQ ranks at worker 4 (core 5-1)");
    }
}

}  // namespace
}  // namespace cclsim::ccl
