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

}  // namespace cclsim
