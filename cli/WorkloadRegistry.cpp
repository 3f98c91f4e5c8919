// The workloads of the board executables, and a board that runs them all.
// The boards themselves are listed in sc_main/ (sc_main/Boards.h).
#include "cli/WorkloadRegistry.h"

#include "cli/workloads/ccl/CollectiveWorkloads.h"
#include "cli/workloads/ccl/ConcurrentWorkload.h"
#include "cli/workloads/ipcq/IpcqWorkloads.h"
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "cli/workloads/noctrace/NocTraceWorkload.h"
#include "cli/workloads/pto/PtoWorkload.h"

#include <iterator>

namespace cclsim {

std::vector<WorkloadFactory> allWorkloads() {
    // The collectives: one workload per entry of the registry in
    // host/ccl/Collectives.cpp, in its order.
    std::vector<WorkloadFactory> all = ccl::collectiveWorkloads();
    const WorkloadFactory others[] = {
        // Several collectives at once on the same chips and links.
        ccl::makeConcurrent,
        // Ethernet, DRAM and fabric microbenchmarks (firmware/microbench/).
        microbench::makeEthPing,
        microbench::makeRingPing,
        microbench::makeEthBandwidth,
        microbench::makeEdmStream,
        microbench::makeDramBandwidth,
        microbench::makeDataMovement,
        microbench::makeFabricPing,
        microbench::makeFabricBandwidth,
        microbench::makeFabricUbench,
        microbench::makeFabricTraffic,
        // PE_IPCQ (firmware/ipcq/), the PTO ops (firmware/pto/).
        ipcq::makeIpcqAllReduce,
        ipcq::makeIpcqLatency,
        pto::makePto,
        // Dispatch and fixed costs, NoC trace replay.
        microbench::makeDispatch,
        noctrace::makeNocTrace,
    };
    all.insert(all.end(), std::begin(others), std::end(others));
    return all;
}

BoardInfo makeBoard(const std::string& name, const std::string& descriptor, const std::string& defaultWorkload) {
    BoardInfo b;
    b.name = name;
    b.descriptor = descriptor;
    b.defaultWorkload = defaultWorkload;
    // Every board runs every workload: the Ethernet and fabric
    // microbenchmarks, the collectives, PE_IPCQ, the PTO ops, dispatch and
    // the NoC trace replay.
    b.workloads = allWorkloads();
    return b;
}

}  // namespace cclsim
