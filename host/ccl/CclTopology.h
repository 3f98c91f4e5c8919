// Topology config of a collective (CCL guide, "Topology Config"): a ring or
// a line over an ordered list of chips, and the Ethernet links each hop uses.
//
// Hop i joins position i to position i+1 (on a ring the last hop joins the
// last position back to the first). A hop uses the first `links` user links
// between its two chips; a ring of two chips runs both hops over the same
// links, one per direction. Everything that can be wrong with a chip order
// (unknown chips, repeats, unconnected neighbours, no wraparound link for a
// ring, fewer links than asked for) is a ConfigError saying which hop —
// unless the caller allows relays (communication groups whose members are
// not neighbours): then such a hop follows a shortest path of links.
#pragma once

#include "platforms/ClusterDescriptor.h"

#include <map>
#include <string>
#include <vector>

namespace cclsim::ccl {

enum class TopologyKind { Ring, Line };
const char* topologyName(TopologyKind k);

struct CclHop {
    unsigned from = 0, to = 0;           ///< chip ids (positions i and i+1)
    std::vector<const LinkDesc*> links;  ///< the links this hop uses (its first segment when relayed)
    /// A relayed hop (its chips have no link): the chips from `from` to `to`
    /// along a shortest path of links, and each segment's links. A direct hop
    /// has path {from, to} and one segment (= links).
    std::vector<unsigned> path;
    std::vector<std::vector<const LinkDesc*>> segments;
    bool relayed() const { return segments.size() > 1; }
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
/// With `relay`, a hop between chips without a link runs over a shortest
/// path of links through other chips (whose relay workers forward it);
/// without, it is an error.
/// `load` (optional, shared by the groups of one op) counts the hops on
/// every link; a relayed segment takes the least-loaded links of its pair.
CclTopology buildTopology(const ClusterDescriptor& d, const std::vector<unsigned>& order, TopologyKind kind,
                          unsigned links, bool relay = false, std::map<const LinkDesc*, unsigned>* load = nullptr);

/// The independent chip orders of a mesh axis: every row ("row") or column
/// ("col") of the board's mesh, in mesh order.
std::vector<std::vector<unsigned>> meshGroups(const ClusterDescriptor& d, const std::string& axis);

/// `k` chips of the cluster that close a ring, for replicas given by count
/// (--chips K), and how they were chosen (`how`). In this order of
/// preference: the first k of the board's ring order when its last chip
/// links back to its first; the board's ring_orders entry for k when that
/// closes; on a mesh, a snake around an r x c block of the mesh (r x c = k,
/// both at least 2, one of them even: the grid then has a cycle through
/// every chip), the squarest block first, at the first place in the mesh
/// where every hop has a link. Empty (and `how` says why) when none closes.
std::vector<unsigned> closedRingOfSize(const ClusterDescriptor& d, unsigned k, std::string* how = nullptr);

/// An order of every chip of a mesh board in which each run of `k`
/// consecutive chips closes a ring (GCL consecutive:K groups that need no
/// relayed hop): the mesh tiled by r x c blocks (r x c = k, as above, r
/// dividing the rows and c the columns, the squarest first), blocks in
/// row-major order, each walked as a snake. Empty when the board has no
/// mesh or no tiling closes every block (`how` says which was chosen or why
/// none).
std::vector<unsigned> ringTilingOfSize(const ClusterDescriptor& d, unsigned k, std::string* how = nullptr);

}  // namespace cclsim::ccl
