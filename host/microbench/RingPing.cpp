// Host side of ring_ping: the guide's walkthrough host program. It picks a
// chip order, an Ethernet link per hop (a revisited chip pair uses its next
// link, as in the guide's build_eth_sockets_list), places a Receiver and a
// Sender per hop, and reports time per hop and per round trip.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/microbench_kernels.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

namespace cclsim::microbench {

namespace {

// NoCs of the guide's Receiver and Sender kernels (tt-metal
// test_ethernet_hop_latencies_no_edm.cpp: EthernetConfig{.noc = RISCV_0_default}
// for the Receiver, RISCV_1_default for the Sender).
constexpr unsigned kReceiverNoc = 0;
constexpr unsigned kSenderNoc = 1;

struct Hop {
    LinkEnds link;  ///< A = sender side (order[i]), B = receiver side (order[i+1])
    const LinkDesc* desc;
    unsigned chanBase = 0;  ///< erisc_info channels used on this hop (separate sync)
};

class RingPing final : public Workload {
public:
    std::string name() const override { return "ring_ping"; }
    std::string description() const override {
        return "a packet around a ring of Ethernet hops: time per hop and per round trip";
    }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--hops", hops_, "ring length in Ethernet hops")->check(CLI::Range(2u, 1024u));
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(CLI::Range(16u, 65536u));
        cmd.add_flag("--separate-sync", separate_, "send the channel-sync word as its own packet (guide's older form)");
        cmd.add_option("--channels", channels_, "packets in flight around the ring")->check(CLI::Range(1u, 64u));
        cmd.add_option("--samples", samples_, "measured round trips (one more is sent unmeasured)")
            ->check(CLI::Range(1u, 100000u));
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
        const ClusterDescriptor& d = rt.platform().descriptor();
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        used_ = order_.empty() ? defaultOrder(d) : order_;
        if (used_.size() != hops_)
            throw ConfigError(fmt::format("--order has {} chips but --hops is {}", used_.size(), hops_));
        for (unsigned c : used_)
            if (c >= d.chips.size()) throw ConfigError(fmt::format("--order: chip {} does not exist", c));

        // One link per hop; the n-th visit of a directed chip pair uses its n-th
        // link (the guide's build_eth_sockets_list), unless --links says which.
        if (!links_.empty() && links_.size() != hops_)
            throw ConfigError(fmt::format("--links has {} entries but --hops is {}", links_.size(), hops_));
        std::map<std::pair<unsigned, unsigned>, unsigned> visits;
        hopsV_.clear();
        for (unsigned i = 0; i < hops_; ++i) {
            const unsigned a = used_[i], b = used_[(i + 1) % hops_];
            if (a == b) throw ConfigError(fmt::format("--order: hop {} goes from chip {} to itself", i, a));
            const unsigned visit = visits[{a, b}]++;
            const unsigned n = links_.empty() ? visit : links_[i];
            const auto links = d.userLinksBetween(a, b);
            if (links.empty())
                throw ConfigError(
                    fmt::format("hop {}: chips {} and {} have no user Ethernet link (the ring order {} is "
                                "not connected)",
                                i, a, b, fmt::join(used_, ",")));
            if (!links_.empty() && n >= links.size())
                throw ConfigError(
                    fmt::format("--links: hop {} ({} -> {}) asks for link {} but the chips have {} user "
                                "link(s)",
                                i, a, b, n, links.size()));
            if (n >= links.size())
                throw ConfigError(
                    fmt::format("hop {}: the ring uses chips {} -> {} {} times but they have {} user links", i, a, b,
                                n + 1, links.size()));
            Hop h;
            h.link = userLink(d, a, b, n);
            h.desc = links[n];
            hopsV_.push_back(h);
        }
        // A link used in both directions needs two erisc_info channel ranges.
        const unsigned maxCh = d.arch.erisc.maxConcurrentTransactions;
        for (unsigned i = 0; i < hops_; ++i)
            for (unsigned j = 0; j < i; ++j)
                if (hopsV_[j].desc == hopsV_[i].desc) hopsV_[i].chanBase = channels_;
        if (separate_ && 2 * channels_ > maxCh)
            for (const Hop& h : hopsV_)
                if (h.chanBase + channels_ > maxCh)
                    throw ConfigError(
                        fmt::format("--separate-sync uses erisc_info channels: {} channels per direction "
                                    "do not fit the {} channels of a link used both ways",
                                    channels_, maxCh));
        if (separate_ && channels_ > maxCh)
            throw ConfigError(fmt::format("--separate-sync: at most {} channels (erisc_info)", maxCh));

        // Per ring position: the Receiver core (end of the previous hop) and the Sender core.
        struct Pos {
            unsigned chip;
            CoreCoord rx, tx;
            bool combined;
            std::uint32_t rxBase = 0, ack = 0, results = 0, txBase = 0, semBase = 0;
        };
        std::vector<Pos> pos(hops_);
        std::set<std::pair<unsigned, CoreCoord>> usedCores;
        const std::uint32_t stride = packet_ + 16;
        for (unsigned i = 0; i < hops_; ++i) {
            Pos& p = pos[i];
            p.chip = used_[i];
            p.rx = hopsV_[(i + hops_ - 1) % hops_].link.coreB;
            p.tx = hopsV_[i].link.coreA;
            p.combined = p.rx == p.tx;
            for (CoreCoord c : {p.rx, p.tx}) {
                if (p.combined && c == p.tx && c == p.rx && usedCores.count({p.chip, c})) continue;
                if (!usedCores.insert({p.chip, c}).second)
                    throw ConfigError(fmt::format("ring position {}: chip {} core {} is already used by another hop", i,
                                                  p.chip, c.str()));
            }
            Program& prog = rt.program(p.chip);
            p.rxBase = prog.allocateL1(p.rx, channels_ * stride, 16);
            p.ack = prog.allocateL1(p.rx, 16, 16);
            p.results = prog.allocateL1(p.rx, 16, 16);
            p.txBase = prog.allocateL1(p.tx, channels_ * stride, 16);
            for (unsigned ch = 0; ch < channels_; ++ch) {
                prog.markControl(p.rx, p.rxBase + ch * stride + packet_, 16);
                prog.markControl(p.tx, p.txBase + ch * stride + packet_, 16);
            }
            prog.markControl(p.rx, p.ack, 32);
            p.semBase = 0;
            for (unsigned ch = 0; ch < channels_; ++ch) {
                const std::uint32_t s = prog.createSemaphore(p.tx, 0, fmt::format("ring_sem{}", ch));
                if (ch == 0) p.semBase = s;
            }
            // The ack word must hold bytes_sent != 0 and receiver_ack = 1.
            ProgrammableCore* core = rt.platform().chip(p.chip).core(p.rx);
            core->l1.writeU32(p.ack, 1);
            core->l1.writeU32(p.ack + 4, 1);
        }
        master_ = CoreRef{pos[0].chip, pos[0].rx};
        results_ = pos[0].results;

        const std::uint32_t handshake = d.arch.erisc.unreservedBase;
        auto argsFor = [&](unsigned i, bool rxRole, bool txRole) {
            const Pos& p = pos[i];
            const Pos& next = pos[(i + 1) % hops_];
            const Hop& up = hopsV_[(i + hops_ - 1) % hops_];
            const Hop& down = hopsV_[i];
            std::uint32_t flags = 0;
            if (i == 0 && rxRole) flags |= 1;  // the master Receiver (or the combined kernel)
            if (rxRole) flags |= 2;
            if (txRole) flags |= 4;
            if (!separate_) flags |= 8;
            // Handshake: the sending end of a link starts it; a link used both
            // ways is started by its end at the lower ring position.
            flags |= 32;  // the Sender side of the downstream link
            if (p.combined) {
                flags |= 64;
                if (down.chanBase != 0) flags &= ~32u;
            }
            return std::vector<std::uint32_t>{flags,
                                              samples_,
                                              channels_,
                                              packet_,
                                              p.rxBase,
                                              p.tx.x,
                                              p.tx.y,
                                              p.txBase,
                                              p.semBase,
                                              p.ack,
                                              up.chanBase,
                                              p.results,
                                              p.txBase,
                                              p.semBase,
                                              next.rxBase,
                                              down.chanBase,
                                              handshake,
                                              pos[(i + hops_ - 1) % hops_].txBase,
                                              fw::microbench::kArgsEndMarker};
        };
        for (unsigned i = 0; i < hops_; ++i) {
            const Pos& p = pos[i];
            Program& prog = rt.program(p.chip);
            auto make = [&](CoreCoord c, bool rxRole, bool txRole, const char* nm) {
                // As tt-metal's ring ping creates them: the Receiver on NoC0
                // (NOC::RISCV_0_default), the Sender on NoC1 (RISCV_1_default).
                // The Receiver's forward to the Sender therefore takes NoC0's
                // one-way (+x, +y) torus route whatever the distance the other
                // way; the Sender issues no NoC traffic while pinging.
                KernelConfig kc;
                kc.noc = rxRole ? kReceiverNoc : kSenderNoc;
                KernelHandle k = prog.createKernel(nm, fw::microbench::ring_ping_kernel_main, c, kc);
                prog.setRuntimeArgs(k, argsFor(i, rxRole, txRole));
            };
            if (p.combined) {
                make(p.rx, true, true, i == 0 ? "ring_ping_master" : "ring_ping_relay");
            } else {
                make(p.rx, true, false, i == 0 ? "ring_ping_master_receiver" : "ring_ping_receiver");
                make(p.tx, false, true, "ring_ping_sender");
            }
        }
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const double cycleNs = ticksToNs(rt.platform().descriptor().arch.cycles(1));
        const double sum =
            double((std::uint64_t(rt.readL1(master_, results_ + 4)) << 32) | rt.readL1(master_, results_));
        const double rtt = sum * cycleNs / samples_;
        std::vector<std::string> hops;
        for (const Hop& h : hopsV_)
            hops.push_back(
                fmt::format("chip {} ch {} -> chip {} ch {}", h.link.chipA, h.link.chanA, h.link.chipB, h.link.chanB));
        return {{"round_trip_ns", rtt},
                {"per_hop_ns", rtt / hops_},
                {"round_trip_min_ns", rt.readL1(master_, results_ + 8) * cycleNs},
                {"round_trip_max_ns", rt.readL1(master_, results_ + 12) * cycleNs},
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
    std::vector<unsigned> defaultOrder(const ClusterDescriptor& d) const {
        auto it = d.ringOrders.find(hops_);
        if (it != d.ringOrders.end()) return it->second;
        if (d.ringOrder.size() == hops_) return d.ringOrder;
        throw ConfigError(fmt::format("{} has no ring order for {} hops: pass --order (descriptor ring_orders: {})",
                                      d.file, hops_, fmt::join(ringOrderKeys(d), ", ")));
    }
    static std::vector<unsigned> ringOrderKeys(const ClusterDescriptor& d) {
        std::vector<unsigned> k;
        for (const auto& [h, o] : d.ringOrders) k.push_back(h);
        return k;
    }

    unsigned hops_ = 2;
    unsigned packet_ = 16;
    bool separate_ = false;
    unsigned channels_ = 1;
    unsigned samples_ = 10;
    std::vector<unsigned> order_;
    std::vector<unsigned> links_;
    std::vector<unsigned> used_;
    std::vector<Hop> hopsV_;
    CoreRef master_{};
    std::uint32_t results_ = 0;
};

}  // namespace

std::unique_ptr<Workload> makeRingPing() {
    return std::make_unique<RingPing>();
}

}  // namespace cclsim::microbench
