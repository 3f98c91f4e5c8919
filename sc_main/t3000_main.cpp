// The T3000 board executable: 8 Wormhole chips in a 2x4 mesh (four N300 boards).
#include "sc_main/BoardMain.h"

#include <systemc>

int sc_main(int argc, char* argv[]) { return cclsim::boardMain(argc, argv, cclsim::t3000Board()); }
