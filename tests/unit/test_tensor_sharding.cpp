// Sharded tensors without a simulation: where every page of a height-,
// width- and block-sharded buffer lies (models/core/ShardMap.h), and the
// geometry a collective gives its input and output (host/ccl/TensorSharding).
#include "host/ccl/CclOpError.h"
#include "host/ccl/TensorSharding.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace cclsim::ccl {
namespace {

/// Every page of a `pages`-page buffer has its own (shard, page) inside the shards.
void expectOneToOne(const ShardGeometry& g, std::uint64_t pages) {
    std::set<std::pair<std::uint32_t, std::uint64_t>> seen;
    for (std::uint64_t p = 0; p < pages; ++p) {
        const ShardPlace at = shardPlace(g, p);
        EXPECT_LT(at.shard, g.shards) << p;
        EXPECT_LT(at.page, g.shardPages()) << p;
        EXPECT_TRUE(seen.insert({at.shard, at.page}).second) << "page " << p << " shares a place";
    }
}

TEST(ShardMap, HeightWidthAndBlockPlacePagesAsTtMetalDoes) {
    // A 4x4-page tensor (rows of 4 pages).
    ShardGeometry h{std::uint32_t(ShardKind::Height), 4, 2, 4, 1, 2};  // 2 shards of 2 rows
    EXPECT_EQ(shardPlace(h, 5).shard, 0u);                             // row 1
    EXPECT_EQ(shardPlace(h, 5).page, 5u);
    EXPECT_EQ(shardPlace(h, 9).shard, 1u);  // row 2
    EXPECT_EQ(shardPlace(h, 9).page, 1u);
    ShardGeometry w{std::uint32_t(ShardKind::Width), 4, 4, 2, 1, 2};  // 2 shards of 2 columns
    EXPECT_EQ(shardPlace(w, 5).shard, 0u);                            // row 1, column 1
    EXPECT_EQ(shardPlace(w, 5).page, 3u);                             // its row 1, column 1
    EXPECT_EQ(shardPlace(w, 6).shard, 1u);                            // column 2
    EXPECT_EQ(shardPlace(w, 6).page, 2u);
    ShardGeometry b{std::uint32_t(ShardKind::Block), 4, 2, 2, 2, 4};  // a 2x2 grid of 2x2-page shards
    EXPECT_EQ(shardPlace(b, 0).shard, 0u);
    EXPECT_EQ(shardPlace(b, 3).shard, 1u);
    EXPECT_EQ(shardPlace(b, 10).shard, 3u);  // row 2, column 2
    EXPECT_EQ(shardPlace(b, 15).page, 3u);
    for (const ShardGeometry& g : {h, w, b}) expectOneToOne(g, 16);
}

TEST(TensorSharding, DefaultsSpreadEveryTensorOverTheGrid) {
    for (auto layout : {TensorLayoutKind::HeightSharded, TensorLayoutKind::WidthSharded, TensorLayoutKind::BlockSharded,
                        TensorLayoutKind::DramSharded})
        for (std::uint64_t pages : {1ull, 7ull, 32ull, 33ull, 1000ull}) {
            TensorSharding s;
            s.layout = layout;
            const ShardGeometry g = shardGeometry(s, pages, true, layout == TensorLayoutKind::DramSharded ? 12 : 80,
                                                  layout == TensorLayoutKind::DramSharded ? 12 : 8);
            EXPECT_TRUE(g.sharded());
            EXPECT_EQ(g.shards, layout == TensorLayoutKind::DramSharded ? 12u : 8u);
            expectOneToOne(g, pages);
        }
}

TEST(TensorSharding, TheOutputKeepsTheShardWidthAndGrowsItsHeight) {
    TensorSharding s;
    s.layout = TensorLayoutKind::BlockSharded;
    s.gridRows = 2, s.gridCols = 2;
    s.shardRows = 4, s.shardCols = 2;
    const ShardGeometry in = shardGeometry(s, 32, true, 80, 8);
    EXPECT_EQ(in.shard_rows, 4u);
    EXPECT_EQ(in.row_pages, 4u);
    const ShardGeometry out = shardGeometry(s, 8 * 32, false, 80, 8);
    EXPECT_EQ(out.shard_cols, 2u);
    EXPECT_EQ(out.shard_rows, 32u);
    expectOneToOne(out, 8 * 32);
    // The 2x2 grid is the top-left 2x2 rectangle of the 8-column worker grid.
    EXPECT_EQ(in.bankOf(0), 0u);
    EXPECT_EQ(in.bankOf(1), 1u);
    EXPECT_EQ(in.bankOf(2), 8u);
    EXPECT_EQ(in.bankOf(3), 9u);
}

TEST(TensorSharding, ShardsTooSmallOrGridsTooLargeNameTheField) {
    TensorSharding s;
    s.layout = TensorLayoutKind::HeightSharded;
    s.shardRows = 1;
    try {
        shardGeometry(s, 32, true, 80, 8);
        ADD_FAILURE() << "no error";
    } catch (const CclOpError& e) {
        EXPECT_EQ(e.field(), "shard_spec");
        EXPECT_NE(e.message().find("give at least 4 rows"), std::string::npos) << e.message();
    }
    s.shardRows = 0;
    s.gridRows = 9, s.gridCols = 9;
    try {
        shardGeometry(s, 32, true, 80, 8);
        ADD_FAILURE() << "no error";
    } catch (const CclOpError& e) {
        EXPECT_EQ(e.field(), "shard_grid");
    }
    EXPECT_THROW(parseLayout("diagonal_sharded"), CclOpError);
    EXPECT_EQ(parseLayout("width_sharded"), TensorLayoutKind::WidthSharded);
}

}  // namespace
}  // namespace cclsim::ccl
