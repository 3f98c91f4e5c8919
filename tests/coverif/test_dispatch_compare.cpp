// Dispatch and fixed costs compared across runs (the board executables run
// as subprocesses): runtime arguments cost per core, a remote chip adds the
// dispatch tunnel, and the collectives report an op both ways (device kernel
// time, and end to end with dispatch).
#include "tests/coverif/SubprocessRunner.h"

#include <string>

namespace {

using cclsim::test::runBinary;

nlohmann::json n300(const std::string& args) {
    return runBinary(CCLSIM_N300_BIN, args);
}
nlohmann::json t3000(const std::string& args) {
    return runBinary(CCLSIM_T3000_BIN, args);
}
double result(const nlohmann::json& rep, const char* key) {
    return rep.at("results").at(key).get<double>();
}

}  // namespace

// Runtime arguments are unicast per core: the dispatch grows with cores x args.
TEST(Dispatch, RuntimeArgumentsCostPerCore) {
    const auto few = n300("dispatch --cores 8 --rt-args 64");
    const auto many = n300("dispatch --cores 64 --rt-args 64");
    const auto none = n300("dispatch --cores 64");
    EXPECT_EQ(result(none, "arg_writes_us"), 0.0);
    EXPECT_NEAR(result(many, "arg_writes_us"), 8 * result(few, "arg_writes_us"), 1e-6);
    EXPECT_GT(result(many, "dispatch_us"), result(few, "dispatch_us"));
}

// A chip without PCIe gets its commands through the tunnel from a PCIe chip.
TEST(Dispatch, RemoteChipAddsTheTunnel) {
    const auto local = t3000("dispatch --chip 0");
    const auto remote = t3000("dispatch --chip 4");
    EXPECT_EQ(result(local, "tunnel_hops"), 0.0);
    EXPECT_EQ(result(remote, "tunnel_hops"), 1.0);
    EXPECT_NEAR(result(remote, "dispatch_us") - result(local, "dispatch_us"), 0.65, 1e-6);
}

// The collectives report the op both ways: `time` is device kernel time on
// the chip that started last (after its dispatch), and end to end with
// dispatch spans the first enqueue to the last program's completion.
TEST(Dispatch, CollectiveReportsBothWays) {
    for (const char* impl : {"edm", "fabric"}) {
        const auto rep = t3000(std::string("all_gather --size 64K --impl ") + impl);
        const double t = result(rep, "sim_time_us"), e2e = result(rep, "end_to_end_us");
        const double disp = result(rep, "dispatch_us"), withDispatch = result(rep, "end_to_end_with_dispatch_us");
        EXPECT_GT(disp, 2.0) << impl;
        EXPECT_LE(t, e2e) << impl;
        // Every chip is enqueued at 0: the chip started last finished its
        // kernels `time` after its dispatch, then reported completion.
        EXPECT_GE(withDispatch, disp + t + result(rep, "completion_us") - 1e-9) << impl;
        EXPECT_GT(withDispatch, e2e) << impl;
        EXPECT_GE(rep["results"]["chip_dispatch_us"]["4"].get<double>(),
                  rep["results"]["chip_dispatch_us"]["0"].get<double>() + 0.65 - 1e-9)
            << impl;
        for (const char* k : {"dispatch_us", "end_to_end_with_dispatch_us"}) EXPECT_TRUE(rep.contains(k)) << k;
    }
}
