// Host side of the fabric microbenchmarks.
//
// fabric_ping: one sender pings responders at 1, 2, ... H hops along the
// fabric in turn (tt-metal's fabric latency test: the responder echoes a
// packet of the same shape). Per hop latency is half the slope of the round
// trip against the hop count (least squares), so fixed costs at both ends
// drop out; a single distance reports round trip / (2 x hops).
//
// fabric_bandwidth: W workers on one chip stream fused write + increment
// packets to W workers on a chip H hops away, one routing plane per worker
// (round-robin); reports payload bandwidth against the link's framing limit
// 12.5 GB/s x P / (P + header + 50 x ceil((P + header) / 1500)) per plane.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/fabric_bench_args.h"
#include "firmware/microbench/microbench_kernels.h"
#include "host/fabric/FabricBuilder.h"
#include "models/common/Scoreboard.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace cclsim::microbench {

namespace {

using namespace cclsim::fabric;

/// Chips at 1, 2, ... hops from `src` whose routes all leave the same way
/// (one connection serves them all), nearest first; at most `maxHops`.
std::vector<unsigned> targetsAlongRoute(const FabricBuilder& fab, unsigned src, unsigned maxHops) {
    std::vector<unsigned> chips = fab.topology().chips();
    std::vector<unsigned> out;
    Dir first = Dir::E;
    for (unsigned k = 1; k <= maxHops; ++k) {
        for (unsigned c : chips) {
            if (c == src) continue;
            const Route r = fab.route(src, c);
            if (r.size() != k || (!out.empty() && r.first() != first)) continue;
            if (out.empty()) first = r.first();
            out.push_back(c);
            break;
        }
        if (out.size() != k) break;
    }
    return out;
}

void addFabricOptions(CLI::App& cmd, std::string& kind, std::vector<unsigned>& order, int& src) {
    cmd.add_option("--fabric", kind, "fabric topology: line, ring (over --order) or mesh, torus (the board's mesh)")
        ->check(CLI::IsMember({"line", "ring", "mesh", "torus"}));
    cmd.add_option("--order", order, "1D fabric chip order, e.g. 0,4,5,1 (default: the board's ring order)")
        ->delimiter(',');
    cmd.add_option("--src", src, "source chip (default: the first chip of the fabric)");
}

unsigned sourceChip(const FabricTopology& t, int src) {
    if (src < 0) return t.chips().front();
    if (!t.contains(unsigned(src))) throw ConfigError(fmt::format("--src {}: chip is not part of the fabric", src));
    return unsigned(src);
}

/// The fused write + increment (or other) command of a benchmark packet.
PacketHeader command(PacketHeader h, int mode, CoreCoord dst, std::uint32_t rx, std::uint32_t sem,
                     std::uint32_t payload) {
    const std::uint64_t data = nocaddr::encode(dst.x, dst.y, rx);
    const std::uint64_t s = nocaddr::encode(dst.x, dst.y, sem);
    if (mode == 0) return h.to_noc_unicast_write(data, payload);
    if (mode == 1) return h.to_noc_fused_unicast_write_atomic_inc(data, s, 1, payload);
    return h.to_noc_unicast_atomic_inc(s, 1);
}

class FabricPing final : public Workload {
public:
    std::string name() const override { return "fabric_ping"; }
    std::string description() const override {
        return "ping-pong over the packet fabric to 1..H hops: latency per hop (half the slope of round trip vs hops)";
    }
    void addOptions(CLI::App& cmd) override {
        addFabricOptions(cmd, kind_, order_, src_);
        cmd.add_option("--hops", hops_, "farthest responder in hops (default: as far as the fabric reaches)")
            ->check(CLI::Range(1u, 64u));
        cmd.add_option("--packet", packet_, "payload bytes per packet (16 = a single-flit packet)")
            ->check(CLI::Range(0u, 1u << 20));
        cmd.add_option("--mode", mode_,
                       "write (poll the data), fused (write + semaphore increment), atomic (increment only)")
            ->check(CLI::IsMember({"write", "fused", "atomic"}));
        cmd.add_option("--samples", samples_, "measured round trips per distance")->check(CLI::Range(1u, 100000u));
        cmd.add_option("--plane", plane_, "routing plane")->check(CLI::Range(0u, 15u));
    }
    nlohmann::json params() const override {
        return {{"fabric", kind_},   {"order", order_}, {"src", src_},         {"hops", hops_},
                {"packet", packet_}, {"mode", mode_},   {"samples", samples_}, {"plane", plane_}};
    }

    void build(Runtime& rt) override {
        const ClusterDescriptor& d = rt.platform().descriptor();
        const int mode = mode_ == "write" ? 0 : mode_ == "fused" ? 1 : 2;
        if (mode == 0 && packet_ < 16) throw ConfigError("--mode write needs --packet >= 16 (the sequence word)");
        fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, kind_, order_), FabricOptions{});
        if (packet_ > fab_->maxPayloadBytes())
            throw ConfigError(
                fmt::format("--packet {}: the fabric's largest payload is {} B", packet_, fab_->maxPayloadBytes()));
        if (plane_ >= fab_->planes())
            throw ConfigError(fmt::format("--plane {}: the fabric has {} plane(s)", plane_, fab_->planes()));
        src_chip_ = sourceChip(fab_->topology(), src_);
        targets_ = targetsAlongRoute(*fab_, src_chip_, hops_ ? hops_ : 64);
        if (targets_.empty())
            throw ConfigError(fmt::format("fabric_ping: chip {} has no other chip to ping", src_chip_));
        if (hops_ && targets_.size() < hops_)
            throw ConfigError(fmt::format("--hops {}: from chip {} the {} fabric reaches {} hop(s) in one direction",
                                          hops_, src_chip_, fabricKindName(fab_->topology().kind), targets_.size()));
        const Dir out = fab_->route(src_chip_, targets_.front()).first();
        sender_ = freeWorkerNear(rt, src_chip_, fab_->router(src_chip_, plane_, out).core, {});
        const std::uint32_t buf = std::max<std::uint32_t>(16, (packet_ + 15) / 16 * 16);
        struct Core {
            unsigned chip;
            CoreCoord core;
            ClientId client;
            std::uint32_t tx, rx, sem, results;
        };
        std::vector<Core> cores;
        auto place = [&](unsigned chip, CoreCoord core, Dir dir, std::uint32_t resultBytes) {
            Program& p = rt.program(chip);
            Core c{chip, core, fab_->addClient(chip, core, dir, plane_), 0, 0, 0, 0};
            c.tx = p.allocateL1(core, buf, 16);
            c.rx = p.allocateL1(core, buf, 16);
            c.sem = p.createSemaphore(core, 0, "ping_sem");
            c.results = p.allocateL1(core, std::max<std::uint32_t>(16, resultBytes), 16);
            p.markControl(core, c.tx, 16);
            p.markControl(core, c.rx, 16);
            cores.push_back(c);
        };
        place(src_chip_, sender_, out, 12 * std::uint32_t(targets_.size()));
        for (unsigned t : targets_) {
            const Dir back = fab_->route(t, src_chip_).first();
            place(t, freeWorkerNear(rt, t, fab_->router(t, plane_, back).core, {}), back,
                  12 * std::uint32_t(targets_.size()));
        }
        for (const Core& c : cores)
            if (c.rx != cores[0].rx || c.sem != cores[0].sem)
                throw std::logic_error("fabric_ping: buffers differ between sender and responders");
        results_ = cores[0].results;
        std::vector<KernelHandle> ks;
        for (std::size_t i = 0; i < cores.size(); ++i) {
            KernelConfig kc;
            kc.vc = 1;  // communication traffic: vc_comm
            ks.push_back(rt.program(cores[i].chip)
                             .createKernel(i == 0 ? "fabric_ping_sender" : "fabric_ping_responder",
                                           fw::microbench::fabric_ping_main, cores[i].core, kc));
        }
        fab_->build();
        for (std::size_t i = 0; i < cores.size(); ++i) {
            const Core& c = cores[i];
            FabricPingArgs a;
            a.role = i == 0 ? 0 : 1;
            a.mode = std::uint32_t(mode);
            a.samples = samples_;
            a.payload = packet_;
            a.tx = c.tx;
            a.rx = c.rx;
            a.sem = c.sem;
            a.results = c.results;
            a.header_words = fab_->headerBytes() / 4;
            a.conn = fab_->connection(c.client);
            std::vector<PacketHeader> headers;
            if (i == 0) {
                a.targets = std::uint32_t(targets_.size());
                for (std::size_t t = 0; t < targets_.size(); ++t)
                    headers.push_back(
                        command(fab_->header(src_chip_, targets_[t]), mode, cores[t + 1].core, c.rx, c.sem, packet_));
            } else {
                a.targets = std::uint32_t(i - 1);
                headers.push_back(command(fab_->header(c.chip, src_chip_), mode, sender_, c.rx, c.sem, packet_));
            }
            rt.program(c.chip).setRuntimeArgs(ks[i], packFabricBench(a, headers));
        }
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const double cycleNs = ticksToNs(rt.platform().descriptor().arch.cycles(1));
        nlohmann::json byHops = nlohmann::json::array();
        std::vector<double> xs, ys;
        for (std::size_t t = 0; t < targets_.size(); ++t) {
            const CoreRef s{src_chip_, sender_};
            const double rtt = rt.readL1(s, results_ + 12 * std::uint32_t(t)) * cycleNs / samples_;
            const unsigned hops = fab_->route(src_chip_, targets_[t]).size();
            xs.push_back(hops);
            ys.push_back(rtt);
            byHops.push_back({{"hops", hops},
                              {"chip", targets_[t]},
                              {"round_trip_ns", rtt},
                              {"round_trip_min_ns", rt.readL1(s, results_ + 12 * std::uint32_t(t) + 4) * cycleNs},
                              {"round_trip_max_ns", rt.readL1(s, results_ + 12 * std::uint32_t(t) + 8) * cycleNs}});
        }
        double perHop;
        if (xs.size() >= 2) {
            const double n = double(xs.size());
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            for (std::size_t i = 0; i < xs.size(); ++i)
                sx += xs[i], sy += ys[i], sxx += xs[i] * xs[i], sxy += xs[i] * ys[i];
            perHop = (n * sxy - sx * sy) / (n * sxx - sx * sx) / 2.0;
        } else {
            perHop = ys[0] / (2.0 * xs[0]);
        }
        return {
            {"per_hop_ns", perHop},
            {"fit", xs.size() >= 2 ? "half the least-squares slope of round trip vs hops" : "round trip / (2 x hops)"},
            {"by_hops", byHops},
            {"src_chip", src_chip_},
            {"header_bytes", fab_->headerBytes()},
            {"topology", fabricKindName(fab_->topology().kind)},
            {"sender_slots", fab_->senderSlots()},
            {"receiver_slots", fab_->receiverSlots()},
            {"planes", fab_->planes()}};
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
    std::unique_ptr<FabricBuilder> fab_;
    unsigned src_chip_ = 0;
    std::vector<unsigned> targets_;
    CoreCoord sender_;
    std::uint32_t results_ = 0;
};

// ---- fabric_bandwidth ------------------------------------------------------------

const std::vector<unsigned> kBwSizes{64, 128, 256, 512, 1024, 1536, 2048, 3072, 4096, 4352};

class FabricBandwidth final : public Workload {
public:
    std::string name() const override { return "fabric_bandwidth"; }
    std::string description() const override {
        return "workers streaming packets over the fabric to a chip H hops away: bandwidth vs the framing limit";
    }
    void addOptions(CLI::App& cmd) override {
        addFabricOptions(cmd, kind_, order_, src_);
        cmd.add_option("--hops", hops_, "distance of the receiving chip in hops")->check(CLI::Range(1u, 64u));
        cmd.add_option("--packet", packet_, "payload bytes per packet (0: the fabric's largest)")
            ->check(CLI::Range(0u, 1u << 20));
        cmd.add_option("--workers", workers_, "sending workers (each with its own receiver)")
            ->check(CLI::Range(1u, 64u));
        cmd.add_option("--planes", planes_, "routing planes the workers spread over (0: all)")
            ->check(CLI::Range(0u, 16u));
        cmd.add_option("--bytes", bytesText_, "payload bytes per worker (K/M/G suffixes)");
        cmd.add_flag("--sweep", sweep_, "packet sizes 64 B .. 4352 B (one process each)");
    }
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
        const ClusterDescriptor& d = rt.platform().descriptor();
        fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, kind_, order_), FabricOptions{});
        packetUsed_ = packet_ ? packet_ : fab_->maxPayloadBytes();
        if (packetUsed_ > fab_->maxPayloadBytes())
            throw ConfigError(
                fmt::format("--packet {}: the fabric's largest payload is {} B", packetUsed_, fab_->maxPayloadBytes()));
        planesUsed_ = planes_ ? planes_ : fab_->planes();
        if (planesUsed_ > fab_->planes())
            throw ConfigError(fmt::format("--planes {}: the fabric has {} plane(s)", planesUsed_, fab_->planes()));
        planesUsed_ = std::min(planesUsed_, workers_);
        src_chip_ = sourceChip(fab_->topology(), src_);
        const auto along = targetsAlongRoute(*fab_, src_chip_, hops_);
        if (along.size() < hops_)
            throw ConfigError(fmt::format("--hops {}: from chip {} the {} fabric reaches {} hop(s) in one direction",
                                          hops_, src_chip_, fabricKindName(fab_->topology().kind), along.size()));
        dst_chip_ = along.back();
        const Dir out = fab_->route(src_chip_, dst_chip_).first();
        const Dir back = fab_->route(dst_chip_, src_chip_).first();
        const double bytes = double(parseBytes(bytesText_, "--bytes"));
        packets_ = std::max<std::uint32_t>(1, std::uint32_t(std::ceil(bytes / packetUsed_)));
        const std::uint32_t buf = (packetUsed_ + 15) / 16 * 16;
        std::vector<CoreCoord> takenS, takenR;
        pairs_.clear();
        for (unsigned w = 0; w < workers_; ++w) {
            Pair p;
            p.plane = w % planesUsed_;
            p.sender = freeWorkerNear(rt, src_chip_, fab_->router(src_chip_, p.plane, out).core, takenS);
            p.receiver = freeWorkerNear(rt, dst_chip_, fab_->router(dst_chip_, p.plane, back).core, takenR);
            takenS.push_back(p.sender);
            takenR.push_back(p.receiver);
            Program& ps = rt.program(src_chip_);
            Program& pr = rt.program(dst_chip_);
            p.client = fab_->addClient(src_chip_, p.sender, out, p.plane);
            p.srcBuf = ps.allocateL1(p.sender, buf, 16);
            p.srcRes = ps.allocateL1(p.sender, 16, 16);
            p.dstBuf = pr.allocateL1(p.receiver, buf, 16);
            p.dstSem = pr.createSemaphore(p.receiver, 0, "fbw_sem");
            p.dstRes = pr.allocateL1(p.receiver, 16, 16);
            ps.markControl(p.sender, p.srcRes, 16);
            pr.markControl(p.receiver, p.dstRes, 16);
            KernelConfig kc;
            kc.vc = 1;
            p.ks = ps.createKernel("fabric_bw_sender", fw::microbench::fabric_bandwidth_main, p.sender, kc);
            p.kr = pr.createKernel("fabric_bw_receiver", fw::microbench::fabric_bandwidth_main, p.receiver, kc);
            pairs_.push_back(p);
        }
        fab_->build();
        for (unsigned w = 0; w < workers_; ++w) {
            const Pair& p = pairs_[w];
            FabricBandwidthArgs s;
            s.role = 0;
            s.packets = packets_;
            s.payload = packetUsed_;
            s.buffer = p.srcBuf;
            s.results = p.srcRes;
            s.stream = w + 1;
            s.header_words = fab_->headerBytes() / 4;
            s.conn = fab_->connection(p.client);
            const PacketHeader h =
                command(fab_->header(src_chip_, dst_chip_), 1, p.receiver, p.dstBuf, p.dstSem, packetUsed_);
            rt.program(src_chip_).setRuntimeArgs(p.ks, packFabricBench(s, {h}));
            FabricBandwidthArgs r;
            r.role = 1;
            r.packets = packets_;
            r.payload = packetUsed_;
            r.buffer = p.dstBuf;
            r.sem = p.dstSem;
            r.results = p.dstRes;
            r.stream = w + 1;
            r.header_words = s.header_words;
            rt.program(dst_chip_).setRuntimeArgs(p.kr, packFabricBench(r, {}));
        }
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const double cycleNs = ticksToNs(rt.platform().descriptor().arch.cycles(1));
        auto stamp = [&](unsigned chip, CoreCoord c, std::uint32_t addr) {
            return double((std::uint64_t(rt.readL1({chip, c}, addr + 4)) << 32) | rt.readL1({chip, c}, addr)) * cycleNs;
        };
        double t0 = 1e300, t1 = 0;
        for (const Pair& p : pairs_) {
            t0 = std::min(t0, stamp(src_chip_, p.sender, p.srcRes));
            t1 = std::max(t1, stamp(dst_chip_, p.receiver, p.dstRes));
        }
        const double bytes = double(packets_) * packetUsed_ * workers_;
        const double gbps = bytes / (t1 - t0);
        const EthConfig& e = rt.platform().descriptor().arch.erisc.eth;
        const double wire = double(fab_->headerBytes() + (packetUsed_ + 15) / 16 * 16);
        const double frames = std::ceil(wire / e.maxPacketBytes);
        const double limit = planesUsed_ * e.lineBytesPerNs * packetUsed_ / (wire + e.packetOverheadBytes * frames);
        return {{"payload_GBps", gbps},
                {"payload_GBps_per_plane", gbps / planesUsed_},
                {"framing_limit_GBps", limit},
                {"framing_limit_pct", 100.0 * gbps / limit},
                {"line_rate_pct", 100.0 * gbps / (planesUsed_ * e.lineBytesPerNs)},
                {"packet_bytes", packetUsed_},
                {"header_bytes", fab_->headerBytes()},
                {"packets_per_worker", packets_},
                {"workers", workers_},
                {"planes_used", planesUsed_},
                {"via_mux", fab_->muxCount() > 0},
                {"hops", hops_},
                {"src_chip", src_chip_},
                {"dst_chip", dst_chip_},
                {"time_ns", t1 - t0},
                {"topology", fabricKindName(fab_->topology().kind)}};
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
    struct Pair {
        unsigned plane = 0;
        CoreCoord sender, receiver;
        ClientId client;
        std::uint32_t srcBuf = 0, srcRes = 0, dstBuf = 0, dstSem = 0, dstRes = 0;
        KernelHandle ks, kr;
    };
    std::string kind_ = "line";
    std::vector<unsigned> order_;
    int src_ = -1;
    unsigned hops_ = 1;
    unsigned packet_ = 0;
    unsigned workers_ = 1;
    unsigned planes_ = 1;
    std::string bytesText_ = "4M";
    bool sweep_ = false;
    std::unique_ptr<FabricBuilder> fab_;
    unsigned packetUsed_ = 0, planesUsed_ = 1;
    unsigned src_chip_ = 0, dst_chip_ = 0;
    std::uint32_t packets_ = 0;
    std::vector<Pair> pairs_;
};

// ---- fabric_traffic ----------------------------------------------------------------

class FabricTraffic final : public Workload {
public:
    std::string name() const override { return "fabric_traffic"; }
    std::string description() const override {
        return "every chip sends to every other chip over the fabric (all commands, reads), each message checked in "
               "order";
    }
    void addOptions(CLI::App& cmd) override {
        addFabricOptions(cmd, kind_, order_, src_);
        cmd.add_option("--messages", messages_, "messages per (source, destination) pair")
            ->check(CLI::Range(1u, 4096u));
        cmd.add_option("--max-bytes", maxBytes_, "largest message (multiple of 16)")->check(CLI::Range(32u, 1u << 20));
        cmd.add_option("--reads", reads_, "read requests per (source, destination) pair")->check(CLI::Range(0u, 8u));
        cmd.add_option("--seed", seed_, "message size/command seed");
        cmd.add_option("--plane", plane_, "routing plane")->check(CLI::Range(0u, 15u));
    }
    nlohmann::json params() const override {
        return {{"fabric", kind_}, {"order", order_}, {"messages", messages_}, {"max_bytes", maxBytes_},
                {"reads", reads_}, {"seed", seed_},   {"plane", plane_}};
    }

    void build(Runtime& rt) override {
        const ClusterDescriptor& d = rt.platform().descriptor();
        if (maxBytes_ % 16) throw ConfigError(fmt::format("--max-bytes {}: must be a multiple of 16", maxBytes_));
        fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, kind_, order_), FabricOptions{});
        if (maxBytes_ > fab_->maxPayloadBytes())
            throw ConfigError(fmt::format("--max-bytes {}: the fabric's largest payload is {} B", maxBytes_,
                                          fab_->maxPayloadBytes()));
        if (plane_ >= fab_->planes())
            throw ConfigError(fmt::format("--plane {}: the fabric has {} plane(s)", plane_, fab_->planes()));
        chips_ = fab_->topology().chips();
        if (chips_.size() - 1 > kTrafficMaxPeers)
            throw ConfigError(fmt::format("fabric_traffic: at most {} peers per chip", kTrafficMaxPeers));
        // Receivers first (their read regions at the same address everywhere).
        std::vector<std::uint32_t> readSrc;
        const std::uint32_t readBytes = maxBytes_ + 16 * reads_;
        for (unsigned c : chips_) {
            Rx r;
            r.chip = c;
            const RouterInfo& any = fab_->routers().front();
            r.core = freeWorkerNear(rt, c, c == any.chip ? any.core : firstRouterCore(c), {});
            Program& p = rt.program(c);
            r.readSrc = p.allocateL1(r.core, readBytes, 16);
            std::vector<std::uint8_t> bytes(readBytes);
            refStreamFill(trafficReadStream(c), 0, bytes.data(), readBytes);
            rt.platform().chip(c).core(r.core)->l1.writeBytes(r.readSrc, readBytes, bytes.data());
            for (unsigned s : chips_) {
                if (s == c) continue;
                r.sources.push_back(s);
                r.region.push_back(p.allocateL1(r.core, messages_ * maxBytes_, 16));
                r.counter.push_back(p.createSemaphore(r.core, 0, fmt::format("from_chip{}", s)));
                for (unsigned i = 0; i < messages_; ++i) p.markControl(r.core, r.region.back() + i * maxBytes_, 16);
            }
            KernelConfig kc;
            kc.vc = 1;
            r.kernel = p.createKernel("fabric_traffic_rx", fw::microbench::fabric_traffic_main, r.core, kc);
            rxs_.push_back(r);
        }
        for (const Rx& r : rxs_)
            if (r.readSrc != rxs_.front().readSrc) throw std::logic_error("fabric_traffic: read regions differ");
        // One sender per chip and first-hop direction.
        for (unsigned c : chips_) {
            std::map<unsigned, Tx> byDir;
            for (unsigned dst : chips_) {
                if (dst == c) continue;
                const Dir dir = fab_->route(c, dst).first();
                byDir[unsigned(dir)].dests.push_back(dst);
            }
            std::vector<CoreCoord> taken;
            for (auto& [dir, t] : byDir) {
                t.chip = c;
                t.dir = Dir(dir);
                t.core = freeWorkerNear(rt, c, fab_->router(c, plane_, t.dir).core, taken);
                taken.push_back(t.core);
                Program& p = rt.program(c);
                t.client = fab_->addClient(c, t.core, t.dir, plane_);
                t.staging = p.allocateL1(t.core, 2 * maxBytes_, 16);
                t.reply = p.allocateL1(
                    t.core, std::max<std::uint32_t>(16, reads_ * std::uint32_t(t.dests.size()) * maxBytes_), 16);
                t.replySem = p.createSemaphore(t.core, 0, "reply_sem");
                p.markControl(t.core, t.staging, 16);
                p.markControl(t.core, t.staging + maxBytes_, 16);
                KernelConfig kc;
                kc.vc = 1;
                t.kernel = p.createKernel(fmt::format("fabric_traffic_tx_{}", dirName(t.dir)),
                                          fw::microbench::fabric_traffic_main, t.core, kc);
                txs_.push_back(t);
            }
        }
        fab_->build();
        auto rxOf = [&](unsigned chip) -> const Rx& {
            for (const Rx& r : rxs_)
                if (r.chip == chip) return r;
            throw std::logic_error("no receiver");
        };
        for (const Tx& t : txs_) {
            FabricTrafficArgs a = common();
            a.role = 0;
            a.chip = t.chip;
            a.staging = t.staging;
            a.reply = t.reply;
            a.reply_sem = t.replySem;
            a.read_src = rxs_.front().readSrc;
            a.n_peers = std::uint32_t(t.dests.size());
            a.conn = fab_->connection(t.client);
            std::vector<PacketHeader> headers;
            for (std::size_t i = 0; i < t.dests.size(); ++i) {
                const Rx& r = rxOf(t.dests[i]);
                const std::size_t k =
                    std::size_t(std::find(r.sources.begin(), r.sources.end(), t.chip) - r.sources.begin());
                a.peer_chip[i] = r.chip;
                a.peer_xy[i] = packXY(r.core.x, r.core.y);
                a.peer_region[i] = r.region[k];
                a.peer_counter[i] = r.counter[k];
                PacketHeader h = fab_->header(t.chip, r.chip);
                if (reads_) fab_->setReadReply(h, t.chip, r.chip);
                headers.push_back(h);
            }
            rt.program(t.chip).setRuntimeArgs(t.kernel, packFabricBench(a, headers));
        }
        for (const Rx& r : rxs_) {
            FabricTrafficArgs a = common();
            a.role = 1;
            a.chip = r.chip;
            a.read_src = r.readSrc;
            a.n_peers = std::uint32_t(r.sources.size());
            for (std::size_t i = 0; i < r.sources.size(); ++i) {
                a.peer_chip[i] = r.sources[i];
                a.peer_region[i] = r.region[i];
                a.peer_counter[i] = r.counter[i];
            }
            rt.program(r.chip).setRuntimeArgs(r.kernel, packFabricBench(a, {}));
        }
    }

    nlohmann::json results(Runtime&, const RunResult& run) override {
        std::uint64_t bytes = 0, packets = 0;
        for (unsigned s : chips_)
            for (unsigned d : chips_) {
                if (s == d) continue;
                for (unsigned i = 0; i < messages_; ++i) {
                    const auto m = trafficMessage(seed_, s, d, i, maxBytes_);
                    bytes += m.kind == 3 ? 4 : m.bytes;
                    packets += m.kind < 2 ? 1 : 2;
                }
            }
        const std::uint64_t readPackets = std::uint64_t(reads_) * chips_.size() * (chips_.size() - 1);
        return {{"chips", chips_.size()},
                {"messages", messages_ * chips_.size() * (chips_.size() - 1)},
                {"packets", packets + 2 * readPackets},
                {"payload_bytes", bytes},
                {"reads", readPackets},
                {"senders", txs_.size()},
                {"muxes", fab_->muxCount()},
                {"topology", fabricKindName(fab_->topology().kind)},
                {"time_us", ticksToNs(run.lastKernelFinish) / 1000.0}};
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
    struct Rx {
        unsigned chip = 0;
        CoreCoord core;
        std::uint32_t readSrc = 0;
        std::vector<unsigned> sources;
        std::vector<std::uint32_t> region, counter;
        KernelHandle kernel;
    };
    struct Tx {
        unsigned chip = 0;
        Dir dir = Dir::E;
        CoreCoord core;
        ClientId client;
        std::vector<unsigned> dests;
        std::uint32_t staging = 0, reply = 0, replySem = 0;
        KernelHandle kernel;
    };
    FabricTrafficArgs common() const {
        FabricTrafficArgs a;
        a.messages = messages_;
        a.max_bytes = maxBytes_;
        a.slot_bytes = maxBytes_;
        a.seed = seed_;
        a.reads = reads_;
        a.read_max = std::min(maxBytes_, fab_->readMaxBytes());
        a.header_words = fab_->headerBytes() / 4;
        return a;
    }
    CoreCoord firstRouterCore(unsigned chip) const {
        for (const RouterInfo& r : fab_->routers())
            if (r.chip == chip) return r.core;
        return CoreCoord{1, 1};
    }

    std::string kind_ = "ring";
    std::vector<unsigned> order_;
    int src_ = -1;
    unsigned messages_ = 8;
    unsigned maxBytes_ = 2048;
    unsigned reads_ = 1;
    unsigned seed_ = 1;
    unsigned plane_ = 0;
    std::unique_ptr<FabricBuilder> fab_;
    std::vector<unsigned> chips_;
    std::vector<Rx> rxs_;
    std::vector<Tx> txs_;
};

}  // namespace

std::unique_ptr<Workload> makeFabricTraffic() {
    return std::make_unique<FabricTraffic>();
}

std::unique_ptr<Workload> makeFabricPing() {
    return std::make_unique<FabricPing>();
}
std::unique_ptr<Workload> makeFabricBandwidth() {
    return std::make_unique<FabricBandwidth>();
}

}  // namespace cclsim::microbench
