// Host side of eth_bandwidth: the same kernel on both Ethernet cores of a
// user link; reports payload bandwidth per direction against the line rate
// and against the framing-limited maximum 12.5 GB/s x P/(P + 50*ceil(P/1500)).
//
// Without --channels the benchmark uses as many channels per direction as the
// kernel region holds, capped at --max-channels. The cap is not a property of
// the chip but of the published measurement this benchmark reproduces: in
// tt-metal's Ethernet multichip guide ("Raw bidirectional bandwidth
// microbenchmark"), the number of channels was limited to 30 per direction,
// which the guide names as the likely reason small packets (< 4 KB) fall
// short of the line rate there. So the default keeps that setup.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/microbench_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cclsim::microbench {

namespace {

/// Channels per direction of the Ethernet guide's bandwidth curve (see above).
constexpr unsigned kGuideMaxChannels = 30;

class EthBandwidth final : public Workload {
public:
    std::string name() const override { return "eth_bandwidth"; }
    std::string description() const override {
        return "raw bidirectional bandwidth between the two ERISCs of a link (--sweep: curve over packet sizes)";
    }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(CLI::Range(16u, 65536u));
        cmd.add_option("--channels", channels_,
                       "channels per direction (0: as many as L1 holds, at most --max-channels)")
            ->check(CLI::Range(0u, 1024u));
        cmd.add_option("--max-channels", maxChannels_,
                       "cap of --channels 0 (default 30: the setup of the Ethernet guide's bandwidth curve)")
            ->check(CLI::Range(1u, 1024u));
        cmd.add_option("--bytes", bytes_, "payload bytes to move per direction")->check(CLI::Range(1.0, 1e13));
        cmd.add_flag("--unidir", unidir_, "send from the first chip only");
        cmd.add_option("--credit-txq", creditTxq_, "tx_cmd_q that carries buffer credits (0 shares it with data)")
            ->check(CLI::Range(0u, 1u));
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
        for (const nlohmann::json& rep : reports)
            out.push_back(rep.contains("params") && rep["params"].value("channels", 0u) == 1
                              ? "1 channel"
                              : fmt::format("the most channels that fit (up to {})", maxChannels_));
        return out;
    }

    void build(Runtime& rt) override {
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        const ClusterDescriptor& d = rt.platform().descriptor();
        ends_ = userLink(d, chips_[0], chips_[1], link_);
        Program& pa = rt.program(ends_.chipA);
        Program& pb = rt.program(ends_.chipB);
        const std::uint32_t stride = packet_ + 16;
        // Both directions need C tx and C rx buffers on each core.
        const std::uint32_t free = std::min(pa.l1Free(ends_.coreA), pb.l1Free(ends_.coreB)) - 64;
        const std::uint32_t fit = free / (2 * stride);
        if (fit == 0)
            throw ConfigError(
                fmt::format("--packet {}: one tx and one rx buffer ({} B) do not fit the {} B kernel region", packet_,
                            2 * stride, free));
        used_ = channels_ ? channels_ : std::min(fit, maxChannels_);
        if (used_ > fit)
            throw ConfigError(
                fmt::format("--channels {} x 2 buffers of {} B need {} B but the Ethernet core's kernel "
                            "region has {} B free (at most {} channels)",
                            used_, stride, 2ull * used_ * stride, free, fit));
        perChannel_ = std::max<std::uint32_t>(1, std::uint32_t(std::ceil(bytes_ / (double(packet_) * used_))));
        auto setup = [&](Program& p, CoreCoord c, bool first) {
            const std::uint32_t tx = p.allocateL1(c, used_ * stride, 16);
            const std::uint32_t rx = p.allocateL1(c, used_ * stride, 16);
            const std::uint32_t res = p.allocateL1(c, 16, 16);
            for (std::uint32_t i = 0; i < used_; ++i) {
                p.markControl(c, tx + i * stride + packet_, 16);
                p.markControl(c, rx + i * stride + packet_, 16);
            }
            p.markControl(c, res, 16);
            const std::uint32_t send = (first || !unidir_) ? perChannel_ : 0;
            const std::uint32_t recv = (!first || !unidir_) ? perChannel_ : 0;
            KernelHandle k =
                p.createKernel("eth_bandwidth", fw::microbench::eth_bandwidth_kernel_main, c, KernelConfig{});
            p.setRuntimeArgs(k,
                             {used_, packet_, send, recv, tx, rx, rt.platform().descriptor().arch.erisc.unreservedBase,
                              first ? 1u : 0u, res, creditTxq_, fw::microbench::kArgsEndMarker});
            return res;
        };
        resA_ = setup(pa, ends_.coreA, true);
        resB_ = setup(pb, ends_.coreB, false);
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const ArchConfig& arch = rt.platform().descriptor().arch;
        auto stamp = [&](CoreRef c, std::uint32_t addr) {
            return (std::uint64_t(rt.readL1(c, addr + 4)) << 32) | rt.readL1(c, addr);
        };
        const CoreRef a{ends_.chipA, ends_.coreA}, b{ends_.chipB, ends_.coreB};
        const std::uint64_t start = std::min(stamp(a, resA_), stamp(b, resB_));
        const std::uint64_t end = std::max(stamp(a, resA_ + 8), stamp(b, resB_ + 8));
        const double ns = double(end - start) * ticksToNs(arch.cycles(1));
        const double bytes = double(packet_) * used_ * perChannel_;
        const double gbps = bytes / ns;
        const EthConfig& eth = arch.erisc.eth;
        const double line = eth.lineBytesPerNs;
        const double framing = line * packet_ / eth.wireBytes(packet_);
        return {{"payload_GBps_per_direction", gbps},
                {"line_rate_GBps", line},
                {"line_rate_pct", 100.0 * gbps / line},
                {"framing_limit_GBps", framing},
                {"framing_limit_pct", 100.0 * gbps / framing},
                {"frame_overhead_bytes", eth.packetOverheadBytes},
                {"frame_payload_bytes", eth.maxPacketBytes},
                {"bytes_per_direction", bytes},
                {"directions", unidir_ ? 1 : 2},
                {"channels", used_},
                {"packets_per_channel", perChannel_},
                {"measured_ns", ns},
                {"link",
                 fmt::format("chip {} ch {} <-> chip {} ch {}", ends_.chipA, ends_.chanA, ends_.chipB, ends_.chanB)}};
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
    unsigned creditTxq_ = 1;
    bool sweep_ = false;
    std::vector<unsigned> chips_{0, 1};
    unsigned link_ = 0;
    unsigned used_ = 0;
    std::uint32_t perChannel_ = 0;
    LinkEnds ends_{};
    std::uint32_t resA_ = 0, resB_ = 0;
};

}  // namespace

std::unique_ptr<Workload> makeEthBandwidth() {
    return std::make_unique<EthBandwidth>();
}

}  // namespace cclsim::microbench
