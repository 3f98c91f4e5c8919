// The N300 board executable: 2 Wormhole chips, one user Ethernet link.
#include "sc_main/BoardMain.h"

#include <systemc>

int sc_main(int argc, char* argv[]) { return cclsim::boardMain(argc, argv, cclsim::n300Board()); }
