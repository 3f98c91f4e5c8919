// The eth_ping workload: its options and report. The program (buffers,
// master and responder kernels) and the readback are host/microbench/EthPing.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/EthPing.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

class EthPingWorkload final : public Workload {
public:
    std::string name() const override { return "eth_ping"; }
    std::string description() const override {
        return "there-and-back over one Ethernet link: one-way and round-trip time";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--samples", samples_, "measured round trips (one more is sent unmeasured)")
            ->check(opt::Range(1u, 1000000u));
        cmd.add_option("--packet", packet_, "payload bytes per ping (multiple of 16)")->check(opt::Range(16u, 65536u));
        cmd.add_option("--chips", chips_, "the two chips of the link, e.g. 0,1")->expected(2)->delimiter(',');
        cmd.add_option("--link", link_, "which user link between the two chips");
    }
    nlohmann::json params() const override {
        return {{"samples", samples_}, {"packet", packet_}, {"chips", chips_}, {"link", link_}};
    }
    void build(Runtime& rt) override {
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        EthPingParams p;
        p.samples = samples_;
        p.packetBytes = packet_;
        p.chipA = chips_[0];
        p.chipB = chips_[1];
        p.link = link_;
        ping_.build(rt, p);
    }
    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const EthPingResult r = ping_.read(rt);
        return {{"round_trip_ns", r.roundTripNs},        {"round_trip_min_ns", r.roundTripMinNs},
                {"round_trip_max_ns", r.roundTripMaxNs}, {"one_way_ns", r.oneWayNs},
                {"ideal_send_ns", r.idealSendNs},        {"send_issue_ns", r.sendIssueNs},
                {"link", linkName(ping_.link())}};
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
    EthPing ping_;
};

}  // namespace

std::unique_ptr<Workload> makeEthPing() {
    return std::make_unique<EthPingWorkload>();
}

}  // namespace cclsim::microbench
