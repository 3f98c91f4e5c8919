// Helpers for co-verification tests: run a board workload in this process
// (each GoogleTest case runs in its own process, so each may elaborate once).
#pragma once

#include "sc_main/BoardMain.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cclsim::test {

/// Run `args` on the N300 board; expect exit code `expected`.
inline nlohmann::json runN300(const std::vector<std::string>& args, int expected = 0) {
    int code = -1;
    nlohmann::json rep = runInProcess(n300Board(), args, code);
    EXPECT_EQ(code, expected) << rep.dump(2);
    return rep;
}

/// Run `args` on the T3000 board; expect exit code `expected`.
inline nlohmann::json runT3000(const std::vector<std::string>& args, int expected = 0) {
    int code = -1;
    nlohmann::json rep = runInProcess(t3000Board(), args, code);
    EXPECT_EQ(code, expected) << rep.dump(2);
    return rep;
}

/// Run `args` on the Galaxy board; expect exit code `expected`.
inline nlohmann::json runGalaxy(const std::vector<std::string>& args, int expected = 0) {
    int code = -1;
    nlohmann::json rep = runInProcess(galaxyBoard(), args, code);
    EXPECT_EQ(code, expected) << rep.dump(2);
    return rep;
}

inline double result(const nlohmann::json& rep, const char* key) { return rep.at("results").at(key).get<double>(); }

/// |value - target| <= tolerance * target
#define EXPECT_WITHIN_PCT(value, target, pct) \
    EXPECT_NEAR((value), (target), (target) * (pct) / 100.0) << #value " vs " #target " +-" #pct "%"

}  // namespace cclsim::test
