// The board executable as a user runs it: exit codes, the JSON report, the
// VCD and its GTKWave save file, determinism.
#include "tests/coverif/SubprocessRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

const std::string kBin = CCLSIM_N300_BIN;

int run(const std::string& args) {
    return cclsim::test::runExitCode(kBin, args);
}
using cclsim::test::slurp;

std::string tmp(const std::string& name) {
    return std::string(::testing::TempDir()) + "cclsim_cli_" + name;
}

}  // namespace

TEST(BoardCli, ExitCodes) {
    EXPECT_EQ(run("--help"), 0);
    EXPECT_EQ(run("no_such_workload"), 2);
    EXPECT_EQ(run("eth_ping --bogus"), 2);
    EXPECT_EQ(run("eth_ping --cluster /nonexistent.yaml"), 3);
    EXPECT_EQ(run("eth_ping --packet 24"), 3);
    EXPECT_EQ(run("eth_ping --samples 2"), 0);
}

// eth_bandwidth --bytes takes sizes as every other workload does (64K, 1M, 1G).
TEST(BoardCli, EthBandwidthBytesTakeSuffixes) {
    const auto rep = cclsim::test::runBinary(kBin, "eth_bandwidth --packet 4096 --channels 4 --bytes 64K");
    EXPECT_EQ(rep["params"]["bytes"].get<double>(), 65536.0);
    EXPECT_EQ(rep["params"]["packets_per_channel"].get<int>(), 4);
    EXPECT_EQ(run("eth_bandwidth --bytes 1e5"), 0) << "a plain number still works";
    EXPECT_EQ(run("eth_bandwidth --bytes 12Q"), 2) << "a bad size is an option error";
}

TEST(BoardCli, JsonReportHasTheContract) {
    const std::string json = tmp("ping.json");
    ASSERT_EQ(run("eth_ping --samples 3 --json " + json), 0);
    const auto j = nlohmann::json::parse(slurp(json));
    for (const char* key : {"board", "workload", "params", "sim_time_ns", "wall_seconds", "data_check", "results"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["board"], "n300");
    EXPECT_EQ(j["workload"], "eth_ping");
    EXPECT_EQ(j["data_check"], "off");
    EXPECT_EQ(j["params"]["samples"], 3);
    EXPECT_TRUE(j["results"].contains("one_way_ns"));
    EXPECT_TRUE(j["results"].contains("round_trip_ns"));

    const std::string bw = tmp("bw.json");
    ASSERT_EQ(run("eth_bandwidth --bytes 262144 --json " + bw), 0);
    const auto b = nlohmann::json::parse(slurp(bw));
    EXPECT_TRUE(b["results"].contains("payload_GBps_per_direction"));
    EXPECT_TRUE(b["results"].contains("line_rate_pct"));

    const std::string rp = tmp("ring.json");
    ASSERT_EQ(run("ring_ping --json " + rp), 0);
    const auto r = nlohmann::json::parse(slurp(rp));
    EXPECT_TRUE(r["results"].contains("per_hop_ns"));
    EXPECT_TRUE(r["results"].contains("round_trip_ns"));

    const std::string es = tmp("edm.json");
    ASSERT_EQ(run("edm_stream --packets 8 --json " + es), 0);
    const auto e = nlohmann::json::parse(slurp(es));
    EXPECT_EQ(e["data_check"], "pass");
    EXPECT_TRUE(e["results"].contains("payload_GBps_per_direction"));
    EXPECT_TRUE(e["results"].contains("line_rate_pct"));
}

// The VCD: a header declaring every expected signal, value changes with
// monotonic timestamps, a .gtkw beside it, byte-identical on a second run.
TEST(BoardCli, VcdSignalsAndDeterminism) {
    const std::string vcd = tmp("edm.vcd");
    const std::string args = "edm_stream --packets 6 --channels 2 --bidir --vcd ";
    ASSERT_EQ(run(args + vcd), 0);
    const std::string text = slurp(vcd);
    ASSERT_NE(text.find("$timescale 1ps $end"), std::string::npos);
    ASSERT_NE(text.find("$enddefinitions $end"), std::string::npos);

    // Collect hierarchical names from the scopes.
    std::set<std::string> names;
    std::vector<std::string> scope;
    std::istringstream is(text);
    std::string line;
    bool body = false;
    long long last = -1;
    std::size_t changes = 0;
    const std::regex var(R"(\$var wire \d+ (\S+) (\S+))");
    while (std::getline(is, line)) {
        if (!body) {
            std::smatch m;
            if (line.rfind("$scope module ", 0) == 0) {
                scope.push_back(line.substr(14, line.find(" $end") - 14));
            } else if (line.rfind("$upscope", 0) == 0) {
                scope.pop_back();
            } else if (std::regex_search(line, m, var)) {
                std::string n;
                for (const auto& s : scope) n += s + ".";
                names.insert(n + m[2].str());
            } else if (line.rfind("$enddefinitions", 0) == 0) {
                body = true;
            }
            continue;
        }
        if (!line.empty() && line[0] == '#') {
            const long long t = std::stoll(line.substr(1));
            EXPECT_GE(t, last) << "timestamps must be monotonic";
            last = t;
        } else if (!line.empty() && line[0] != '$') {
            ++changes;
        }
    }
    EXPECT_GT(changes, 100u);
    for (const char* expected : {
             "n300.chip0.eth9.eth.tx_busy",            // link direction busy/idle
             "n300.chip0.eth9.eth.tx_inflight_bytes",  // bytes in flight
             "n300.chip0.eth9.eth.tx_cmd_q0_depth",    // tx command queues
             "n300.chip0.eth9.eth.tx_cmd_q1_depth",
             "n300.chip1.eth1.eth.tx_busy",      // the other direction
             "n300.chip0.eth9.erisc.ch0_state",  // EDM channel states
             "n300.chip1.eth1.erisc.ch3_state",
             "n300.chip0.eth9.edm_ch0_tx_sem",  // semaphores the kernels use
             "n300.chip0.w1_1.edm_tx_sem",
             "n300.chip0.w1_1.pe_dma.noc0_vc_comm_bytes",  // PE_DMA per-VC occupancy
             "n300.chip0.w1_1.pe_dma.noc0_vc_compute_bytes",
             "n300.chip0.eth9.erisc.waypoint",  // a waypoint per kernel
             "n300.chip0.w1_1.brisc.waypoint",
         })
        EXPECT_TRUE(names.count(expected)) << "missing signal " << expected;

    const std::string gtkw = slurp(tmp("edm.gtkw"));
    EXPECT_NE(gtkw.find("[dumpfile]"), std::string::npos);
    EXPECT_NE(gtkw.find("-n300.chip0"), std::string::npos);       // a group per chip
    EXPECT_NE(gtkw.find("-n300.chip0.eth9"), std::string::npos);  // and per core
    EXPECT_NE(gtkw.find("@820\n+{eth9/erisc/waypoint} n300.chip0.eth9.erisc.waypoint"),
              std::string::npos);  // waypoints as ASCII

    const std::string again = tmp("edm2.vcd");
    ASSERT_EQ(run(args + again), 0);
    EXPECT_EQ(slurp(again), text) << "the same command line must give a byte-identical VCD";
}

// Data mode and timing-only mode give identical timing.
TEST(BoardCli, NoDataKeepsTiming) {
    const std::string a = tmp("data.json"), b = tmp("nodata.json");
    ASSERT_EQ(run("edm_stream --packets 16 --channels 3 --bidir --json " + a), 0);
    ASSERT_EQ(run("edm_stream --packets 16 --channels 3 --bidir --no-data --json " + b), 0);
    const auto ja = nlohmann::json::parse(slurp(a)), jb = nlohmann::json::parse(slurp(b));
    EXPECT_EQ(ja["sim_time_ns"], jb["sim_time_ns"]);
    EXPECT_EQ(ja["data_check"], "pass");
    EXPECT_EQ(jb["data_check"], "off");
    // L1 to L1 through the Ethernet: each hop reads a copy and writes one.
    EXPECT_EQ(ja["results"]["copies_per_hop"], 2.0);
    EXPECT_FALSE(jb["results"].contains("copies_per_hop")) << "timing mode moves no payload";
}

// Data mode moves bulk payloads by reference: a DRAM read hands out its pages,
// the L1s on the way pass them on, and the destination DRAM adopts them.
TEST(BoardCli, DataModeMovesPayloadsByReference) {
    const std::string a = tmp("ag.json");
    ASSERT_EQ(run("all_gather --size 1M --json " + a), 0);
    const auto j = nlohmann::json::parse(slurp(a));
    EXPECT_EQ(j["data_check"], "pass");
    const double copies = j["results"]["copies_per_hop"].get<double>();
    EXPECT_GT(copies, 0.9);
    EXPECT_LT(copies, 1.1) << "one copy per hop (into each L1 on the way), not two";
    EXPECT_GT(j["stats"]["payload_bytes_adopted"].get<double>(), 0.5 * double(1 << 20))
        << "most of the 1 MiB output pages should be the input pages themselves";
}

// The separate-sync form costs more per hop than the merged form.
TEST(BoardCli, SeparateSyncCostsMoreThanMerged) {
    const std::string a = tmp("merged.json"), b = tmp("separate.json");
    ASSERT_EQ(run("ring_ping --json " + a), 0);
    ASSERT_EQ(run("ring_ping --separate-sync --json " + b), 0);
    const double merged = nlohmann::json::parse(slurp(a))["results"]["per_hop_ns"];
    const double separate = nlohmann::json::parse(slurp(b))["results"]["per_hop_ns"];
    EXPECT_GT(separate, merged + 20.0);
}

// `./cclsim cluster convert` as the board runs it: a tt-metal cluster
// descriptor (the N300 example, harvested) written in our form, with its
// arch overlay, and the written file runs a workload.
TEST(BoardCli, WriteClusterThenRunIt) {
    const std::string out = tmp("converted_n300.yaml");
    const std::string tt = std::string(CCLSIM_SOURCE_DIR) + "/tests/data/tt_cluster/n300.yaml";
    ASSERT_EQ(run("--cluster " + tt + " --write-cluster " + out), 0);
    const std::string text = slurp(out);
    EXPECT_NE(text.find("{a: {chip: 0, chan: 8}, b: {chip: 1, chan: 0}, dispatch: true}"), std::string::npos) << text;
    EXPECT_NE(text.find("arch: cclsim_cli_converted_n300_arch.yaml"), std::string::npos) << text;
    EXPECT_NE(slurp(tmp("converted_n300_arch.yaml")).find("cores_y: [1, 2, 3, 4, 5, 7, 9]"), std::string::npos);
    const auto rep = cclsim::test::runBinary(kBin, "eth_bandwidth --bytes 64K --cluster " + out);
    EXPECT_EQ(rep["board"], "n300");
    EXPECT_EQ(run("--write-cluster /nonexistent/dir/x.yaml"), 3);
}
