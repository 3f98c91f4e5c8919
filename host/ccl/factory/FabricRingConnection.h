// Connection of the packet-fabric ring (after plan/FabricRingPlan and
// factory/FabricRingAllocation): once the fabric is built, every worker
// learns the next chip's landing tensor and semaphores and its own fabric
// connection, and gets its writer kernel; reader and writer receive their
// runtime arguments. With a fabric of the op's own this runs at once; with
// a fabric shared by several ops, after the caller has built it
// (CclOp::finishBuild).
#pragma once

#include "host/ccl/factory/FabricRingAllocation.h"

namespace cclsim::ccl {

/// Wire every worker of `r` (group `g`) to the next chip and create its
/// writer; `stream` tags the op's packets (0: untagged).
void connectRing(Runtime& rt, const CclGroup& g, const fabric::FabricBuilder& fab, AllocatedRing& r, unsigned stream);

}  // namespace cclsim::ccl
