// The dispatch workload: its options and report (enqueue to completion of a
// program of empty kernels, tt-metal's test_pgm_dispatch, broken down into
// the terms of the arch YAML's dispatch section). The program and the
// readback are host/microbench/DispatchBench.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/DispatchBench.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

class DispatchWorkload final : public Workload {
public:
    std::string name() const override { return "dispatch"; }
    std::string description() const override {
        return "program dispatch: empty kernels on N worker cores, enqueue to completion (tt-metal test_pgm_dispatch)";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--cores", cores_, "worker cores running the program (default: every worker core of the chip)")
            ->check(opt::Range(1u, 4096u));
        cmd.add_option("--processors", processors_,
                       "RISC-Vs per core: brisc (one data-movement kernel), dm (brisc + ncrisc) or all (brisc, ncrisc "
                       "and the three TRISCs of a compute kernel)")
            ->check(opt::IsMember({"brisc", "dm", "all"}));
        cmd.add_option("--kernel-bytes", kernelBytes_,
                       "binary bytes of each kernel (test_pgm_dispatch -s; default 1 KB)")
            ->check(opt::Range(32u, 1u << 20));
        cmd.add_option("--rt-args", rtArgs_, "unique runtime argument words per kernel (test_pgm_dispatch -a)")
            ->check(opt::Range(0u, 255u));
        cmd.add_option("--semaphores", semaphores_, "semaphores per core (test_pgm_dispatch -S)")
            ->check(opt::Range(0u, 16u));
        cmd.add_option("--chip", chip_, "chip to run on (a chip without PCIe adds the dispatch tunnel)");
    }
    nlohmann::json params() const override {
        return {{"cores", cores_},    {"processors", processors_}, {"kernel_bytes", kernelBytes_},
                {"rt_args", rtArgs_}, {"semaphores", semaphores_}, {"chip", chip_}};
    }
    void build(Runtime& rt) override {
        DispatchBenchParams p;
        p.cores = cores_;
        p.processors = processors_;
        p.kernelBytes = kernelBytes_;
        p.rtArgs = rtArgs_;
        p.semaphores = semaphores_;
        p.chip = chip_;
        bench_.build(rt, p);
        cores_ = bench_.cores();
    }
    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const DispatchBenchResult r = bench_.read(rt);
        return {{"dispatch_us", r.dispatchUs},
                {"launch_us", r.launchUs},
                {"kernels_us", r.kernelsUs},
                {"completion_us", r.completionUs},
                {"tunnel_us", r.tunnelUs},
                {"tunnel_hops", r.tunnelHops},
                {"program_overhead_us", r.programOverheadUs},
                {"launch_messages_us", r.launchMessagesUs},
                {"binary_writes_us", r.binaryWritesUs},
                {"arg_writes_us", r.argWritesUs},
                {"go_signal_us", r.goSignalUs},
                {"cores", r.cores},
                {"kernels", r.kernels},
                {"kernel_groups", r.kernelGroups},
                {"binaries", r.binaries},
                {"binary_bytes", r.binaryBytes},
                {"arg_bytes", r.argBytes}};
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
    DispatchBench bench_;
};

}  // namespace

std::unique_ptr<Workload> makeDispatch() {
    return std::make_unique<DispatchWorkload>();
}

}  // namespace cclsim::microbench
