// Helpers for co-verification tests: run a board workload in this process
// (each GoogleTest case runs in its own process, so each may elaborate once).
#pragma once

#include "sc_main/Boards.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cclsim::test {

/// Run `args` on board `name` in this process, with the configuration of the
/// source tree (a test binary has none beside it); expect exit code `expected`.
inline nlohmann::json runBoard(const std::string& name, const std::vector<std::string>& args, int expected = 0) {
    std::vector<std::string> all{"--config-dir", std::string(CCLSIM_SOURCE_DIR) + "/platforms"};
    all.insert(all.end(), args.begin(), args.end());
    int code = -1;
    nlohmann::json rep = runInProcess(boardNamed(name), all, code);
    EXPECT_EQ(code, expected) << rep.dump(2);
    return rep;
}

/// Run `args` on the N300 board; expect exit code `expected`.
inline nlohmann::json runN300(const std::vector<std::string>& args, int expected = 0) {
    return runBoard("n300", args, expected);
}

/// Run `args` on the T3000 board; expect exit code `expected`.
inline nlohmann::json runT3000(const std::vector<std::string>& args, int expected = 0) {
    return runBoard("t3000", args, expected);
}

/// Run `args` on the Galaxy board; expect exit code `expected`.
inline nlohmann::json runGalaxy(const std::vector<std::string>& args, int expected = 0) {
    return runBoard("galaxy", args, expected);
}

inline double result(const nlohmann::json& rep, const char* key) {
    return rep.at("results").at(key).get<double>();
}

/// |value - target| <= tolerance * target
#define EXPECT_WITHIN_PCT(value, target, pct) \
    EXPECT_NEAR((value), (target), (target) * (pct) / 100.0) << #value " vs " #target " +-" #pct "%"

}  // namespace cclsim::test
