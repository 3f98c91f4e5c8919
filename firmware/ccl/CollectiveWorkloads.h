// The collectives as workloads of the board executables:
//   <board> all_gather | reduce_scatter | all_reduce | all_to_all | broadcast [options]
// with nccl-tests-style reports (size, count, type, time, algbw, busbw) plus
// linkbw and the data check against the golden reference.
#pragma once

#include "runtime/Workload.h"

#include <cstdint>
#include <memory>
#include <string>

namespace cclsim::ccl {

std::unique_ptr<Workload> makeAllGather();
std::unique_ptr<Workload> makeReduceScatter();
std::unique_ptr<Workload> makeAllReduce();
std::unique_ptr<Workload> makeAllToAll();
std::unique_ptr<Workload> makeBroadcast();

}  // namespace cclsim::ccl
