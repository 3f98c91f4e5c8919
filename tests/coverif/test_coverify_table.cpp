// The co-verification runner's logic without running a board: reading a table
// (CSV quoting, comments, every error at file:line:column), tolerances, option
// splitting, key lookup in a report, judging a row, the geometric mean and the
// JUnit XML.
#include "tools/coverify/CoverifyReport.h"
#include "tools/coverify/CoverifyTable.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace cclsim::coverify;

namespace {

const std::vector<std::string> kBoards{"n300", "t3000"};
const std::string kHeader = "name,board,workload,options,key,measured,tolerance,source\n";

/// The message of the TableError that parsing `text` throws ("" if none).
std::string errorOf(const std::string& text) {
    try {
        parseTable(text, "t.csv", kBoards);
    } catch (const TableError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(CoverifyTable, ReadsQuotedFieldsCommentsAndAnyColumnOrder) {
    const std::string text =
        "# a comment\n"
        "\n"
        "key,measured,tolerance,board,workload,options,name\n"
        "  # an indented comment\n"
        "results.per_hop_ns,650,5%,t3000,ring_ping,\"--hops 8 --order 0,4,5,1,2,6,7,3\",\"ring, \"\"merged\"\"\"\r\n"
        "results.one_way_ns,575,+-45,n300,eth_ping,,\n";
    const Table t = parseTable(text, "t.csv", kBoards);
    ASSERT_EQ(t.rows.size(), 2u);
    const Row& r = t.rows[0];
    EXPECT_EQ(r.line, 5);
    EXPECT_EQ(r.board, "t3000");
    EXPECT_EQ(r.name, "ring, \"merged\"");
    EXPECT_EQ(r.args, (std::vector<std::string>{"--hops", "8", "--order", "0,4,5,1,2,6,7,3"}));
    EXPECT_EQ(r.measured, 650.0);
    EXPECT_EQ(r.tolerance.kind, Tolerance::Kind::Relative);
    EXPECT_DOUBLE_EQ(r.tolerance.allowed(650), 32.5);
    // A spreadsheet's UTF-8 byte-order mark before the header is not part of the first column's name.
    EXPECT_EQ(
        parseTable("\xEF\xBB\xBF" + kHeader + "p,n300,eth_ping,,results.x,1,1%,s\r\n", "t.csv", kBoards).rows.size(),
        1u);
    const Row& p = t.rows[1];
    EXPECT_TRUE(p.args.empty());
    EXPECT_EQ(p.name, "eth_ping results.one_way_ns");  // a default name when the field is empty
    EXPECT_EQ(p.tolerance.kind, Tolerance::Kind::Absolute);
    EXPECT_DOUBLE_EQ(p.tolerance.allowed(575), 45.0);
}

TEST(CoverifyTable, ErrorsNameFileLineAndColumn) {
    // unknown board: line 2, the board field starts at column 6
    EXPECT_EQ(errorOf(kHeader + "ping,n400,eth_ping,,results.one_way_ns,575,10%,\n"),
              "t.csv:2:6: unknown board 'n400' (boards: n300, t3000)");
    // bad number in 'measured' (column 38)
    EXPECT_EQ(errorOf(kHeader + "ping,n300,eth_ping,,results.one_way_ns,5x75,10%,\n").rfind("t.csv:2:40: measured", 0),
              0u);
    // bad tolerance
    EXPECT_NE(errorOf(kHeader + "ping,n300,eth_ping,,results.one_way_ns,575,10,\n").find("t.csv:2:44: tolerance '10'"),
              std::string::npos);
    EXPECT_NE(errorOf(kHeader + "ping,n300,eth_ping,,results.one_way_ns,575,-5%,\n").find("t.csv:2:44:"),
              std::string::npos);
    // a missing column in the header
    EXPECT_EQ(errorOf("board,workload,options,key,measured\n"), "t.csv:1:1: the header has no 'tolerance' column");
    // an unknown column (a typo) at its column
    EXPECT_EQ(
        errorOf("board,workload,options,key,measured,tolerance,sorce\n").rfind("t.csv:1:47: unknown column 'sorce'", 0),
        0u);
    // too few and too many fields
    EXPECT_NE(errorOf(kHeader + "ping,n300,eth_ping\n").find("t.csv:2:19: expected 8 fields"), std::string::npos);
    EXPECT_NE(errorOf(kHeader + "p,n300,eth_ping,,results.x,1,1%,s,extra\n").find("t.csv:2:35: expected 8 fields"),
              std::string::npos);
    // quoting errors
    EXPECT_NE(errorOf(kHeader + "p,n300,eth_ping,\"--hops 8,results.x,1,1%,s\n").find("t.csv:2:17: unterminated"),
              std::string::npos);
    EXPECT_NE(errorOf(kHeader + "p,n300,eth_ping,--a \"b\",results.x,1,1%,s\n").find("t.csv:2:17: a quote"),
              std::string::npos);
    // a bad key, the report option, an empty table
    EXPECT_NE(errorOf(kHeader + "p,n300,eth_ping,,results..x,1,1%,s\n").find("t.csv:2:18: key"), std::string::npos);
    EXPECT_NE(errorOf(kHeader + "p,n300,eth_ping,--json x.json,results.x,1,1%,s\n").find("t.csv:2:17: '--json'"),
              std::string::npos);
    EXPECT_NE(errorOf(kHeader + "p,n300,--hops,,results.x,1,1%,s\n").find("t.csv:2:8: the workload"),
              std::string::npos);
    EXPECT_NE(errorOf(kHeader + "p,n300,eth_ping,,results.x,0,1%,s\n").find("t.csv:2:30: a relative tolerance"),
              std::string::npos);
    EXPECT_EQ(errorOf("# only comments\n"), "t.csv:2:1: no header row (and no rows)");
    EXPECT_EQ(errorOf(kHeader), "t.csv:2:1: the table has a header but no rows");
    EXPECT_THROW(loadTable("/nonexistent/table.csv", kBoards), TableError);
}

TEST(CoverifyTable, TolerancesAndOptions) {
    EXPECT_DOUBLE_EQ(parseTolerance("2.5%").allowed(-200), 5.0);
    EXPECT_DOUBLE_EQ(parseTolerance("+-0.5").allowed(1e9), 0.5);
    EXPECT_DOUBLE_EQ(parseTolerance("\xC2\xB1"
                                    "3")
                         .allowed(1),
                     3.0);
    for (const char* bad : {"", "%", "ten%", "+-", "5", "+-x", "-1%", "+--1"})
        EXPECT_THROW(parseTolerance(bad), std::invalid_argument) << bad;
    EXPECT_EQ(splitOptions("  --a 1\t--b 'x y' --c=\"z\"  "),
              (std::vector<std::string>{"--a", "1", "--b", "x y", "--c=z"}));
    EXPECT_EQ(splitOptions("--empty ''"), (std::vector<std::string>{"--empty", ""}));
    EXPECT_THROW(splitOptions("--b 'x"), std::invalid_argument);
}

TEST(CoverifyReport, LookupKeyWalksObjectsAndArrays) {
    const auto rep = nlohmann::json::parse(
        R"({"results": {"one_way_ns": 539.1, "hops": [{"ns": 650}, {"ns": 660}], "ok": true, "link": "a"}})");
    EXPECT_DOUBLE_EQ(lookupKey(rep, "results.one_way_ns"), 539.1);
    EXPECT_DOUBLE_EQ(lookupKey(rep, "results.hops.1.ns"), 660);
    auto msg = [&](const std::string& key) {
        try {
            lookupKey(rep, key);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(msg("results.per_hop_ns"), "the report has no 'results.per_hop_ns'");
    EXPECT_EQ(msg("results.hops.2.ns"), "the report has no 'results.hops.2' (an array of 2)");
    EXPECT_EQ(msg("results.one_way_ns.x"), "the report has no 'results.one_way_ns.x' (its parent is not an object)");
    EXPECT_NE(msg("results.ok").find("is not a number"), std::string::npos);
    EXPECT_NE(msg("results.link").find("is not a number"), std::string::npos);
}

TEST(CoverifyReport, JudgesRowsAndAveragesErrors) {
    const Table t = parseTable(kHeader +
                                   "a,n300,eth_ping,,results.v,100,5%,\n"
                                   "b,n300,eth_ping,,results.v,100,+-2,\n"
                                   "c,n300,eth_ping,,results.w,100,5%,\n"
                                   "d,n300,eth_ping,,results.v,100,5%,\n",
                               "t.csv", kBoards);
    const auto rep = nlohmann::json::parse(R"({"results": {"v": 104}})");
    std::vector<RowResult> res{judgeRow(t.rows[0], 0, rep), judgeRow(t.rows[1], 0, rep), judgeRow(t.rows[2], 0, rep),
                               judgeRow(t.rows[3], 3, nlohmann::json::parse(R"({"error": "bad yaml"})"))};
    EXPECT_EQ(res[0].status, RowResult::Status::Pass);
    EXPECT_DOUBLE_EQ(res[0].errorPct, 4.0);
    EXPECT_EQ(res[1].status, RowResult::Status::Fail);
    EXPECT_EQ(res[1].message, "model 104 vs measured 100: off by 4 (+4.00%), outside the tolerance +-2");
    EXPECT_EQ(res[2].status, RowResult::Status::Error);
    EXPECT_EQ(res[2].message, "the report has no 'results.w'");
    EXPECT_EQ(res[3].status, RowResult::Status::Error);
    EXPECT_EQ(res[3].message, "the board exited with code 3: bad yaml");
    EXPECT_EQ(judgeRow(t.rows[0], 0, nullptr).status, RowResult::Status::Error);

    // Two rows with a value, both 4% off: the mean is 4%; error rows do not count.
    EXPECT_NEAR(*geomeanAbsErrorPct(t, res), 4.0, 1e-9);
    // One exact row and one 21% off: sqrt(1.00 x 1.21) - 1 = 10%.
    res[0].errorPct = 0;
    res[1].errorPct = -21;
    EXPECT_NEAR(*geomeanAbsErrorPct(t, res), 10.0, 1e-9);
    EXPECT_FALSE(geomeanAbsErrorPct(t, {res[2], res[3], res[2], res[3]}).has_value());

    std::ostringstream text;
    printReport(text, t, res);
    EXPECT_NE(text.str().find("geometric-mean |error|: 10.00% over 2 row(s)"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("4 row(s): 1 pass, 1 fail, 2 error"), std::string::npos) << text.str();
}

TEST(CoverifyReport, JunitHasOneTestcasePerRowAndEscapes) {
    const Table t = parseTable(kHeader +
                                   "\"a <b> & 'c'\",n300,eth_ping,,results.v,100,5%,\n"
                                   "b,n300,eth_ping,,results.v,100,+-2,\n"
                                   "c,n300,eth_ping,,results.w,100,5%,\n",
                               "dir/t.csv", kBoards);
    const auto rep = nlohmann::json::parse(R"({"results": {"v": 104}})");
    std::vector<RowResult> res;
    for (const auto& row : t.rows) res.push_back(judgeRow(row, 0, rep));
    std::ostringstream os;
    writeJunit(os, t, res);
    const std::string xml = os.str();
    auto count = [&](const std::string& s) {
        std::size_t n = 0;
        for (auto p = xml.find(s); p != std::string::npos; p = xml.find(s, p + 1)) ++n;
        return n;
    };
    EXPECT_EQ(count("<testcase "), 3u);
    EXPECT_EQ(count("<failure "), 1u);
    EXPECT_EQ(count("<error "), 1u);
    EXPECT_NE(xml.find("<testsuite name=\"t.csv\" tests=\"3\" failures=\"1\" errors=\"1\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("name=\"line 2: a &lt;b&gt; &amp; &apos;c&apos;\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("message=\"model 104 vs measured 100: off by 4 (+4.00%), outside the tolerance +-2\""),
              std::string::npos);
    EXPECT_EQ(xmlEscape(std::string("a\x01"
                                    "b")),
              "a b");
}
