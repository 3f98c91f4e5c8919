// Host side of edm_stream: worker on chip A -> EDM -> Ethernet -> EDM ->
// worker on chip B, one worker pair per EDM channel, optionally both ways.
// Every byte is checked where it lands; reports payload bandwidth per direction.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/microbench_kernels.h"
#include "host/edm/EdmBuilder.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim::microbench {

namespace {

class EdmStream final : public Workload {
public:
    std::string name() const override { return "edm_stream"; }
    std::string description() const override {
        return "worker -> EDM -> Ethernet -> EDM -> worker stream with a byte-exact data check";
    }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--packets", packets_, "packets per channel and direction")->check(CLI::Range(1u, 1u << 30));
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(CLI::Range(16u, 65536u));
        cmd.add_option("--channels", channels_, "EDM channels (one worker pair each) per direction")
            ->check(CLI::Range(1u, 16u));
        cmd.add_flag("--bidir", bidir_, "stream in both directions at once");
        cmd.add_option("--termination", termination_, "EDM termination mode")
            ->check(CLI::IsMember({"message_count", "worker_initiated"}));
        cmd.add_option("--buffers", buffers_, "buffers (slots) per EDM channel")->check(CLI::Range(1u, 16u));
        cmd.add_option("--credit-txq", creditTxq_, "tx_cmd_q for the EDM's acks and credits")
            ->check(CLI::Range(0u, 1u));
        cmd.add_option("--chips", chips_, "the two chips of the link, e.g. 0,1")->expected(2)->delimiter(',');
        cmd.add_option("--link", link_, "which user link between the two chips");
    }
    nlohmann::json params() const override {
        return {{"packets", packets_},
                {"packet", packet_},
                {"channels", channels_},
                {"bidir", bidir_},
                {"termination", termination_},
                {"credit_txq", creditTxq_},
                {"buffers", buffers_},
                {"chips", chips_},
                {"link", link_}};
    }

    void build(Runtime& rt) override {
        if (packet_ % 16) throw ConfigError(fmt::format("--packet {}: must be a multiple of 16", packet_));
        const ClusterDescriptor& d = rt.platform().descriptor();
        ends_ = userLink(d, chips_[0], chips_[1], link_);
        const auto mode = termination_ == "worker_initiated" ? edm::TerminationMode::WORKER_INITIATED
                                                             : edm::TerminationMode::MESSAGE_COUNT_REACHED;
        Program& pa = rt.program(ends_.chipA);
        Program& pb = rt.program(ends_.chipB);
        edm::EdmBuilder edmA(pa, ends_.coreA, mode, creditTxq_, buffers_);
        edm::EdmBuilder edmB(pb, ends_.coreB, mode, creditTxq_, buffers_);
        const unsigned dirs = bidir_ ? 2 : 1;
        if (2 * dirs * channels_ > d.arch.workers.size())
            throw ConfigError(fmt::format("--channels {}: needs {} worker cores per chip, the chip has {}", channels_,
                                          dirs * channels_, d.arch.workers.size()));
        // Direction 0: A -> B on channels [0, C); direction 1: B -> A on [C, 2C).
        for (unsigned dir = 0; dir < dirs; ++dir) {
            Program& src = dir == 0 ? pa : pb;
            Program& dst = dir == 0 ? pb : pa;
            edm::EdmBuilder& tx = dir == 0 ? edmA : edmB;
            edm::EdmBuilder& rx = dir == 0 ? edmB : edmA;
            for (unsigned ch = 0; ch < channels_; ++ch) {
                const CoreCoord sw = d.arch.workers[dir * channels_ + ch];
                const CoreCoord rw = d.arch.workers[(dirs + dir) * channels_ + ch];
                const std::uint32_t sSem = src.createSemaphore(sw, 0, "edm_tx_sem");
                const std::uint32_t rSem = dst.createSemaphore(rw, 0, "edm_rx_sem");
                const edm::ChannelInterface& ti = tx.add_sender_channel(sSem, packets_, {sw}, packet_);
                const edm::ChannelInterface& ri = rx.add_receiver_channel(rSem, packets_, {rw}, packet_);
                const std::uint32_t stream = (dir << 16) | ch;
                auto worker = [&](Program& p, CoreCoord core, const edm::ChannelInterface& ci, std::uint32_t sem,
                                  bool sender) {
                    KernelConfig kc;
                    kc.vc = unsigned(DmaVc::Comm);  // CCL traffic rides the communication VC
                    kc.waitTimeout = KernelConfig::WaitTimeout::Edm;
                    KernelHandle k = p.createKernel(
                        sender ? "edm_stream_sender" : "edm_stream_receiver",
                        sender ? fw::microbench::edm_stream_sender_main : fw::microbench::edm_stream_receiver_main,
                        core, kc);
                    p.setRuntimeArgs(
                        k, {ci.edm_core.x, ci.edm_core.y, ci.eth_buffer_l1_address, ci.eth_semaphore_l1_address, sem,
                            packets_, packet_, p.allocateL1(core, packet_, 32), stream,
                            mode == edm::TerminationMode::WORKER_INITIATED ? 1u : 0u, ci.num_buffers, ci.buffer_stride,
                            fw::microbench::kArgsEndMarker});
                };
                worker(src, sw, ti, sSem, true);
                worker(dst, rw, ri, rSem, false);
            }
        }
        edmA.check_peer(edmB);
        edmA.build();
        edmB.build();
    }

    nlohmann::json results(Runtime& rt, const RunResult& run) override {
        // From the first kernel start (after dispatch).
        const double ns =
            ticksToNs(run.lastKernelFinish - std::min(rt.launchTime(ends_.chipA), rt.launchTime(ends_.chipB)));
        const double bytes = double(packet_) * packets_ * channels_;
        const double gbps = bytes / ns;
        const EthConfig& eth = rt.platform().descriptor().arch.erisc.eth;
        const double messages = double(packets_) * channels_ * (bidir_ ? 2 : 1);
        return {{"payload_GBps_per_direction", gbps},
                {"line_rate_pct", 100.0 * gbps / eth.lineBytesPerNs},
                {"framing_limit_pct", 100.0 * gbps / (eth.lineBytesPerNs * packet_ / eth.wireBytes(packet_))},
                {"bytes_per_direction", bytes},
                {"directions", bidir_ ? 2 : 1},
                {"buffers_per_channel", buffers_},
                {"op_time_ns", ns},
                {"messages", messages},
                {"messages_per_wall_second", run.wallSeconds > 0 ? messages / run.wallSeconds : 0.0},
                {"bytes_checked", double(rt.scoreboard().bytesChecked())},
                {"link",
                 fmt::format("chip {} ch {} <-> chip {} ch {}", ends_.chipA, ends_.chanA, ends_.chipB, ends_.chanB)}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "edm_stream over {}: {} channel(s) of {} buffer(s) x {} packets of {} B, {}, {} termination\n"
            "  payload bandwidth {:8.3f} GB/s per direction = {:.1f}% of line rate ({:.1f}% of framing limit)\n"
            "  bytes checked     {:.0f}\n",
            r["link"].get<std::string>(), channels_, buffers_, packets_, packet_,
            bidir_ ? "both directions" : "one direction", termination_, r["payload_GBps_per_direction"].get<double>(),
            r["line_rate_pct"].get<double>(), r["framing_limit_pct"].get<double>(), r["bytes_checked"].get<double>());
    }

private:
    unsigned packets_ = 256;
    unsigned packet_ = 4096;
    unsigned channels_ = 4;
    bool bidir_ = false;
    std::string termination_ = "message_count";
    unsigned creditTxq_ = 1;
    unsigned buffers_ = 1;
    std::vector<unsigned> chips_{0, 1};
    unsigned link_ = 0;
    LinkEnds ends_{};
};

}  // namespace

std::unique_ptr<Workload> makeEdmStream() {
    return std::make_unique<EdmStream>();
}

}  // namespace cclsim::microbench
