// The user Ethernet link an Ethernet microbenchmark runs over (eth_ping,
// eth_bandwidth, ring_ping, edm_stream): the two chips, their channels and
// the Ethernet cores those channels are.
#pragma once

#include "platforms/ClusterDescriptor.h"

namespace cclsim::microbench {

/// The Ethernet cores at both ends of a user (non-dispatch) link.
struct LinkEnds {
    unsigned chipA, chanA, chipB, chanB;
    CoreCoord coreA, coreB;
};

/// The `index`-th user link between two chips, A = `chipA`'s end; ConfigError
/// if a chip does not exist or there is no such link.
LinkEnds userLink(const ClusterDescriptor& d, unsigned chipA, unsigned chipB, unsigned index);

}  // namespace cclsim::microbench
