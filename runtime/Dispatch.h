// Fast dispatch of one chip's program, as work with structure.
//
// tt-metal runs an op by handing the chip's dispatcher (a prefetcher and a
// dispatcher kernel on a core of the chip, fed from host memory or, traced,
// from a command stream kept in DRAM) the program's commands. For every
// program the dispatcher
//
//   1. fetches and parses the program's command stream       program_overhead
//   2. writes each kernel group's launch message             launch_message x groups
//   3. writes each kernel binary to the cores that run it:   binary_write + bytes / rate,
//      one multicast per worker binary (the cores sharing it    per distinct worker binary,
//      are one range), one unicast per Ethernet core             per Ethernet kernel
//   4. writes each core's runtime arguments and semaphore    unicast_write + bytes / rate
//      configuration (a packed write, one sub-command a core)   per core
//   5. multicasts the go signal                               go_signal
//
// and a core's kernels start when the go signal reaches it (every core of a
// program starts at once: the dispatcher sends the go signal after the
// writes above have landed). When a kernel returns, its core reports done
// to the dispatcher; the program is complete `completion` after the last
// core's report. A chip without PCIe receives its commands through an
// Ethernet tunnel from a PCIe chip: `tunnel_hop` per hop before step 1.
//
// The figures are per-program costs of the arch YAML's `dispatch:` section,
// fitted to tt-metal's program-dispatch microbenchmark (test_pgm_dispatch,
// traced): the `dispatch` workload (cli/workloads/microbench/DispatchWorkload.cpp)
// reproduces it.
#pragma once

#include "models/chip/ArchConfig.h"
#include "models/common/Time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim {

/// What the dispatcher has to send for one kernel.
struct DispatchKernel {
    std::string name;               ///< kernel name (selects the binary size)
    std::uint32_t binaryBytes = 0;  ///< 0: the arch YAML's size for `name`
    std::string processor;          ///< brisc, ncrisc, trisc, erisc
    std::uintptr_t entry = 0;       ///< identity of the kernel's code (same code + ctArgs: one binary)
    CoreCoord core;
    bool ethernet = false;              ///< on an Ethernet core (binaries are unicast there)
    std::vector<std::uint32_t> ctArgs;  ///< compile-time args: a different value is a different binary
    std::size_t rtArgs = 0;             ///< runtime argument words
    std::uint32_t semaphores = 0;       ///< semaphores on its core
};

/// The dispatch of one program, broken down (ticks from the host's enqueue).
struct DispatchPlan {
    unsigned kernels = 0, cores = 0, kernelGroups = 0, binaries = 0;
    std::uint64_t binaryBytes = 0;  ///< bytes of binaries the dispatcher streamed
    std::uint64_t argBytes = 0;     ///< runtime argument + semaphore config bytes
    Tick tunnel = 0;                ///< command delivery to a chip without PCIe
    Tick overhead = 0;
    Tick launchMessages = 0;
    Tick binaryWrites = 0;
    Tick argWrites = 0;
    Tick goSignal = 0;
    Tick completion = 0;  ///< after the last core's done
    /// Enqueue -> go signal at every core (the kernels' start).
    Tick launch() const { return tunnel + overhead + launchMessages + binaryWrites + argWrites + goSignal; }
};

/// Plan the dispatch of a program of `kernels` on a chip `tunnelHops`
/// Ethernet hops from the nearest PCIe chip. An arch without a dispatch
/// section gives an all-zero plan (kernels start at the enqueue time).
DispatchPlan planDispatch(const DispatchArch& arch, const std::vector<DispatchKernel>& kernels, unsigned tunnelHops);

}  // namespace cclsim
