// The coverify executable as a user runs it, with small tables of our own: the
// printed table and summary, JUnit XML, exit codes (a row outside its
// tolerance, a missing key, a board error, a timeout, a bad table), and
// relative paths in the options resolved from the table's directory.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const std::string kCoverify = CCLSIM_COVERIFY_BIN;

struct Outcome {
    int code = -1;
    std::string out;  ///< stdout and stderr
};

std::string slurp(const std::string& path) {
    std::ifstream is(path);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

std::string tmp(const std::string& name) {
    return std::string(::testing::TempDir()) + "cclsim_coverify_" + std::to_string(getpid()) + "_" + name;
}

/// A table written for one test, removed when the test ends.
struct TableFile {
    std::string path;
    TableFile(const std::string& name, const std::string& text) : path(tmp(name)) { std::ofstream(path) << text; }
    ~TableFile() { std::remove(path.c_str()); }
    TableFile(const TableFile&) = delete;
    TableFile& operator=(const TableFile&) = delete;
};

Outcome run(const std::string& args) {
    const std::string log = tmp("out.txt");
    const int st = std::system((kCoverify + " " + args + " > " + log + " 2>&1").c_str());
    Outcome r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(log);
    std::remove(log.c_str());
    return r;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

const std::string kHeader = "name,board,workload,options,key,measured,tolerance\n";

}  // namespace

TEST(Coverify, PassingTableExitsZero) {
    const TableFile table("pass.csv", kHeader +
                                          "ping,n300,eth_ping,--samples 5,results.one_way_ns,575,+-45\n"
                                          "rtt,n300,eth_ping,--samples 5,results.round_trip_ns,1100,10%\n");
    const Outcome r = run(table.path + " -j 2");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("2 row(s): 2 pass, 0 fail, 0 error"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("geometric-mean |error|:"), std::string::npos);
}

// A deliberately failing row (the model's one-way latency is not 300 ns) and a
// key the report does not have: exit 1, both reported, the passing row still
// passes, JUnit has a failure and an error.
TEST(Coverify, FailingRowAndMissingKey) {
    const TableFile table("fail.csv", "# a table with problems\n" + kHeader +
                                          "ping,n300,eth_ping,--samples 5,results.one_way_ns,575,+-45\n"
                                          "too fast,n300,eth_ping,--samples 5,results.one_way_ns,300,5%\n"
                                          "no key,n300,eth_ping,--samples 5,results.no_such_figure,1,5%\n");
    const std::string junit = tmp("fail.xml");
    const Outcome r = run(table.path + " -q --junit " + junit);
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("3 row(s): 1 pass, 1 fail, 1 error"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("vs measured 300"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the report has no 'results.no_such_figure'"), std::string::npos) << r.out;
    // Rows print in table order whatever order they finish in.
    EXPECT_LT(r.out.find("  ping"), r.out.find("  too fast"));
    EXPECT_LT(r.out.find("  too fast"), r.out.find("  no key"));
    const std::string xml = slurp(junit);
    EXPECT_EQ(count(xml, "<testcase "), 3u);
    EXPECT_EQ(count(xml, "<failure "), 1u);
    EXPECT_EQ(count(xml, "<error "), 1u);
    EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" errors=\"1\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("name=\"line 4: too fast\""), std::string::npos) << xml;
    std::remove(junit.c_str());
}

// A board that stops with an error is an error row carrying the board's
// reason; a relative --arch path is found from the table's directory.
TEST(Coverify, BoardErrorsAndRelativePaths) {
    const std::string dir = tmp("dir");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    ASSERT_EQ(
        std::system(("cp " CCLSIM_SOURCE_DIR "/platforms/arch/wormhole_b0.yaml " + dir + "/my_arch.yaml").c_str()), 0);
    const TableFile table("dir/t.csv",
                          kHeader +
                              "mine,n300,eth_ping,--samples 5 --arch my_arch.yaml,results.one_way_ns,575,+-45\n"
                              "bad,n300,eth_ping,--packet 24,results.one_way_ns,575,+-45\n"
                              "unknown,n300,eth_ping,--bogus,results.one_way_ns,575,+-45\n");
    const Outcome r = run(table.path + " -q");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("3 row(s): 1 pass, 0 fail, 2 error"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the board exited with code 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the board exited with code 2 (output: ERROR: n300: The following argument was not expected: "
                         "--bogus)"),
              std::string::npos)
        << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// A row that runs longer than --timeout is killed and reported.
TEST(Coverify, TimeoutKillsTheRow) {
    const TableFile table("slow.csv",
                          kHeader + "slow,t3000,all_gather,--size 256M --no-data,results.busbw_GBps,24,5%\n");
    const Outcome r = run(table.path + " -q --timeout 0.3");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("timed out after"), std::string::npos) << r.out;
}

// --with adds options to every row: the table under a configuration change.
// The row holds only if the fabric really ran at the payload --with gives.
TEST(Coverify, WithAddsOptionsToEveryRow) {
    const TableFile table("with.csv", kHeader +
                                          "payload,n300,fabric_bandwidth,--bytes 256K --no-data,"
                                          "params.fabric_payload_bytes,6144,+-1\n");
    Outcome r = run(table.path + " -q --with \"--fabric-payload 6144\"");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("every row run with: --fabric-payload 6144"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 row(s): 1 pass"), std::string::npos) << r.out;
    r = run(table.path + " -q");  // the arch YAML's 4352 B
    EXPECT_EQ(r.code, 1) << r.out;
    r = run(table.path + " -q --with \"--json x\"");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--with: '--json' is not allowed"), std::string::npos) << r.out;
}

// A bad table stops before anything runs, naming file:line:column (exit 3);
// usage errors exit 2.
TEST(Coverify, BadTableAndUsage) {
    const TableFile table("bad.csv", kHeader +
                                         "ping,n300,eth_ping,--samples 5,results.one_way_ns,575,+-45\n"
                                         "typo,n3000,eth_ping,,results.one_way_ns,575,+-45\n");
    Outcome r = run(table.path);
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find(table.path + ":3:6: unknown board 'n3000'"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("row(s)"), std::string::npos) << "nothing may run";

    const TableFile noTol("notol.csv", "name,board,workload,options,key,measured\nx,n300,eth_ping,,k,1\n");
    r = run(noTol.path);
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.out.find(noTol.path + ":1:1: the header has no 'tolerance' column"), std::string::npos) << r.out;

    EXPECT_EQ(run("").code, 2);
    EXPECT_EQ(run(table.path + " --bogus").code, 2);
    EXPECT_EQ(run(table.path + " -j 0").code, 2);
    EXPECT_EQ(run("/nonexistent.csv").code, 3);
    EXPECT_EQ(run("--help").code, 0);
}
