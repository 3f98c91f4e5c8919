// The user link an Ethernet microbenchmark runs over (host/microbench/
// LinkEnds): which end is A, which of several links between two chips, and
// the errors that name the chips and the board. Pure logic on the shipped
// cluster descriptors, no simulation.
#include "host/microbench/LinkEnds.h"
#include "tests/unit/TestSupport.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace cclsim;
using namespace cclsim::microbench;

namespace {

ClusterDescriptor board(const char* file) {
    return loadClusterDescriptor(test::sourcePath(std::string("platforms/") + file));
}

}  // namespace

TEST(UserLink, EndAIsTheFirstChipWhicheverWayTheDescriptorListsTheLink) {
    const ClusterDescriptor d = board("n300.yaml");
    const LinkEnds fwd = userLink(d, 0, 1, 0);
    const LinkEnds back = userLink(d, 1, 0, 0);
    EXPECT_EQ(fwd.chipA, 0u);
    EXPECT_EQ(fwd.chipB, 1u);
    EXPECT_EQ(back.chipA, 1u);
    EXPECT_EQ(back.chipB, 0u);
    // The same link seen from the other chip: the channels swap ends.
    EXPECT_EQ(back.chanA, fwd.chanB);
    EXPECT_EQ(back.chanB, fwd.chanA);
    // The cores are the arch's Ethernet cores of those channels.
    EXPECT_EQ(fwd.coreA, d.arch.ethCores[fwd.chanA]);
    EXPECT_EQ(fwd.coreB, d.arch.ethCores[fwd.chanB]);
    // The link is one the descriptor lists between the two chips, not a dispatch link.
    const LinkDesc* l = d.userLinksBetween(0, 1).at(0);
    EXPECT_EQ(l->a.chip == 0 ? l->a.chan : l->b.chan, fwd.chanA);
}

TEST(UserLink, IndexPicksAmongTheUserLinksBetweenTwoChips) {
    const ClusterDescriptor d = board("t3000.yaml");
    ASSERT_GE(d.userLinksBetween(0, 1).size(), 2u);
    const LinkEnds first = userLink(d, 0, 1, 0);
    const LinkEnds second = userLink(d, 0, 1, 1);
    EXPECT_NE(first.chanA, second.chanA);
    EXPECT_NE(first.chanB, second.chanB);
}

TEST(UserLinkErrors, NamesTheMissingChipLinkOrIndex) {
    const ClusterDescriptor n300 = board("n300.yaml");
    test::expectContains(test::configError([&] { userLink(n300, 0, 5, 0); }), {"chips 0 and 5", "chips 0..1"});
    const ClusterDescriptor t3000 = board("t3000.yaml");
    test::expectContains(test::configError([&] { userLink(t3000, 0, 2, 0); }),
                         {"no user Ethernet link between chip 0 and chip 2", "t3000.yaml"});
    const std::size_t n = t3000.userLinksBetween(0, 1).size();
    test::expectContains(test::configError([&] { userLink(t3000, 0, 1, unsigned(n)); }),
                         {fmt::format("link {} between chip 0 and chip 1 does not exist", n),
                          fmt::format("there are {} user links", n)});
}
