#include "host/ccl/TensorSharding.h"

#include "host/ccl/CclOpError.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim::ccl {

const char* layoutName(TensorLayoutKind k) {
    switch (k) {
        case TensorLayoutKind::Interleaved: return "interleaved";
        case TensorLayoutKind::HeightSharded: return "height_sharded";
        case TensorLayoutKind::WidthSharded: return "width_sharded";
        case TensorLayoutKind::BlockSharded: return "block_sharded";
        case TensorLayoutKind::DramSharded: return "dram_sharded";
    }
    return "?";
}

TensorLayoutKind parseLayout(const std::string& text) {
    for (auto k : {TensorLayoutKind::Interleaved, TensorLayoutKind::HeightSharded, TensorLayoutKind::WidthSharded,
                   TensorLayoutKind::BlockSharded, TensorLayoutKind::DramSharded})
        if (text == layoutName(k)) return k;
    throw CclOpError("layout", fmt::format("{}: expected interleaved, height_sharded, width_sharded, block_sharded or "
                                           "dram_sharded",
                                           specRef("layout", text)));
}

namespace {

std::uint64_t divUp(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

ShardGeometry shardGeometry(const TensorSharding& s, std::uint64_t pages, bool input, unsigned banks,
                            unsigned bankCols) {
    ShardGeometry g;
    if (!s.sharded()) return g;
    // Default grids: 8 worker cores (a row of the worker grid; block: 2x4),
    // or every DRAM bank.
    unsigned rows = s.gridRows, cols = s.gridCols;
    if (rows == 0 || cols == 0) {
        if (s.layout == TensorLayoutKind::DramSharded)
            rows = 1, cols = banks;
        else if (s.layout == TensorLayoutKind::BlockSharded)
            rows = 2, cols = 4;
        else
            rows = 1, cols = 8;
    }
    const unsigned shards = rows * cols;
    const bool dram = s.inDram();
    const unsigned perRow = std::max(bankCols, 1u);
    if (shards > banks || (!dram && (cols > perRow || rows > banks / perRow)))
        throw CclOpError("shard_grid", fmt::format("{}: {} shards but the chip has {}",
                                                   specRef("shard_grid", fmt::format("{}x{}", rows, cols)), shards,
                                                   dram ? fmt::format("{} DRAM banks", banks)
                                                        : fmt::format("{} x {} worker cores", banks / perRow, perRow)));
    const std::uint32_t w = s.shardCols ? s.shardCols : 1;
    g.shards = shards;
    g.shard_cols = w;
    if (!dram) g.bank_cols = cols, g.bank_stride = perRow;  // the grid: a rectangle of the worker grid
    switch (s.layout) {
        case TensorLayoutKind::HeightSharded:
            g.kind = std::uint32_t(ShardKind::Height);
            g.row_pages = w;
            break;
        case TensorLayoutKind::WidthSharded:
        case TensorLayoutKind::DramSharded:
            g.kind = std::uint32_t(ShardKind::Width);
            g.row_pages = w * shards;
            break;
        case TensorLayoutKind::BlockSharded:
            g.kind = std::uint32_t(ShardKind::Block);
            g.row_pages = w * cols;
            g.grid_cols = cols;
            break;
        case TensorLayoutKind::Interleaved: break;
    }
    const std::uint64_t tensorRows = divUp(std::max<std::uint64_t>(pages, 1), g.row_pages);
    const unsigned along = s.layout == TensorLayoutKind::HeightSharded  ? shards
                           : s.layout == TensorLayoutKind::BlockSharded ? rows
                                                                        : 1;  // width: every shard holds all rows
    const std::uint64_t need = divUp(tensorRows, along);
    if (input && s.shardRows) {
        if (s.shardRows < need)
            throw CclOpError("shard_spec",
                             fmt::format("{}: shards of {} rows hold {} of the input's {} rows of {} pages (give at "
                                         "least {} rows)",
                                         specRef("shard_spec", fmt::format("{}x{}", s.shardRows, w)), s.shardRows,
                                         std::uint64_t(s.shardRows) * along, tensorRows, g.row_pages, need));
        g.shard_rows = s.shardRows;
    } else {
        g.shard_rows = std::uint32_t(need);
    }
    return g;
}

std::string describe(const TensorSharding& s, const ShardGeometry& g) {
    if (!s.sharded()) return layoutName(s.layout);
    return fmt::format("{}: {} shards of {}x{} pages (rows of {} pages){}", layoutName(s.layout), g.shards,
                       g.shard_rows, g.shard_cols, g.row_pages,
                       g.kind == std::uint32_t(ShardKind::Block)
                           ? fmt::format(", a {}x{} core grid", g.shards / g.grid_cols, g.grid_cols)
                           : std::string());
}

}  // namespace cclsim::ccl
