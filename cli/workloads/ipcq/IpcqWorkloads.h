// PE_IPCQ workloads of the board executables:
//   <board> ipcq_allreduce [--ccl FILE] [--algorithm NAME] [--size S] ...
//       init_process_group from ccl.yaml, then all_reduce(tensor, sum) with
//       the chosen algorithm; nccl-tests-style report and the golden check
//   <board> ipcq_latency [--peer same_chip|eth_hop] [--bytes B] ...
//       T5: one send/recv between neighbouring ranks against the raw PE_DMA
//       write of the same bytes; optionally under a vc_compute stream
#pragma once

#include "cli/Workload.h"

#include <memory>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ipcq {

class ProcessGroup;

/// ipcq_allreduce as one op of a concurrent run (cli/workloads/ccl/ConcurrentWorkload):
/// the same options and report, its ranks' packets on a fabric it shares.
class IpcqAllReduceOp : public Workload {
public:
    /// Set before build(): the shared fabric and the stream tag of its packets.
    virtual void setSharing(fabric::FabricBuilder* fabric, unsigned stream) = 0;
    /// After the shared fabric is built: push the group's tables.
    virtual void finishBuild() = 0;
    /// The group build() made (null before).
    virtual const ProcessGroup* group() const = 0;
    /// The ccl.yaml it reads: --ccl, else the configuration directory's.
    virtual std::string cclFile() const = 0;
};
std::unique_ptr<IpcqAllReduceOp> makeIpcqAllReduceOp();

std::unique_ptr<Workload> makeIpcqAllReduce();
std::unique_ptr<Workload> makeIpcqLatency();

}  // namespace cclsim::ipcq
