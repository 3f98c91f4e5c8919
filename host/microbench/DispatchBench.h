// Host side of the dispatch microbenchmark: one program of empty kernels on
// N worker cores of a chip, as tt-metal's program-dispatch microbenchmark
// (test_pgm_dispatch) runs it, and the time from the host's enqueue to the
// program's completion as the dispatcher sees it (the benchmark's time per
// program, traced).
//
// Every piece comes from the dispatch model (runtime/Dispatch.h) and the
// kernel start-up firmware (models/core/KernelContext): read() breaks the
// time down so each term of the arch YAML's dispatch section shows.
#pragma once

#include "runtime/Runtime.h"

#include <cstdint>
#include <string>

namespace cclsim::microbench {

struct DispatchBenchParams {
    unsigned cores = 0;                ///< worker cores running the program (0: every worker core of the chip)
    std::string processors = "brisc";  ///< brisc, dm (brisc + ncrisc) or all (+ the three TRISCs)
    unsigned kernelBytes = 1024;       ///< binary bytes of each kernel, whole 4-byte words
    unsigned rtArgs = 0;               ///< unique runtime argument words per kernel
    unsigned semaphores = 0;           ///< per core
    unsigned chip = 0;                 ///< a chip without PCIe adds the dispatch tunnel
};

/// The program's dispatch, in microseconds, and the plan's counts.
struct DispatchBenchResult {
    double dispatchUs = 0;  ///< enqueue to complete = launch + kernels + completion
    double launchUs = 0, kernelsUs = 0, completionUs = 0;
    double tunnelUs = 0;
    unsigned tunnelHops = 0;
    double programOverheadUs = 0, launchMessagesUs = 0, binaryWritesUs = 0, argWritesUs = 0, goSignalUs = 0;
    unsigned cores = 0, kernels = 0, kernelGroups = 0, binaries = 0;
    std::uint64_t binaryBytes = 0, argBytes = 0;
};

class DispatchBench {
public:
    /// The semaphores and the empty kernels of every core. ConfigError if
    /// the arch has no dispatch section or the chip too few worker cores.
    void build(Runtime& rt, const DispatchBenchParams& p);
    /// The dispatch plan and the chip's times, after the run.
    DispatchBenchResult read(Runtime& rt) const;
    unsigned cores() const { return cores_; }  ///< the cores build() used

private:
    unsigned chip_ = 0;
    unsigned cores_ = 0;
};

}  // namespace cclsim::microbench
