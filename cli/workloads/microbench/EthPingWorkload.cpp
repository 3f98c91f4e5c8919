// Host side of eth_ping: one master and one responder kernel on the two
// Ethernet cores of a user link; reports round trip, one-way latency and the
// send issue cost as the Ethernet guide derives them.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/microbench_kernels.h"

#include <fmt/format.h>

namespace cclsim::microbench {

LinkEnds userLink(const ClusterDescriptor& d, unsigned chipA, unsigned chipB, unsigned index) {
    if (chipA >= d.chips.size() || chipB >= d.chips.size())
        throw ConfigError(fmt::format("chips {} and {}: the board has chips 0..{}", chipA, chipB, d.chips.size() - 1));
    const auto links = d.userLinksBetween(chipA, chipB);
    if (links.empty())
        throw ConfigError(fmt::format("no user Ethernet link between chip {} and chip {} in {}", chipA, chipB, d.file));
    if (index >= links.size())
        throw ConfigError(fmt::format("link {} between chip {} and chip {} does not exist: there are {} user links",
                                      index, chipA, chipB, links.size()));
    const LinkDesc& l = *links[index];
    LinkEnds e;
    const bool aFirst = l.a.chip == chipA;
    e.chipA = chipA;
    e.chanA = aFirst ? l.a.chan : l.b.chan;
    e.chipB = chipB;
    e.chanB = aFirst ? l.b.chan : l.a.chan;
    e.coreA = d.arch.ethCores[e.chanA];
    e.coreB = d.arch.ethCores[e.chanB];
    return e;
}

namespace {

class EthPing final : public Workload {
public:
    std::string name() const override { return "eth_ping"; }
    std::string description() const override {
        return "there-and-back over one Ethernet link: one-way and round-trip time";
    }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--samples", samples_, "measured round trips (one more is sent unmeasured)")
            ->check(CLI::Range(1u, 1000000u));
        cmd.add_option("--packet", packet_, "payload bytes per ping (multiple of 16)")->check(CLI::Range(16u, 65536u));
        cmd.add_option("--chips", chips_, "the two chips of the link, e.g. 0,1")->expected(2)->delimiter(',');
        cmd.add_option("--link", link_, "which user link between the two chips");
    }
    nlohmann::json params() const override {
        return {{"samples", samples_}, {"packet", packet_}, {"chips", chips_}, {"link", link_}};
    }
    void build(Runtime& rt) override {
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        const ClusterDescriptor& d = rt.platform().descriptor();
        ends_ = userLink(d, chips_[0], chips_[1], link_);
        Program& pa = rt.program(ends_.chipA);
        Program& pb = rt.program(ends_.chipB);
        const std::uint32_t handshake = d.arch.erisc.unreservedBase;
        auto alloc = [&](Program& p, CoreCoord c) {
            struct B {
                std::uint32_t tx, rx, results;
            } b;
            b.tx = p.allocateL1(c, packet_ + 16, 16);
            b.rx = p.allocateL1(c, packet_ + 16, 16);
            b.results = p.allocateL1(c, 16, 16);
            p.markControl(c, b.tx + packet_, 16);
            p.markControl(c, b.rx + packet_, 16);
            p.markControl(c, b.results, 16);
            return b;
        };
        const auto a = alloc(pa, ends_.coreA);
        const auto b = alloc(pb, ends_.coreB);
        if (a.rx != b.rx || a.tx != b.tx) throw std::logic_error("eth_ping: buffer layouts differ");
        results_ = a.results;
        auto kernel = [&](Program& p, CoreCoord c, bool master) {
            KernelHandle k = p.createKernel(master ? "eth_ping_master" : "eth_ping_responder",
                                            fw::microbench::eth_ping_kernel_main, c, KernelConfig{});
            p.setRuntimeArgs(k, {master ? 1u : 0u, samples_, packet_, a.tx, a.rx, a.results, handshake,
                                 fw::microbench::kArgsEndMarker});
        };
        kernel(pa, ends_.coreA, true);
        kernel(pb, ends_.coreB, false);
    }
    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const ArchConfig& arch = rt.platform().descriptor().arch;
        const double cycleNs = ticksToNs(arch.cycles(1));
        const CoreRef master{ends_.chipA, ends_.coreA};
        const double rtt = rt.readL1(master, results_) * cycleNs / samples_;
        const double lo = rt.readL1(master, results_ + 4) * cycleNs;
        const double hi = rt.readL1(master, results_ + 8) * cycleNs;
        const double issue = rt.readL1(master, results_ + 12) * cycleNs / samples_;
        const EthConfig& eth = arch.erisc.eth;
        // The guide's derivation: (round trip - 2 x ideal send time) / 2.
        const double ideal = eth.wireBytes(packet_ + 16) / eth.lineBytesPerNs;
        return {{"round_trip_ns", rtt},
                {"round_trip_min_ns", lo},
                {"round_trip_max_ns", hi},
                {"one_way_ns", (rtt - 2 * ideal) / 2},
                {"ideal_send_ns", ideal},
                {"send_issue_ns", issue},
                {"link",
                 fmt::format("chip {} ch {} <-> chip {} ch {}", ends_.chipA, ends_.chanA, ends_.chipB, ends_.chanB)}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "eth_ping over {}, {} B payload + 16 B sync, {} samples\n"
            "  round trip        {:8.1f} ns  (min {:.1f}, max {:.1f})\n"
            "  one-way latency   {:8.1f} ns  (= (round trip - 2 x {:.1f} ns ideal send) / 2)\n"
            "  send issue        {:8.1f} ns  (eth_send_packet incl. timer reads)\n",
            r["link"].get<std::string>(), packet_, samples_, r["round_trip_ns"].get<double>(),
            r["round_trip_min_ns"].get<double>(), r["round_trip_max_ns"].get<double>(), r["one_way_ns"].get<double>(),
            r["ideal_send_ns"].get<double>(), r["send_issue_ns"].get<double>());
    }

private:
    unsigned samples_ = 10;
    unsigned packet_ = 16;
    std::vector<unsigned> chips_{0, 1};
    unsigned link_ = 0;
    LinkEnds ends_{};
    std::uint32_t results_ = 0;
};

}  // namespace

std::unique_ptr<Workload> makeEthPing() {
    return std::make_unique<EthPing>();
}

}  // namespace cclsim::microbench
