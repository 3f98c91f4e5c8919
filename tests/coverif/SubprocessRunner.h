// Running a board executable as a subprocess, for tests that compare several
// runs (SystemC elaborates once per process, so a test case can run one
// simulation in-process at most).
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace cclsim::test {

/// The whole content of a file ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
    std::ifstream is(path);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

/// Run `bin args` with its output discarded; its exit code (-1: it did not exit).
inline int runExitCode(const std::string& bin, const std::string& args) {
    const int st = std::system((bin + " " + args + " > /dev/null 2>&1").c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/// Run `bin args` (quietly) and return its JSON report; expect exit code `expected`.
inline nlohmann::json runBinary(const std::string& bin, const std::string& args, int expected = 0) {
    // Test cases run in parallel processes: name the report by process and call.
    static int n = 0;
    const std::string json = std::string(::testing::TempDir()) + "cclsim_run_" + std::to_string(getpid()) + "_" +
                             std::to_string(n++) + ".json";
    const int st = std::system((bin + " " + args + " --quiet --json " + json + " > /dev/null 2>&1").c_str());
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == expected) << bin << " " << args;
    const std::string text = slurp(json);
    std::remove(json.c_str());
    if (text.empty()) return nlohmann::json::object();
    return nlohmann::json::parse(text);
}

}  // namespace cclsim::test
