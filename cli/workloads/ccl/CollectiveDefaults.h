// The command line's defaults for a collective when the user leaves them
// out: links per hop and worker units per link, by tt-metal's rules.
#pragma once

#include "host/ccl/CclSpec.h"
#include "platforms/ClusterDescriptor.h"

#include <cstdint>
#include <vector>

namespace cclsim::ccl {

/// The --links default: the fewest user links between neighbours of any
/// group's order (tt-metal takes the fewest routing planes over the devices,
/// less the link a chip without PCIe needs for dispatch; our descriptors
/// mark that link, so user links are the planes left). Pairs without a link
/// (relayed hops) do not count. N300: 1; T3000: 1 (inside each N300 one of
/// the two links is reserved); Galaxy: 4.
unsigned defaultLinks(const ClusterDescriptor& d, const std::vector<std::vector<unsigned>>& groups, TopologyKind topo);

/// Does an all-gather on `n` ranks run as tt-metal's line multicast
/// all-gather (a line, or a ring of two), one worker per link?
bool multicastAllGather(TopologyKind topo, unsigned n);

/// The --workers default for a collective (`reduces`: a reduction;
/// `gathers`: all_gather) on `n` ranks moving `inputBytes` per rank over
/// `links` links per hop.
unsigned defaultWorkers(bool reduces, CclSpec::Impl impl, std::uint64_t inputBytes, unsigned n, unsigned links,
                        TopologyKind topo, bool gathers = false);

}  // namespace cclsim::ccl
