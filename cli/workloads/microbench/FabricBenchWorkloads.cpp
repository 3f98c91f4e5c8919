// The fabric microbenchmark workloads: their options, sweeps, CSV and
// reports. The programs and the readback are host/microbench/: FabricPing
// (latency per hop, half the slope of round trip vs hops), FabricBandwidth
// (payload bandwidth against the links' framing limit) and FabricTraffic
// (every chip to every other chip, every message checked in order).
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/FabricBandwidth.h"
#include "host/microbench/FabricPing.h"
#include "host/microbench/FabricTraffic.h"
#include "host/microbench/FabricUbench.h"

#include <fmt/format.h>

#include <set>

namespace cclsim::microbench {

namespace {

using namespace cclsim::fabric;

void addFabricOptions(Options& cmd, std::string& kind, std::vector<unsigned>& order, int& src) {
    cmd.add_option("--fabric", kind, "fabric topology: line, ring (over --order) or mesh, torus (the board's mesh)")
        ->check(opt::IsMember({"line", "ring", "mesh", "torus"}));
    cmd.add_option("--order", order, "1D fabric chip order, e.g. 0,4,5,1 (default: the board's ring order)")
        ->delimiter(',');
    cmd.add_option("--src", src, "source chip (default: the first chip of the fabric)");
}

class FabricPingWorkload final : public Workload {
public:
    std::string name() const override { return "fabric_ping"; }
    std::string description() const override {
        return "ping-pong over the packet fabric to 1..H hops: latency per hop (half the slope of round trip vs hops)";
    }
    void addOptions(Options& cmd) override {
        addFabricOptions(cmd, kind_, order_, src_);
        cmd.add_option("--hops", hops_, "farthest responder in hops (default: as far as the fabric reaches)")
            ->check(opt::Range(1u, 64u));
        cmd.add_option("--packet", packet_, "payload bytes per packet (16 = a single-flit packet)")
            ->check(opt::Range(0u, 1u << 20));
        cmd.add_option("--mode", mode_,
                       "write (poll the data), fused (write + semaphore increment), atomic (increment only)")
            ->check(opt::IsMember({"write", "fused", "atomic"}));
        cmd.add_option("--samples", samples_, "measured round trips per distance")->check(opt::Range(1u, 100000u));
        cmd.add_option("--plane", plane_, "routing plane")->check(opt::Range(0u, 15u));
    }
    std::string needsPayload() const override {
        return mode_ == "write" ? "--mode write polls the sequence number in each ping's payload (use --mode fused or "
                                  "--mode atomic, which wait on a semaphore)"
                                : std::string();
    }
    TraceFile::Focus traceFocus() const override { return focus::routers(); }
    nlohmann::json params() const override {
        return {{"fabric", kind_},   {"order", order_}, {"src", src_},         {"hops", hops_},
                {"packet", packet_}, {"mode", mode_},   {"samples", samples_}, {"plane", plane_}};
    }

    void build(Runtime& rt) override {
        const BenchCommand mode = mode_ == "write"   ? BenchCommand::Write
                                  : mode_ == "fused" ? BenchCommand::FusedWriteInc
                                                     : BenchCommand::AtomicInc;
        if (mode == BenchCommand::Write && packet_ < 16)
            throw ConfigError("--mode write needs --packet >= 16 (the sequence word)");
        FabricPingParams p;
        p.fabric = {kind_, order_};
        p.src = src_;
        p.hops = hops_;
        p.packetBytes = packet_;
        p.mode = mode;
        p.samples = samples_;
        p.plane = plane_;
        ping_.build(rt, p);
        src_chip_ = ping_.srcChip();
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const FabricPingResult r = ping_.read(rt);
        nlohmann::json byHops = nlohmann::json::array();
        for (const FabricPingResult::Distance& h : r.byHops)
            byHops.push_back({{"hops", h.hops},
                              {"chip", h.chip},
                              {"round_trip_ns", h.roundTripNs},
                              {"round_trip_min_ns", h.roundTripMinNs},
                              {"round_trip_max_ns", h.roundTripMaxNs}});
        return {{"per_hop_ns", r.perHopNs},
                {"fit", r.fitted ? "half the least-squares slope of round trip vs hops" : "round trip / (2 x hops)"},
                {"by_hops", byHops},
                {"src_chip", src_chip_},
                {"header_bytes", r.headerBytes},
                {"topology", fabricKindName(r.topology)},
                {"sender_slots", r.senderSlots},
                {"receiver_slots", r.receiverSlots},
                {"planes", r.planes}};
    }
    std::string summary(const nlohmann::json& r) const override {
        std::string out =
            fmt::format("fabric_ping over a {} fabric from chip {}: {} B payload, {} mode, {} B header\n",
                        r["topology"].get<std::string>(), src_chip_, packet_, mode_, r["header_bytes"].get<unsigned>());
        out += fmt::format("  {:>5} {:>6} {:>14} {:>12}\n", "hops", "chip", "round trip ns", "one way ns");
        for (const auto& h : r["by_hops"])
            out +=
                fmt::format("  {:>5} {:>6} {:>14.1f} {:>12.1f}\n", h["hops"].get<unsigned>(), h["chip"].get<unsigned>(),
                            h["round_trip_ns"].get<double>(), h["round_trip_ns"].get<double>() / 2);
        out += fmt::format("  per hop {:.1f} ns ({})\n", r["per_hop_ns"].get<double>(), r["fit"].get<std::string>());
        return out;
    }

private:
    std::string kind_ = "line";
    std::vector<unsigned> order_;
    int src_ = -1;
    unsigned hops_ = 0;
    unsigned packet_ = 16;
    std::string mode_ = "write";
    unsigned samples_ = 20;
    unsigned plane_ = 0;
    FabricPing ping_;
    unsigned src_chip_ = 0;
};

// ---- fabric_bandwidth ------------------------------------------------------------

const std::vector<unsigned> kBwSizes{64, 128, 256, 512, 1024, 1536, 2048, 3072, 4096, 4352};

class FabricBandwidthWorkload final : public Workload {
public:
    std::string name() const override { return "fabric_bandwidth"; }
    /// Every packet writes the same bytes to the same buffer.
    bool fastForwardKeepsData() const override { return true; }
    std::string description() const override {
        return "workers streaming packets over the fabric to a chip H hops away: bandwidth vs the framing limit";
    }
    void addOptions(Options& cmd) override {
        addFabricOptions(cmd, kind_, order_, src_);
        cmd.add_option("--hops", hops_, "distance of the receiving chip in hops")->check(opt::Range(1u, 64u));
        cmd.add_option("--packet", packet_, "payload bytes per packet (0: the fabric's largest)")
            ->check(opt::Range(0u, 1u << 20));
        cmd.add_option("--workers", workers_, "sending workers (each with its own receiver)")
            ->check(opt::Range(1u, 64u));
        cmd.add_option("--planes", planes_, "routing planes the workers spread over (0: all)")
            ->check(opt::Range(0u, 16u));
        cmd.add_option("--bytes", bytesText_, "payload bytes per worker (K/M/G suffixes)");
        cmd.add_flag("--sweep", sweep_, "packet sizes 64 B .. 4352 B (one process each)");
    }
    TraceFile::Focus traceFocus() const override { return focus::routers(); }
    nlohmann::json params() const override {
        return {{"fabric", kind_},   {"order", order_},     {"src", src_},
                {"hops", hops_},     {"packet", packet_},   {"workers", workers_},
                {"planes", planes_}, {"bytes", bytesText_}, {"sweep", sweep_}};
    }
    std::size_t sweepPoints() const override { return sweep_ ? kBwSizes.size() : 0; }
    void selectSweepPoint(std::size_t i) override { packet_ = kBwSizes[i]; }
    std::string sweepHeader() const override {
        return fmt::format(
            "fabric_bandwidth sweep ({} hop(s), {} worker(s)), payload GB/s\n{:>8} {:>10} {:>12} {:>14}\n", hops_,
            workers_, "packet", "GB/s", "framing GB/s", "% framing max");
    }
    std::string sweepRow(const nlohmann::json& rep) const override {
        const auto& r = rep["results"];
        return fmt::format("{:>8} {:>10.3f} {:>12.3f} {:>13.1f}%\n", r["packet_bytes"].get<unsigned>(),
                           r["payload_GBps"].get<double>(), r["framing_limit_GBps"].get<double>(),
                           r["framing_limit_pct"].get<double>());
    }
    std::string csvHeader() const override {
        return "topology,hops,workers,planes_used,packet_bytes,header_bytes,payload_GBps,framing_limit_GBps,"
               "framing_limit_pct,line_rate_pct";
    }
    std::string csvRow(const nlohmann::json& rep) const override {
        const auto& r = rep["results"];
        return fmt::format("{},{},{},{},{},{},{:.4f},{:.4f},{:.2f},{:.2f}", r["topology"].get<std::string>(),
                           r["hops"].get<unsigned>(), r["workers"].get<unsigned>(), r["planes_used"].get<unsigned>(),
                           r["packet_bytes"].get<unsigned>(), r["header_bytes"].get<unsigned>(),
                           r["payload_GBps"].get<double>(), r["framing_limit_GBps"].get<double>(),
                           r["framing_limit_pct"].get<double>(), r["line_rate_pct"].get<double>());
    }

    void build(Runtime& rt) override {
        FabricBandwidthParams p;
        p.fabric = {kind_, order_};
        p.src = src_;
        p.hops = hops_;
        p.packetBytes = packet_;
        p.workers = workers_;
        p.planes = planes_;
        p.bytes = double(parseBytes(bytesText_, "--bytes"));
        bench_.build(rt, p);
        packetUsed_ = bench_.packetBytes();
        planesUsed_ = bench_.planesUsed();
        src_chip_ = bench_.srcChip();
        dst_chip_ = bench_.dstChip();
        packets_ = bench_.packets();
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const FabricBandwidthResult r = bench_.read(rt);
        const double gbps = r.payloadGBps;
        return {{"payload_GBps", gbps},
                {"payload_GBps_per_plane", gbps / planesUsed_},
                {"framing_limit_GBps", r.framingLimitGBps},
                {"framing_limit_pct", 100.0 * gbps / r.framingLimitGBps},
                {"line_rate_pct", 100.0 * gbps / r.lineRateGBps},
                {"packet_bytes", packetUsed_},
                {"header_bytes", r.headerBytes},
                {"packets_per_worker", packets_},
                {"workers", workers_},
                {"planes_used", planesUsed_},
                {"via_mux", r.viaMux},
                {"hops", hops_},
                {"src_chip", src_chip_},
                {"dst_chip", dst_chip_},
                {"time_ns", r.timeNs},
                {"topology", fabricKindName(r.topology)}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "fabric_bandwidth over a {} fabric, chip {} -> chip {} ({} hop(s)), {} worker(s) on {} plane(s){}\n"
            "  {} packets of {} B payload + {} B header per worker\n"
            "  payload          {:8.3f} GB/s ({:.1f}% of the framing limit {:.3f} GB/s, {:.1f}% of line rate)\n",
            r["topology"].get<std::string>(), src_chip_, dst_chip_, hops_, workers_, planesUsed_,
            r["via_mux"].get<bool>() ? " through a fabric mux" : "", packets_, packetUsed_,
            r["header_bytes"].get<unsigned>(), r["payload_GBps"].get<double>(), r["framing_limit_pct"].get<double>(),
            r["framing_limit_GBps"].get<double>(), r["line_rate_pct"].get<double>());
    }

private:
    std::string kind_ = "line";
    std::vector<unsigned> order_;
    int src_ = -1;
    unsigned hops_ = 1;
    unsigned packet_ = 0;
    unsigned workers_ = 1;
    unsigned planes_ = 1;
    std::string bytesText_ = "4M";
    bool sweep_ = false;
    FabricBandwidth bench_;
    unsigned packetUsed_ = 0, planesUsed_ = 1;
    unsigned src_chip_ = 0, dst_chip_ = 0;
    std::uint32_t packets_ = 0;
};

// ---- fabric_ubench --------------------------------------------------------------------

class FabricUbenchWorkload final : public Workload {
public:
    std::string name() const override { return "fabric_ubench"; }
    std::string description() const override {
        return "tt-metal's fabric bandwidth patterns (every chip streaming flows, multi-hop, both ways): the busiest "
               "link's payload rate";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--pattern", pattern_, "traffic pattern (tt-metal fabric ubench)")
            ->check(opt::IsMember(fabricUbenchPatterns()));
        cmd.add_option("--fabric", kind_, "line or ring (default: the pattern's; ring patterns need a ring)")
            ->check(opt::IsMember({"line", "ring"}));
        cmd.add_option("--order", order_, "1D fabric chip order, e.g. 0,4,5,1 (default: the board's ring order)")
            ->delimiter(',');
        cmd.add_option("--ftype", ftype_, "mcast or unicast (default: the pattern's, as tt-metal's test yaml)")
            ->check(opt::IsMember({"mcast", "unicast"}));
        cmd.add_option("--ntype", ntype_,
                       "unicast_write (the last packet of a flow carries its increment), fused_atomic_inc (every "
                       "packet does, flushed as tt-metal's header defaults: each router that performs it waits for "
                       "its writes' acknowledgements first) or scatter_write (as unicast_write, each packet but the "
                       "last a scatter write of two chunks, the payload's halves)")
            ->check(opt::IsMember({"unicast_write", "fused_atomic_inc", "scatter_write"}));
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(opt::Range(16u, 1u << 20));
        cmd.add_option("--bytes", bytesText_, "payload bytes per flow (K/M/G suffixes)");
    }
    TraceFile::Focus traceFocus() const override { return focus::routers(); }
    nlohmann::json params() const override {
        return {{"pattern", pattern_}, {"fabric", kind_},   {"order", order_},    {"ftype", ftype_},
                {"ntype", ntype_},     {"packet", packet_}, {"bytes", bytesText_}};
    }
    std::string csvHeader() const override {
        return "pattern,topology,ftype,chips,flows,max_flows_per_link,packet_bytes,payload_GBps,per_flow_GBps,"
               "framing_limit_pct";
    }
    std::string csvRow(const nlohmann::json& rep) const override {
        const auto& r = rep["results"];
        return fmt::format("{},{},{},{},{},{},{},{:.4f},{:.4f},{:.2f}", r["pattern"].get<std::string>(),
                           r["topology"].get<std::string>(), r["ftype"].get<std::string>(), r["chips"].get<unsigned>(),
                           r["flows"].get<unsigned>(), r["max_flows_per_link"].get<unsigned>(),
                           r["packet_bytes"].get<unsigned>(), r["payload_GBps"].get<double>(),
                           r["per_flow_GBps"].get<double>(), r["framing_limit_pct"].get<double>());
    }
    void build(Runtime& rt) override {
        FabricUbenchParams p;
        p.fabric = {kind_, order_};
        p.pattern = pattern_;
        p.ftype = ftype_;
        p.fused = ntype_ == "fused_atomic_inc";
        p.scatter = ntype_ == "scatter_write";
        p.packetBytes = packet_;
        p.bytes = double(parseBytes(bytesText_, "--bytes"));
        bench_.build(rt, p);
    }
    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const FabricUbenchResult r = bench_.read(rt);
        std::set<unsigned> chips;
        nlohmann::json flows = nlohmann::json::array();
        for (const FabricUbenchFlow& f : bench_.flows()) {
            chips.insert(f.src);
            chips.insert(f.chips.begin(), f.chips.end());
            flows.push_back({{"src", f.src}, {"dir", dirName(f.dir)}, {"hops", f.hops}, {"chips", f.chips}});
        }
        return {{"pattern", pattern_},
                {"topology", fabricKindName(bench_.topology())},
                {"ftype", bench_.multicast() ? "mcast" : "unicast"},
                {"ntype", ntype_},
                {"chips", unsigned(chips.size())},
                {"flows", unsigned(bench_.flows().size())},
                {"flow_list", flows},
                {"max_flows_per_link", r.maxFlowsPerLink},
                {"packet_bytes", packet_},
                {"header_bytes", r.headerBytes},
                {"packets_per_flow", bench_.packets()},
                {"payload_GBps", r.payloadGBps},
                {"per_flow_GBps", r.perFlowGBps},
                {"framing_limit_GBps", r.framingLimitGBps},
                {"framing_limit_pct", 100.0 * r.payloadGBps / r.framingLimitGBps},
                {"time_ns", r.timeNs}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "fabric_ubench {} ({}) over a {} fabric of {} chips: {} flow(s), at most {} per link direction\n"
            "  {} packets of {} B payload + {} B header per flow\n"
            "  busiest link      {:8.3f} GB/s ({:.1f}% of the framing limit {:.3f} GB/s); per flow {:.3f} GB/s\n",
            r["pattern"].get<std::string>(), r["ftype"].get<std::string>(), r["topology"].get<std::string>(),
            r["chips"].get<unsigned>(), r["flows"].get<unsigned>(), r["max_flows_per_link"].get<unsigned>(),
            r["packets_per_flow"].get<std::uint32_t>(), r["packet_bytes"].get<unsigned>(),
            r["header_bytes"].get<unsigned>(), r["payload_GBps"].get<double>(), r["framing_limit_pct"].get<double>(),
            r["framing_limit_GBps"].get<double>(), r["per_flow_GBps"].get<double>());
    }

private:
    std::string pattern_ = "unidirectional_linear";
    std::string kind_;
    std::vector<unsigned> order_;
    std::string ftype_;
    std::string ntype_ = "unicast_write";
    unsigned packet_ = 4096;
    std::string bytesText_ = "1M";
    FabricUbench bench_;
};

// ---- fabric_traffic ----------------------------------------------------------------

class FabricTrafficWorkload final : public Workload {
public:
    std::string name() const override { return "fabric_traffic"; }
    std::string description() const override {
        return "every chip sends to every other chip over the fabric (all commands, reads), each message checked in "
               "order (default --fabric: ring where the chips close one, else line)";
    }
    void addOptions(Options& cmd) override {
        addFabricOptions(cmd, kind_, order_, src_);
        cmd.add_option("--messages", messages_, "messages per (source, destination) pair")
            ->check(opt::Range(1u, 4096u));
        cmd.add_option("--max-bytes", maxBytes_, "largest message (multiple of 16)")->check(opt::Range(32u, 1u << 20));
        cmd.add_option("--reads", reads_, "read requests per (source, destination) pair")->check(opt::Range(0u, 8u));
        cmd.add_option("--seed", seed_, "message size/command seed");
        cmd.add_option("--plane", plane_, "routing plane")->check(opt::Range(0u, 15u));
    }
    TraceFile::Focus traceFocus() const override { return focus::routers(); }
    nlohmann::json params() const override {
        return {{"fabric", kind_}, {"order", order_}, {"messages", messages_}, {"max_bytes", maxBytes_},
                {"reads", reads_}, {"seed", seed_},   {"plane", plane_}};
    }

    void build(Runtime& rt) override {
        if (maxBytes_ % 16) throw ConfigError(fmt::format("--max-bytes {}: must be a multiple of 16", maxBytes_));
        FabricTrafficParams p;
        // Default: a ring where the chips can close one, else a line (a
        // 2-chip board's two directions would share its one link).
        if (kind_.empty()) {
            const ClusterDescriptor& d = rt.platform().descriptor();
            const std::size_t n = !order_.empty()       ? order_.size()
                                  : d.ringOrder.empty() ? d.chips.size()
                                                        : d.ringOrder.size();
            kind_ = n >= 3 ? "ring" : "line";
        }
        p.fabric = {kind_, order_};
        p.messages = messages_;
        p.maxBytes = maxBytes_;
        p.reads = reads_;
        p.seed = seed_;
        p.plane = plane_;
        buildNamingSizes([&] { traffic_.build(rt, p); },
                         fmt::format("--messages {} x --max-bytes {} per chip pair", messages_, maxBytes_));
    }

    nlohmann::json results(Runtime&, const RunResult& run) override {
        const FabricTrafficResult r = traffic_.read(run);
        return {{"chips", r.chips},     {"messages", r.messages},
                {"packets", r.packets}, {"payload_bytes", r.payloadBytes},
                {"reads", r.reads},     {"senders", r.senders},
                {"muxes", r.muxes},     {"topology", fabricKindName(r.topology)},
                {"time_us", r.timeUs}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "fabric_traffic over a {} fabric of {} chips: {} messages ({} packets, {} B payload) and {} "
            "reads, {} senders; every message checked in order\n",
            r["topology"].get<std::string>(), r["chips"].get<std::size_t>(), r["messages"].get<std::uint64_t>(),
            r["packets"].get<std::uint64_t>(), r["payload_bytes"].get<std::uint64_t>(), r["reads"].get<std::uint64_t>(),
            r["senders"].get<std::size_t>());
    }

private:
    std::string kind_;  ///< empty: ring where the chips close one, else line
    std::vector<unsigned> order_;
    int src_ = -1;
    unsigned messages_ = 8;
    unsigned maxBytes_ = 2048;
    unsigned reads_ = 1;
    unsigned seed_ = 1;
    unsigned plane_ = 0;
    FabricTraffic traffic_;
};

}  // namespace

std::unique_ptr<Workload> makeFabricTraffic() {
    return std::make_unique<FabricTrafficWorkload>();
}

std::unique_ptr<Workload> makeFabricPing() {
    return std::make_unique<FabricPingWorkload>();
}
std::unique_ptr<Workload> makeFabricBandwidth() {
    return std::make_unique<FabricBandwidthWorkload>();
}
std::unique_ptr<Workload> makeFabricUbench() {
    return std::make_unique<FabricUbenchWorkload>();
}

}  // namespace cclsim::microbench
