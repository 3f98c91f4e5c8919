// The Galaxy board executable: 32 Wormhole chips in a 4x8 mesh.
#include "sc_main/BoardMain.h"

#include <systemc>

int sc_main(int argc, char* argv[]) { return cclsim::boardMain(argc, argv, cclsim::galaxyBoard()); }
