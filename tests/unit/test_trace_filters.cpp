// The tracked GTKWave translate filters in traces/filters/ are copies of what
// the model writes beside every .gtkw (the names come from the C++ enums'
// name tables). This test fails when an enum changes and the copy does not;
// regenerate the copies with
//   CCLSIM_UPDATE_FILTERS=1 build/tests/unit/test_trace_filters
#include "host/edm/EdmBuilder.h"
#include "host/fabric/FabricBuilder.h"
#include "models/common/Trace.h"
#include "models/pe/PeIpcq.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace cclsim {
namespace {

namespace fs = std::filesystem;

/// Every enum the model traces (a new enum-valued signal adds its table here).
std::vector<const TraceEnum*> tracedEnums() {
    return {&edm::channelStateTraceEnum(), &fabric::connectionStateTraceEnum(), &ipcqWaitTraceEnum(),
            &ipcqDirTraceEnum()};
}

const fs::path kDir = fs::path(CCLSIM_SOURCE_DIR) / "traces" / "filters";
constexpr const char* kRegenerate = " (regenerate: CCLSIM_UPDATE_FILTERS=1 build/tests/unit/test_trace_filters)";

TEST(TraceFilters, TrackedCopiesMatchTheEnums) {
    const bool update = std::getenv("CCLSIM_UPDATE_FILTERS") != nullptr;
    std::set<std::string> expected;
    for (const TraceEnum* e : tracedEnums()) {
        const fs::path f = kDir / (e->name + ".txt");
        expected.insert(f.filename().string());
        if (update) {
            std::ofstream(f) << translateFilterText(*e);
            continue;
        }
        std::ifstream is(f);
        ASSERT_TRUE(is) << "missing " << f << kRegenerate;
        std::stringstream ss;
        ss << is.rdbuf();
        EXPECT_EQ(ss.str(), translateFilterText(*e)) << f << " differs from the enum's names" << kRegenerate;
    }
    for (const auto& entry : fs::directory_iterator(kDir)) {
        if (entry.path().extension() != ".txt") continue;
        EXPECT_TRUE(expected.count(entry.path().filename().string())) << "stale filter " << entry.path();
    }
}

TEST(TraceFilters, EveryEnumValueHasAName) {
    for (const TraceEnum* e : tracedEnums()) {
        ASSERT_FALSE(e->valueNames.empty()) << e->name;
        std::set<std::string> names;
        for (std::size_t v = 0; v < e->valueNames.size(); ++v) {
            EXPECT_FALSE(e->valueNames[v].empty()) << e->name << " value " << v;
            EXPECT_EQ(e->valueNames[v].find_first_of(" \t"), std::string::npos)
                << "one word per name: " << e->valueNames[v];
            EXPECT_TRUE(names.insert(e->valueNames[v]).second) << "duplicate name " << e->valueNames[v];
            EXPECT_NE(translateFilterText(*e).find("\n" + std::to_string(v) + " " + e->valueNames[v] + "\n"),
                      std::string::npos);
        }
    }
    EXPECT_EQ(edm::channelStateTraceEnum().valueNames.size(), std::size_t(edm::RECEIVER_WAITING_FOR_ETH) + 1);
    EXPECT_EQ(edm::channelStateTraceEnum().valueNames[edm::SENDER_READY_FOR_ETH_TRANSFER],
              "SENDER_READY_FOR_ETH_TRANSFER");
    EXPECT_EQ(fabric::connectionStateTraceEnum().valueNames.at(fabric::conn::kCloseRequested), "CLOSE_REQUESTED");
    EXPECT_EQ(ipcqWaitTraceEnum().valueNames.at(IpcqWait::RecvAny), "RECV_ANY");
    EXPECT_EQ(ipcqDirTraceEnum().valueNames.at(unsigned(IpcqDir::ChildLeft)),
              std::string(ipcqDirName(IpcqDir::ChildLeft)));
}

}  // namespace
}  // namespace cclsim
