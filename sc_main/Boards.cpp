// The workloads of the board executables, and a board by its name. The list
// of boards itself is written once, in sc_main/CMakeLists.txt; the registry
// allBoards() is generated from it (BoardList.cpp in the build tree).
#include "firmware/ccl/CollectiveWorkloads.h"
#include "firmware/ccl/ConcurrentWorkload.h"
#include "firmware/ipcq/IpcqWorkloads.h"
#include "firmware/microbench/MicrobenchHosts.h"
#include "firmware/noctrace/NocTraceWorkload.h"
#include "firmware/pto/PtoWorkload.h"
#include "sc_main/BoardMain.h"

#include <fmt/format.h>

#include <stdexcept>

namespace cclsim {

std::vector<WorkloadFactory> allWorkloads() {
    return {
        // The collectives (firmware/ccl/).
        ccl::makeAllGather, ccl::makeReduceScatter, ccl::makeAllReduce, ccl::makeAllToAll, ccl::makeBroadcast,
        // Several collectives at once on the same chips and links.
        ccl::makeConcurrent,
        // Ethernet, DRAM and fabric microbenchmarks (firmware/microbench/).
        microbench::makeEthPing, microbench::makeRingPing, microbench::makeEthBandwidth, microbench::makeEdmStream,
        microbench::makeDramBandwidth, microbench::makeFabricPing, microbench::makeFabricBandwidth,
        microbench::makeFabricTraffic,
        // PE_IPCQ (firmware/ipcq/), the PTO ops (firmware/pto/).
        ipcq::makeIpcqAllReduce, ipcq::makeIpcqLatency, pto::makePto,
        // Dispatch and fixed costs, NoC trace replay.
        microbench::makeDispatch, noctrace::makeNocTrace,
    };
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

const BoardInfo& boardNamed(const std::string& name) {
    std::string known;
    for (const BoardInfo& b : allBoards()) {
        if (b.name == name) return b;
        known += (known.empty() ? "" : ", ") + b.name;
    }
    throw std::invalid_argument(fmt::format("no board '{}' in this build (boards: {})", name, known));
}

}  // namespace cclsim
