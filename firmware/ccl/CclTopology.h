// Topology config of a collective (CCL guide, "Topology Config"): a ring or
// a line over an ordered list of chips, and the Ethernet links each hop uses.
//
// Hop i joins position i to position i+1 (on a ring the last hop joins the
// last position back to the first). A hop uses the first `links` user links
// between its two chips; a ring of two chips runs both hops over the same
// links, one per direction. Everything that can be wrong with a chip order
// (unknown chips, repeats, unconnected neighbours, no wraparound link for a
// ring, fewer links than asked for) is a ConfigError saying which hop.
#pragma once

#include "platforms/ClusterDescriptor.h"

#include <string>
#include <vector>

namespace cclsim::ccl {

enum class TopologyKind { Ring, Line };
const char* topologyName(TopologyKind k);

struct CclHop {
    unsigned from = 0, to = 0;             ///< chip ids (positions i and i+1)
    std::vector<const LinkDesc*> links;    ///< the links this hop uses
};

struct CclTopology {
    TopologyKind kind = TopologyKind::Ring;
    std::vector<unsigned> order;  ///< chip id at each position
    unsigned links = 1;           ///< links per hop
    std::vector<CclHop> hops;     ///< n hops on a ring, n-1 on a line

    unsigned size() const { return unsigned(order.size()); }
    bool ring() const { return kind == TopologyKind::Ring; }
    /// The hop leaving position `pos` in direction 0 (towards pos+1).
    const CclHop& hopAfter(unsigned pos) const { return hops.at(pos); }
    /// The hop between position `pos` and the position before it.
    const CclHop& hopBefore(unsigned pos) const { return hops.at(pos == 0 ? hops.size() - 1 : pos - 1); }
};

/// Validate `order` as a ring or a line on the cluster and pick its links.
CclTopology buildTopology(const ClusterDescriptor& d, const std::vector<unsigned>& order, TopologyKind kind,
                          unsigned links);

/// The independent chip orders of a mesh axis: every row ("row") or column
/// ("col") of the board's mesh, in mesh order.
std::vector<std::vector<unsigned>> meshGroups(const ClusterDescriptor& d, const std::string& axis);

}  // namespace cclsim::ccl
