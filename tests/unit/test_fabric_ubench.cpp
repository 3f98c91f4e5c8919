// The traffic patterns of fabric_ubench (host/microbench/FabricUbench, after
// tt-metal's fabric bandwidth test) and their figure's M, the most flows that
// cross one link direction: pure logic, no simulation. The M values are the
// ones tt-metal's golden rows divide by (LinearMulticast 3, UnidirLinear 2,
// SingleSender 3, FullRing 7, HalfRing 4).
#include "host/microbench/FabricUbench.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

using namespace cclsim;
using namespace cclsim::fabric;
using namespace cclsim::microbench;

namespace {

FabricTopology line4() {
    return makeTopology1d(FabricKind::Line, {0, 4, 5, 1});
}
FabricTopology ring8() {
    return makeTopology1d(FabricKind::Ring, {0, 1, 2, 3, 7, 6, 5, 4});
}

}  // namespace

TEST(FabricUbench, UnidirectionalLinearSendsEachHalfTowardTheFarEnd) {
    const auto f = FabricUbench::planFlows(line4(), "unidirectional_linear");
    ASSERT_EQ(f.size(), 4u);
    EXPECT_EQ(f[0].src, 0u);
    EXPECT_EQ(f[0].dir, Dir::E);
    EXPECT_EQ(f[0].hops, 3u);
    EXPECT_EQ(f[0].chips, (std::vector<unsigned>{4, 5, 1}));
    EXPECT_EQ(f[1].hops, 2u);
    EXPECT_EQ(f[1].dir, Dir::E);
    EXPECT_EQ(f[2].dir, Dir::W);
    EXPECT_EQ(f[2].hops, 2u);
    EXPECT_EQ(f[3].chips, (std::vector<unsigned>{5, 4, 0}));
    EXPECT_EQ(FabricUbench::maxFlowsPerLink(f), 2u) << "the middle link carries two flows each way";
}

TEST(FabricUbench, MaxFlowsPerLinkMatchesTtMetalsGoldenRows) {
    EXPECT_EQ(FabricUbench::maxFlowsPerLink(FabricUbench::planFlows(line4(), "all_to_all")), 3u);
    EXPECT_EQ(FabricUbench::maxFlowsPerLink(FabricUbench::planFlows(line4(), "one_to_all")), 3u);
    EXPECT_EQ(FabricUbench::maxFlowsPerLink(FabricUbench::planFlows(ring8(), "full_ring")), 7u);
    EXPECT_EQ(FabricUbench::maxFlowsPerLink(FabricUbench::planFlows(ring8(), "half_ring")), 4u);
    const auto full = FabricUbench::planFlows(ring8(), "full_ring");
    ASSERT_EQ(full.size(), 16u);
    EXPECT_EQ(full[0].chips.back(), 4u) << "7 hops east of chip 0 is its west neighbour";
    const auto one = FabricUbench::planFlows(line4(), "one_to_all");
    ASSERT_EQ(one.size(), 3u);
    for (const auto& x : one) EXPECT_EQ(x.src, 0u);
}

TEST(FabricUbench, PatternsNameTheFabricTheyNeed) {
    test::expectContains(test::thrownMessage([] { FabricUbench::planFlows(line4(), "full_ring"); }),
                         {"full_ring", "ring fabric", "not a line"});
    test::expectContains(test::thrownMessage([] { FabricUbench::planFlows(ring8(), "all_to_all"); }),
                         {"all_to_all", "line fabric", "not a ring"});
    test::expectContains(test::thrownMessage([] { FabricUbench::planFlows(line4(), "everything"); }),
                         {"unknown pattern 'everything'"});
}
