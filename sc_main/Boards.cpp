// The boards of this build: their descriptors, default demos and workloads.
#include "firmware/ccl/CollectiveWorkloads.h"
#include "firmware/microbench/MicrobenchHosts.h"
#include "sc_main/BoardMain.h"

namespace cclsim {

namespace {
/// Every board runs the Ethernet microbenchmarks and the collectives.
std::vector<WorkloadFactory> allWorkloads() {
    return {ccl::makeAllGather,          ccl::makeReduceScatter,         ccl::makeAllReduce,
            ccl::makeAllToAll,           ccl::makeBroadcast,             microbench::makeEthPing,
            microbench::makeRingPing,    microbench::makeEthBandwidth,   microbench::makeEdmStream,
            microbench::makeDramBandwidth};
}
}  // namespace

BoardInfo n300Board() {
    BoardInfo b;
    b.name = "n300";
    b.descriptor = CCLSIM_SOURCE_DIR "/platforms/n300.yaml";
    b.defaultWorkload = "edm_stream";
    b.workloads = allWorkloads();
    return b;
}

BoardInfo t3000Board() {
    BoardInfo b;
    b.name = "t3000";
    b.descriptor = CCLSIM_SOURCE_DIR "/platforms/t3000.yaml";
    b.defaultWorkload = "all_gather";
    b.workloads = allWorkloads();
    return b;
}

BoardInfo galaxyBoard() {
    BoardInfo b;
    b.name = "galaxy";
    b.descriptor = CCLSIM_SOURCE_DIR "/platforms/galaxy.yaml";
    b.defaultWorkload = "all_gather";
    b.workloads = allWorkloads();
    return b;
}

}  // namespace cclsim
