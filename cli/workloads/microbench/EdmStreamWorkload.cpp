// The edm_stream workload: its options and report. The program (worker ->
// EDM -> Ethernet -> EDM -> worker per channel, every byte checked where it
// lands) and the timing readback are host/microbench/EdmStream; the report
// gives the payload bandwidth per direction.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/EdmStream.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

class EdmStreamWorkload final : public Workload {
public:
    std::string name() const override { return "edm_stream"; }
    std::string description() const override {
        return "worker -> EDM -> Ethernet -> EDM -> worker stream with a byte-exact data check";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--packets", packets_, "packets per channel and direction")->check(opt::Range(1u, 1u << 30));
        cmd.add_option("--packet", packet_, "payload bytes per packet (multiple of 16)")
            ->check(opt::Range(16u, 65536u));
        cmd.add_option("--channels", channels_, "EDM channels (one worker pair each) per direction")
            ->check(opt::Range(1u, 16u));
        cmd.add_flag("--bidir", bidir_, "stream in both directions at once");
        cmd.add_option("--termination", termination_, "EDM termination mode")
            ->check(opt::IsMember({"message_count", "worker_initiated"}));
        cmd.add_option("--buffers", buffers_, "buffers (slots) per EDM channel")->check(opt::Range(1u, 16u));
        cmd.add_option(
               "--credit-txq", creditTxq_,
               "tx_cmd_q for the EDM's acks and credits (default 0, as tt-metal's EDM; 1: the reserved queue, for "
               "experiments)")
            ->check(opt::Range(0u, 1u));
        cmd.add_option("--chips", chips_, "the two chips of the link, e.g. 0,1")->expected(2)->delimiter(',');
        cmd.add_option("--link", link_, "which user link between the two chips");
    }
    TraceFile::Focus traceFocus() const override { return {"EDM channels", focus::kEdmChannels}; }
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
        EdmStreamParams p;
        p.packets = packets_;
        p.packetBytes = packet_;
        p.channels = channels_;
        p.bidir = bidir_;
        p.termination = termination_ == "worker_initiated" ? edm::TerminationMode::WORKER_INITIATED
                                                           : edm::TerminationMode::MESSAGE_COUNT_REACHED;
        p.creditTxq = creditTxq_;
        p.buffers = buffers_;
        p.chipA = chips_[0];
        p.chipB = chips_[1];
        p.link = link_;
        buildNamingSizes([&] { stream_.build(rt, p); },
                         fmt::format("--buffers {} x --packet {} per channel, --channels {}{}", buffers_, packet_,
                                     channels_, bidir_ ? ", both directions (--bidir)" : ""));
    }

    nlohmann::json results(Runtime& rt, const RunResult& run) override {
        const EdmStreamResult r = stream_.read(rt, run);
        const EthConfig& eth = rt.platform().descriptor().arch.erisc.eth;
        const double gbps = r.payloadGBps;
        return {{"payload_GBps_per_direction", gbps},
                {"line_rate_pct", 100.0 * gbps / eth.lineBytesPerNs},
                {"framing_limit_pct", 100.0 * gbps / (eth.lineBytesPerNs * packet_ / eth.wireBytes(packet_))},
                {"bytes_per_direction", r.bytesPerDirection},
                {"directions", bidir_ ? 2 : 1},
                {"buffers_per_channel", buffers_},
                {"op_time_ns", r.opTimeNs},
                {"messages", r.messages},
                {"messages_per_wall_second", run.wallSeconds > 0 ? r.messages / run.wallSeconds : 0.0},
                {"bytes_checked", double(rt.scoreboard().bytesChecked())},
                {"link", linkName(stream_.link())}};
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
    unsigned creditTxq_ = 0;
    unsigned buffers_ = 1;
    std::vector<unsigned> chips_{0, 1};
    unsigned link_ = 0;
    EdmStream stream_;
};

}  // namespace

std::unique_ptr<Workload> makeEdmStream() {
    return std::make_unique<EdmStreamWorkload>();
}

}  // namespace cclsim::microbench
