// The eth_bandwidth workload: options, sweep and report. The program (the
// kernel on both Ethernet cores of a user link) and the readback are
// host/microbench/EthBandwidth; the report gives the payload bandwidth per
// direction against the line rate and the framing-limited maximum.
//
// Without --channels the benchmark uses as many channels per direction as the
// kernel region holds, capped at --max-channels. The cap is not a property of
// the chip but of the published measurement this benchmark reproduces: in
// tt-metal's Ethernet multichip guide ("Raw bidirectional bandwidth
// microbenchmark"), the number of channels was limited to 30 per direction,
// which the guide names as the likely reason small packets (< 4 KB) fall
// short of the line rate there. So the default keeps that setup.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/EthBandwidth.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cclsim::microbench {

namespace {

/// Channels per direction of the Ethernet guide's bandwidth curve (see above).
constexpr unsigned kGuideMaxChannels = 30;

class EthBandwidthWorkload final : public Workload {
public:
    std::string name() const override { return "eth_bandwidth"; }
    /// The tx buffers are never refilled: every round sends the same bytes.
    bool fastForwardKeepsData() const override { return true; }
    std::string description() const override {
        return "raw bidirectional bandwidth between the two ERISCs of a link (--sweep: curve over packet sizes)";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(opt::Range(16u, 65536u));
        cmd.add_option("--channels", channels_,
                       "channels per direction (0: as many as L1 holds, at most --max-channels)")
            ->check(opt::Range(0u, 1024u));
        cmd.add_option("--max-channels", maxChannels_,
                       "cap of --channels 0 (default 30: the setup of the Ethernet guide's bandwidth curve)")
            ->check(opt::Range(1u, 1024u));
        // Sizes as every other workload takes them (4096, 64M, 1G); the
        // transform turns them into the byte count the range checks.
        cmd.add_option("--bytes", bytes_, "payload bytes to move per direction (K/M/G suffixes)")
            ->transform(opt::Transform{[](std::string& text) {
                                           try {
                                               text = std::to_string(parseBytes(text, "--bytes"));
                                               return std::string();
                                           } catch (const std::exception&) {
                                               // CLI11 names the option in front of this.
                                               return "expected a byte count such as 4096, 64K, 1M or 1G, not '" +
                                                      text + "'";
                                           }
                                       },
                                       "BYTES"})
            ->check(opt::Range(1.0, 1e13));
        cmd.add_flag("--unidir", unidir_, "send from the first chip only");
        cmd.add_option("--credit-txq", creditTxq_,
                       "tx_cmd_q that carries buffer credits (default 0, shared with the data: on Wormhole kernels may "
                       "use only "
                       "tx_cmd_q 0; 1: the reserved queue, for experiments)")
            ->check(opt::Range(0u, 1u));
        cmd.add_flag("--sweep", sweep_, "packet sizes 16 B .. 64 KB, one channel and the most channels that fit");
        cmd.add_option("--chips", chips_, "the two chips of the link, e.g. 0,1")->expected(2)->delimiter(',');
        cmd.add_option("--link", link_, "which user link between the two chips");
    }
    nlohmann::json params() const override {
        return {{"packet", packet_},
                {"channels", channels_},
                {"channels_used", used_},
                {"bytes", bytes_},
                {"unidir", unidir_},
                {"sweep", sweep_},
                {"chips", chips_},
                {"link", link_},
                {"max_channels", maxChannels_},
                {"packets_per_channel", perChannel_},
                {"credit_txq", creditTxq_}};
    }
    std::size_t sweepPoints() const override { return sweep_ ? kSizes.size() * 2 : 0; }
    void selectSweepPoint(std::size_t i) override {
        packet_ = kSizes[i / 2];
        channels_ = (i % 2 == 0) ? 1 : 0;
        // Keep small-packet points short: enough packets to reach steady state.
        bytes_ = std::min(bytes_, std::max(1.0 * 1024 * 1024, 256.0 * packet_));
    }
    std::string sweepHeader() const override {
        return fmt::format("eth_bandwidth sweep ({}), payload GB/s per direction\n{:>8} {:>8} {:>10} {:>10} {:>12}\n",
                           unidir_ ? "unidirectional" : "bidirectional", "packet", "channels", "GB/s", "% line",
                           "% framing max");
    }
    std::string sweepRow(const nlohmann::json& rep) const override {
        const auto& r = rep["results"];
        return fmt::format("{:>8} {:>8} {:>10.3f} {:>9.1f}% {:>11.1f}%\n", rep["params"]["packet"].get<unsigned>(),
                           rep["params"]["channels_used"].get<unsigned>(),
                           r["payload_GBps_per_direction"].get<double>(), r["line_rate_pct"].get<double>(),
                           r["framing_limit_pct"].get<double>());
    }

    std::vector<std::string> sweepSeries(const std::vector<nlohmann::json>& reports) const override {
        std::vector<std::string> out;
        out.reserve(reports.size());
        for (const nlohmann::json& rep : reports)
            out.push_back(rep.contains("params") && rep["params"].value("channels", 0u) == 1
                              ? "1 channel"
                              : fmt::format("the most channels that fit (up to {})", maxChannels_));
        return out;
    }

    void build(Runtime& rt) override {
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        EthBandwidthParams p;
        p.packetBytes = packet_;
        p.channels = channels_;
        p.maxChannels = maxChannels_;
        p.bytes = bytes_;
        p.unidir = unidir_;
        p.creditTxq = creditTxq_;
        p.chipA = chips_[0];
        p.chipB = chips_[1];
        p.link = link_;
        bench_.build(rt, p);
        used_ = bench_.channelsUsed();
        perChannel_ = bench_.packetsPerChannel();
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const EthBandwidthResult r = bench_.read(rt);
        const EthConfig& eth = rt.platform().descriptor().arch.erisc.eth;
        return {{"payload_GBps_per_direction", r.payloadGBps},
                {"line_rate_GBps", r.lineRateGBps},
                {"line_rate_pct", 100.0 * r.payloadGBps / r.lineRateGBps},
                {"framing_limit_GBps", r.framingLimitGBps},
                {"framing_limit_pct", 100.0 * r.payloadGBps / r.framingLimitGBps},
                {"frame_overhead_bytes", eth.packetOverheadBytes},
                {"frame_payload_bytes", eth.maxPacketBytes},
                {"bytes_per_direction", r.bytesPerDirection},
                {"directions", unidir_ ? 1 : 2},
                {"channels", used_},
                {"packets_per_channel", perChannel_},
                {"measured_ns", r.measuredNs},
                {"link", linkName(bench_.link())}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "eth_bandwidth over {}, {}: {} channels x {} packets of {} B per direction\n"
            "  payload bandwidth {:8.3f} GB/s per direction = {:.1f}% of the {:.1f} GB/s line rate\n"
            "                                        = {:.1f}% of the framing limit {:.3f} GB/s\n",
            r["link"].get<std::string>(), unidir_ ? "unidirectional" : "bidirectional", used_, perChannel_, packet_,
            r["payload_GBps_per_direction"].get<double>(), r["line_rate_pct"].get<double>(),
            r["line_rate_GBps"].get<double>(), r["framing_limit_pct"].get<double>(),
            r["framing_limit_GBps"].get<double>());
    }

private:
    static inline const std::vector<unsigned> kSizes{16,   32,   64,   128,   256,   512,  1024,
                                                     2048, 4096, 8192, 16384, 32768, 65536};
    unsigned packet_ = 4096;
    unsigned channels_ = 8;
    unsigned maxChannels_ = kGuideMaxChannels;
    double bytes_ = 16.0 * 1024 * 1024;
    bool unidir_ = false;
    unsigned creditTxq_ = 0;
    bool sweep_ = false;
    std::vector<unsigned> chips_{0, 1};
    unsigned link_ = 0;
    unsigned used_ = 0;
    std::uint32_t perChannel_ = 0;
    EthBandwidth bench_;
};

}  // namespace

std::unique_ptr<Workload> makeEthBandwidth() {
    return std::make_unique<EthBandwidthWorkload>();
}

}  // namespace cclsim::microbench
