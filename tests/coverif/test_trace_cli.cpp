// Traces as a user gets them from a board executable: the per-link
// utilisation signal (0..100, and over the run it adds up to the link's busy
// time), the translate filters the .gtkw references for enum signals, and
// tracing leaving the simulated timing untouched.
#include "tests/coverif/SubprocessRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace {

const std::string kBin = CCLSIM_N300_BIN;

int run(const std::string& args) {
    return cclsim::test::runExitCode(kBin, args);
}
using cclsim::test::slurp;

std::string tmp(const std::string& name) {
    return std::string(::testing::TempDir()) + "cclsim_trace_" + name;
}

/// The value changes of a VCD per signal name, and its last timestamp.
struct Waves {
    std::map<std::string, std::vector<std::pair<long long, unsigned long long>>> changes;  // incl. $dumpvars at 0
    long long end = 0;
};

Waves parse(const std::string& text) {
    Waves w;
    std::map<std::string, std::string> nameOf;  // code -> name
    std::vector<std::string> scope;
    std::istringstream is(text);
    std::string line;
    const std::regex var(R"(\$var wire \d+ (\S+) (\S+))");
    std::smatch m;
    long long t = 0;
    bool body = false;
    while (std::getline(is, line)) {
        if (!body) {
            if (line.rfind("$scope module ", 0) == 0)
                scope.push_back(line.substr(14, line.find(' ', 14) - 14));
            else if (line.rfind("$upscope", 0) == 0)
                scope.pop_back();
            else if (std::regex_search(line, m, var)) {
                std::string n;
                for (const auto& s : scope) n += s + ".";
                nameOf[m[1].str()] = n + m[2].str();
            } else if (line.rfind("$enddefinitions", 0) == 0)
                body = true;
            continue;
        }
        if (line.empty() || line[0] == '$') continue;
        if (line[0] == '#') {
            t = std::stoll(line.substr(1));
            w.end = t;
            continue;
        }
        std::string code;
        unsigned long long v = 0;
        if (line[0] == 'b') {
            const auto sp = line.find(' ');
            v = std::stoull(line.substr(1, sp - 1), nullptr, 2);
            code = line.substr(sp + 1);
        } else {
            v = line[0] == '1';
            code = line.substr(1);
        }
        w.changes[nameOf.at(code)].push_back({t, v});
    }
    return w;
}

/// Value of a signal at time `t` (the last change at or before it).
unsigned long long at(const std::vector<std::pair<long long, unsigned long long>>& ch, long long t) {
    unsigned long long v = 0;
    for (const auto& [ct, cv] : ch) {
        if (ct > t) break;
        v = cv;
    }
    return v;
}

}  // namespace

// tx_util_pct of every link direction: within 0..100, one value per window,
// and over the run sum(util x window) equals the time tx_busy was high,
// within the rounding to whole percents (half a percent of each window).
TEST(TraceCli, LinkUtilisationMatchesBusyTime) {
    const std::string vcd = tmp("util.vcd");
    const long long windowPs = 200'000;
    ASSERT_EQ(run("edm_stream --packets 48 --channels 2 --buffers 4 --bidir --trace-window-ns 200 --vcd " + vcd), 0);
    const Waves w = parse(slurp(vcd));
    ASSERT_GT(w.end, 4 * windowPs) << "the run spans several windows";
    unsigned links = 0, busyLinks = 0;
    for (const auto& [name, ch] : w.changes) {
        const std::string suffix = ".eth.tx_util_pct";
        if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix)) continue;
        ++links;
        const std::string base = name.substr(0, name.size() - suffix.size());
        const auto& busy = w.changes.at(base + ".eth.tx_busy");
        // Busy time from tx_busy's edges.
        long long busyPs = 0, since = 0;
        unsigned long long level = 0;
        for (const auto& [t, v] : busy) {
            if (level) busyPs += t - since;
            since = t;
            level = v;
        }
        if (level) busyPs += w.end - since;
        // Utilisation: changes only at window ends, values in 0..100.
        for (const auto& [t, v] : ch) {
            EXPECT_LE(v, 100u) << name << " at " << t;
            EXPECT_TRUE(t == 0 || t % windowPs == 0 || t == w.end) << name << " changes mid-window at " << t;
        }
        double weighted = 0;  // sum of util x window length, in ps x percent
        for (long long start = 0; start < w.end; start += windowPs) {
            const long long end = std::min(start + windowPs, w.end);
            weighted += double(at(ch, end)) * double(end - start);
        }
        const double windows = double((w.end + windowPs - 1) / windowPs);
        EXPECT_NEAR(weighted / 100.0, double(busyPs), 0.005 * double(windowPs) * windows + 1.0) << name;
        if (busyPs > w.end / 4) {
            ++busyLinks;
            unsigned long long peak = 0;
            for (const auto& c : ch) peak = std::max(peak, c.second);
            EXPECT_GT(peak, 50u) << name << ": a streaming link is busy most of some window";
        }
    }
    EXPECT_GE(links, 2u) << "both directions of the link are traced";
    EXPECT_GE(busyLinks, 2u) << "the bidirectional stream keeps both directions busy";
}

// Tracing (and its utilisation windows) moves no simulated time.
TEST(TraceCli, TracingKeepsTiming) {
    const std::string plain = tmp("plain.json"), traced = tmp("traced.json");
    const std::string args = "edm_stream --packets 16 --channels 3 --bidir --json ";
    ASSERT_EQ(run(args + plain), 0);
    ASSERT_EQ(run(args + traced + " --trace-window-ns 50 --vcd " + tmp("timing.vcd")), 0);
    const auto a = nlohmann::json::parse(slurp(plain)), b = nlohmann::json::parse(slurp(traced));
    EXPECT_EQ(a["sim_time_ns"], b["sim_time_ns"]);
    auto simulated = [](nlohmann::json r) {  // the results less the wall-clock rate
        r.erase("messages_per_wall_second");
        return r;
    };
    EXPECT_EQ(simulated(a["results"]), simulated(b["results"]));
    EXPECT_EQ(a["results"]["op_time_ns"], b["results"]["op_time_ns"]);
}

// The .gtkw references, for every EDM channel state signal, a translate
// filter beside it that names every ChannelState value.
TEST(TraceCli, GtkwReferencesChannelStateFilter) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(tmp("gtkw_dir"));
    fs::remove_all(dir);
    fs::create_directories(dir);
    ASSERT_EQ(run("edm_stream --packets 4 --channels 2 --vcd " + (dir / "edm.vcd").string()), 0);
    const std::string gtkw = slurp((dir / "edm.gtkw").string());
    const fs::path filter = fs::absolute(dir / "filters" / "edm_channel_state.txt").lexically_normal();
    ASSERT_TRUE(fs::exists(filter)) << filter;
    std::size_t refs = 0;
    const std::string ref = "@2024\n^1 " + filter.string() + "\n+{";
    for (auto p = gtkw.find(ref); p != std::string::npos; p = gtkw.find(ref, p + 1)) {
        const std::string row = gtkw.substr(p + ref.size(), gtkw.find('\n', p + ref.size()) - p - ref.size());
        EXPECT_TRUE(std::regex_search(row, std::regex(R"(\.erisc\.ch\d+_state\[31:0\]$)"))) << row;
        ++refs;
    }
    EXPECT_EQ(refs, 2u * 2u * 2u) << "two channels on each of the two EDMs, in the EDM group first and in their chip";
    const std::string f = slurp(filter.string());
    for (const char* line :
         {"0 DONE", "1 SENDER_SIGNALING_WORKER", "2 SENDER_WAITING_FOR_WORKER", "3 SENDER_READY_FOR_ETH_TRANSFER",
          "4 SENDER_WAITING_FOR_ETH", "5 RECEIVER_SIGNALING_WORKER", "6 RECEIVER_WAITING_FOR_WORKER",
          "7 RECEIVER_WAITING_FOR_ETH"})
        EXPECT_NE(f.find(std::string("\n") + line + "\n"), std::string::npos) << line;
    // And the same file as the tracked copy in traces/filters/.
    EXPECT_EQ(f, slurp(std::string(CCLSIM_SOURCE_DIR) + "/traces/filters/edm_channel_state.txt"));
}

// Each workload's save file opens on its own signals, the links after them;
// the Ethernet benchmarks open on the links.
TEST(TraceCli, GtkwOpensOnTheWorkloadsOwnSignals) {
    auto firstGroup = [](const std::string& args) {
        const std::string vcd = tmp("focus.vcd");
        EXPECT_EQ(run(args + " --vcd " + vcd), 0) << args;
        const std::string g = slurp(vcd.substr(0, vcd.size() - 4) + ".gtkw");
        const auto at = g.find("@800200\n-");
        if (at == std::string::npos) return std::string();
        const std::string title = g.substr(at + 9, g.find('\n', at + 9) - at - 9);
        return title.substr(0, title.find(" ("));  // "(8 of 10 cores)" where more match
    };
    EXPECT_EQ(firstGroup("ipcq_latency --samples 2"), "PE_IPCQ queues and waits");
    EXPECT_EQ(firstGroup("pto --op put --shape 8x64 --tile 4x64"), "PTO ranks and routers");
    EXPECT_EQ(firstGroup("fabric_ping --samples 2"), "fabric routers");
    EXPECT_EQ(firstGroup("edm_stream --packets 4"), "EDM channels");
    // A collective opens on its links: its figure is their bandwidth.
    EXPECT_EQ(firstGroup("all_gather --size 64K"), "link utilisation, % of each 1000 ns");
    EXPECT_EQ(firstGroup("eth_bandwidth --bytes 64K"), "link utilisation, % of each 1000 ns");
}

TEST(TraceCli, BadWindowIsAUsageError) {
    EXPECT_EQ(run("edm_stream --packets 2 --trace-window-ns 0 --vcd " + tmp("bad.vcd")), 2);
    EXPECT_EQ(run("edm_stream --packets 2 --trace-window-ns abc --vcd " + tmp("bad.vcd")), 2);
}
