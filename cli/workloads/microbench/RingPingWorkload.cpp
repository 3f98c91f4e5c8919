// The ring_ping workload: its options and report. The program (links,
// Receivers and Senders of every hop) and the readback are
// host/microbench/RingPing.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/RingPing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cclsim::microbench {

namespace {

class RingPingWorkload final : public Workload {
public:
    std::string name() const override { return "ring_ping"; }
    std::string description() const override {
        return "a packet around a ring of Ethernet hops: time per hop and per round trip";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--hops", hops_, "ring length in Ethernet hops")->check(opt::Range(2u, 1024u));
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(opt::Range(16u, 65536u));
        cmd.add_flag("--separate-sync", separate_, "send the channel-sync word as its own packet (guide's older form)");
        cmd.add_option("--channels", channels_, "packets in flight around the ring")->check(opt::Range(1u, 64u));
        cmd.add_option("--samples", samples_, "measured round trips (one more is sent unmeasured)")
            ->check(opt::Range(1u, 100000u));
        cmd.add_option("--order", order_,
                       "chip order of the ring, e.g. 0,4,5,1 (default: the board's order for --hops)")
            ->delimiter(',');
        cmd.add_option("--links", links_,
                       "per hop, which of the chip pair's user links it takes (0 = the first in the cluster "
                       "descriptor), e.g. 0,0,0,1,... (default: the n-th visit of a pair takes its n-th link)")
            ->delimiter(',');
    }
    nlohmann::json params() const override {
        return {{"hops", hops_},         {"packet", packet_},   {"separate_sync", separate_},
                {"channels", channels_}, {"samples", samples_}, {"order", used_},
                {"links", links_}};
    }

    void build(Runtime& rt) override {
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        RingPingParams p;
        p.hops = hops_;
        p.packetBytes = packet_;
        p.separateSync = separate_;
        p.channels = channels_;
        p.samples = samples_;
        p.order = order_;
        p.links = links_;
        ring_.build(rt, p);
        used_ = ring_.order();
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const RingPingResult r = ring_.read(rt);
        std::vector<std::string> hops;
        for (const LinkEnds& h : ring_.hops())
            hops.push_back(fmt::format("chip {} ch {} -> chip {} ch {}", h.chipA, h.chanA, h.chipB, h.chanB));
        return {{"round_trip_ns", r.roundTripNs},
                {"per_hop_ns", r.perHopNs},
                {"round_trip_min_ns", r.roundTripMinNs},
                {"round_trip_max_ns", r.roundTripMaxNs},
                {"hops", hops}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "ring_ping: {} hops over chips [{}], {} x {} B packets, {} sync\n"
            "  round trip        {:8.1f} ns  (min {:.1f}, max {:.1f})\n"
            "  per hop           {:8.1f} ns\n",
            hops_, fmt::join(used_, ","), channels_, packet_, separate_ ? "separate" : "merged",
            r["round_trip_ns"].get<double>(), r["round_trip_min_ns"].get<double>(),
            r["round_trip_max_ns"].get<double>(), r["per_hop_ns"].get<double>());
    }

private:
    unsigned hops_ = 2;
    unsigned packet_ = 16;
    bool separate_ = false;
    unsigned channels_ = 1;
    unsigned samples_ = 10;
    std::vector<unsigned> order_;
    std::vector<unsigned> links_;
    std::vector<unsigned> used_;
    RingPing ring_;
};

}  // namespace

std::unique_ptr<Workload> makeRingPing() {
    return std::make_unique<RingPingWorkload>();
}

}  // namespace cclsim::microbench
