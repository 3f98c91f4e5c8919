// A mesh board from a compact spec instead of a written-out chip and link list.
//
// A cluster descriptor whose `mesh:` carries `links_per_pair` lists no chips
// and no links; they are generated:
//
//   mesh: {rows: 4, cols: 8, links_per_pair: 4, torus: true, pcie: all}
//
//  * chips: id = row * cols + col, location [x = col, y = row, rack 0, shelf 0];
//    `pcie: all` or a list of the chip ids with a PCIe connection.
//  * links: every pair of mesh neighbours is joined by `links_per_pair`
//    Ethernet links. A chip's E Ethernet channels form four groups of E/4
//    consecutive channels, one per direction (tt-metal's TG / Galaxy cluster
//    descriptors; Ethernet multichip guide):
//        north (y-1): group 0     west (x-1): group 1
//        south (y+1): group 2     east (x+1): group 3
//    and the k-th link of a pair uses the k-th channel of each group, so an
//    eastward link leaves on channel 3E/4 + k and arrives on E/4 + k. On a
//    Wormhole chip (16 channels): north 0-3, west 4-7, south 8-11, east 12-15.
//  * `torus: true` also cables the wrap-around links that join the free edge
//    groups (the last column's east group to the first column's west group,
//    the last row's south group to the first row's north group). They are
//    marked like a written-out link with `torus: true`: a run uses them only
//    with --torus. Default false: an open mesh.
//
// Without a `ring_order`, the board's default ring is a cycle through every
// chip over mesh links (no torus needed), when the mesh has one: along row 0,
// snaking back and forth through columns 1.. of the other rows, and up column
// 0 (rows even; with an odd number of rows and an even number of columns the
// same walk with rows and columns swapped). A mesh with both dimensions odd,
// or a single row or column of more than two chips, has no such cycle and
// gets no default ring.
//
// Links come out in the order the hand-written galaxy.yaml lists them: for
// each chip in id order its east links then its south links, then the row
// wraps by row, then the column wraps by column. So a generated descriptor
// equals the written-out one link by link (tests/unit/test_mesh_spec.cpp).
#pragma once

#include "models/common/Yaml.h"
#include "platforms/ClusterDescriptor.h"

#include <vector>

namespace cclsim {

struct MeshSpec {
    unsigned rows = 0, cols = 0;
    unsigned linksPerPair = 0;
    bool torus = false;      ///< generate the wrap-around links (kept only with --torus)
    std::vector<bool> pcie;  ///< per chip id
    std::string where;       ///< file:line of the spec, for the generated links' messages
};

/// Decode a generating `mesh:` map (it has `links_per_pair`) of a cluster
/// whose chips have `ethChannels` Ethernet channels each. Errors name the
/// file, line and key (0 rows, more links per pair than a direction's
/// channel group holds, an unknown key, a bad PCIe chip id).
MeshSpec decodeMeshSpec(const YamlMap& mesh, unsigned ethChannels);

/// The chips (index = id) and links of the mesh, links in galaxy.yaml order.
std::vector<ChipDesc> meshChips(const MeshSpec& spec);
std::vector<LinkDesc> meshLinks(const MeshSpec& spec, unsigned ethChannels);
/// The default ring (see above); empty when the open mesh has no cycle through every chip.
std::vector<unsigned> meshRing(const MeshSpec& spec);
/// A cycle through every cell of a rows x cols grid, as row-major cell
/// indices (r * cols + c): along the first line, back and forth over the
/// others, and back along the first position (lines are rows when rows is
/// even, else columns). A 1x2 grid gives both cells; empty when the grid
/// has no such cycle (a line of 3 or more, or both sides odd).
std::vector<unsigned> gridRing(unsigned rows, unsigned cols);

}  // namespace cclsim
