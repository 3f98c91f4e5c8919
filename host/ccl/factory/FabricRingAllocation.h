// Allocation of the packet-fabric ring (the step plan is
// plan/FabricRingPlan, the wiring factory/FabricRingConnection): the
// reduce-scatter's intermediate tensors, then for every worker in plan order
// its core, circular buffer and scratch in L1, its semaphores, its reader
// kernel and its fabric client. The writer kernels come with the connection,
// once the fabric is built.
#pragma once

#include "host/ccl/factory/FactoryContext.h"
#include "host/ccl/plan/FabricRingPlan.h"
#include "host/fabric/FabricBuilder.h"

#include <vector>

namespace cclsim::ccl {

/// What allocation gives one ring worker.
struct RingWorkerResources {
    CoreCoord core;
    std::uint32_t recvSem = 0;   ///< out_ready_sem: increments from the previous chip
    std::uint32_t finalR = 0;    ///< line reduce-scatter: R of the own block landed
    std::uint32_t foldSem = 0;   ///< line reduce-scatter: chunks the forward worker folded
    std::uint32_t startSem = 0;  ///< line all-gather: its start barrier
    KernelHandle reader;
    fabric::ClientId client;
};

/// One group's ring from allocation to connection.
struct AllocatedRing {
    bool ring = true;            ///< a ring of at least three chips (else a line)
    bool lineMulticast = false;  ///< the all-gather phase multicasts along the line (FabricRingInput)
    bool startBarrier = true;    ///< the op's start barrier (FabricRingInput)
    RingPhases phases;
    FabricRingPlan plan;
    std::vector<RingWorkerResources> res;  ///< per plan.workers
    std::vector<Buffer> inter[2];          ///< reduce-scatter landing tensors per direction and position
    std::vector<unsigned> opGate;          ///< all_reduce: per position, the chip's gate between its two ops
};

/// The reduce-scatter's intermediate tensors: n blocks per rank, one set on
/// a ring (both directions land in it), one per direction on a line.
void allocateIntermediates(FactoryContext& ctx, const CclGroup& g, AllocatedRing& r);

/// Every worker's tensors, core, L1, semaphores, reader kernel and fabric
/// client, in plan order.
void allocateRingWorkers(FactoryContext& ctx, const CclGroup& g, fabric::FabricBuilder& fab, AllocatedRing& r);

/// all_reduce: a reduce-scatter worker's kernels end the chip's first op,
/// an all-gather worker's start after it (AllocatedRing::opGate).
void setOpGate(const AllocatedRing& r, const RingWorkerPlan& k, KernelConfig& cfg);

}  // namespace cclsim::ccl
