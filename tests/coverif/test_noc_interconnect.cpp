// The NoC as a replaceable, traceable interconnect (models/noc/
// NocInterconnect.h), end to end on the board executables:
// - a test model (ExtraLatencyNoc.h: the booking model plus a fixed latency
//   per packet) registered in-process keeps a collective byte-exact and slows
//   it; loaded as a plug-in library by the t3000 executable, it adds time in
//   proportion to its latency (a whole number of NoC crossings on the
//   critical path), and with a latency of 0 it is the booking model exactly;
// - the built-in packet_trace model leaves every figure of a collective
//   unchanged and writes one CSV line per packet: for the noc_trace replay
//   of tests/data/noc_trace_small.json exactly the packets its reads make;
// - an unknown model name and a model that breaks the contract (delivers a
//   lane's packets out of order, or crosses faster than the startup
//   latency) stop the run with a clear error.
#include "models/plugin/ModelRegistry.h"
#include "tests/coverif/CoverifHelpers.h"
#include "tests/coverif/ExtraLatencyNoc.h"
#include "tests/coverif/SubprocessRunner.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace cclsim;
using cclsim::test::runBinary;
using cclsim::test::runN300;
using cclsim::test::runT3000;

namespace {

const std::string kArch = CCLSIM_SOURCE_DIR "/platforms/arch/wormhole_b0.yaml";

/// The shipped arch YAML with `models: {noc: <entry>}`, written to a temp file.
std::string archWith(const std::string& name, const std::string& entry) {
    const std::string path = std::string(::testing::TempDir()) + "cclsim_" + std::to_string(::getpid()) + "_" + name;
    std::ofstream(path) << test::slurp(kArch) << "\nmodels:\n  noc: " << entry << "\n";
    return path;
}

std::string tempPath(const std::string& name) {
    return std::string(::testing::TempDir()) + "cclsim_" + std::to_string(::getpid()) + "_" + name;
}

/// A small latency-bound collective: two chips, EDM.
const std::vector<std::string> kCollective{"all_gather", "--impl", "edm", "--chips", "2", "--size", "65536"};
std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
    return s;
}
std::vector<std::string> plus(std::vector<std::string> v, std::initializer_list<std::string> more) {
    v.insert(v.end(), more);
    return v;
}

void expectContains(const std::string& text, std::initializer_list<std::string> parts) {
    for (const std::string& p : parts)
        EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' missing in: " << text;
}

double simNs(const nlohmann::json& rep) {
    return rep.at("sim_time_ns").get<double>();
}

/// Every numeric figure of the report's results except wall-clock ones.
std::map<std::string, double> figures(const nlohmann::json& rep) {
    std::map<std::string, double> out{{"sim_time_ns", simNs(rep)}};
    for (const auto& [k, v] : rep.at("results").items())
        if (v.is_number() && k.find("wall") == std::string::npos) out[k] = v.get<double>();
    return out;
}

struct CsvPacket {
    unsigned chip, noc, lane;
    std::string src, dst;
    std::uint64_t bytes;
    double inject, tail;
};
std::vector<CsvPacket> readPacketTrace(const std::string& path) {
    std::istringstream is(test::slurp(path));
    std::string line;
    std::getline(is, line);
    EXPECT_EQ(line, "chip,noc,src,dst,lane,bytes,inject_ns,tail_ns");
    std::vector<CsvPacket> out;
    while (std::getline(is, line)) {
        std::vector<std::string> f;
        std::stringstream ls(line);
        for (std::string c; std::getline(ls, c, ',');) f.push_back(c);
        EXPECT_EQ(f.size(), 8u) << line;
        if (f.size() != 8) continue;
        out.push_back(CsvPacket{unsigned(std::stoul(f[0])), unsigned(std::stoul(f[1])), unsigned(std::stoul(f[4])),
                                f[2], f[3], std::stoull(f[5]), std::stod(f[6]), std::stod(f[7])});
    }
    return out;
}

}  // namespace

TEST(NocInterconnect, ExtraLatencyModelKeepsACollectiveExactAndSlowsIt) {
    test::registerExtraLatencyNoc(modelRegistry());
    const std::string arch = archWith("extra_latency.yaml", "{name: extra_latency, params: {latency_ns: 1000}}");
    const auto slow = runT3000(plus(kCollective, {"--arch", arch}));
    const auto base = runBinary(CCLSIM_T3000_BIN, joined(kCollective));
    EXPECT_EQ(slow.at("data_check"), "pass") << slow.dump(2);
    EXPECT_EQ(base.at("data_check"), "pass");
    EXPECT_EQ(slow.at("results").at("wrong_elements"), 0);
    EXPECT_EQ(slow.at("results").at("elements_checked"), base.at("results").at("elements_checked"));
    // At least one NoC crossing lies on the critical path.
    EXPECT_GE(simNs(slow) - simNs(base), 1000.0);
}

TEST(NocInterconnect, PluginLibraryAddsTimeInProportionToItsLatency) {
    auto run = [](double ns) {
        const std::string arch =
            archWith(fmt::format("plugin_{}.yaml", ns),
                     fmt::format("{{name: extra_latency, library: {}, params: {{latency_ns: {}}}}}",
                                 CCLSIM_EXTRA_LATENCY_PLUGIN, ns));
        const auto rep = runBinary(CCLSIM_T3000_BIN, joined(kCollective) + " --arch " + arch);
        EXPECT_EQ(rep.value("data_check", std::string()), "pass") << ns << " ns: " << rep.dump(2);
        return rep;
    };
    const auto base = runBinary(CCLSIM_T3000_BIN, joined(kCollective));
    // Latency 0: the booking model itself, every figure the same.
    EXPECT_EQ(figures(run(0)), figures(base));
    // Large latencies fix the critical path (the chain with the most NoC
    // crossings): the time then grows by a whole number of latencies per
    // latency (8 for this all-gather when we measured it).
    const double t1 = simNs(run(4000)), t2 = simNs(run(8000)), t3 = simNs(run(12000));
    const double perLatency = (t3 - t2) / 4000.0;
    EXPECT_GE(perLatency, 1.0);
    EXPECT_NEAR(perLatency, std::round(perLatency), 1e-6) << t1 << " " << t2 << " " << t3;
    EXPECT_NEAR(t2 - t1, t3 - t2, 1e-6 * t3) << t1 << " " << t2 << " " << t3;
    EXPECT_GE(t1 - simNs(base), 4000.0);
}

TEST(NocInterconnect, PacketTraceLeavesEveryFigureOfACollectiveUnchanged) {
    const std::string csv = tempPath("collective_packets.csv");
    const std::string arch = archWith("trace.yaml", "{name: packet_trace, params: {file: " + csv + "}}");
    const std::string args = "all_gather --chips 4 --size 1M";
    const auto base = runBinary(CCLSIM_T3000_BIN, args);
    const auto traced = runBinary(CCLSIM_T3000_BIN, args + " --arch " + arch);
    EXPECT_EQ(traced.at("data_check"), "pass");
    EXPECT_EQ(figures(traced), figures(base));
    const auto packets = readPacketTrace(csv);
    ASSERT_GT(packets.size(), 1000u);
    std::set<unsigned> chips, nocs;
    for (const CsvPacket& p : packets) {
        chips.insert(p.chip);
        nocs.insert(p.noc);
        EXPECT_GE(p.bytes, 32u);
        EXPECT_LE(p.bytes, 8192u + 32u);
        EXPECT_GT(p.tail, p.inject);
        // Injected while the run lasted; the fabric's persistent kernels may
        // still have a packet in flight when the last worker returns.
        EXPECT_LE(p.inject, simNs(base) + 1.0);
    }
    EXPECT_EQ(chips.size(), 4u);  // the ring's four chips
    EXPECT_EQ(nocs, (std::set<unsigned>{0, 1}));
    std::remove(csv.c_str());
}

TEST(NocInterconnect, PacketTraceOfANocTraceReplayHasExactlyItsPackets) {
    // tests/data/noc_trace_small.json: core 1-1 reads four 2 KiB pages on
    // NoC0, core 2-1 reads 4 KiB twice on NoC1 (a READ_SET_STATE and two
    // READ_WITH_STATE). A read is a header-only request from the reader and
    // its data back from the target on the same NoC, header included.
    const std::string csv = tempPath("replay_packets.csv");
    const std::string arch = archWith("replay.yaml", "{name: packet_trace, params: {file: " + csv + "}}");
    const auto rep =
        runN300({"noc_trace", "--trace", CCLSIM_SOURCE_DIR "/tests/data/noc_trace_small.json", "--arch", arch});
    ASSERT_EQ(rep.at("results").at("transfers"), 6);
    // (The board flushes the trace when the run ends: no flushNocPacketTraces() here.)
    std::map<std::tuple<unsigned, std::string, std::uint64_t>, unsigned> count;  // (noc, src, bytes)
    for (const CsvPacket& p : readPacketTrace(csv)) {
        EXPECT_EQ(p.chip, 0u);
        ++count[{p.noc, p.src, p.bytes}];
    }
    using Key = std::tuple<unsigned, std::string, std::uint64_t>;
    EXPECT_EQ(count[Key(0, "1-1", 32)], 4u);  // requests
    EXPECT_EQ(count[Key(1, "2-1", 32)], 2u);
    unsigned responses0 = 0, responses1 = 0, total = 0;
    for (const auto& [k, n] : count) {
        total += n;
        if (std::get<0>(k) == 0 && std::get<2>(k) == 2048 + 32) responses0 += n;
        if (std::get<0>(k) == 1 && std::get<2>(k) == 4096 + 32) responses1 += n;
    }
    EXPECT_EQ(responses0, 4u);
    EXPECT_EQ(responses1, 2u);
    EXPECT_EQ(total, 12u);
    std::remove(csv.c_str());
}

TEST(NocInterconnect, AnUnknownModelNameIsAConfigErrorNamingTheEntry) {
    const std::string arch = archWith("unknown.yaml", "{name: no_such_noc}");
    const auto rep = runN300({"eth_ping", "--arch", arch}, 3);
    const std::string err = rep.value("error", std::string());
    expectContains(err, {arch + ":", "no NoC model named 'no_such_noc'", "packet_trace"});
}

namespace {
/// Breaks the contract: in "overtake" the first packet of every lane and
/// destination is late by 5 us, so the next one of that lane overtakes it;
/// in "instant" a header-only message takes no time.
class BrokenNoc final : public NocInterconnect {
public:
    BrokenNoc(std::unique_ptr<NocInterconnect> inner, bool overtake)
        : NocInterconnect(inner->id(), inner->config()), inner_(std::move(inner)), overtake_(overtake) {}
    unsigned hops(CoreCoord s, CoreCoord d) const override { return inner_->hops(s, d); }
    Tick unloadedLatency(CoreCoord s, CoreCoord d) const override {
        return overtake_ ? inner_->unloadedLatency(s, d) : 0;
    }
    Tick reservePacket(CoreCoord s, CoreCoord d, std::uint32_t b, Tick i0, Tick i1, unsigned lane,
                       Tick* free) override {
        const Tick t = inner_->reservePacket(s, d, b, i0, i1, lane, free);
        return overtake_ && seen_.insert({s, d, lane}).second ? t + 5000 * kTicksPerNs : t;
    }
    double busiestLinkBytes() const override { return 0; }

private:
    std::unique_ptr<NocInterconnect> inner_;
    bool overtake_;
    std::set<std::tuple<CoreCoord, CoreCoord, unsigned>> seen_;
};

void registerBroken(const std::string& name, bool overtake) {
    modelRegistry().addNoc(name, [overtake](const NocModelSpec&, std::unique_ptr<NocInterconnect> booking) {
        return std::unique_ptr<NocInterconnect>(std::make_unique<BrokenNoc>(std::move(booking), overtake));
    });
}
}  // namespace

TEST(NocInterconnect, AModelThatReordersALaneStopsTheRun) {
    registerBroken("overtaking", true);
    const std::string arch = archWith("overtaking.yaml", "{name: overtaking}");
    const auto rep = runT3000(plus(kCollective, {"--arch", arch}), 4);
    expectContains(rep.value("error", std::string()),
                   {"broke its contract", "before the class's previous packet to it", "NocInterconnect.h"});
}

TEST(NocInterconnect, AModelFasterThanTheStartupLatencyStopsTheRun) {
    registerBroken("instant", false);
    const std::string arch = archWith("instant.yaml", "{name: instant}");
    const auto rep = runT3000(plus(kCollective, {"--arch", arch}), 4);
    expectContains(rep.value("error", std::string()),
                   {"broke its contract", "unloaded latency to", "below the NoC's startup latency"});
}
