// The N300 board executable: 2 Wormhole chips, one user Ethernet link.
#include "firmware/microbench/MicrobenchHosts.h"
#include "sc_main/BoardMain.h"

#include <systemc>

int sc_main(int argc, char* argv[]) {
    cclsim::BoardInfo board;
    board.name = "n300";
    board.descriptor = CCLSIM_SOURCE_DIR "/platforms/n300.yaml";
    board.defaultWorkload = "eth_ping";
    board.workloads = {cclsim::microbench::makeEthPing, cclsim::microbench::makeRingPing, cclsim::microbench::makeEthBandwidth,
                       cclsim::microbench::makeEdmStream};
    return cclsim::boardMain(argc, argv, board);
}
