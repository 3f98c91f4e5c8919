// The boards of this build: their descriptors, default demos and workloads.
#include "firmware/microbench/MicrobenchHosts.h"
#include "sc_main/BoardMain.h"

namespace cclsim {

BoardInfo n300Board() {
    BoardInfo b;
    b.name = "n300";
    b.descriptor = CCLSIM_SOURCE_DIR "/platforms/n300.yaml";
    b.defaultWorkload = "edm_stream";
    b.workloads = {microbench::makeEthPing, microbench::makeRingPing, microbench::makeEthBandwidth,
                   microbench::makeEdmStream, microbench::makeDramBandwidth};
    return b;
}

BoardInfo t3000Board() {
    BoardInfo b;
    b.name = "t3000";
    b.descriptor = CCLSIM_SOURCE_DIR "/platforms/t3000.yaml";
    b.defaultWorkload = "ring_ping";
    b.workloads = {microbench::makeEthPing, microbench::makeRingPing, microbench::makeEthBandwidth,
                   microbench::makeEdmStream, microbench::makeDramBandwidth};
    return b;
}

}  // namespace cclsim
