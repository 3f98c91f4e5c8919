// Where the pages of a sharded buffer live (tt-metal's sharded memory
// configs, TensorMemoryLayout HEIGHT_SHARDED / WIDTH_SHARDED /
// BLOCK_SHARDED, and DRAM-sharded: width-sharded over DRAM banks).
//
// A buffer's pages form a grid of rows of `row_pages` pages (page p is row
// p / row_pages, column p % row_pages: row-major, as a tiled tensor's
// tiles). The grid is cut into shards of shard_rows x shard_cols pages,
// each shard on one bank (a worker core's L1, or a DRAM bank), its pages
// row-major from the buffer's base address:
//
//   height: shard_cols = row_pages; shard s holds rows [s*shard_rows, ...)
//   width:  shard s holds columns [s*shard_cols, ...) of every row
//   block:  shards in a grid of grid_cols columns: shard
//           (row / shard_rows) * grid_cols + column / shard_cols
//
// Shard s lives on a bank (bankOf): a worker core's L1, the shards of an
// R x C core grid on the rectangle of the worker grid at its top left (the
// chip's L1 banks are its worker cores row by row), or DRAM bank s. Pure:
// used by the host runtime (placing buffers, reading and writing pages) and
// by the kernels (tensor_page_addr), which must agree.
#pragma once

#include <cstdint>

namespace cclsim {

enum class ShardKind : std::uint32_t { None = 0, Height = 1, Width = 2, Block = 3 };

struct ShardGeometry {
    std::uint32_t kind = 0;       ///< ShardKind (None: interleaved)
    std::uint32_t row_pages = 1;  ///< pages per row of the buffer's page grid
    std::uint32_t shard_rows = 0;
    std::uint32_t shard_cols = 0;
    std::uint32_t grid_cols = 1;  ///< block: shards per row of the core grid
    std::uint32_t shards = 0;     ///< banks used (shards of the buffer)
    /// The core grid on the banks: shard s is on bank (s / bank_cols) *
    /// bank_stride + s % bank_cols (bank_stride = the chip's worker columns
    /// makes an R x C grid a rectangle of the worker grid); 0: bank s.
    std::uint32_t bank_cols = 0;
    std::uint32_t bank_stride = 0;

    bool sharded() const { return kind != std::uint32_t(ShardKind::None); }
    std::uint64_t shardPages() const { return std::uint64_t(shard_rows) * shard_cols; }
    std::uint32_t bankOf(std::uint32_t shard) const {
        return bank_cols ? (shard / bank_cols) * bank_stride + shard % bank_cols : shard;
    }
    template <class V> void visit(V& v) {
        v(kind), v(row_pages), v(shard_rows), v(shard_cols), v(grid_cols), v(shards), v(bank_cols), v(bank_stride);
    }
};

struct ShardPlace {
    std::uint32_t shard = 0;  ///< the bank
    std::uint64_t page = 0;   ///< page index inside the shard
};

/// Where page `p` of a sharded buffer lies.
inline ShardPlace shardPlace(const ShardGeometry& g, std::uint64_t p) {
    const std::uint64_t row = p / g.row_pages, col = p % g.row_pages;
    switch (ShardKind(g.kind)) {
        case ShardKind::Height:
            return ShardPlace{std::uint32_t(row / g.shard_rows), (row % g.shard_rows) * g.row_pages + col};
        case ShardKind::Width:
            return ShardPlace{std::uint32_t(col / g.shard_cols), row * g.shard_cols + col % g.shard_cols};
        case ShardKind::Block:
            return ShardPlace{std::uint32_t((row / g.shard_rows) * g.grid_cols + col / g.shard_cols),
                              (row % g.shard_rows) * g.shard_cols + col % g.shard_cols};
        case ShardKind::None: break;
    }
    return ShardPlace{};
}

}  // namespace cclsim
