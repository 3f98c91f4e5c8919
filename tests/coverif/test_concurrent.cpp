// Several collectives (and a PE_IPCQ all-reduce) at once on the T3000 (the concurrent workload), through
// the t3000 executable: every op stays byte-exact, each op moves over every
// link exactly the bytes it moves alone (its traffic is tagged and counted
// per link direction), the shared links' time is split between the ops, and
// each op takes longer than alone. Bad specs exit 3 with a clear message.
#include "tests/coverif/SubprocessRunner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <tuple>

namespace cclsim {
namespace {

const std::string kBin = CCLSIM_T3000_BIN;

/// Per link direction (from chip, from chan): the payload bytes of `stream`.
std::map<std::pair<unsigned, unsigned>, double> bytesOf(const nlohmann::json& rep, unsigned stream) {
    std::map<std::pair<unsigned, unsigned>, double> out;
    for (const auto& l : rep["results"]["links"]) {
        const auto key = std::make_pair(l["from_chip"].get<unsigned>(), l["from_chan"].get<unsigned>());
        for (const auto& s : l["streams"])
            if (s["stream"] == stream && s["payload_bytes"].get<double>() > 0)
                out[key] = s["payload_bytes"].get<double>();
    }
    return out;
}

/// Run two ops alone and together; check data, bytes, split and times.
void aloneVersusTogether(const std::string& impl, const std::string& a, const std::string& b) {
    const std::string common = "concurrent --impl " + impl;
    const auto alone1 = test::runBinary(kBin, common + " --op \"" + a + "\"");
    const auto alone2 = test::runBinary(kBin, common + " --op \"" + b + "\"");
    const auto both = test::runBinary(kBin, common + " --op \"" + a + "\" --op \"" + b + "\"");
    ASSERT_TRUE(both.contains("results")) << "no report";
    const auto& ops = both["results"]["ops"];
    ASSERT_EQ(ops.size(), 2u);
    // Exact data, each op against its golden reference.
    EXPECT_EQ(both["results"]["data_check"], "pass");
    for (const auto& o : ops) {
        EXPECT_EQ(o["data_check"], "pass") << o["spec"];
        if (o.contains("elements_checked")) {  // the collectives count them (the IPCQ check compares whole tensors)
            EXPECT_GT(o["elements_checked"].get<std::uint64_t>(), 0u);
            EXPECT_EQ(o["wrong_elements"], 0);
        }
    }
    // Each op's bytes on each link direction: what it moves alone.
    const auto b1 = bytesOf(alone1, 1), b2 = bytesOf(alone2, 1);
    ASSERT_FALSE(b1.empty());
    ASSERT_FALSE(b2.empty());
    EXPECT_EQ(bytesOf(both, 1), b1);
    EXPECT_EQ(bytesOf(both, 2), b2);
    // The links both used are shared: the ops' wire time fits the span, and
    // each op is slower than alone.
    unsigned shared = 0;
    for (const auto& l : both["results"]["links"]) {
        double share = 0;
        unsigned users = 0;
        for (const auto& s : l["streams"]) {
            share += s["share_of_span"].get<double>();
            if (s["stream"] != 0 && s["payload_bytes"].get<double>() > 0) ++users;
        }
        EXPECT_LE(share, 1.0 + 1e-9);
        // The ops' bandwidths on the link (each op's bytes over its own time) add up to at most the line rate.
        double opsGBps = 0;
        for (const auto& s : l["streams"])
            if (s["stream"] != 0) opsGBps += s["payload_GBps_over_op_time"].get<double>();
        EXPECT_LE(opsGBps, l["line_rate_GBps"].get<double>());
        EXPECT_LE(l["payload_GBps_over_span"].get<double>(), l["line_rate_GBps"].get<double>());
        shared += users == 2;
    }
    EXPECT_GT(shared, 0u) << "the two ops share no link";
    const double t1 = alone1["results"]["ops"][0]["sim_time_us"], t2 = alone2["results"]["ops"][0]["sim_time_us"];
    EXPECT_GT(ops[0]["sim_time_us"].get<double>(), t1);
    EXPECT_GT(ops[1]["sim_time_us"].get<double>(), t2);
    EXPECT_GT(both["results"]["span_us"].get<double>(), std::max(t1, t2));
    // Deterministic: the same command line, the same report.
    auto again = test::runBinary(kBin, common + " --op \"" + a + "\" --op \"" + b + "\"");
    auto strip = [](nlohmann::json j) {
        for (const char* k : {"wall_seconds", "peak_rss_mib", "stats"}) j.erase(k);
        return j;
    };
    EXPECT_EQ(strip(both)["results"], strip(again)["results"]);
}

TEST(Concurrent, AllGatherAndReduceScatterShareTheFabric) {
    aloneVersusTogether("fabric", "all_gather --size 256K --cores 0-15", "reduce_scatter --size 128K --cores 16-31");
}

TEST(Concurrent, AllGatherAndReduceScatterShareTheEdms) {
    // Each op sizes its EDM packets in its share of the Ethernet cores' L1: the
    // same --packet alone and together, so both send the same messages.
    aloneVersusTogether("edm", "all_gather --size 256K --packet 4096 --cores 0-31",
                        "reduce_scatter --size 128K --packet 4096 --cores 32-63");
}

TEST(Concurrent, AllGatherBesideAPeIpcqAllReduceOnTheSharedFabric) {
    // ccl.yaml places the IPCQ ranks (8 per chip: worker indices 0-7); the all-gather keeps clear of
    // them and is large enough to overlap the whole (latency-bound) all-reduce.
    aloneVersusTogether("fabric", "all_gather --size 1M --cores 8-23", "ipcq_allreduce --size 64K");
}

/// Run and capture stdout+stderr; return (exit code, output).
std::pair<int, std::string> runText(const std::string& args) {
    const std::string out = std::string(::testing::TempDir()) + "cclsim_conc_" + std::to_string(getpid()) + ".txt";
    const int st = std::system((kBin + " " + args + " > " + out + " 2>&1").c_str());
    std::string text = test::slurp(out);
    std::remove(out.c_str());
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, text};
}

TEST(Concurrent, OverlappingCoresAreRefused) {
    const auto [code, text] = runText(
        "concurrent --op \"all_gather --size 64K --cores 0-15\" --op \"reduce_scatter --size 64K --cores 8-23\"");
    EXPECT_EQ(code, 3) << text;
    EXPECT_NE(
        text.find("--op 2 'reduce_scatter --size 64K --cores 8-23': --cores 8-23 overlaps the cores 0-15 of --op 1"),
        std::string::npos)
        << text;
}

TEST(Concurrent, UnknownOpsAndOptionsAreRefused) {
    auto [code, text] = runText("concurrent --op \"all_gather --size 64K\" --op \"all_scatter --size 64K\"");
    EXPECT_EQ(code, 3) << text;
    EXPECT_NE(text.find("--op 2 'all_scatter --size 64K': unknown op 'all_scatter'"), std::string::npos) << text;
    std::tie(code, text) = runText("concurrent --op \"all_gather --sizes 64K\"");
    EXPECT_EQ(code, 3) << text;
    EXPECT_NE(text.find("--op 1 'all_gather --sizes 64K'"), std::string::npos) << text;
    std::tie(code, text) = runText("concurrent --op \"all_gather --size 64K --cores 0-15\" --op \"ipcq_allreduce\"");
    EXPECT_EQ(code, 3) << text;
    EXPECT_NE(text.find("--cores 0-15 overlaps the cores of the PE_IPCQ ranks (ccl.yaml placement) at worker 0"),
              std::string::npos)
        << text;
    std::tie(code, text) = runText("concurrent --impl fabric --op \"all_gather --size 64K --impl edm\"");
    EXPECT_EQ(code, 3) << text;
    EXPECT_NE(text.find("--impl edm but the run's ops share --impl fabric"), std::string::npos) << text;
}

// A line's multicast all-gather writes one output address on every chip it
// reaches. Its output in L1 (interleaved or sharded) came at different
// addresses on the line's end chips and its middle ones when an op before it
// had allocated different L1 per position (the line reduce-scatter's end
// workers), and the run stopped with an internal error. The ranks' tensors
// now take one address on every chip, as tt-metal's mesh allocator gives.
TEST(Concurrent, LineAllGatherInL1BesideALineReduceScatter) {
    for (const char* where : {"--l1", "--layout height_sharded", "--layout block_sharded"}) {
        const std::string args = fmt::format(
            "concurrent --topology line --op \"reduce_scatter --size 1M --workers 3 {0}\" "
            "--op \"all_gather --size 1M {0}\"",
            where);
        const auto rep = test::runBinary(kBin, args);
        ASSERT_EQ(rep["results"]["ops"].size(), 2u) << args << "\n" << rep.dump();
        for (const auto& op : rep["results"]["ops"]) EXPECT_EQ(op["data_check"], "pass") << args << "\n" << op.dump();
    }
}

// Two PE_IPCQ all-reduces that read one ccl.yaml would place their ranks on
// the same cores: refused naming both ops and the way out (found by the
// config campaign's concurrent draws, which refused it only as a clash of
// kernels on one core). With a second ccl.yaml that places its ranks on the
// grid's second row, both run beside a collective, each byte-exact.
TEST(Concurrent, TwoPeIpcqAllReducesNeedTwoPlacements) {
    auto [code, text] = runText(
        "concurrent --op \"ipcq_allreduce --size 64K\" --op \"all_gather --size 256K\" "
        "--op \"ipcq_allreduce\"");
    EXPECT_EQ(code, 3) << text;
    EXPECT_NE(text.find("--op 3 'ipcq_allreduce': --op 1 'ipcq_allreduce --size 64K' places its PE_IPCQ ranks by "
                        "the same ccl.yaml"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("give one of them --ccl FILE"), std::string::npos) << text;

    std::string ccl = test::slurp(std::string(CCLSIM_SOURCE_DIR) + "/platforms/ccl.yaml");
    const std::string from = "placement: {cores_per_chip: 8}";
    const auto at = ccl.find(from);
    ASSERT_NE(at, std::string::npos) << "the shipped ccl.yaml's default placement moved";
    ccl.replace(at, from.size(), "placement: {cores_per_chip: 8, cores: [1-2, 2-2, 3-2, 4-2, 6-2, 7-2, 8-2, 9-2]}");
    const std::string row2 =
        std::string(::testing::TempDir()) + "cclsim_ccl_row2_" + std::to_string(getpid()) + ".yaml";
    { std::ofstream(row2) << ccl; }
    const auto rep = test::runBinary(kBin,
                                     "concurrent --op \"ipcq_allreduce --size 64K\" --op \"all_gather --size 256K\" "
                                     "--op \"ipcq_allreduce --ccl " +
                                         row2 + "\"");
    std::remove(row2.c_str());
    ASSERT_EQ(rep["results"]["ops"].size(), 3u) << rep.dump();
    for (const auto& op : rep["results"]["ops"]) EXPECT_EQ(op["data_check"], "pass") << op.dump();
}

}  // namespace
}  // namespace cclsim
