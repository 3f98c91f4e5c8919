// A collective's memory config: interleaved pages (the default) or one of
// tt-metal's sharded layouts, and the shard geometry of each of its
// tensors (models/core/ShardMap.h says where a page of it lies).
//
// The user gives the layout, optionally the core grid and the input's shard
// shape in pages; every tensor of the op (input, output) takes the same
// layout, grid and shard width, and a shard height that spreads its rows
// over the grid (the output of an all-gather has n times the input's rows,
// so n times its shard height, as tt-metal derives an all-gather's output
// memory config from its input's). Intermediate buffers stay interleaved.
#pragma once

#include "models/core/ShardMap.h"

#include <cstdint>
#include <string>

namespace cclsim::ccl {

enum class TensorLayoutKind { Interleaved, HeightSharded, WidthSharded, BlockSharded, DramSharded };

const char* layoutName(TensorLayoutKind k);
/// "interleaved", "height_sharded", ...; ConfigError otherwise.
TensorLayoutKind parseLayout(const std::string& text);

struct TensorSharding {
    TensorLayoutKind layout = TensorLayoutKind::Interleaved;
    unsigned gridRows = 0, gridCols = 0;  ///< cores (0: the default grid)
    std::uint32_t shardRows = 0;          ///< the input's shard height in pages (0: derived)
    std::uint32_t shardCols = 0;          ///< shard width in pages (0: 1)

    bool sharded() const { return layout != TensorLayoutKind::Interleaved; }
    /// L1 layouts live in the worker cores' L1; interleaved and DRAM-sharded in DRAM
    /// (interleaved: as --l1 says).
    bool inDram() const { return layout == TensorLayoutKind::DramSharded; }
};

/// The geometry of a tensor of `pages` pages; `input`: the tensor the
/// user's shard height applies to; `banks`: the chip's worker cores (L1
/// layouts, `bankCols` of them per row of the worker grid: an R x C grid is
/// the R x C rectangle at its top left) or DRAM banks (dram_sharded: shard s
/// on bank s). Throws CclOpError naming the
/// field (layout, shard_spec, shard_grid) when the shards cannot hold it.
ShardGeometry shardGeometry(const TensorSharding& s, std::uint64_t pages, bool input, unsigned banks,
                            unsigned bankCols);

/// "height_sharded 8 shards of 4x1 pages on a 1x8 grid", for reports.
std::string describe(const TensorSharding& s, const ShardGeometry& g);

}  // namespace cclsim::ccl
