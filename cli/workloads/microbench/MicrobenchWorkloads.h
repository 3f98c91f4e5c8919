// Host launchers of the Ethernet microbenchmarks (workloads of the boards).
#pragma once

#include "cli/Workload.h"
#include "models/common/Report.h"

#include <memory>

namespace cclsim::microbench {

std::unique_ptr<Workload> makeEthPing();
std::unique_ptr<Workload> makeRingPing();
std::unique_ptr<Workload> makeEthBandwidth();
std::unique_ptr<Workload> makeEdmStream();
std::unique_ptr<Workload> makeDramBandwidth();
std::unique_ptr<Workload> makeDispatch();
std::unique_ptr<Workload> makeFabricPing();
std::unique_ptr<Workload> makeFabricBandwidth();
std::unique_ptr<Workload> makeFabricTraffic();

/// The Ethernet cores at both ends of a user (non-dispatch) link.
struct LinkEnds {
    unsigned chipA, chanA, chipB, chanB;
    CoreCoord coreA, coreB;
};
/// The `index`-th user link between two chips; ConfigError if there is none.
LinkEnds userLink(const ClusterDescriptor& d, unsigned chipA, unsigned chipB, unsigned index);

}  // namespace cclsim::microbench
