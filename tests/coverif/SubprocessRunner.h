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

/// Run `bin args` (quietly) and return its JSON report; expect exit code `expected`.
inline nlohmann::json runBinary(const std::string& bin, const std::string& args, int expected = 0) {
    // Test cases run in parallel processes: name the report by process and call.
    static int n = 0;
    const std::string json = std::string(::testing::TempDir()) + "cclsim_run_" + std::to_string(getpid()) + "_" +
                             std::to_string(n++) + ".json";
    const int st = std::system((bin + " " + args + " --quiet --json " + json + " > /dev/null 2>&1").c_str());
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == expected) << bin << " " << args;
    std::ifstream is(json);
    std::stringstream ss;
    ss << is.rdbuf();
    std::remove(json.c_str());
    if (ss.str().empty()) return nlohmann::json::object();
    return nlohmann::json::parse(ss.str());
}

}  // namespace cclsim::test
