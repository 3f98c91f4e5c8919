// Host side of dispatch: one program of empty kernels on N worker cores of a
// chip, as tt-metal's program-dispatch microbenchmark (test_pgm_dispatch)
// runs it, and the time from the host's enqueue to the program's completion
// as the dispatcher sees it (the benchmark's time per program, traced).
//
// Every piece comes from the dispatch model (runtime/Dispatch.h) and the
// kernel start-up firmware (models/core/KernelContext): the report breaks
// the time down so each term of the arch YAML's dispatch section shows.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/microbench_kernels.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

class Dispatch final : public Workload {
public:
    std::string name() const override { return "dispatch"; }
    std::string description() const override {
        return "program dispatch: empty kernels on N worker cores, enqueue to completion (tt-metal test_pgm_dispatch)";
    }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--cores", cores_, "worker cores running the program (default: every worker core of the chip)")
            ->check(CLI::Range(1u, 4096u));
        cmd.add_option("--processors", processors_,
                       "RISC-Vs per core: brisc (one data-movement kernel), dm (brisc + ncrisc) or all (brisc, ncrisc "
                       "and the three TRISCs of a compute kernel)")
            ->check(CLI::IsMember({"brisc", "dm", "all"}));
        cmd.add_option("--kernel-bytes", kernelBytes_,
                       "binary bytes of each kernel (test_pgm_dispatch -s; default 1 KB)")
            ->check(CLI::Range(32u, 1u << 20));
        cmd.add_option("--rt-args", rtArgs_, "unique runtime argument words per kernel (test_pgm_dispatch -a)")
            ->check(CLI::Range(0u, 255u));
        cmd.add_option("--semaphores", semaphores_, "semaphores per core (test_pgm_dispatch -S)")
            ->check(CLI::Range(0u, 16u));
        cmd.add_option("--chip", chip_, "chip to run on (a chip without PCIe adds the dispatch tunnel)");
    }
    nlohmann::json params() const override {
        return {{"cores", cores_},    {"processors", processors_}, {"kernel_bytes", kernelBytes_},
                {"rt_args", rtArgs_}, {"semaphores", semaphores_}, {"chip", chip_}};
    }
    void build(Runtime& rt) override {
        const ArchConfig& arch = rt.platform().descriptor().arch;
        if (!arch.dispatch.present)
            throw ConfigError(fmt::format("dispatch: the chip architecture '{}' has no dispatch section", arch.file));
        if (kernelBytes_ % 4)
            throw ConfigError(fmt::format("--kernel-bytes {}: not a whole number of 4-byte words", kernelBytes_));
        const unsigned n = cores_ ? cores_ : unsigned(arch.workers.size());
        if (n > arch.workers.size())
            throw ConfigError(fmt::format("--cores {}: chip {} has {} worker cores", n, chip_, arch.workers.size()));
        cores_ = n;
        Program& p = rt.program(chip_);
        std::vector<const char*> procs{"brisc"};
        if (processors_ != "brisc") procs.push_back("ncrisc");
        if (processors_ == "all") procs.insert(procs.end(), {"trisc0", "trisc1", "trisc2"});
        for (unsigned i = 0; i < n; ++i) {
            const CoreCoord c = arch.workers[i];
            for (unsigned s = 0; s < semaphores_; ++s) p.createSemaphore(c, 0, fmt::format("dispatch_sem{}", s));
            for (const char* proc : procs) {
                KernelConfig kc;
                kc.processor = proc;
                kc.binaryBytes = kernelBytes_;
                const KernelHandle k =
                    p.createKernel("dispatch_empty", fw::microbench::dispatch_empty_kernel_main, c, kc);
                p.setRuntimeArgs(k, std::vector<std::uint32_t>(rtArgs_, 0));
            }
        }
    }
    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const DispatchPlan& d = rt.dispatchPlan(chip_);
        const Tick enq = rt.dispatchTime(chip_), go = rt.launchTime(chip_);
        const Tick done = rt.programDone(chip_);
        auto us = [](Tick t) { return ticksToNs(t) / 1000.0; };
        return {{"dispatch_us", us(done - enq)},
                {"launch_us", us(go - enq)},
                {"kernels_us", us(rt.chipFinish(chip_) - go)},
                {"completion_us", us(d.completion)},
                {"tunnel_us", us(d.tunnel)},
                {"tunnel_hops", rt.tunnelHops(chip_)},
                {"program_overhead_us", us(d.overhead)},
                {"launch_messages_us", us(d.launchMessages)},
                {"binary_writes_us", us(d.binaryWrites)},
                {"arg_writes_us", us(d.argWrites)},
                {"go_signal_us", us(d.goSignal)},
                {"cores", d.cores},
                {"kernels", d.kernels},
                {"kernel_groups", d.kernelGroups},
                {"binaries", d.binaries},
                {"binary_bytes", d.binaryBytes},
                {"arg_bytes", d.argBytes}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "dispatch of a program of {} empty kernel(s) on {} core(s) of chip {} ({}, {} B binaries, {} runtime args, "
            "{} semaphores)\n"
            "  enqueue to complete {:.3f} us = launch {:.3f} us + kernels {:.3f} us + completion {:.3f} us\n"
            "  launch: tunnel {:.3f} ({} hops) + program {:.3f} + {} launch message(s) {:.3f} + {} binaries ({} B) "
            "{:.3f}"
            " + args/semaphores ({} B) {:.3f} + go signal {:.3f} us\n",
            r["kernels"].get<unsigned>(), r["cores"].get<unsigned>(), chip_, processors_, kernelBytes_, rtArgs_,
            semaphores_, r["dispatch_us"].get<double>(), r["launch_us"].get<double>(), r["kernels_us"].get<double>(),
            r["completion_us"].get<double>(), r["tunnel_us"].get<double>(), r["tunnel_hops"].get<unsigned>(),
            r["program_overhead_us"].get<double>(), r["kernel_groups"].get<unsigned>(),
            r["launch_messages_us"].get<double>(), r["binaries"].get<unsigned>(),
            r["binary_bytes"].get<std::uint64_t>(), r["binary_writes_us"].get<double>(),
            r["arg_bytes"].get<std::uint64_t>(), r["arg_writes_us"].get<double>(), r["go_signal_us"].get<double>());
    }

private:
    unsigned cores_ = 0;
    std::string processors_ = "brisc";
    unsigned kernelBytes_ = 1024;
    unsigned rtArgs_ = 0;
    unsigned semaphores_ = 0;
    unsigned chip_ = 0;
};

}  // namespace

std::unique_ptr<Workload> makeDispatch() {
    return std::make_unique<Dispatch>();
}

}  // namespace cclsim::microbench
