// Relocatable executables: no path is compiled in; a board finds its
// configuration through --config-dir, $CCLSIM_CONFIG_DIR, config/ beside
// itself (the build tree) or the install prefix (runtime/ConfigDir.h). Here:
// an install into a scratch prefix, moved and run from there; a lone copy of
// an executable, which names every place it looked at; and the two explicit ways.
#include "tests/packaging/PackagingSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using cclsim::test::CommandResult;
using cclsim::test::runCommand;
using cclsim::test::shellQuote;

const std::string kSource = CCLSIM_SOURCE_DIR;
const std::string kBuild = CCLSIM_BUILD_DIR;

/// A fresh scratch directory of this test process, removed with the object.
struct Scratch {
    fs::path dir;
    explicit Scratch(const std::string& name)
        : dir(fs::path(::testing::TempDir()) / ("cclsim_install_" + std::to_string(getpid())) / name) {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir, ec);
        fs::remove(dir.parent_path(), ec);  // the process's directory, once empty
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
};

std::string slurp(const fs::path& path) {
    std::ifstream is(path);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

/// A short n300 run of `exe` with `extra` options and `env` assignments,
/// without any CCLSIM_CONFIG_DIR of the caller; writes its report to `json`.
CommandResult ping(const fs::path& exe, const std::string& extra, const fs::path& json, const std::string& env = "") {
    return runCommand("env -u CCLSIM_CONFIG_DIR " + env + " " + shellQuote(exe.string()) +
                      " eth_ping --samples 2 --quiet --json " + shellQuote(json.string()) + " " + extra);
}

std::string reportCluster(const fs::path& json) {
    return nlohmann::json::parse(slurp(json)).at("params").at("cluster").get<std::string>();
}

}  // namespace

TEST(Install, MovedPrefixRunsFromItsOwnConfiguration) {
    const Scratch scratch("prefix");
    const fs::path& root = scratch.dir;
    const fs::path first = root / "first", moved = root / "moved";
    const CommandResult inst = runCommand(shellQuote(CCLSIM_CMAKE) + " --install " + shellQuote(kBuild) + " --prefix " +
                                          shellQuote(first.string()));
    ASSERT_EQ(inst.code, 0) << inst.output;
    for (const char* f : {"bin/n300", "bin/t3000", "bin/galaxy", "bin/sweep", "bin/coverify", "share/cclsim/n300.yaml",
                          "share/cclsim/arch/wormhole_b0.yaml", "share/cclsim/ccl.yaml",
                          "share/cclsim/collective_methods.yaml", "share/cclsim/calibration/wormhole_public.csv"})
        EXPECT_TRUE(fs::exists(first / f)) << f << " was not installed";
    EXPECT_FALSE(fs::exists(first / "share/cclsim/CMakeLists.txt")) << "only configuration files are installed";
    fs::rename(first, moved);

    const fs::path json = root / "ping.json";
    const CommandResult r = ping(moved / "bin/n300", "", json);
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(fs::path(reportCluster(json)).lexically_normal(), (moved / "share/cclsim/n300.yaml").lexically_normal());

    // A workload's own default file (ccl.yaml) comes from there too.
    const fs::path ipcq = root / "ipcq.json";
    const CommandResult q = runCommand("env -u CCLSIM_CONFIG_DIR " + shellQuote((moved / "bin/n300").string()) +
                                       " ipcq_allreduce --quiet --json " + shellQuote(ipcq.string()));
    ASSERT_EQ(q.code, 0) << q.output;
    const std::string ccl = nlohmann::json::parse(slurp(ipcq)).at("params").at("ccl").get<std::string>();
    EXPECT_EQ(fs::path(ccl).lexically_normal(), (moved / "share/cclsim/ccl.yaml").lexically_normal());
}

TEST(Install, TheBuildTreeFindsTheSourceConfigurationBesideItself) {
    const Scratch scratch("tree");
    const fs::path json = scratch.dir / "ping.json";
    const CommandResult r = ping(kBuild + "/n300", "", json);
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(reportCluster(json), kBuild + "/config/n300.yaml");
    EXPECT_TRUE(fs::equivalent(kBuild + "/config/n300.yaml", kSource + "/platforms/n300.yaml"));
}

TEST(Install, ALoneExecutableNamesEveryPlaceItLookedAt) {
    const Scratch scratch("lone");
    const fs::path& dir = scratch.dir;
    const fs::path exe = dir / "bin" / "n300";
    fs::create_directories(exe.parent_path());
    fs::copy_file(kBuild + "/n300", exe);
    const fs::path json = dir / "ping.json";

    const CommandResult none = ping(exe, "", json);
    EXPECT_EQ(none.code, 3) << none.output;
    for (const std::string& place : {(dir / "bin/config").string(), (dir / "share/cclsim").string()})
        EXPECT_NE(none.output.find(place), std::string::npos) << place << " not named in:\n" << none.output;
    EXPECT_NE(none.output.find("--config-dir"), std::string::npos) << none.output;
    EXPECT_NE(none.output.find("CCLSIM_CONFIG_DIR"), std::string::npos) << none.output;
    // --json still gets the reason.
    EXPECT_NE(slurp(json).find("no configuration directory"), std::string::npos);

    // The explicit ways: the option, the environment, the option before the environment.
    const std::string platforms = kSource + "/platforms";
    const CommandResult opt = ping(exe, "--config-dir " + shellQuote(platforms), json);
    ASSERT_EQ(opt.code, 0) << opt.output;
    EXPECT_EQ(reportCluster(json), platforms + "/n300.yaml");
    const CommandResult env = ping(exe, "", json, "CCLSIM_CONFIG_DIR=" + shellQuote(platforms));
    ASSERT_EQ(env.code, 0) << env.output;
    EXPECT_EQ(reportCluster(json), platforms + "/n300.yaml");
    const CommandResult both =
        ping(exe, "--config-dir " + shellQuote(platforms), json, "CCLSIM_CONFIG_DIR=/nonexistent");
    EXPECT_EQ(both.code, 0) << both.output;

    // A directory given explicitly must exist: no silent fall back.
    const CommandResult typo = ping(kBuild + "/n300", "--config-dir /nonexistent/cclsim", json);
    EXPECT_EQ(typo.code, 3) << typo.output;
    EXPECT_NE(typo.output.find("/nonexistent/cclsim (--config-dir): no such directory"), std::string::npos)
        << typo.output;
    // A directory without the board's descriptor names the file and the directory.
    const CommandResult empty = ping(kBuild + "/n300", "--config-dir " + shellQuote(dir.string()), json);
    EXPECT_EQ(empty.code, 3) << empty.output;
    EXPECT_NE(empty.output.find((dir / "n300.yaml").string() + ": no such file in the configuration directory"),
              std::string::npos)
        << empty.output;
}
