// The microbenchmark workloads of the boards: Ethernet, DRAM, dispatch and
// fabric. Each is its options and report; the programs they build and the
// figures they read back are host/microbench/.
#pragma once

#include "cli/Workload.h"
#include "host/microbench/LinkEnds.h"
#include "models/common/ConfigError.h"

#include <functional>
#include <memory>
#include <string>

namespace cclsim::microbench {

std::unique_ptr<Workload> makeEthPing();
std::unique_ptr<Workload> makeRingPing();
std::unique_ptr<Workload> makeEthBandwidth();
std::unique_ptr<Workload> makeEdmStream();
std::unique_ptr<Workload> makeDramBandwidth();
std::unique_ptr<Workload> makeDataMovement();
std::unique_ptr<Workload> makeDispatch();
std::unique_ptr<Workload> makeFabricPing();
std::unique_ptr<Workload> makeFabricBandwidth();
std::unique_ptr<Workload> makeFabricUbench();
std::unique_ptr<Workload> makeFabricTraffic();

/// "chip A ch X <-> chip B ch Y": a link as the reports name it.
std::string linkName(const LinkEnds& e);

/// Run `build`; a buffer it cannot allocate in L1 is refused again with the
/// options that size the buffers appended (`sizing`, e.g. "--buffers 7 x
/// --packet 4096 per channel"), so the user knows what to make smaller.
void buildNamingSizes(const std::function<void()>& build, const std::string& sizing);

}  // namespace cclsim::microbench
