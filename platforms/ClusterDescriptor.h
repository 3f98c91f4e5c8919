// Cluster descriptor: which chips a board has and how their Ethernet
// channels are cabled. Topology is data (a YAML file); Platform turns it
// into bound models.
//
//   name: n300
//   arch: arch/wormhole_b0.yaml              # relative to this file
//   chips:
//     - {id: 0, location: [0, 0, 0, 0], pcie: true}
//     - {id: 1, location: [1, 0, 0, 0]}
//   links:
//     - {a: {chip: 0, chan: 8}, b: {chip: 1, chan: 0}, dispatch: true}
//     - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}}
//     - {a: {chip: 0, chan: 4}, b: {chip: 1, chan: 12}, torus: true}   # only with --torus
//   ring_order: [0, 1]                       # the board's default ring
//   ring_orders: {2: [0, 1]}                 # ring_ping device orders per hop count
//   mesh: {rows: 1, cols: 2}                 # for --axis row|col
//   mesh_order: [0, 1]                       # row-major chip ids of the mesh
#pragma once

#include "models/chip/ArchConfig.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cclsim {

struct EthEndpoint {
    unsigned chip = 0;
    unsigned chan = 0;
    bool operator==(const EthEndpoint& o) const { return chip == o.chip && chan == o.chan; }
    bool operator<(const EthEndpoint& o) const { return chip != o.chip ? chip < o.chip : chan < o.chan; }
};

struct LinkDesc {
    EthEndpoint a, b;
    bool dispatch = false;
    bool torus = false;  ///< closes the mesh into a torus (kept only with --torus)
    /// The host left it out of every op (--skip-links-with-retrain: it
    /// retrained while the device was initialised); still cabled.
    bool excluded = false;
    std::string where;  ///< file:line, for later error messages
};

struct ChipDesc {
    unsigned id = 0;
    std::array<int, 4> location{};  ///< [x, y, rack, shelf]
    bool pcie = false;
};

struct ClusterDescriptor {
    std::string name;
    std::string file;
    ArchConfig arch;
    std::vector<ChipDesc> chips;  ///< indexed by chip id (ids are 0..n-1)
    std::vector<LinkDesc> links;
    std::vector<unsigned> ringOrder;                       ///< default ring (board's device order), may be empty
    std::map<unsigned, std::vector<unsigned>> ringOrders;  ///< ring_ping device order per hop count
    std::optional<std::array<unsigned, 2>> mesh;           ///< rows, cols of a mesh board
    std::vector<unsigned> meshOrder;                       ///< row-major chip ids of the mesh

    /// Links between two chips, in descriptor order.
    std::vector<const LinkDesc*> linksBetween(unsigned c0, unsigned c1) const;
    /// The link that uses this endpoint, if any.
    const LinkDesc* linkAt(EthEndpoint e) const;
    /// Links user kernels may use (not reserved for dispatch, not excluded).
    std::vector<const LinkDesc*> userLinksBetween(unsigned c0, unsigned c1) const;
    /// Does every chip of `order` have a user link to the next one, the last to the first?
    bool linksAround(const std::vector<unsigned>& order) const;
};

/// Read and validate a cluster descriptor (arch path relative to the file).
/// Links marked `torus: true` (edge links that close a mesh into a torus)
/// are kept only with `torus`; asking for a torus of a descriptor without
/// such links is an error.
/// A tt-metal cluster descriptor (the YAML tt-metal's driver writes for a
/// machine: platforms/TtClusterDescriptor.h) is read too; its arch is
/// `archDir`/wormhole_b0.yaml (default: arch/ beside the file).
ClusterDescriptor loadClusterDescriptor(const std::string& file, const std::string& archOverride = "",
                                        bool torus = false, const std::string& archDir = "");

}  // namespace cclsim
