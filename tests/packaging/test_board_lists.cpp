// The boards and workloads are written once: the boards in
// sc_main/CMakeLists.txt (cclsim_board), the workloads in cli/WorkloadRegistry.cpp
// (allWorkloads). Everything else is generated from those lists or checked
// against them here: the executables, build/boards.txt and ./cclsim's idea of
// a board, each executable's workloads, the README's tables, and the
// bootstrap's preset and build directory. No simulation runs.
#include "sc_main/Boards.h"
#include "tests/packaging/PackagingSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using cclsim::test::runCommand;
using cclsim::test::shellQuote;

const std::string kSource = CCLSIM_SOURCE_DIR;
const std::string kBuild = CCLSIM_BUILD_DIR;

std::string slurp(const std::string& path) {
    std::ifstream is(path);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream is(text);
    for (std::string l; std::getline(is, l);) out.push_back(l);
    return out;
}

std::set<std::string> registryBoards() {
    std::set<std::string> out;
    for (const cclsim::BoardInfo& b : cclsim::allBoards()) out.insert(b.name);
    return out;
}

std::set<std::string> registryWorkloads() {
    std::set<std::string> out;
    for (cclsim::WorkloadFactory f : cclsim::allWorkloads()) out.insert(f()->name());
    return out;
}

/// The first-column names of a README table: the rows after `header`
/// matched by `row` (its first group), up to the end of the table.
std::set<std::string> readmeTable(const std::string& header, const std::regex& row) {
    std::set<std::string> out;
    bool in = false;
    for (const std::string& l : lines(slurp(kSource + "/README.md"))) {
        if (!in) {
            in = l.rfind(header, 0) == 0;
            continue;
        }
        if (l.empty() || l[0] != '|') break;
        std::smatch m;
        if (std::regex_search(l, m, row)) out.insert(m[1]);
    }
    return out;
}

/// The value of `NAME=value` at the start of a line of ./cclsim.
std::string bootstrapVariable(const std::string& name) {
    for (const std::string& l : lines(slurp(kSource + "/cclsim")))
        if (l.rfind(name + "=", 0) == 0) return l.substr(name.size() + 1);
    return "";
}

}  // namespace

TEST(BoardLists, TheRegistryIsTheCMakeList) {
    const std::set<std::string> boards = registryBoards();
    ASSERT_FALSE(boards.empty());
    EXPECT_EQ(boards.size(), cclsim::allBoards().size()) << "a board is listed twice in sc_main/CMakeLists.txt";
    // build/boards.txt, which ./cclsim reads, is written from the same list.
    const std::vector<std::string> txt = lines(slurp(kBuild + "/boards.txt"));
    EXPECT_EQ(std::set<std::string>(txt.begin(), txt.end()), boards);
    EXPECT_EQ(txt.size(), boards.size());
}

TEST(BoardLists, EveryBoardHasItsExecutableDescriptorAndDefault) {
    const std::set<std::string> workloads = registryWorkloads();
    for (const cclsim::BoardInfo& b : cclsim::allBoards()) {
        const std::string exe = kBuild + "/" + b.name;
        ASSERT_EQ(access(exe.c_str(), X_OK), 0) << exe << " is not an executable";
        EXPECT_TRUE(fs::exists(kSource + "/platforms/" + b.descriptor)) << b.name << ": " << b.descriptor;
        EXPECT_TRUE(workloads.count(b.defaultWorkload)) << b.name << ": default " << b.defaultWorkload;
        EXPECT_EQ(b.workloads.size(), workloads.size()) << b.name;
        // The executable is this board and offers every workload.
        const auto help = runCommand(shellQuote(exe) + " --help");
        EXPECT_EQ(help.code, 0) << help.output;
        EXPECT_NE(help.output.find("cclsim " + b.name + " board"), std::string::npos) << help.output;
        for (const std::string& w : workloads)
            EXPECT_TRUE(std::regex_search(help.output, std::regex("\\n\\s+" + w + "\\s"))) << b.name << " lacks " << w;
    }
    EXPECT_THROW(cclsim::boardNamed("no_such_board"), std::invalid_argument);
}

TEST(BoardLists, TheBootstrapAcceptsEveryBoardAndNoOther) {
    // ./cclsim's own is_board, sourced (it defines its functions without running).
    const auto isBoard = [](const std::string& name) {
        return runCommand("bash -c " + shellQuote("source " + shellQuote(kSource + "/cclsim") + " && BUILD_DIR=" +
                                                  shellQuote(kBuild) + " && is_board " + shellQuote(name)))
            .code;
    };
    for (const std::string& b : registryBoards()) EXPECT_EQ(isBoard(b), 0) << b;
    EXPECT_EQ(isBoard("no_such_board"), 1);
    EXPECT_EQ(isBoard("all_gather"), 1);
    EXPECT_TRUE(registryBoards().count(bootstrapVariable("DEFAULT_BOARD"))) << "./cclsim's DEFAULT_BOARD";
}

TEST(BoardLists, TheReadmeTablesNameEveryBoardAndWorkload) {
    EXPECT_EQ(readmeTable("| board | executable |", std::regex("^\\|[^|]*\\| `build/([a-z0-9_]+)` \\|")),
              registryBoards());
    EXPECT_EQ(readmeTable("| workload | what it does |", std::regex("^\\| `([a-z0-9_]+)` \\|")), registryWorkloads());
}

TEST(BoardLists, TheBootstrapBuildsWithItsPreset) {
    // ./cclsim configures with `cmake --preset $PRESET` and finds the
    // executables in $BUILD_DIR: the preset's binaryDir.
    const std::string preset = bootstrapVariable("PRESET");
    const std::string dir = bootstrapVariable("BUILD_DIR");
    ASSERT_FALSE(preset.empty());
    ASSERT_FALSE(dir.empty());
    const auto presets = nlohmann::json::parse(slurp(kSource + "/CMakePresets.json"));
    bool configure = false, build = false, test = false;
    for (const auto& p : presets.at("configurePresets"))
        if (p.at("name") == preset) {
            configure = true;
            EXPECT_EQ(p.at("binaryDir"), "${sourceDir}/" + dir);
            EXPECT_EQ(p.at("generator"), "Ninja");
        }
    for (const auto& p : presets.at("buildPresets")) build = build || p.at("name") == preset;
    for (const auto& p : presets.at("testPresets")) test = test || p.at("name") == preset;
    EXPECT_TRUE(configure && build && test) << "CMakePresets.json lacks a configure, build or test preset " << preset;
}
