// Host side of noc_trace: decode a tt-metal NoC event trace, place one replay
// kernel per recorded (core, processor) on one chip, and report the model's
// duration next to the measured one.
//
// Placement of the data the trace moves (the trace has no addresses):
//   * a DRAM endpoint stands for the bank it serves workers for (the arch
//     YAML's bank_endpoints; another endpoint of the same channel stands for
//     the channel's first bank); each bank's transfers take consecutive slots
//     of one region, in recorded time order, as pages of an interleaved
//     buffer would;
//   * a worker core as source or destination: one L1 region per core, as
//     large as its largest transfer;
//   * the issuing processor: one L1 staging buffer, as large as its largest
//     transfer (reads land there, writes leave from there).
// Durations: measured = last kernel end (zone end, or the last event where
// the trace has none) minus the first kernel zone begin; model = the same
// two events in the replay, in AICLK cycles.
#include "cli/workloads/noctrace/NocTraceWorkload.h"

#include "firmware/noctrace/noc_trace_args.h"
#include "firmware/noctrace/noc_trace_kernels.h"
#include "host/noctrace/NocTrace.h"
#include "models/common/Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace cclsim::noctrace {

namespace {

namespace fwt = fw::noctrace;

constexpr std::uint32_t kSlotAlign = 64;

// The op kinds travel as their OpKind value (noc_trace_args.h lists them in the same order).
static_assert(std::uint32_t(OpKind::Read) == fwt::kOpRead && std::uint32_t(OpKind::Write) == fwt::kOpWrite &&
              std::uint32_t(OpKind::ReadBarrier) == fwt::kOpReadBarrier &&
              std::uint32_t(OpKind::WriteBarrier) == fwt::kOpWriteBarrier &&
              std::uint32_t(OpKind::AtomicBarrier) == fwt::kOpAtomicBarrier &&
              std::uint32_t(OpKind::FullBarrier) == fwt::kOpFullBarrier &&
              std::uint32_t(OpKind::WriteFlush) == fwt::kOpWriteFlush);

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) {
    return (v + a - 1) / a * a;
}

class NocTraceWorkload final : public Workload {
public:
    std::string name() const override { return "noc_trace"; }
    std::string description() const override {
        return "replay a tt-metal NoC event trace (device profiler JSON) on one chip: model vs measured cycles";
    }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--trace", file_, "tt-metal NoC event trace (JSON array of profiler events)")->required();
        cmd.add_option("--chip", chip_, "chip to replay on");
        cmd.add_option("--gaps", gaps_,
                       "recorded: each op no earlier than its recorded gap after the previous one; none: as soon "
                       "as the model allows (kernel start offsets kept), the NoC-bound time of the same commands")
            ->check(CLI::IsMember({"recorded", "none"}));
    }
    nlohmann::json params() const override { return {{"trace", file_}, {"chip", chip_}, {"gaps", gaps_}}; }

    void build(Runtime& rt) override {
        trace_ = loadNocTrace(file_);
        const ArchConfig& arch = rt.platform().descriptor().arch;
        if (chip_ >= rt.platform().numChips())
            throw ConfigError(fmt::format("--chip {}: the board has {} chips", chip_, rt.platform().numChips()));
        Program& p = rt.program(chip_);
        checkCores(arch);
        const std::map<const TraceOp*, std::uint64_t> dramAddr = placeDram(p, arch);
        const std::map<CoreCoord, std::uint32_t> l1Region = placeL1(p, arch);

        const std::uint64_t t0 = trace_.firstBegin();
        for (const TraceStream& s : trace_.streams) {
            std::uint32_t largest = 4;
            for (const TraceOp& o : s.ops) largest = std::max(largest, isTransfer(o.kind) ? o.bytes : 0u);
            fwt::ReplayHeader h;
            h.start_gap = offset(s.begin - t0, s.beginEvent);
            h.op_count = std::uint32_t(s.ops.size());
            h.staging = p.allocateL1(s.core, largest, 32);
            h.result = p.allocateL1(s.core, 8, 8);
            p.markControl(s.core, h.result, 8);
            std::vector<std::uint32_t> args;
            h.visit([&args](std::uint32_t& f) { args.push_back(f); });
            std::uint64_t ref = s.begin;
            for (const TraceOp& o : s.ops) {
                const std::uint32_t w0 =
                    std::uint32_t(o.kind) | (o.noc << fwt::kNocShift) | (o.hasEnd ? fwt::kHasEnd : 0u);
                std::uint64_t addr = 0;
                if (isTransfer(o.kind)) {
                    const auto d = dramAddr.find(&o);
                    addr = d != dramAddr.end() ? d->second : l1Region.at(o.remote);
                }
                args.insert(args.end(),
                            {w0, gap(o.timestamp - ref, o.event), std::uint32_t(o.remote.x | (o.remote.y << 8)),
                             std::uint32_t(addr), isTransfer(o.kind) ? o.bytes : 0u});
                ref = o.hasEnd ? o.endTimestamp : o.timestamp;
            }
            args.push_back(s.hasEnd ? gap(s.end - ref, s.beginEvent) : 0u);
            args.push_back(fwt::kArgsEndMarker);
            KernelConfig kc;
            kc.processor = s.proc == "BRISC" ? "brisc" : "ncrisc";
            KernelHandle k = p.createKernel("noc_trace_" + kc.processor, fwt::noc_trace_replay_kernel_main, s.core, kc);
            p.setRuntimeArgs(k, std::move(args));
            resultWords_.push_back({s.core, h.result});
        }
        cycleTicks_ = arch.cycles(1);
        kernelStart_ = arch.worker.costs.kernelStart;
    }

    nlohmann::json results(Runtime& rt, const RunResult& /*run*/) override {
        std::uint64_t last = 0;
        for (const auto& [core, addr] : resultWords_) {
            const std::uint64_t lo = rt.readL1({chip_, core}, addr);
            const std::uint64_t hi = rt.readL1({chip_, core}, addr + 4);
            last = std::max(last, lo | (hi << 32));
        }
        // The kernels' zones begin at kernel_main: after the chip's dispatch
        // (launch) and the firmware start-up before kernel_main, as on hardware.
        const Tick start = rt.launchTime(chip_) + kernelStart_;
        const double model = double(last) - double(start) / double(cycleTicks_);
        const double measured = double(trace_.measuredCycles());
        return {{"model_cycles", model},
                {"gaps", gaps_},
                {"measured_cycles", measured},
                {"error_pct", measured > 0 ? 100.0 * (model - measured) / measured : 0.0},
                {"kernels", trace_.streams.size()},
                {"transfers", trace_.transfers()},
                {"bytes", trace_.transferBytes()},
                {"events", trace_.events},
                {"ignored_events", trace_.ignoredEvents}};
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
    /// A recorded gap between two events of one kernel (0 with --gaps none).
    std::uint32_t gap(std::uint64_t cycles, std::size_t event) const {
        return gaps_ == "none" ? 0u : offset(cycles, event);
    }
    std::uint32_t offset(std::uint64_t cycles, std::size_t event) const {
        if (cycles > UINT32_MAX)
            throw ConfigError(
                fmt::format("{}: event {}: a gap of {} cycles is too long to replay", file_, event, cycles));
        return std::uint32_t(cycles);
    }

    bool isWorker(const ArchConfig& arch, CoreCoord c) const {
        return std::find(arch.workers.begin(), arch.workers.end(), c) != arch.workers.end();
    }
    /// The DRAM bank a NoC endpoint stands for, or -1 if it is no DRAM endpoint.
    static int bankOf(const ArchConfig& arch, CoreCoord c) {
        const DramArch& d = arch.dram;
        for (unsigned b = 0; b < d.bankEndpoints.size(); ++b)
            if (d.bankEndpoints[b] == c) return int(b);
        for (unsigned ch = 0; ch < d.channels(); ++ch)
            for (const CoreCoord& e : d.channelEndpoints[ch])
                if (e == c) return int(ch * d.banksPerChannel);
        return -1;
    }

    void checkCores(const ArchConfig& arch) const {
        for (const TraceStream& s : trace_.streams) {
            if (!isWorker(arch, s.core))
                throw ConfigError(fmt::format("{}: event {}: {} at {} is not a worker core of {}", file_, s.beginEvent,
                                              s.proc, s.core.str(), arch.name));
            for (const TraceOp& o : s.ops)
                if (isTransfer(o.kind) && !isWorker(arch, o.remote) && bankOf(arch, o.remote) < 0)
                    throw ConfigError(
                        fmt::format("{}: event {}: {} {} core {}, which is neither a worker core nor a "
                                    "DRAM endpoint of {}",
                                    file_, o.event, opKindName(o.kind), o.kind == OpKind::Read ? "from" : "to",
                                    o.remote.str(), arch.name));
        }
    }

    /// Consecutive slots per DRAM bank in recorded time order, in one region.
    std::map<const TraceOp*, std::uint64_t> placeDram(Program& p, const ArchConfig& arch) const {
        std::vector<const TraceOp*> ops;
        for (const TraceStream& s : trace_.streams)
            for (const TraceOp& o : s.ops)
                if (isTransfer(o.kind) && bankOf(arch, o.remote) >= 0) ops.push_back(&o);
        std::map<const TraceOp*, std::uint64_t> out;
        if (ops.empty()) return out;
        std::stable_sort(ops.begin(), ops.end(),
                         [](const TraceOp* a, const TraceOp* b) { return a->timestamp < b->timestamp; });
        std::vector<std::uint64_t> cursor(arch.dram.banks(), 0);
        std::map<const TraceOp*, std::pair<int, std::uint64_t>> slot;
        for (const TraceOp* o : ops) {
            const int b = bankOf(arch, o->remote);
            slot[o] = {b, cursor[b]};
            cursor[b] += alignUp(o->bytes, kSlotAlign);
        }
        const std::uint64_t region = *std::max_element(cursor.begin(), cursor.end());
        const std::uint64_t base = p.allocateDramRegion(region, kSlotAlign);
        for (const auto& [o, bs] : slot) {
            const std::uint64_t addr =
                std::uint64_t(bs.first % arch.dram.banksPerChannel) * arch.dram.bankBytes + base + bs.second;
            if (addr > UINT32_MAX)
                throw ConfigError(
                    fmt::format("{}: event {}: DRAM address 0x{:x} beyond 32 bits", file_, o->event, addr));
            out[o] = addr;
        }
        return out;
    }

    /// One L1 region per worker core that a transfer reads from or writes to.
    std::map<CoreCoord, std::uint32_t> placeL1(Program& p, const ArchConfig& arch) const {
        std::map<CoreCoord, std::uint32_t> largest;
        for (const TraceStream& s : trace_.streams)
            for (const TraceOp& o : s.ops)
                if (isTransfer(o.kind) && isWorker(arch, o.remote))
                    largest[o.remote] = std::max(largest[o.remote], o.bytes);
        std::map<CoreCoord, std::uint32_t> out;
        for (const auto& [c, n] : largest) out[c] = p.allocateL1(c, n, 32);
        return out;
    }

    std::string file_;
    unsigned chip_ = 0;
    std::string gaps_ = "recorded";
    NocTrace trace_;
    std::vector<std::pair<CoreCoord, std::uint32_t>> resultWords_;
    Tick kernelStart_ = 0;
    Tick cycleTicks_ = 1;
};

}  // namespace

std::unique_ptr<Workload> makeNocTrace() {
    return std::make_unique<NocTraceWorkload>();
}

}  // namespace cclsim::noctrace
