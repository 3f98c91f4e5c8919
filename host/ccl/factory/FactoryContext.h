// What the program factories of one op share while they build it (tt-metal's
// operation attributes and tensor args as a program factory sees them): the
// runtime, the spec and its plan, the op's worker cores, and what the op
// keeps once the factories are done. Plus the small argument helpers every
// factory uses.
//
// Order matters: every buffer, core, semaphore and kernel a factory creates
// takes the next address, core or slot, and the kernels' order on a core
// decides same-tick ordering. The factories create them in a fixed order
// that the timing figures and golden traces depend on.
#pragma once

#include "firmware/ccl/ccl_args.h"
#include "host/ccl/CclGroup.h"
#include "host/ccl/CclSpec.h"
#include "host/ccl/CoreAllocator.h"
#include "host/ccl/TensorSlicer.h"
#include "host/ccl/plan/CclPlanner.h"
#include "runtime/Runtime.h"

#include <functional>
#include <memory>
#include <vector>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ccl {

struct FactoryContext {
    Runtime& rt;
    const CclSpec& spec;
    const CclPlan& plan;
    CoreAllocator& cores;
    /// Packet fabrics the op builds for itself (kept alive with the op).
    std::vector<std::unique_ptr<fabric::FabricBuilder>>& packetFabrics;
    /// Kernel creation deferred until a shared packet fabric is built
    /// (CclOp::finishBuild).
    std::vector<std::function<void()>>& afterFabric;

    CoreCoord takeCore(unsigned chip) { return cores.take(chip, spec); }
};

/// Kernels that signal a semaphore of their position when they finish (the
/// broadcast method's reducers wait for all of them).
struct DoneSignals {
    std::vector<RemoteSem> sem;
    std::vector<std::uint32_t> count;
    RemoteSem signal(unsigned pos) {
        ++count.at(pos);
        return sem.at(pos);
    }
};

/// A buffer as a kernel argument.
inline TensorArgs tensorArgs(const Buffer& b) {
    TensorArgs t;
    t.base = b.base;
    t.dram = (b.dram ? 1u : 0u) | (b.shard.sharded() ? TensorArgs::kShardedBit : 0u);
    t.shard = b.shard;
    return t;
}

/// all_gather along dim 1: pages per rank row; else 0.
std::uint32_t gatherRowPages(const CclSpec& s);

/// The fields every EDM worker unit has: rank `pos`'s chunks `cs` of the
/// pages `r` of every block, staging at `staging`.
UnitArgs unitArgs(const FactoryContext& c, unsigned pos, const ChunkSet& cs, bool ring, std::uint32_t staging,
                  MethodPlan::Range r);

/// `slots` chunk-sized staging slots in `core`'s L1.
std::uint32_t allocateStaging(FactoryContext& c, unsigned chip, CoreCoord core, unsigned slots);

/// The kernel config of a packet-fabric worker's reader (ncrisc, NoC 0) or
/// writer (brisc, NoC 1), as tt-metal's reader and writer data-movement
/// configs: CCL traffic on the communication VC, fabric wait timeouts.
KernelConfig fabricWorkerConfig(bool reader);

/// A worker kernel of the op on `core` with its runtime arguments: CCL
/// traffic rides the communication VC; its waits time out as the
/// implementation's firmware does.
void createWorkerKernel(FactoryContext& c, unsigned chip, CoreCoord core, const char* name, void (*entry)(),
                        std::vector<std::uint32_t> args, unsigned noc);

}  // namespace cclsim::ccl
