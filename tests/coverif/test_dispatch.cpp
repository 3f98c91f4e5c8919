// Dispatch and fixed costs of an op: tt-metal's program-dispatch figures
// reproduced by the dispatch workload on a chip (one run per test; the
// comparisons of several runs are in test_dispatch_compare.cpp).
#include "tests/coverif/CoverifHelpers.h"

using cclsim::test::result;
using cclsim::test::runN300;

// test_pgm_dispatch (traced, empty kernels, 1 KB binaries): one processor
// 2.7 us. tt-metal's figure is on 256 cores; a Wormhole chip has 80 and the
// model's binaries and go signal are multicast, so the core count does not
// enter (tests/unit/test_dispatch.cpp plans the 256-core program itself).
TEST(CalibrationDispatch, OneProcessorKernel) {
    const auto rep = runN300({"dispatch", "--processors", "brisc"});
    EXPECT_WITHIN_PCT(result(rep, "dispatch_us"), 2.7, 3);
    EXPECT_EQ(result(rep, "cores"), 80.0);
    EXPECT_EQ(result(rep, "binaries"), 1.0);
    EXPECT_EQ(result(rep, "kernel_groups"), 1.0);
}

// All processors (brisc, ncrisc and a compute kernel's three TRISCs): 3.1 us.
TEST(CalibrationDispatch, AllProcessors) {
    const auto rep = runN300({"dispatch", "--processors", "all"});
    EXPECT_WITHIN_PCT(result(rep, "dispatch_us"), 3.1, 3);
    EXPECT_EQ(result(rep, "binaries"), 5.0);
}

// All processors with 12 KB binaries: 6.2 us.
TEST(CalibrationDispatch, TwelveKilobyteBinaries) {
    const auto rep = runN300({"dispatch", "--processors", "all", "--kernel-bytes", "12288"});
    EXPECT_WITHIN_PCT(result(rep, "dispatch_us"), 6.2, 3);
    EXPECT_EQ(result(rep, "binary_bytes"), 5.0 * 12288);
}

// The pieces add up: enqueue -> complete = launch + kernels (start-up
// firmware only) + completion.
TEST(Dispatch, BreakdownAddsUp) {
    const auto rep = runN300({"dispatch", "--processors", "dm", "--rt-args", "16", "--semaphores", "2"});
    EXPECT_NEAR(result(rep, "dispatch_us"),
                result(rep, "launch_us") + result(rep, "kernels_us") + result(rep, "completion_us"), 1e-9);
    EXPECT_NEAR(result(rep, "launch_us"),
                result(rep, "tunnel_us") + result(rep, "program_overhead_us") + result(rep, "launch_messages_us") +
                    result(rep, "binary_writes_us") + result(rep, "arg_writes_us") + result(rep, "go_signal_us"),
                1e-6);
    // 2 kernels x 16 args + 2 semaphores = 136 B per core.
    EXPECT_EQ(result(rep, "arg_bytes"), 80.0 * 136);
    // Start-up firmware: 100 cycles + 2 semaphores x 4 cycles at 1 GHz.
    EXPECT_NEAR(result(rep, "kernels_us"), 0.108, 1e-9);
}

TEST(Dispatch, MoreCoresThanTheChipHasIsRefused) {
    const auto rep = runN300({"dispatch", "--cores", "81"}, 3);
    EXPECT_NE(rep.value("error", std::string()).find("--cores 81: chip 0 has 80 worker cores"), std::string::npos)
        << rep.dump(2);
}
