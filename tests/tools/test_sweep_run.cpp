// Sweeps as a user runs them: a board's --sweep with -j1 and -j4 (same rows,
// CSV and JSON but for wall-clock fields; failed points in order, the worst
// exit code), --plot, and the sweep executable on a small spec (local run,
// the GNU parallel job list run by sh, --merge, bad specs).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

const std::string kBoard = CCLSIM_N300_BIN;
const std::string kSweep = CCLSIM_SWEEP_BIN;
const std::string kSpec = CCLSIM_SOURCE_DIR "/bench/specs/n300_small.yaml";

int sh(const std::string& cmd) {
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string slurp(const fs::path& p) {
    std::ifstream is(p);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

fs::path freshDir(const std::string& name) {
    const fs::path d = fs::path(::testing::TempDir()) / ("cclsim_sweeprun_" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

/// The CSV without the named column.
std::string dropColumn(const std::string& csv, const std::string& column) {
    std::istringstream is(csv);
    std::string line, out;
    int drop = -1;
    for (bool header = true; std::getline(is, line); header = false) {
        std::vector<std::string> cells;
        std::stringstream ls(line);
        for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
        if (header)
            for (std::size_t i = 0; i < cells.size(); ++i)
                if (cells[i] == column) drop = int(i);
        for (std::size_t i = 0; i < cells.size(); ++i)
            if (int(i) != drop) out += cells[i] + ",";
        out += "\n";
    }
    return out;
}

void stripWall(nlohmann::json& rep) {
    for (nlohmann::json& p : rep["sweep"]) {
        p.erase("wall_seconds");
        p.erase("peak_rss_mib");
        if (p.contains("stats")) {
            p["stats"].erase("eth_packets_per_wall_second");
            p["stats"].erase("eth_commands_per_wall_second");
        }
    }
}

std::size_t lines(const std::string& s) {
    return std::size_t(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST(BoardSweep, ParallelPointsGiveTheSameReportInPointOrder) {
    const fs::path d = freshDir("board");
    // 4K .. 64M by 4: up to 256K the runs end by ~34 us of simulated time (dispatch included), from
    // 1M (~110 us) on they do not finish in 60 us (exit 5).
    const std::string base = kBoard + " all_gather --sweep -b 4K -e 64M -f 4 --no-data --max-sim-us 60";
    std::string out[2], err[2], csv[2];
    nlohmann::json json[2];
    const char* jobs[2] = {"1", "4"};
    for (int k = 0; k < 2; ++k) {
        const fs::path s = d / jobs[k];
        ASSERT_EQ(sh(base + " -j " + jobs[k] + " --csv " + s.string() + ".csv --json " + s.string() + ".json > " +
                     s.string() + ".out 2> " + s.string() + ".err"),
                  5);
        out[k] = slurp(s.string() + ".out");
        err[k] = slurp(s.string() + ".err");
        csv[k] = dropColumn(slurp(s.string() + ".csv"), "wall_seconds");
        json[k] = nlohmann::json::parse(slurp(s.string() + ".json"));
        stripWall(json[k]);
    }
    EXPECT_EQ(out[0], out[1]);
    EXPECT_EQ(err[0], err[1]);
    EXPECT_EQ(csv[0], csv[1]);
    EXPECT_EQ(json[0], json[1]);
    ASSERT_EQ(json[1]["sweep"].size(), 8u);
    EXPECT_EQ(lines(csv[1]), 1u + 4u) << csv[1];  // header + the four sizes that finished
    // The failed points are named in point order, one line each.
    const auto p4 = err[1].find("sweep point 4 failed (exit 5): time limit reached"),
               p5 = err[1].find("sweep point 5 failed"), p7 = err[1].find("sweep point 7 failed");
    EXPECT_NE(p4, std::string::npos) << err[1];
    EXPECT_LT(p4, p5);
    EXPECT_LT(p5, p7);
    EXPECT_EQ(err[1].find("sweep point 3 failed"), std::string::npos) << err[1];
    EXPECT_EQ(lines(err[1]), 4u) << err[1];
}

TEST(BoardSweep, PlotWritesImageDataAndScript) {
    const fs::path d = freshDir("plot");
    const fs::path png = d / "ag.png";
    ASSERT_EQ(sh(kBoard + " all_gather --sweep -b 4K -e 256K -f 4 --no-data -j 2 --quiet --plot " + png.string()), 0);
    ASSERT_TRUE(fs::exists(png));
    EXPECT_GT(fs::file_size(png), 1000u);
    const std::string dat = slurp(d / "ag.dat");
    // One data block, a row per size: 4K, 16K, 64K, 256K.
    for (const char* size : {"\n4096 ", "\n16384 ", "\n65536 ", "\n262144 "})
        EXPECT_NE(dat.find(size), std::string::npos) << dat;
    EXPECT_NE(slurp(d / "ag.gp").find("framing limit"), std::string::npos);
    // --plot needs a sweep; an unknown image type is a usage error.
    EXPECT_EQ(sh(kBoard + " eth_ping --samples 2 --quiet --plot " + (d / "p.png").string() + " 2>/dev/null"), 2);
    EXPECT_EQ(sh(kBoard + " all_gather --sweep -b 4K -e 4K --no-data --quiet --plot " + (d / "p.gif").string() +
                 " 2>/dev/null"),
              2);
}

TEST(SweepTool, LocalRunAndJobListMergeToTheSameReport) {
    const fs::path d = freshDir("tool");
    const std::string outs = " --no-wall --csv " + (d / "local.csv").string() + " --json " +
                             (d / "local.json").string() + " --plot " + (d / "local.png").string();
    ASSERT_EQ(sh("cd " + d.string() + " && " + kSweep + " " + kSpec + " -j 3 -q" + outs), 0);
    const std::string csv = slurp(d / "local.csv");
    EXPECT_EQ(lines(csv), 9u) << csv;  // header + 2 impl x 4 sizes
    EXPECT_EQ(csv.rfind("point,impl,size,status,exit_code,data_check,sim_time_ns,", 0), 0u) << csv;
    EXPECT_NE(csv.find("\n4,edm,4K,ok,0,off,"), std::string::npos) << csv;
    ASSERT_TRUE(fs::exists(d / "local.png"));
    const std::string dat = slurp(d / "local.dat");
    EXPECT_NE(dat.find("# series 0: impl=fabric"), std::string::npos) << dat;
    EXPECT_NE(dat.find("# series 1: impl=edm"), std::string::npos) << dat;

    // The GNU parallel job list is plain shell: run it with sh, then merge.
    const fs::path jobs = d / "jobs";
    ASSERT_EQ(
        sh("cd " + d.string() + " && " + kSweep + " " + kSpec + " --emit-parallel " + jobs.string() + " > /dev/null"),
        0);
    ASSERT_EQ(sh("sh " + (jobs / "jobs.txt").string()), 0);
    ASSERT_EQ(sh(kSweep + " --merge " + jobs.string() + " -q --no-wall --csv " + (d / "merged.csv").string() +
                 " --json " + (d / "merged.json").string()),
              0);
    EXPECT_EQ(slurp(d / "merged.csv"), csv);
    EXPECT_EQ(nlohmann::json::parse(slurp(d / "merged.json")), nlohmann::json::parse(slurp(d / "local.json")));

    // A point lost: the merge names it and exits 6.
    fs::remove(jobs / "points" / "5.json");
    fs::remove(jobs / "points" / "5.rc");
    EXPECT_EQ(sh(kSweep + " --merge " + jobs.string() + " > " + (d / "m.out").string() + " 2>&1"), 6);
    EXPECT_NE(slurp(d / "m.out").find("point 5 missing"), std::string::npos) << slurp(d / "m.out");

    // The Slurm array: one task per point.
    ASSERT_EQ(sh("cd " + d.string() + " && " + kSweep + " " + kSpec + " --emit-slurm " + (d / "slurm").string() +
                 " > /dev/null"),
              0);
    EXPECT_NE(slurp(d / "slurm" / "sweep.sbatch").find("#SBATCH --array=0-7\n"), std::string::npos);
}

TEST(SweepTool, BadSpecsAndFailingPoints) {
    const fs::path d = freshDir("bad");
    auto run = [&](const std::string& spec, const std::string& args = "") {
        std::ofstream(d / "s.yaml") << spec;
        return sh("cd " + d.string() + " && " + kSweep + " s.yaml -q " + args + " > out.txt 2>&1");
    };
    EXPECT_EQ(run("board: n300\nworkload: all_gather\nsweep:\n  size: [4K]\n  bogus: [1]\n"), 2);
    EXPECT_NE(slurp(d / "out.txt").find("s.yaml:5: key 'sweep.bogus': n300 all_gather takes no option --bogus"),
              std::string::npos)
        << slurp(d / "out.txt");
    EXPECT_EQ(run("board: n9000\nworkload: all_gather\nsweep:\n  size: [4K]\n"), 2);
    EXPECT_NE(slurp(d / "out.txt").find("board 'n9000' is not a board executable"), std::string::npos);
    EXPECT_EQ(run("board: n300\nworkload: no_such\nsweep:\n  size: [4K]\n"), 2);
    EXPECT_NE(slurp(d / "out.txt").find("has no workload 'no_such'"), std::string::npos) << slurp(d / "out.txt");
    // A point with a bad value fails with its own exit code; the others still run and are reported.
    EXPECT_EQ(run("board: n300\nworkload: all_gather\noptions: {no-data: true}\nsweep:\n  size: [4K, 3X, 16K]\n",
                  "--csv " + (d / "f.csv").string()),
              3);
    const std::string csv = slurp(d / "f.csv");
    EXPECT_NE(csv.find("\n0,4K,ok,0,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n1,3X,failed,3,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n2,16K,ok,0,"), std::string::npos) << csv;
    EXPECT_NE(slurp(d / "out.txt").find("1 of 3 point(s) failed"), std::string::npos) << slurp(d / "out.txt");
    // A point over --timeout is killed (the board with its shell) and reported with exit code 124.
    // The 4K point must finish within it: a board under ASan + UBSan starts
    // several times slower, so those builds allow 5 s (the 1G point takes minutes).
#if defined(__SANITIZE_ADDRESS__)
    const std::string limit = "5";
#else
    const std::string limit = "0.5";
#endif
    EXPECT_EQ(run("board: n300\nworkload: all_gather\noptions: {no-data: true}\nsweep:\n  size: [4K, 1G]\n",
                  "--timeout " + limit + " --csv " + (d / "t.csv").string() + " --json " + (d / "t.json").string()),
              124);
    EXPECT_NE(slurp(d / "t.csv").find("\n1,1G,failed,124,"), std::string::npos) << slurp(d / "t.csv");
    const auto t = nlohmann::json::parse(slurp(d / "t.json"));
    EXPECT_EQ(t["points"][0]["status"], "ok");
    EXPECT_NE(t["points"][1]["error"].get<std::string>().find("the point took longer than --timeout " + limit + " s"),
              std::string::npos)
        << t["points"][1];
}
