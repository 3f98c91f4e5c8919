// The collectives as workloads of the board executables:
//   <board> all_gather | reduce_scatter | all_reduce | all_to_all | broadcast [options]
// with nccl-tests-style reports (size, count, type, time, algbw, busbw) plus
// linkbw and the data check against the golden reference.
#pragma once

#include "cli/Workload.h"
#include "host/ccl/CclOp.h"
#include "host/ccl/Collectives.h"

#include <cstdint>
#include <memory>
#include <string>

namespace cclsim::ccl {

/// One workload per registered collective (host/ccl/Collectives), in the
/// registry's order: a collective added to the registry is a workload.
std::vector<WorkloadFactory> collectiveWorkloads();

/// A collective that can run as one of several ops at once on the same
/// chips and links (ConcurrentWorkload): the same options and report, plus
/// what it shares with the other ops.
class CollectiveOp : public Workload {
public:
    /// Set before build(): the shared EDMs or fabric, its cores, its stream tag.
    virtual void setSharing(const CclSpec::Sharing& sharing) = 0;
    /// The op build() made (null before, or when the size was skipped).
    virtual CclOp* op() = 0;
};

/// The registered collective `name` (all_gather, reduce_scatter, all_reduce,
/// all_to_all, broadcast); null for any other name.
std::unique_ptr<CollectiveOp> makeCollective(const std::string& name);

}  // namespace cclsim::ccl
