// An elaborated N300 for tests that run hand-written kernels on it (SystemC
// elaborates once per process: one bench per test case).
#pragma once

#include "runtime/Runtime.h"

namespace cclsim::test {

struct N300Bench {
    ClusterDescriptor desc = loadClusterDescriptor(CCLSIM_SOURCE_DIR "/platforms/n300.yaml");
    Platform platform{"n300", desc, PlatformOptions{}};
    Runtime rt{platform};
};

/// The worker core at NoC coordinates (x, y).
inline CoreCoord coreAt(unsigned x, unsigned y) {
    return CoreCoord{std::uint8_t(x), std::uint8_t(y)};
}

}  // namespace cclsim::test
