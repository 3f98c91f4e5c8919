// Logical neighbour maps of a process group (docs/design/pe-ipcq.md#d3, #d11): which
// rank each rank reaches in each direction. Pure logic, no simulation.
//
//   ring_1d         E = rank + 1, W = rank - 1 (mod world_size)
//   ring_1d_unidir  E = rank + 1 sends; W = rank - 1 only receives (the
//                   queue the E sends of rank - 1 land in)
//   mesh_2d         rows x cols, rank = row * cols + col, wrapping:
//                   N = row - 1, S = row + 1, E = col + 1, W = col - 1;
//                   square (rows = cols = sqrt(world_size)) unless the
//                   algorithm gives rows and cols
//   tree_binary     heap order: parent = (rank - 1) / 2,
//                   child_left = 2 rank + 1, child_right = 2 rank + 2
//   none / custom   empty: the algorithm's neighbors() hook supplies the map
//
// A send in direction d lands in the peer's queue of the reverse direction:
// N <-> S, E <-> W, parent <-> the child slot the rank occupies at its
// parent. Invariant I3 (checked at init): if rank A's d-peer is B, B's
// reverse-direction peer is A, with matching send/receive roles.
#pragma once

#include "models/pe/PeIpcq.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cclsim::ipcq {

struct Neighbor {
    unsigned peer = 0;
    bool canSend = true;  ///< false: this direction only receives (unidirectional topologies)
};
using NeighborMap = std::map<IpcqDir, Neighbor>;
/// Index: rank.
using GroupNeighbors = std::vector<NeighborMap>;

enum class TopologyKind { Ring1d, Ring1dUnidir, Mesh2d, TreeBinary, None };
/// Parse a topology name ("custom" is "none"); nullopt if unknown.
std::optional<TopologyKind> parseTopology(const std::string& s);
const char* topologyName(TopologyKind k);

struct MeshShape {
    unsigned rows = 0, cols = 0;
};
/// The mesh_2d shape for `worldSize`: the given rows/cols (either implies the
/// other), else square. Throws std::invalid_argument saying why not.
MeshShape meshShape(unsigned worldSize, std::optional<unsigned> rows, std::optional<unsigned> cols);

/// The builtin map of `kind` (std::invalid_argument on an impossible size).
GroupNeighbors builtinNeighbors(TopologyKind kind, unsigned worldSize, MeshShape mesh = {});

/// The direction a send in `d` from `rank` arrives on at the peer (where the
/// peer's map points back), or nullopt if the peer does not point back.
std::optional<IpcqDir> landingDirection(const GroupNeighbors& g, unsigned rank, IpcqDir d);

/// I3: every link is matched by its reverse with consistent roles and all
/// peers exist and differ from the rank. Returns "" or a description of the
/// first violation.
std::string checkSymmetry(const GroupNeighbors& g);

}  // namespace cclsim::ipcq
