// Fabric topologies and routes (host side, pure logic: no simulation).
//
// 1D: a line or ring of chips in an order; a packet travels E (towards the
// next chip of the order) or W, on a ring the shorter way (E on a tie), and
// every chip on the way forwards it in the same direction.
//
// 2D: the board's mesh (rows x cols, `mesh_order` of the cluster
// descriptor); a wrapped axis (torus links, --torus) makes that axis a ring.
// Routes are dimension-ordered: N/S first, then E/W (tt-metal's
// encode_2d_unicast; `route_order_2d: xy` swaps the order), each axis the
// shorter way round where it wraps. Dimension order means a route turns at
// most once, always from the first axis to the second, so on a mesh the
// channels a route waits on never form a cycle; along a wrapped axis the
// routers apply bubble flow control (see fabric_router.cpp).
//
// Directions: N = row - 1, S = row + 1, E = col + 1, W = col - 1.
#pragma once

#include "firmware/fabric/fabric_types.h"
#include "platforms/ClusterDescriptor.h"

#include <optional>
#include <string>
#include <vector>

namespace cclsim::fabric {

enum class FabricKind { Line, Ring, Mesh, Torus };
const char* fabricKindName(FabricKind k);

struct FabricTopology {
    FabricKind kind = FabricKind::Line;
    std::vector<unsigned> order;  ///< 1D: chip at each position
    unsigned rows = 0, cols = 0;  ///< 2D: mesh shape
    std::vector<unsigned> grid;   ///< 2D: chip at row * cols + col
    bool wrapX = false, wrapY = false;

    bool is2d() const { return kind == FabricKind::Mesh || kind == FabricKind::Torus; }
    /// Does the axis of direction `d` close into a ring?
    bool wraps(Dir d) const;
    std::vector<unsigned> chips() const { return is2d() ? grid : order; }
    bool contains(unsigned chip) const;
    /// The neighbour of `chip` in direction `d`, if the topology has one.
    std::optional<unsigned> neighbour(unsigned chip, Dir d) const;
    /// Longest route in hops (sizes the 1D header). On a 1D ring that is a
    /// multicast round the ring, n - 1 hops (a ring op's start barrier).
    unsigned maxHops() const;
};

/// A line or ring over `order` (a ring needs at least three chips).
FabricTopology makeTopology1d(FabricKind kind, const std::vector<unsigned>& order);
/// The board's mesh; `torus` wraps the axes whose ends the descriptor links
/// (every row's ends for X, every column's for Y). ConfigError if the
/// descriptor has no mesh.
FabricTopology makeTopologyMesh(const ClusterDescriptor& d, bool torus);

/// The topology a workload asks for with `--fabric KIND [--order ...]`: a
/// line or ring over `order` (default: the descriptor's ring order), or the
/// descriptor's mesh (torus: the descriptor must be loaded with --torus).
FabricTopology topologyFromOptions(const ClusterDescriptor& d, const std::string& kind,
                                   const std::vector<unsigned>& order);

struct Route {
    unsigned src = 0, dst = 0;
    std::vector<Dir> hops;  ///< the direction of every hop, from the source
    unsigned size() const { return unsigned(hops.size()); }
    Dir first() const { return hops.front(); }
};

/// The route from `src` to `dst` (different chips of the topology).
Route route(const FabricTopology& t, unsigned src, unsigned dst, bool yFirst);

/// Fill `h`'s routing fields (and chips) for `r`: 1D hop bits or 2D nibbles.
void setRoute(PacketHeader& h, const FabricTopology& t, const Route& r);
/// The reply route of a read request that followed `r`: its reverse.
void setReplyRoute(PacketHeader& h, const FabricTopology& t, const Route& r);

}  // namespace cclsim::fabric
