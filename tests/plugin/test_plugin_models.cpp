// A memory written against the TLM-2.0 standard headers only
// (StandardMemory.h), loaded as a plug-in library through the arch YAML's
// models: section, replaces the T3000's DRAM, its worker and Ethernet-core
// L1s and the SRAM-less parts stay cclsim's. The collectives stay byte-exact
// and their time moves the way the plug-in's latency says. Bad entries are
// configuration errors (exit 3) naming the arch file's line.
#include "tests/coverif/SubprocessRunner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace cclsim {
namespace {

using test::runBinary;

const std::string kBin = CCLSIM_T3000_BIN;
const std::string kLib = CCLSIM_STD_MEMORY_LIB;

/// The shipped Wormhole arch plus a models: section, in a temp file.
std::string archWith(const std::string& tag, const std::string& models) {
    const std::string path =
        std::string(::testing::TempDir()) + "cclsim_plugin_" + tag + "_" + std::to_string(getpid()) + ".yaml";
    std::ofstream os(path);
    os << test::slurp(std::string(CCLSIM_SOURCE_DIR) + "/platforms/arch/wormhole_b0.yaml") << "\nmodels:\n" << models;
    return path;
}

std::string stdMemory(const std::string& role, const std::string& latencyNs, const std::string& mode = "wait") {
    return "  " + role + ": {name: std_memory, library: " + kLib + ", params: {latency_ns: " + latencyNs +
           ", mode: " + mode + "}}\n";
}

double runUs(const std::string& arch, const std::string& args) {
    const nlohmann::json j = runBinary(kBin, (arch.empty() ? "" : "--arch " + arch + " ") + args);
    EXPECT_EQ(j["results"].value("data_check", ""), "pass") << args;
    return j["results"].value("sim_time_us", 0.0);
}

// DRAM-resident tensors: the collective's readers and writers go to the plug-in.
const std::string kDramOp = "all_gather --size 256K --impl edm";

TEST(PluginModels, StandardMemoryAsDramKeepsTheCollectiveExactAndItsLatencyShows) {
    const double own = runUs("", kDramOp);
    const double fast = runUs(archWith("dram_fast", stdMemory("dram", "50")), kDramOp);
    const double slow = runUs(archWith("dram_slow", stdMemory("dram", "2000")), kDramOp);
    const double annotated = runUs(archWith("dram_ann", stdMemory("dram", "2000", "annotate")), kDramOp);
    EXPECT_GT(own, 0);
    EXPECT_GT(fast, 0);
    // Every page a reader fetches waits the latency: 2 us per access shows.
    EXPECT_GT(slow, fast + 2.0) << "own " << own << " fast " << fast << " slow " << slow;
    // Timing mode writes zeros where cclsim keeps no bytes: the same time.
    const auto timing =
        runBinary(kBin, "--arch " + archWith("dram_slow_t", stdMemory("dram", "2000")) + " " + kDramOp + " --no-data");
    EXPECT_DOUBLE_EQ(timing["results"].value("sim_time_us", 0.0), slow);
    // Waiting inside b_transport and annotating the delay complete at the
    // same ticks (same-tick callbacks may run in another order).
    EXPECT_NEAR(annotated, slow, slow * 0.005);
}

TEST(PluginModels, StandardMemoryAsEveryL1KeepsCollectivesExact) {
    const std::string models = stdMemory("worker_l1", "0") + stdMemory("eth_l1", "0");
    const std::string arch = archWith("l1_zero", models);
    for (const std::string op : {"all_gather --size 64K --impl edm", "all_gather --size 64K --impl fabric",
                                 "all_reduce --size 64K --impl fabric --l1"}) {
        const double own = runUs("", op);
        const double plugged = runUs(arch, op);
        EXPECT_GT(plugged, 0) << op;
        // A zero-latency L1 behind the bridge lands every write at the tick
        // cclsim's own would, as a calendar entry of its own: the same tick,
        // but after what was already due then. The all-gather comes out the
        // same to the picosecond; the all-reduce, whose two ops' start
        // barriers meet many same-tick arrivals, moves by that order (+1.19 %
        // measured with one barrier, +3.07 % with two ops and two barriers).
        const double tolerance = op.rfind("all_reduce", 0) == 0 ? 0.04 : 0.01;
        EXPECT_NEAR(plugged, own, own * tolerance) << op;
    }
    const double slow = runUs(archWith("l1_slow", stdMemory("worker_l1", "200") + stdMemory("eth_l1", "200")),
                              "all_gather --size 64K --impl edm");
    EXPECT_GT(slow, runUs(arch, "all_gather --size 64K --impl edm") + 1.0);
}

TEST(PluginModels, BadModelEntriesAreConfigurationErrorsNamingTheLine) {
    const std::string unknown = archWith("unknown", "  dram: {name: no_such_model}\n");
    const std::string out = std::string(::testing::TempDir()) + "cclsim_plugin_err_" + std::to_string(getpid());
    auto run = [&](const std::string& arch) {
        const int st = std::system((kBin + " --arch " + arch + " all_gather --size 64K > " + out + " 2>&1").c_str());
        return std::make_pair(WIFEXITED(st) ? WEXITSTATUS(st) : -1, test::slurp(out));
    };
    auto [rc1, msg1] = run(unknown);
    EXPECT_EQ(rc1, 3);
    EXPECT_NE(msg1.find("no memory model named 'no_such_model'"), std::string::npos) << msg1;
    EXPECT_NE(msg1.find(unknown + ":"), std::string::npos) << msg1;  // file:line of the entry

    auto [rc2, msg2] = run(archWith("nolib", "  dram: {name: std_memory, library: /nonexistent/libx.so}\n"));
    EXPECT_EQ(rc2, 3);
    EXPECT_NE(msg2.find("/nonexistent/libx.so: cannot load it"), std::string::npos) << msg2;

    auto [rc3, msg3] =
        run(archWith("badparam", "  dram: {name: std_memory, library: " + kLib + ", params: {latency: 5}}\n"));
    EXPECT_EQ(rc3, 3);
    EXPECT_NE(msg3.find("refused its configuration"), std::string::npos) << msg3;

    auto [rc4, msg4] = run(archWith("badrole", "  hbm: {name: std_memory}\n"));
    EXPECT_EQ(rc4, 3);
    EXPECT_NE(msg4.find("is not a replaceable model"), std::string::npos) << msg4;
}

}  // namespace
}  // namespace cclsim
