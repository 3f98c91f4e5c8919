#include "host/microbench/DispatchBench.h"

#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

namespace cclsim::microbench {

void DispatchBench::build(Runtime& rt, const DispatchBenchParams& p) {
    chip_ = p.chip;
    const ArchConfig& arch = rt.platform().descriptor().arch;
    if (!arch.dispatch.present)
        throw ConfigError(fmt::format("dispatch: the chip architecture '{}' has no dispatch section", arch.file));
    if (p.kernelBytes % 4)
        throw ConfigError(fmt::format("--kernel-bytes {}: not a whole number of 4-byte words", p.kernelBytes));
    const unsigned n = p.cores ? p.cores : unsigned(arch.workers.size());
    if (n > arch.workers.size())
        throw ConfigError(fmt::format("--cores {}: chip {} has {} worker cores", n, p.chip, arch.workers.size()));
    cores_ = n;
    Program& prog = rt.program(p.chip);
    std::vector<const char*> procs{"brisc"};
    if (p.processors != "brisc") procs.push_back("ncrisc");
    if (p.processors == "all") procs.insert(procs.end(), {"trisc0", "trisc1", "trisc2"});
    for (unsigned i = 0; i < n; ++i) {
        const CoreCoord c = arch.workers[i];
        for (unsigned s = 0; s < p.semaphores; ++s) prog.createSemaphore(c, 0, fmt::format("dispatch_sem{}", s));
        for (const char* proc : procs) {
            KernelConfig kc;
            kc.processor = proc;
            kc.binaryBytes = p.kernelBytes;
            const KernelHandle k =
                prog.createKernel("dispatch_empty", fw::microbench::dispatch_empty_kernel_main, c, kc);
            prog.setRuntimeArgs(k, std::vector<std::uint32_t>(p.rtArgs, 0));
        }
    }
}

DispatchBenchResult DispatchBench::read(Runtime& rt) const {
    const DispatchPlan& d = rt.dispatchPlan(chip_);
    const Tick enq = rt.dispatchTime(chip_), go = rt.launchTime(chip_);
    const Tick done = rt.programDone(chip_);
    auto us = [](Tick t) { return ticksToNs(t) / 1000.0; };
    DispatchBenchResult r;
    r.dispatchUs = us(done - enq);
    r.launchUs = us(go - enq);
    r.kernelsUs = us(rt.chipFinish(chip_) - go);
    r.completionUs = us(d.completion);
    r.tunnelUs = us(d.tunnel);
    r.tunnelHops = rt.tunnelHops(chip_);
    r.programOverheadUs = us(d.overhead);
    r.launchMessagesUs = us(d.launchMessages);
    r.binaryWritesUs = us(d.binaryWrites);
    r.argWritesUs = us(d.argWrites);
    r.goSignalUs = us(d.goSignal);
    r.cores = d.cores;
    r.kernels = d.kernels;
    r.kernelGroups = d.kernelGroups;
    r.binaries = d.binaries;
    r.binaryBytes = d.binaryBytes;
    r.argBytes = d.argBytes;
    return r;
}

}  // namespace cclsim::microbench
