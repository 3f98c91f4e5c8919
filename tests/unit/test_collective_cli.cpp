// The command line's side of the collectives (pure logic, no SystemC): how
// an op error's field references become the options the user typed, the
// defaults of --links and --workers, the report's text forms, and the
// workloads the registry of collectives yields.
#include "cli/workloads/ccl/CclFlags.h"
#include "cli/workloads/ccl/CollectiveDefaults.h"
#include "cli/workloads/ccl/CollectiveReport.h"
#include "cli/workloads/ccl/CollectiveWorkloads.h"

#include <gtest/gtest.h>

namespace cclsim::ccl {
namespace {

TEST(CclFlags, FieldsAreSpelledAsTheirOptions) {
    EXPECT_EQ(flagSpelling("page_bytes", "100"), "--page-bytes 100");
    EXPECT_EQ(flagSpelling("packet_bytes", "3000"), "--packet 3000");
    EXPECT_EQ(flagSpelling("redop", "mean"), "--op mean");
    EXPECT_EQ(flagSpelling("edm_buffers", ""), "--edm-buffers");
    EXPECT_EQ(flagSpelling("torus", ""), "--torus");
    EXPECT_EQ(flagSpelling("no_such_field", "1"), "no_such_field=1");  // no option: the op's name
}

TEST(CclFlags, OpErrorsReadAsTheUserTypedThem) {
    const CclOpError e("workers",
                       "all_gather: 8 EDM channels leave 1198 B per buffer; use fewer `workers` or "
                       "`edm_buffers`");
    EXPECT_EQ(std::string(asFlagError(e).what()),
              "all_gather: 8 EDM channels leave 1198 B per buffer; use fewer --workers or --edm-buffers");
    EXPECT_EQ(withFlags("the ring needs a wraparound link (use `topology=line`, or `torus` on a board with torus "
                        "links)"),
              "the ring needs a wraparound link (use --topology line, or --torus on a board with torus links)");
}

TEST(CollectiveDefaults, WorkersFollowTtMetalsRules) {
    using Impl = CclSpec::Impl;
    EXPECT_EQ(defaultWorkers(false, Impl::Edm, 1 << 30, 8, 1, TopologyKind::Ring), 4u);
    // all_gather_async: by the bytes next to a chip, div_up(n-1, 2) slices.
    EXPECT_EQ(defaultWorkers(false, Impl::Fabric, 1024, 8, 1, TopologyKind::Ring), 1u);
    EXPECT_EQ(defaultWorkers(false, Impl::Fabric, 64 << 10, 8, 1, TopologyKind::Ring), 2u);
    EXPECT_EQ(defaultWorkers(false, Impl::Fabric, 1 << 20, 8, 1, TopologyKind::Ring), 4u);
    // all_gather on a line (or a ring of two): tt-metal's multicast all-gather, one worker per link.
    EXPECT_EQ(defaultWorkers(false, Impl::Fabric, 1 << 20, 4, 1, TopologyKind::Line, true), 1u);
    EXPECT_EQ(defaultWorkers(false, Impl::Fabric, 1 << 20, 2, 1, TopologyKind::Ring, true), 1u);
    EXPECT_EQ(defaultWorkers(false, Impl::Fabric, 1 << 20, 8, 1, TopologyKind::Ring, true), 4u);
    // reduce_scatter_minimal_async: input x (n-1)/n / links, halved on a ring.
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 8192, 8, 1, TopologyKind::Ring), 1u);
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 1 << 20, 8, 1, TopologyKind::Ring), 2u);
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 16 << 20, 8, 1, TopologyKind::Ring), 4u);
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 256 << 20, 8, 1, TopologyKind::Ring), 8u);
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 1 << 20, 8, 1, TopologyKind::Line), 4u);
    // A ring of two is a line: no halving, the line's thresholds.
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 2 << 20, 3, 1, TopologyKind::Ring), 2u);
    EXPECT_EQ(defaultWorkers(true, Impl::Fabric, 2 << 20, 2, 1, TopologyKind::Ring), 4u);
}

TEST(CollectiveReport, TextForms) {
    EXPECT_EQ(collectiveSizeText(4096), "4K");
    EXPECT_EQ(collectiveSizeText(64u << 20), "64M");
    EXPECT_EQ(collectiveSizeText(1000), "1000");
    const nlohmann::json skipped{{"results", {{"size_bytes", 8}, {"skipped", "below one element per rank"}}}};
    EXPECT_EQ(collectiveSweepRow(skipped), "           8  (skipped: below one element per rank)\n");
    EXPECT_EQ(collectiveCsvRow("all_gather", skipped), "");
    EXPECT_EQ(collectiveSummary("all_gather", skipped["results"]),
              "all_gather: skipped (below one element per rank)\n");
    EXPECT_EQ(collectiveCsvHeader().rfind("op,impl,n_chips,", 0), 0u);
    EXPECT_EQ(collectiveSweepSeries({nlohmann::json::object()}), std::vector<std::string>{""});
}

TEST(CollectiveWorkloads, OnePerRegisteredCollective) {
    const std::vector<WorkloadFactory> all = collectiveWorkloads();
    ASSERT_EQ(all.size(), collectives().size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::unique_ptr<Workload> w = all[i]();
        EXPECT_EQ(w->name(), collectives()[i]->name());
        EXPECT_EQ(w->description(), collectives()[i]->description);
    }
    EXPECT_NE(makeCollective("broadcast"), nullptr);
    EXPECT_EQ(makeCollective("all_scatter"), nullptr);
}

}  // namespace
}  // namespace cclsim::ccl
