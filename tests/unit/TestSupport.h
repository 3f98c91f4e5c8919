// Small helpers shared by the unit tests: paths into the source tree,
// scratch files, a callback MemoryWatcher, and the N300 platform used by the
// tests that elaborate hardware.
//
// Tests that call sc_start elaborate once per process (gtest_discover_tests
// runs every case in its own process), so a helper that builds modules is
// called at most once per test case.
#pragma once

#include "models/common/ConfigError.h"
#include "models/common/Time.h"
#include "models/memory/L1Memory.h"
#include "platforms/ClusterDescriptor.h"
#include "platforms/Platform.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

/// Skip a test that reproduces a known model bug (its comment says where and
/// why). Set CCLSIM_RUN_KNOWN_BUGS=1 in the environment to run it and see it fail.
#define CCLSIM_KNOWN_BUG(why) \
    if (!std::getenv("CCLSIM_RUN_KNOWN_BUGS")) GTEST_SKIP() << "known model bug: " << why

namespace cclsim::test {

/// Absolute path of a file of the repository ("platforms/n300.yaml").
inline std::string sourcePath(const std::string& rel) {
    return std::string(CCLSIM_SOURCE_DIR) + "/" + rel;
}

inline std::string readText(const std::string& path) {
    std::ifstream is(path);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

/// A scratch directory removed when the test ends.
class ScratchDir {
public:
    ScratchDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        const std::string tag = info ? std::string(info->test_suite_name()) + "." + info->name() : "cclsim";
        dir_ = std::filesystem::temp_directory_path() / ("cclsim_" + tag + "_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    /// Write `text` to `name` in the directory and return its path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::string p = path(name);
        std::ofstream(p) << text;
        return p;
    }

private:
    std::filesystem::path dir_;
};

/// 1-based number of the first line of `text` that contains `needle`
/// (0 when absent): config errors must point at that line.
inline int lineOf(const std::string& text, const std::string& needle) {
    std::istringstream is(text);
    std::string line;
    for (int n = 1; std::getline(is, line); ++n)
        if (line.find(needle) != std::string::npos) return n;
    return 0;
}

/// A MemoryWatcher that calls a function.
class CallbackWatcher final : public MemoryWatcher {
public:
    explicit CallbackWatcher(std::function<void()> fn) : fn_(std::move(fn)) {}
    void onWatchedWrite(std::uint32_t /*watchedAddr*/) override { fn_(); }

private:
    std::function<void()> fn_;
};

/// A deterministic, position-dependent byte pattern (so a shifted or
/// truncated copy never matches by accident).
inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::uint8_t(seed + i * 7 + (i >> 8));
    return v;
}

/// Run `fn`, expect it to throw, and return the message (empty when it did
/// not throw; the failure is recorded). Model errors arrive as sc_report,
/// config errors as ConfigError: both are std::exceptions.
template <class F> std::string thrownMessage(F&& fn) {
    try {
        fn();
    } catch (const std::exception& e) {
        return e.what();
    }
    ADD_FAILURE() << "did not throw";
    return {};
}

/// Expect `text` to contain every one of `parts`.
inline void expectContains(const std::string& text, std::initializer_list<std::string> parts) {
    for (const std::string& p : parts)
        EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' missing in: " << text;
}

/// Run `load`; return the ConfigError's message ("" and a failure otherwise).
template <class Load> std::string configError(Load&& load) {
    try {
        load();
    } catch (const ConfigError& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected ConfigError, got: " << e.what();
        return e.what();
    }
    ADD_FAILURE() << "loaded without error";
    return {};
}

/// The message must point at `file:line` and name `key`, plus `more`.
inline void expectLocated(const std::string& msg, const std::string& file, int line, const std::string& key,
                          std::initializer_list<std::string> more = {}) {
    ASSERT_GT(line, 0) << "test bug: line not found";
    expectContains(msg, {file + ":" + std::to_string(line) + ":", "'" + key + "'"});
    expectContains(msg, more);
}

inline std::vector<std::uint8_t> readL1(const L1Memory& l1, std::uint32_t addr, std::uint32_t n) {
    std::vector<std::uint8_t> v(n);
    l1.readBytes(addr, n, v.data());
    return v;
}

/// Elaborate the N300 board of platforms/n300.yaml, optionally after
/// adjusting its descriptor (e.g. the PE_DMA weights). One per test case.
inline std::unique_ptr<Platform> makeN300(const std::function<void(ClusterDescriptor&)>& tweak = {},
                                          const PlatformOptions& opts = {}) {
    ClusterDescriptor desc = loadClusterDescriptor(sourcePath("platforms/n300.yaml"));
    if (tweak) tweak(desc);
    return std::make_unique<Platform>("n300", desc, opts);
}

}  // namespace cclsim::test
