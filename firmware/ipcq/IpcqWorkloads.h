// PE_IPCQ workloads of the board executables:
//   <board> ipcq_allreduce [--ccl FILE] [--algorithm NAME] [--size S] ...
//       init_process_group from ccl.yaml, then all_reduce(tensor, sum) with
//       the chosen algorithm; nccl-tests-style report and the golden check
//   <board> ipcq_latency [--peer same_chip|eth_hop] [--bytes B] ...
//       T5: one send/recv between neighbouring ranks against the raw PE_DMA
//       write of the same bytes; optionally under a vc_compute stream
#pragma once

#include "runtime/Workload.h"

#include <memory>

namespace cclsim::ipcq {

std::unique_ptr<Workload> makeIpcqAllReduce();
std::unique_ptr<Workload> makeIpcqLatency();

}  // namespace cclsim::ipcq
