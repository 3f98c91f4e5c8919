// Where the configuration directory is found (runtime/ConfigDir.h), as pure
// logic: the order of the places, explicit places that must exist, the
// errors. The executables themselves are run in test_install.cpp.
#include "models/common/ConfigError.h"
#include "runtime/ConfigDir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using cclsim::ConfigDir;
using cclsim::ConfigError;

/// A fresh scratch tree of this test process, removed with the object.
struct Tree {
    fs::path root;
    Tree() : root(fs::path(::testing::TempDir()) / ("cclsim_config_dir_" + std::to_string(getpid()))) {
        fs::remove_all(root);
        fs::create_directories(root);
        unsetenv("CCLSIM_CONFIG_DIR");  // each test case runs in its own process
    }
    ~Tree() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;
    std::string dir(const std::string& rel) const {
        fs::create_directories(root / rel);
        return (root / rel).string();
    }
    std::string exe() const { return (root / "bin" / "t3000").string(); }
};

std::string errorOf(const ConfigDir& c) {
    try {
        c.dir();
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(ConfigDir, BesideTheExecutableThenTheInstallPrefix) {
    Tree t;
    const ConfigDir none = ConfigDir::locate("", t.exe());
    ASSERT_EQ(none.places().size(), 2u);
    const std::string why = errorOf(none);
    EXPECT_NE(why.find((t.root / "bin/config").string() + " (beside the executable)"), std::string::npos) << why;
    EXPECT_NE(why.find((t.root / "share/cclsim").string() + " (the install prefix)"), std::string::npos) << why;
    EXPECT_NE(why.find("--config-dir DIR or CCLSIM_CONFIG_DIR=DIR"), std::string::npos) << why;
    EXPECT_EQ(none.shown("ccl.yaml"), "ccl.yaml");
    EXPECT_EQ(none.how(), "");

    const std::string installed = t.dir("share/cclsim");
    EXPECT_EQ(ConfigDir::locate("", t.exe()).dir(), installed);
    EXPECT_EQ(ConfigDir::locate("", t.exe()).how(), "the install prefix");
    const std::string beside = t.dir("bin/config");
    EXPECT_EQ(ConfigDir::locate("", t.exe()).dir(), beside);
    EXPECT_EQ(ConfigDir::locate("", t.exe()).how(), "beside the executable");
}

TEST(ConfigDir, TheOptionThenTheEnvironmentAndBothMustExist) {
    Tree t;
    t.dir("bin/config");
    const std::string fromEnv = t.dir("env"), fromOption = t.dir("option");
    setenv("CCLSIM_CONFIG_DIR", fromEnv.c_str(), 1);
    EXPECT_EQ(ConfigDir::locate("", t.exe()).dir(), fromEnv);
    EXPECT_EQ(ConfigDir::locate(fromOption, t.exe()).dir(), fromOption);
    EXPECT_EQ(ConfigDir::locate(fromOption, t.exe()).how(), "--config-dir");

    // An explicit place that does not exist is an error, not a fall back to config/ beside the executable.
    try {
        ConfigDir::locate((t.root / "typo").string(), t.exe());
        FAIL() << "a missing --config-dir was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find((t.root / "typo").string() + " (--config-dir): no such directory"),
                  std::string::npos)
            << e.what();
    }
    setenv("CCLSIM_CONFIG_DIR", (t.root / "typo").c_str(), 1);
    EXPECT_THROW(ConfigDir::locate("", t.exe()), ConfigError);
    EXPECT_EQ(ConfigDir::locate(fromOption, t.exe()).dir(), fromOption);  // the option comes first
}

TEST(ConfigDir, FilesOfTheDirectory) {
    Tree t;
    const std::string dir = t.dir("share/cclsim/arch");
    const ConfigDir c = ConfigDir::locate("", t.exe());
    EXPECT_EQ(c.file("arch"), (t.root / "share/cclsim/arch").string());
    EXPECT_EQ(c.shown("ccl.yaml"), (t.root / "share/cclsim/ccl.yaml").string());
    try {
        c.file("ccl.yaml");
        FAIL() << "a missing file was found";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("ccl.yaml: no such file in the configuration directory " +
                                             (t.root / "share/cclsim").string() + " (the install prefix)"),
                  std::string::npos)
            << e.what();
    }
    // A workload that was never told where the configuration is.
    EXPECT_NE(errorOf(ConfigDir()).find("never said"), std::string::npos);
}
