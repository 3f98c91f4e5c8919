// The sweep tool's logic without a board: spec decoding and expansion, the
// merge of a sweep directory (failed and missing points), the CSV, and the
// gnuplot data the plots are drawn from.
#include "tools/sweep/SweepPlot.h"
#include "tools/sweep/SweepRun.h"
#include "tools/sweep/SweepSpec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace cclsim::sweep;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream is(p);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

void spit(const fs::path& p, const std::string& text) {
    std::ofstream os(p);
    os << text;
}

/// The message of the SweepError a spec raises ("" if none).
std::string specError(const std::string& text) {
    try {
        loadSpecString(text, "s.yaml");
    } catch (const SweepError& e) {
        return e.what();
    }
    return "";
}

fs::path freshDir(const std::string& name) {
    const fs::path d = fs::path(::testing::TempDir()) / ("cclsim_sweep_" + name);
    fs::remove_all(d);
    return d;
}

nlohmann::json collectiveReport(double size, double busbw, double packet) {
    return {{"board", "t3000"},
            {"workload", "all_gather"},
            {"params", {{"size", ""}}},
            {"sim_time_ns", 1000.0},
            {"wall_seconds", 0.5},
            {"data_check", "off"},
            {"results",
             {{"size_bytes", size},
              {"busbw_GBps", busbw},
              {"linkbw_GBps", busbw * 1.1},
              {"algbw_GBps", busbw * 2},
              {"sim_time_us", 1.0},
              {"packet_bytes", packet},
              {"framing_limit_GBps", 12.5 * packet / (packet + 50 * std::ceil(packet / 1500))}}}};
}

}  // namespace

TEST(SweepSpec, CrossProductFirstKeyOutermost) {
    const SweepSpec s = loadSpecString(
        "board: t3000\nworkload: all_gather\n"
        "options: {no-data: true, l1: false, order: [0, 1, 2]}\n"
        "sweep:\n  chips: [2, 4]\n  size: [4K, 1M, 16M]\n",
        "s.yaml");
    EXPECT_EQ(s.board, "t3000");
    EXPECT_EQ(s.workload, "all_gather");
    ASSERT_EQ(s.points(), 6u);
    EXPECT_EQ(s.sweptKeys(), (std::vector<std::string>{"chips", "size"}));
    EXPECT_EQ(s.pointValues(0), (std::vector<std::string>{"2", "4K"}));
    EXPECT_EQ(s.pointValues(2), (std::vector<std::string>{"2", "16M"}));
    EXPECT_EQ(s.pointValues(3), (std::vector<std::string>{"4", "4K"}));
    EXPECT_EQ(s.pointValues(5), (std::vector<std::string>{"4", "16M"}));
    // Fixed options first; a true flag is given, a false one left out, a list comma-joined.
    EXPECT_EQ(optionArgs(s.pointOptions(4)),
              (std::vector<std::string>{"--no-data", "--order", "0,1,2", "--chips", "4", "--size", "1M"}));
    EXPECT_EQ(optionFlag("b"), "-b");
}

TEST(SweepSpec, BadSpecsNameFileLineAndKey) {
    const std::string head = "board: n300\nworkload: all_gather\n";
    EXPECT_NE(specError(head + "sweep:\n  size: []\n").find("s.yaml:4: key 'sweep.size' is an empty list"),
              std::string::npos)
        << specError(head + "sweep:\n  size: []\n");
    EXPECT_NE(specError(head + "sweep:\n  size: 4K\n").find("s.yaml:4: key 'sweep.size' must be a list"),
              std::string::npos);
    EXPECT_NE(specError(head + "sweep:\n  size: [4K, 4K]\n").find("repeats the value '4K'"), std::string::npos);
    EXPECT_NE(specError(head + "sweeps:\n  size: [4K]\n").find("s.yaml:3: unknown key 'sweeps'"), std::string::npos);
    EXPECT_NE(specError(head + "sweep:\n  json: [a.json]\n").find("set by the sweep tool"), std::string::npos);
    EXPECT_NE(specError(head + "sweep:\n  --size: [4K]\n").find("is not an option name"), std::string::npos);
    EXPECT_NE(specError(head + "options: {size: 4K}\nsweep:\n  size: [4K]\n").find("also a fixed option"),
              std::string::npos);
    EXPECT_NE(specError(head + "sweep:\n  size: [{a: 1}]\n").find("key 'sweep.size[0]'"), std::string::npos);
    EXPECT_NE(specError("workload: x\nsweep: {size: [1]}\n").find("'board' is required"), std::string::npos);
    EXPECT_NE(specError(head).find("'sweep' is required"), std::string::npos);
    EXPECT_NE(specError(head + "sweep: [1, 2\n").find("YAML syntax error: end of sequence flow"), std::string::npos);
    // The shared reader (models/common/Yaml.h) also rejects a key given twice and a document that is no mapping.
    EXPECT_NE(
        specError(head + "sweep:\n  size: [4K]\n  size: [1M]\n").find("s.yaml:5: key 'sweep.size' is given twice"),
        std::string::npos)
        << specError(head + "sweep:\n  size: [4K]\n  size: [1M]\n");
    EXPECT_NE(specError("- board\n").find("must be a mapping"), std::string::npos);
    EXPECT_NE(specError(head + "options: [a]\nsweep: {size: [1]}\n").find("s.yaml:3: key 'options' must be a mapping"),
              std::string::npos)
        << specError(head + "options: [a]\nsweep: {size: [1]}\n");
}

TEST(SweepSpec, OptionsTheBoardDoesNotTakeAreRejected) {
    const SweepSpec s =
        loadSpecString("board: n300\nworkload: all_gather\nsweep:\n  size: [4K]\n  bogus: [1]\n", "s.yaml");
    const std::string help = "Options:\n  -h,--help  Print this help\n  --size TEXT  bytes\n  -b,--minbytes TEXT\n";
    try {
        checkOptions(s, help);
        FAIL() << "--bogus accepted";
    } catch (const SweepError& e) {
        EXPECT_NE(std::string(e.what()).find("s.yaml:5: key 'sweep.bogus': n300 all_gather takes no option --bogus"),
                  std::string::npos)
            << e.what();
    }
    const SweepSpec ok =
        loadSpecString("board: n300\nworkload: all_gather\nsweep:\n  size: [4K]\n  b: [1K]\n", "s.yaml");
    EXPECT_NO_THROW(checkOptions(ok, help));
}

TEST(SweepMerge, NamesFailedAndMissingPointsInOrder) {
    const fs::path d = freshDir("merge");
    const SweepSpec s = loadSpecString("board: n300\nworkload: all_gather\nsweep:\n  size: [4K, 64K, 1M]\n", "s.yaml");
    writeSweepDir(s, d.string(), "/bin/true", "/tmp");
    const std::string jobs = slurp(d / "jobs.txt");
    EXPECT_EQ(std::count(jobs.begin(), jobs.end(), '\n'), 3);
    EXPECT_NE(jobs.find("--size 64K --quiet --json " + (d / "points" / "1.json").string()), std::string::npos) << jobs;
    // Point 0 passed, point 1 failed with a configuration error, point 2 never ran.
    spit(d / "points" / "0.json", collectiveReport(4096, 0.5, 2048).dump());
    spit(d / "points" / "0.rc", "0\n");
    spit(d / "points" / "1.json", nlohmann::json{{"error", "configuration error: too big"}, {"exit_code", 3}}.dump());
    spit(d / "points" / "1.rc", "3\n");
    const nlohmann::json m = mergeSweepDir(d.string());
    ASSERT_EQ(m["points"].size(), 3u);
    EXPECT_EQ(m["points"][0]["status"], "ok");
    EXPECT_EQ(m["points"][1]["status"], "failed");
    EXPECT_EQ(m["points"][1]["exit_code"], 3);
    EXPECT_EQ(m["points"][1]["error"], "configuration error: too big");
    EXPECT_EQ(m["points"][2]["status"], "missing");
    EXPECT_EQ(mergedExitCode(m), 6);
    const std::string csv = mergedCsv(m);
    std::istringstream is(csv);
    std::string header, r0, r1, r2;
    std::getline(is, header);
    std::getline(is, r0);
    std::getline(is, r1);
    std::getline(is, r2);
    // The results' scalars follow (in the JSON's key order).
    EXPECT_EQ(header.rfind("point,size,status,exit_code,data_check,sim_time_ns,algbw_GBps,busbw_GBps,", 0), 0u)
        << header;
    EXPECT_EQ(header.find("wall"), std::string::npos) << "wall-clock fields differ between engines";
    EXPECT_EQ(r0.rfind("0,4K,ok,0,off,1000.0,1.0,0.5,", 0), 0u) << r0;
    EXPECT_EQ(r1.rfind("1,64K,failed,3,,,", 0), 0u) << r1;
    EXPECT_EQ(r2.rfind("2,1M,missing,,,,", 0), 0u) << r2;
    const std::string table = mergedTable(m);
    EXPECT_NE(table.find("point 1 failed: configuration error: too big"), std::string::npos) << table;
    EXPECT_NE(table.find("point 2 missing"), std::string::npos) << table;
    // A new sweep in the same directory forgets the old points.
    writeSweepDir(s, d.string(), "/bin/true", "/tmp");
    EXPECT_FALSE(fs::exists(d / "points" / "0.json"));
    // The Slurm array has one task per point.
    const std::string sb = slurp(writeSlurmScript(d.string()));
    EXPECT_NE(sb.find("#SBATCH --array=0-2\n"), std::string::npos) << sb;
    EXPECT_NE(sb.find("SLURM_ARRAY_TASK_ID + 1"), std::string::npos);
}

TEST(SweepMerge, RefusesADirectoryThatIsNotASweep) {
    const fs::path d = freshDir("notasweep");
    fs::create_directories(d);
    spit(d / "precious.txt", "keep me");
    const SweepSpec s = loadSpecString("board: n300\nworkload: all_gather\nsweep:\n  size: [4K]\n", "s.yaml");
    EXPECT_THROW(writeSweepDir(s, d.string(), "/bin/true", "/tmp"), SweepError);
    EXPECT_TRUE(fs::exists(d / "precious.txt"));
    EXPECT_THROW(mergeSweepDir(d.string()), SweepError);
}

TEST(SweepPlot, CollectiveDataHoldsEverySeriesAndTheFramingLimit) {
    const fs::path d = freshDir("plot");
    fs::create_directories(d);
    std::vector<nlohmann::json> reps{collectiveReport(4096, 0.5, 2048), collectiveReport(65536, 4.7, 4096),
                                     nlohmann::json{{"error", "configuration error: too big"}},
                                     collectiveReport(4096, 0.6, 4096), collectiveReport(65536, 3.9, 4096)};
    const std::vector<std::string> series{"impl=fabric", "impl=fabric", "impl=fabric", "impl=edm", "impl=edm"};
    const PlotFiles f = writePlotFiles((d / "ag.png").string(), reps, series);
    EXPECT_EQ(f.data, (d / "ag.dat").string());
    const std::string dat = slurp(f.data);
    EXPECT_NE(dat.find("# point 2 not drawn: \"configuration error: too big\""), std::string::npos) << dat;
    EXPECT_NE(dat.find("# series 0: impl=fabric\n4096 0.5 0.55 1 1 2048\n65536 4.7 5.17 9.4 1 4096\n\n\n"
                       "# series 1: impl=edm\n4096 0.6 0.66 1.2 1 4096\n65536 3.9 4.29 7.8 1 4096\n"),
              std::string::npos)
        << dat;
    const std::string gp = slurp(f.script);
    EXPECT_NE(gp.find("set output \"ag.png\""), std::string::npos) << gp;
    EXPECT_NE(gp.find("framing limit, 2048 B packets: 11.918 GB/s"), std::string::npos) << gp;
    EXPECT_NE(gp.find("framing limit, 4096 B packets: 12.058 GB/s"), std::string::npos) << gp;
    EXPECT_NE(gp.find("index 1 using 1:3"), std::string::npos) << gp;
}

TEST(SweepPlot, PingAndBandwidthKinds) {
    const fs::path d = freshDir("plot2");
    fs::create_directories(d);
    std::vector<nlohmann::json> ping;
    for (int h : {2, 4, 8})
        ping.push_back({{"board", "t3000"},
                        {"workload", "ring_ping"},
                        {"params", {{"hops", h}, {"packet", 16}}},
                        {"results", {{"round_trip_ns", 600.0 * h}, {"per_hop_ns", 600.0}}}});
    const PlotFiles f = writePlotFiles((d / "ping.svg").string(), ping, {});
    EXPECT_NE(
        slurp(f.data).find("columns: hops round_trip_ns per_hop_ns\n# series 0: ring_ping\n2 1200 600\n4 2400 600\n8 "
                           "4800 600\n"),
        std::string::npos)
        << slurp(f.data);
    EXPECT_NE(slurp(f.script).find("set terminal svg"), std::string::npos);

    const nlohmann::json bw{{"board", "n300"},
                            {"workload", "eth_bandwidth"},
                            {"params", {{"packet", 4096}, {"channels", 1}, {"channels_used", 1}}},
                            {"results",
                             {{"payload_GBps_per_direction", 2.5},
                              {"framing_limit_GBps", 12.06},
                              {"line_rate_GBps", 12.5},
                              {"frame_overhead_bytes", 50},
                              {"frame_payload_bytes", 1500}}}};
    const PlotFiles g = writePlotFiles((d / "bw.png").string(), {bw}, {"1 channel"});
    EXPECT_NE(slurp(g.script).find("framing(P) = line * P / (P + overhead * ceil(P / frame))"), std::string::npos);
    EXPECT_NE(slurp(g.data).find("4096 2.5 12.06 1\n"), std::string::npos) << slurp(g.data);

    EXPECT_THROW(writePlotFiles((d / "x.jpg").string(), {bw}, {}), PlotError);
    EXPECT_THROW(writePlotFiles((d / "x.png").string(), {nlohmann::json{{"error", "e"}}}, {}), PlotError);
    const nlohmann::json other{
        {"workload", "dram_bandwidth"}, {"params", nlohmann::json::object()}, {"results", {{"GBps", 1.0}}}};
    EXPECT_THROW(writePlotFiles((d / "x.png").string(), {other}, {}), PlotError);
}
