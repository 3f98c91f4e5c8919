// The noc_trace workload: its options and report. The trace decoder is
// host/noctrace/NocTrace, the replay program (placement, kernels) and the
// model's duration host/noctrace/NocTraceReplay.
#include "cli/workloads/noctrace/NocTraceWorkload.h"

#include "host/noctrace/NocTraceReplay.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

namespace cclsim::noctrace {

namespace {

class NocTraceWorkload final : public Workload {
public:
    std::string name() const override { return "noc_trace"; }
    std::string description() const override {
        return "replay a tt-metal NoC event trace (device profiler JSON) on one chip: model vs measured cycles";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--trace", file_, "tt-metal NoC event trace (JSON array of profiler events)")->required();
        cmd.add_option("--chip", chip_, "chip to replay on");
        cmd.add_option("--gaps", gaps_,
                       "recorded: each op no earlier than its recorded gap after the previous one; none: as soon "
                       "as the model allows (kernel start offsets kept), the NoC-bound time of the same commands")
            ->check(opt::IsMember({"recorded", "none"}));
    }
    nlohmann::json params() const override { return {{"trace", file_}, {"chip", chip_}, {"gaps", gaps_}}; }

    void build(Runtime& rt) override {
        NocTrace trace = loadNocTrace(file_);
        if (chip_ >= rt.platform().numChips())
            throw ConfigError(fmt::format("--chip {}: the board has {} chips", chip_, rt.platform().numChips()));
        NocTraceReplayParams p;
        p.chip = chip_;
        p.recordedGaps = gaps_ != "none";
        replay_.build(rt, std::move(trace), p);
    }

    nlohmann::json results(Runtime& rt, const RunResult& /*run*/) override {
        const NocTraceReplayResult r = replay_.read(rt);
        const NocTrace& trace = replay_.trace();
        const double model = r.modelCycles, measured = r.measuredCycles;
        return {{"model_cycles", model},
                {"gaps", gaps_},
                {"measured_cycles", measured},
                {"error_pct", measured > 0 ? 100.0 * (model - measured) / measured : 0.0},
                {"kernels", trace.streams.size()},
                {"transfers", trace.transfers()},
                {"bytes", trace.transferBytes()},
                {"events", trace.events},
                {"ignored_events", trace.ignoredEvents}};
    }

    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "noc_trace: {} ({} kernels, {} transfers, {} B, gaps {})\n"
            "  model {:.0f} cycles, measured {:.0f} cycles: {:+.1f}%\n",
            file_, r["kernels"].get<std::size_t>(), r["transfers"].get<std::size_t>(), r["bytes"].get<std::uint64_t>(),
            gaps_, r["model_cycles"].get<double>(), r["measured_cycles"].get<double>(), r["error_pct"].get<double>());
    }
    std::string csvHeader() const override { return "trace,model_cycles,measured_cycles,error_pct"; }
    std::string csvRow(const nlohmann::json& report) const override {
        const nlohmann::json& r = report.at("results");
        return fmt::format("{},{:.0f},{:.0f},{:.2f}", file_, r["model_cycles"].get<double>(),
                           r["measured_cycles"].get<double>(), r["error_pct"].get<double>());
    }

private:
    std::string file_;
    unsigned chip_ = 0;
    std::string gaps_ = "recorded";
    NocTraceReplay replay_;
};

}  // namespace

std::unique_ptr<Workload> makeNocTrace() {
    return std::make_unique<NocTraceWorkload>();
}

}  // namespace cclsim::noctrace
