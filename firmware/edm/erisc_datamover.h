// The ERISC data mover kernel (see erisc_datamover.cpp for the protocol).
#pragma once

namespace cclsim::fw::edm {

void erisc_datamover_kernel_main();

}  // namespace cclsim::fw::edm
