// WaitTimeout: when a firmware wait that sees no change gives up, and the
// report line it leaves (the runtime prints it in the deadlock report).
#include "models/core/WaitTimeout.h"

#include <gtest/gtest.h>

namespace cclsim {
namespace {

constexpr Tick kMs = 1'000'000 * kTicksPerNs;

TEST(WaitTimeout, NoTimeoutMeansNoDeadline) {
    WaitTimeout none(0, "timeouts.edm_ms");
    none.starts(5 * kTicksPerNs);
    EXPECT_EQ(none.deadline(), kNever);
}

TEST(WaitTimeout, TheDeadlineIsTheTimeoutAfterTheWaitBegan) {
    WaitTimeout t(1000 * kMs, "timeouts.edm_ms");
    EXPECT_EQ(t.deadline(), kNever) << "no wait in progress";
    t.starts(2 * kMs);
    EXPECT_EQ(t.deadline(), 1002 * kMs);
    t.ends();
    EXPECT_EQ(t.deadline(), kNever);
    t.starts(7 * kMs);  // the next wait counts from its own start
    EXPECT_EQ(t.deadline(), 1007 * kMs);
}

TEST(WaitTimeout, GivingUpNamesTheKernelTheTimeAndTheYamlKey) {
    WaitTimeout t(1000 * kMs, "timeouts.fabric_ms");
    EXPECT_TRUE(t.gaveUp().empty());
    t.starts(2 * kMs);
    t.giveUp("chip0.eth9.erisc(fabric_router)", t.deadline());
    EXPECT_EQ(t.gaveUp(),
              "chip0.eth9.erisc(fabric_router) gave up its wait at 1002000.000 us after 1000.000 ms without a "
              "change (timeouts.fabric_ms in the arch YAML)\n");
}

}  // namespace
}  // namespace cclsim
