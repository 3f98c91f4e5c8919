// tt-metal's cluster descriptor: the YAML that tt-metal's driver (UMD)
// writes for the machine it runs on, read into our ClusterDescriptor.
//
// The keys used (tt-umd's cluster_descriptor writer and its examples,
// tests/cluster_descriptor_examples/ of tenstorrent/tt-umd):
//
//   arch: {0: wormhole_b0, 1: wormhole_b0}          # per chip: Wormhole only here
//   chips: {0: [0, 0, 0, 0], 1: [1, 0, 0, 0]}      # Ethernet coordinates [x, y, rack, shelf] (may be {})
//   ethernet_connections: [[{chip: 0, chan: 8}, {chip: 1, chan: 0}], ...]
//   chips_with_mmio: [{0: 0}, ...]                  # chip: its PCIe device id
//   harvesting: {0: {noc_translation: true, harvest_mask: 65}, ...}
//   boards: [[{board_id: 1}, {board_type: n300}, {chips: [0, 1]}]]
//
// Other keys (unique ids, bus ids, links to other hosts' chips) do not
// change the model and are ignored. What the format does not say is
// derived:
//   - the links tt-metal's dispatch reserves: for every chip without PCIe,
//     its lowest-channel link to a chip with PCIe (on an N300, channel 8 of
//     the PCIe chip, as our n300.yaml has it);
//   - a mesh and its row-major order from the chips' [x, y] when they tile
//     a full grid;
//   - the ring order: a ring through every chip (on a mesh, a snake around
//     it; without coordinates, as UMD writes a 6U Galaxy with chips: {}, one
//     found by a depth-first search), or none when none is found;
//   - harvesting: cclsim's chips share one arch, so a Tensix row harvested
//     on any chip (harvest_mask bit i is NoC row {11, 1, 10, 2, 9, 3, 8, 4,
//     7, 5}[i], tt-umd's Wormhole HARVESTING_NOC_LOCATIONS) is left out of
//     every chip's worker grid.
#pragma once

#include "models/common/Yaml.h"
#include "platforms/ClusterDescriptor.h"

#include <string>

namespace cclsim {

/// Is this YAML a tt-metal cluster descriptor (ethernet_connections and no
/// name) rather than one of ours?
bool isTtMetalClusterDescriptor(const YamlMap& root);

/// Read a tt-metal cluster descriptor; the arch YAML is `archOverride` when
/// given, else `archDir`/wormhole_b0.yaml. Errors name the file, line and key.
ClusterDescriptor loadTtMetalClusterDescriptor(const YamlMap& root, const std::string& file,
                                               const std::string& archOverride, const std::string& archDir);

}  // namespace cclsim
