// The boards of this build: their descriptors, default demos and workloads.
#include "firmware/ccl/CollectiveWorkloads.h"
#include "firmware/ipcq/IpcqWorkloads.h"
#include "firmware/microbench/MicrobenchHosts.h"
#include "firmware/noctrace/NocTraceWorkload.h"
#include "firmware/pto/PtoWorkload.h"
#include "sc_main/BoardMain.h"

namespace cclsim {

namespace {
/// A board: its descriptor, its default demo; every board runs the Ethernet
/// and fabric microbenchmarks, the collectives, the PE_IPCQ workloads and
/// the PTO communication ops.
BoardInfo board(const char* name, const char* descriptor, const char* defaultWorkload) {
    BoardInfo b;
    b.name = name;
    b.descriptor = std::string(CCLSIM_SOURCE_DIR "/platforms/") + descriptor;
    b.defaultWorkload = defaultWorkload;
    b.workloads = {ccl::makeAllGather,          ccl::makeReduceScatter,         ccl::makeAllReduce,
                   ccl::makeAllToAll,           ccl::makeBroadcast,             microbench::makeEthPing,
                   microbench::makeRingPing,    microbench::makeEthBandwidth,   microbench::makeEdmStream,
                   microbench::makeDramBandwidth,  microbench::makeFabricPing,     microbench::makeFabricBandwidth,
                   microbench::makeFabricTraffic, ipcq::makeIpcqAllReduce,     ipcq::makeIpcqLatency,
                   pto::makePto,                microbench::makeDispatch,       noctrace::makeNocTrace};
    return b;
}
}  // namespace

BoardInfo n300Board() { return board("n300", "n300.yaml", "edm_stream"); }
BoardInfo t3000Board() { return board("t3000", "t3000.yaml", "all_gather"); }
BoardInfo galaxyBoard() { return board("galaxy", "galaxy.yaml", "all_gather"); }

}  // namespace cclsim
