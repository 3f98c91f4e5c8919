// Collectives on the model, checked byte for byte against the golden
// reference: every op on 2, 4 and 8 T3000 chips in both topologies and both
// dtypes with odd page counts, the variants (links, workers, bidirectional
// styles, gather dim, L1 tensors, skewed starts), 32-chip Galaxy rings and
// mesh axes, and the bad-input errors.
#include "tests/coverif/ClusterFiles.h"
#include "tests/coverif/CoverifHelpers.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

using cclsim::test::runGalaxy;
using cclsim::test::runN300;
using cclsim::test::runT3000;
using cclsim::test::writeChainDescriptor;

namespace {

/// Bytes of one element of the report's dtype.
std::uint64_t elementBytes(const nlohmann::json& r) {
    const std::string t = r["dtype"];
    return t == "bool" ? 1 : (t == "bf16" || t == "fp16") ? 2 : (t == "int64" || t == "uint64") ? 8 : 4;
}

/// The data check passed and covered every output element of every rank;
/// each rank's output holds `outputPagesPerRank` pages of `pageBytes`.
void expectExact(const nlohmann::json& rep, std::uint64_t outputPagesPerRank, std::uint64_t pageBytes = 2048) {
    ASSERT_TRUE(rep.contains("results")) << rep.dump(2);
    const auto& r = rep["results"];
    EXPECT_EQ(rep["data_check"], "pass") << rep.value("data_check_failure", std::string());
    EXPECT_EQ(r["wrong_elements"], 0u);
    EXPECT_EQ(r["output_elements"].get<std::uint64_t>() * elementBytes(r), outputPagesPerRank * pageBytes);
    EXPECT_EQ(r["elements_checked"].get<std::uint64_t>(), r["output_elements"].get<std::uint64_t>() *
                                                              r["n_chips"].get<std::uint64_t>() *
                                                              r["groups"].get<std::uint64_t>());
    EXPECT_GT(r["sim_time_us"].get<double>(), 0.0);
}

/// Output pages per rank of `op` for S = `pages` pages over n ranks.
std::uint64_t outputPages(const std::string& op, std::uint64_t pages, unsigned n) {
    return op == "reduce_scatter" ? pages / n : pages;
}

struct Case {
    std::string op, topology;
    unsigned n;
    std::string dtype;
};

std::string caseName(const ::testing::TestParamInfo<Case>& i) {
    return fmt::format("{}_{}_{}chips_{}", i.param.op, i.param.topology, i.param.n, i.param.dtype);
}

std::vector<Case> allCases() {
    std::vector<Case> out;
    for (const char* op : {"all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"})
        for (const char* topo : {"ring", "line"})
            for (unsigned n : {2u, 4u, 8u})
                for (const char* dtype : {"bf16", "fp32"}) out.push_back(Case{op, topo, n, dtype});
    return out;
}

}  // namespace

// 13 pages per rank block (odd), 3-page packets (chunks of 3, 3, 3, 3 and 1),
// two worker units per link, the EDM's default two buffers per channel: every
// op, topology, ring size and dtype is exact.
class CollectiveExact : public ::testing::TestWithParam<Case> {};
TEST_P(CollectiveExact, MatchesGolden) {
    const Case& c = GetParam();
    const std::uint64_t pages = c.op == "broadcast" ? 13 : 13ull * c.n;
    const auto rep =
        runT3000({c.op, "--impl", "edm", "--topology", c.topology, "--chips", std::to_string(c.n), "--dtype", c.dtype,
                  "--size", std::to_string(pages * 2048), "--packet", "6144", "--workers", "2"});
    expectExact(rep, outputPages(c.op, pages, c.n));
    EXPECT_EQ(rep["n_chips"], c.n);
    EXPECT_EQ(rep["topology"], c.topology);
    EXPECT_EQ(rep["packet_bytes"], 6144);
    EXPECT_EQ(rep["results"]["edm_buffers_per_channel"], 2);
}
INSTANTIATE_TEST_SUITE_P(T3000, CollectiveExact, ::testing::ValuesIn(allCases()), caseName);

// The same cases on the fabric implementation (the default): 13 pages per
// block split over two workers per direction (two-page packets and a
// one-page tail), every op, topology, ring size and dtype exact.
class CollectiveExactFabric : public ::testing::TestWithParam<Case> {};
TEST_P(CollectiveExactFabric, MatchesGolden) {
    const Case& c = GetParam();
    const std::uint64_t pages = c.op == "broadcast" ? 13 : 13ull * c.n;
    const auto rep = runT3000({c.op, "--topology", c.topology, "--chips", std::to_string(c.n), "--dtype", c.dtype,
                               "--size", std::to_string(pages * 2048), "--workers", "2"});
    expectExact(rep, outputPages(c.op, pages, c.n));
    EXPECT_EQ(rep["results"]["impl"], "fabric");
    EXPECT_EQ(rep["n_chips"], c.n);
}
INSTANTIATE_TEST_SUITE_P(T3000, CollectiveExactFabric, ::testing::ValuesIn(allCases()), caseName);

// EDM channels of one slot (the CCL guide's EDM) and of three (a slot count
// that does not divide the messages of a channel): every op exact on the
// 8-chip ring and the 4-chip line, 2-page packets (chunks of 2 x 6 and 1).
struct SlotCase {
    std::string op, topology;
    unsigned buffers;
};
class CollectiveEdmSlots : public ::testing::TestWithParam<SlotCase> {};
TEST_P(CollectiveEdmSlots, MatchesGolden) {
    const SlotCase& c = GetParam();
    const unsigned n = c.topology == "ring" ? 8 : 4;
    const std::uint64_t pages = c.op == "broadcast" ? 13 : 13ull * n;
    const auto rep = runT3000({c.op, "--impl", "edm", "--topology", c.topology, "--chips", std::to_string(n), "--size",
                               std::to_string(pages * 2048), "--packet", "4096", "--workers", "2", "--edm-buffers",
                               std::to_string(c.buffers)});
    expectExact(rep, outputPages(c.op, pages, n));
    EXPECT_EQ(rep["results"]["edm_buffers_per_channel"], c.buffers);
}
INSTANTIATE_TEST_SUITE_P(
    T3000, CollectiveEdmSlots, ::testing::ValuesIn([] {
        std::vector<SlotCase> out;
        for (const char* op : {"all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"})
            for (const char* topo : {"ring", "line"})
                for (unsigned b : {1u, 3u}) out.push_back(SlotCase{op, topo, b});
        return out;
    }()),
    [](const ::testing::TestParamInfo<SlotCase>& i) {
        return fmt::format("{}_{}_{}buffers", i.param.op, i.param.topology, i.param.buffers);
    });

// ---- variants on T3000 --------------------------------------------------------

TEST(CollectiveVariants, TwoLinksPerHopOnInterBoardRing) {
    // Chips 0,1,2,3 are joined by two user links per neighbour pair.
    expectExact(runT3000({"all_gather", "--impl", "edm", "--order", "0,1,2,3", "--links", "2", "--size", "416K"}), 208);
}

TEST(CollectiveVariants, AllReduceTwoLinksThreeWorkersFp32) {
    expectExact(runT3000({"all_reduce", "--impl", "edm", "--order", "0,1,2,3", "--links", "2", "--workers", "3",
                          "--dtype", "fp32", "--size", "200K"}),
                100);
}

TEST(CollectiveVariants, AllGatherBidirectionalFull) {
    expectExact(runT3000({"all_gather", "--impl", "edm", "--bidir", "full", "--size", "208K", "--workers", "3"}), 104);
}

TEST(CollectiveVariants, AllGatherUnidirectional) {
    expectExact(runT3000({"all_gather", "--impl", "edm", "--bidir", "off", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, AllReduceBidirectionalFull) {
    expectExact(runT3000({"all_reduce", "--impl", "edm", "--bidir", "full", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, AllReduceUnidirectional) {
    expectExact(runT3000({"all_reduce", "--impl", "edm", "--bidir", "off", "--size", "208K", "--dtype", "fp32"}), 104);
}

TEST(CollectiveVariants, AllToAllUnidirectionalRing) {
    expectExact(runT3000({"all_to_all", "--impl", "edm", "--bidir", "off", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, BroadcastFromAnInnerRootBothStyles) {
    expectExact(runT3000({"broadcast", "--impl", "edm", "--root", "5", "--bidir", "halves", "--size", "26K"}), 13);
}

TEST(CollectiveVariants, BroadcastLineFromTheMiddle) {
    expectExact(runT3000({"broadcast", "--impl", "edm", "--root", "3", "--topology", "line", "--size", "26K"}), 13);
}

TEST(CollectiveVariants, AllGatherDim1InterleavesRows) {
    expectExact(runT3000({"all_gather", "--impl", "edm", "--dim", "1", "--row-pages", "3", "--size", "192K"}), 96);
}

TEST(CollectiveVariants, AllGatherDim1OnALine) {
    expectExact(runT3000({"all_gather", "--impl", "edm", "--dim", "1", "--row-pages", "1", "--topology", "line",
                          "--chips", "4", "--size", "104K"}),
                52);
}

TEST(CollectiveVariants, TensorsInL1) {
    expectExact(runT3000({"reduce_scatter", "--impl", "edm", "--l1", "--size", "208K"}), 13);
}

TEST(CollectiveVariants, TensorsInL1BesideFabricWorkersAndMuxes) {
    // The tensor takes the same L1 range on every worker core; the fabric's
    // workers and muxes still find cores (a tensor does not claim a core).
    expectExact(runT3000({"all_gather", "--impl", "fabric", "--workers", "2", "--l1", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, ManyWorkersSmallPackets) {
    expectExact(runT3000({"all_gather", "--impl", "edm", "--workers", "8", "--packet", "2048", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, SmallPagesAndDefaultPacket) {
    expectExact(runT3000({"all_reduce", "--impl", "edm", "--page-bytes", "1024", "--size", "104K"}), 104, 1024);
}

// The fabric ring all-gather packs up to four pages per packet (scatter
// writes of 2..4 chunks to pages in different DRAM banks): 1 KB pages give
// four, the CCL benchmark's 6144 B payload three 2 KB pages; 13-page blocks
// leave shorter tails.
TEST(CollectiveVariants, FabricScatterWritesOfFourPages) {
    expectExact(runT3000({"all_reduce", "--impl", "fabric", "--page-bytes", "1024", "--size", "104K"}), 104, 1024);
}
TEST(CollectiveVariants, FabricScatterWritesOfThreePages) {
    expectExact(runT3000({"--fabric-payload", "6144", "all_gather", "--impl", "fabric", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, SkewedStartsAreStillExact) {
    // Chips start up to 70 us apart; the EDM handshakes make that safe.
    const auto rep = runT3000({"all_reduce", "--impl", "edm", "--skew-ns", "10000", "--size", "208K"});
    expectExact(rep, 104);
    // Time is measured on the chip that started last (chip 7 at 70 us).
    EXPECT_EQ(rep["results"]["measured_on_chip"], 7);
    EXPECT_LT(rep["results"]["sim_time_us"].get<double>(), rep["results"]["end_to_end_us"].get<double>());
}

TEST(CollectiveVariants, OneChipStartsLate) {
    expectExact(runT3000({"all_to_all", "--impl", "edm", "--start", "4:40000", "--size", "208K"}), 104);
}

TEST(CollectiveVariants, MeshRowsAndColumnsAtOnce) {
    // T3000 rows are lines of 4 (no wraparound link).
    expectExact(runT3000({"all_gather", "--impl", "edm", "--axis", "row", "--topology", "line", "--size", "104K"}), 52);
}

TEST(CollectiveVariants, MeshColumnsAreTwoChipRings) {
    expectExact(runT3000({"reduce_scatter", "--impl", "edm", "--axis", "col", "--size", "52K", "--bidir", "off"}), 13);
}

// ---- Galaxy ---------------------------------------------------------------------

class GalaxyRing : public ::testing::TestWithParam<std::string> {};
TEST_P(GalaxyRing, ThirtyTwoChipsExact) {
    const std::string op = GetParam();
    const std::uint64_t pages = op == "broadcast" ? 13 : 3 * 32;
    expectExact(runGalaxy({op, "--impl", "edm", "--size", std::to_string(pages * 2048), "--workers", "2"}),
                outputPages(op, pages, 32));
}
INSTANTIATE_TEST_SUITE_P(Galaxy, GalaxyRing,
                         ::testing::Values("all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"));

TEST(GalaxyMesh, RowLinesFourLinks) {
    expectExact(runGalaxy({"all_gather", "--impl", "edm", "--axis", "row", "--topology", "line", "--links", "4",
                           "--size", "48K"}),
                24);
}

TEST(GalaxyMesh, ColumnRingsOnTheTorus) {
    expectExact(runGalaxy({"all_reduce", "--impl", "edm", "--axis", "col", "--torus", "--links", "2", "--size", "24K"}),
                12);
}

TEST(GalaxyMesh, RowRingsOnTheTorusReduceScatter) {
    expectExact(
        runGalaxy({"reduce_scatter", "--impl", "edm", "--axis", "row", "--torus", "--size", "48K", "--dtype", "fp32"}),
        3);
}

// ---- bad input -------------------------------------------------------------------

// The direct (one-shot) reduce-scatter (tt-metal's reduce_scatter_minimal_direct,
// ttnn.reduce_scatter's path on a ring up to 512 KiB per chip): every block
// straight to its owner, folded there. Exact on 4-, 6- and 8-chip rings, for
// reduce_scatter and all_reduce's first op, with a partial last page.
struct DirectCase {
    std::string op;
    unsigned n;
    std::string dtype, redop;
};
void PrintTo(const DirectCase& c, std::ostream* os) {
    *os << c.op << " " << c.n << " chips " << c.dtype << " " << c.redop;
}
class DirectReduceScatter : public ::testing::TestWithParam<DirectCase> {};
TEST_P(DirectReduceScatter, MatchesGolden) {
    const DirectCase& c = GetParam();
    // 13 pages per block and a few elements more: the last page of each block is partial.
    const std::uint64_t count = (13ull * 2048 / (c.dtype == "fp32" ? 4 : 2)) * c.n - 5;
    const auto rep = runT3000(
        {c.op, "--chips", std::to_string(c.n), "--dtype", c.dtype, "--op", c.redop, "--count", std::to_string(count)});
    ASSERT_TRUE(rep.contains("results")) << rep.dump(2);
    EXPECT_EQ(rep["data_check"], "pass") << rep.value("data_check_failure", std::string());
    EXPECT_EQ(rep["results"]["wrong_elements"], 0u);
    EXPECT_EQ(rep["results"]["rs_algorithm"], "direct");
    EXPECT_EQ(rep["results"]["workers"], 1);
}
INSTANTIATE_TEST_SUITE_P(
    T3000, DirectReduceScatter,
    ::testing::Values(DirectCase{"reduce_scatter", 8, "bf16", "add"}, DirectCase{"reduce_scatter", 4, "fp32", "mean"},
                      DirectCase{"reduce_scatter", 6, "fp16", "square_add"},
                      DirectCase{"reduce_scatter", 8, "int32", "max"}, DirectCase{"all_reduce", 8, "bf16", "add"},
                      DirectCase{"all_reduce", 6, "fp32", "mean"}),
    [](const ::testing::TestParamInfo<DirectCase>& i) {
        return fmt::format("{}_{}chips_{}_{}", i.param.op, i.param.n, i.param.dtype, i.param.redop);
    });

// Beyond one core's 640 KiB staging shard the arrivals land in an
// interleaved tensor in L1 (up to 4 MiB), beyond that in DRAM.
TEST(DirectReduceScatterStaging, L1Interleaved) {
    const auto rep = runT3000({"reduce_scatter", "--rs-algorithm", "direct", "--size", "1M"});
    expectExact(rep, 64);
    EXPECT_EQ(rep["results"]["rs_algorithm"], "direct");
}

TEST(DirectReduceScatterStaging, Dram) {
    const auto rep = runT3000({"all_reduce", "--rs-algorithm", "direct", "--size", "4M"});
    expectExact(rep, 2048);
    EXPECT_EQ(rep["results"]["rs_algorithm"], "direct");
}

TEST(DirectReduceScatterStaging, ChunksSplitOverLinks) {
    // Galaxy rows closed by the torus links: 4 links, 13 pages per block in
    // two chunks of 8 pages, so two of the three links get a chunk each.
    const auto rep = runGalaxy({"all_reduce", "--axis", "row", "--torus", "--links", "3", "--rs-algorithm", "direct",
                                "--dtype", "fp32", "--count", std::to_string(13 * 512 * 8 - 3)});
    ASSERT_TRUE(rep.contains("results")) << rep.dump(2);
    EXPECT_EQ(rep["data_check"], "pass") << rep.value("data_check_failure", std::string());
    EXPECT_EQ(rep["results"]["rs_algorithm"], "direct");
}

// tt-metal's CCL benchmark times a cell by the slowest chip's kernel
// duration; the report gives it beside the time on the chip started last.
TEST(CollectiveReport, MaxChipTimeIsTheSlowestChip) {
    const auto rep = runT3000({"all_to_all", "--chips", "4", "--topology", "line", "--size", "64K", "--no-data"});
    ASSERT_TRUE(rep.contains("results")) << rep.dump(2);
    const auto& r = rep["results"];
    double slowest = 0;
    for (const auto& [chip, us] : r["chip_time_us"].items()) slowest = std::max(slowest, us.get<double>());
    EXPECT_DOUBLE_EQ(r["max_chip_time_us"].get<double>(), slowest);
    // On a line the chip started last is not the slowest: the ends send all
    // their blocks one way.
    EXPECT_GT(slowest, r["sim_time_us"].get<double>() + 1.0);
}

namespace {
void expectConfigError(const nlohmann::json& rep, const std::string& fragment) {
    ASSERT_TRUE(rep.contains("error")) << rep.dump(2);
    EXPECT_NE(rep["error"].get<std::string>().find(fragment), std::string::npos) << rep["error"];
}
}  // namespace

TEST(CollectiveBadInput, DirectReduceScatterWhereItCannotRun) {
    expectConfigError(runT3000({"reduce_scatter", "--rs-algorithm", "direct", "--topology", "line"}, 3),
                      "--rs-algorithm direct: it needs a ring of three or more chips");
    expectConfigError(runT3000({"all_reduce", "--rs-algorithm", "direct", "--impl", "edm"}, 3),
                      "--rs-algorithm direct: it runs on the packet fabric");
    expectConfigError(runT3000({"reduce_scatter", "--rs-algorithm", "direct", "--method", "broadcast"}, 3),
                      "--rs-algorithm direct: --method broadcast");
    expectConfigError(runT3000({"reduce_scatter", "--rs-algorithm", "sideways"}, 2), "--rs-algorithm");
}

TEST(CollectiveBadInput, EdmBuffersBeyondTheEthernetL1) {
    // 16 channels per Ethernet core (all-reduce, 4 workers per direction) of 16 slots: < one page each.
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--edm-buffers", "16", "--size", "1M"}, 3),
                      "use fewer --workers or --edm-buffers");
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--edm-buffers", "4", "--packet", "6144"}, 3),
                      "8 EDM channels per Ethernet core (1 link(s) x 4 worker(s)) of 4 buffer(s) fit at most 4096 B");
}

TEST(CollectiveBadInput, SizeNotWholeElements) {
    expectConfigError(runT3000({"broadcast", "--impl", "edm", "--size", "1001", "--dtype", "fp32"}, 3),
                      "--size 1001 B is not a whole number of 4-byte fp32 elements");
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--size", "24"}, 3),
                      "is not 8 replicas x a whole number");
}

TEST(CollectiveBadInput, AllToAllFirstDimensionIsTheReplicas) {
    expectConfigError(runT3000({"all_to_all", "--impl", "edm", "--count", "12"}, 3),
                      "first dimension must equal the 8 replicas: 12 elements do not split into 8 equal blocks");
}

TEST(CollectiveBadInput, GroupSizeMustDivideTheReplicas) {
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--group", "consecutive:3"}, 3),
                      "a group size of 3 does not divide the 8 replicas");
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--group", "diagonal:2"}, 3), "--group");
}

TEST(CollectiveBadInput, OperatorTypeNotSupported) {
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--op", "mean", "--dtype", "int32"}, 3),
                      "--op mean does not support --dtype int32 (INT); mean takes: bf16, fp16, fp32");
    expectConfigError(runT3000({"reduce_scatter", "--impl", "edm", "--op", "logical_or", "--dtype", "half"}, 3),
                      "logical_or takes: bool");
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--op", "add", "--dtype", "unsigned_int"}, 3),
                      "add takes: bf16, fp16, fp32, int32, int64, uint64");
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--dtype", "int8"}, 3), "unknown data type 'int8'");
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--op", "xor"}, 3), "unknown reduction operator 'xor'");
}

// A machine described by tt-metal's own cluster descriptor (the T3000 of
// tests/data/tt_cluster/): the collective runs around the ring derived from
// its chips' coordinates, byte-exact.
TEST(Collectives, OnATtMetalClusterDescriptor) {
    const auto rep =
        runT3000({"--cluster", CCLSIM_SOURCE_DIR "/tests/data/tt_cluster/t3000.yaml", "all_gather", "--size", "64K"});
    EXPECT_EQ(rep["data_check"], "pass") << rep.dump(2);
    EXPECT_EQ(rep["results"]["n_chips"], 8);
    EXPECT_EQ(rep["results"]["topology"], "ring");
}

TEST(CollectiveBadInput, RingWithoutWraparound) {
    // An explicit order is taken as given (--chips N would pick chips that close a ring).
    expectConfigError(runGalaxy({"all_gather", "--impl", "edm", "--order", "0,1,2,3,4,5,6,7"}, 3), "wraparound");
}

TEST(CollectiveBadInput, MoreLinksThanTheBoardHas) {
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--links", "2"}, 3),
                      "has 1 user link(s) but --links is 2");
}

TEST(CollectiveBadInput, MoreWorkersThanTheChipHas) {
    expectConfigError(
        runT3000({"all_reduce", "--impl", "edm", "--order", "0,1,2,3", "--links", "2", "--workers", "8"}, 3),
        "worker cores of chip");
}

TEST(CollectiveBadInput, PacketLargerThanEdmMemory) {
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--packet", "65536"}, 3), "--packet 65536");
}

TEST(CollectiveBadInput, OrderNotConnected) {
    expectConfigError(
        runT3000({"all_gather", "--impl", "edm", "--order", "0,1,6", "--topology", "line", "--size", "6K"}, 3),
        "not connected");
}

TEST(CollectiveBadInput, TensorLargerThanMemory) {
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--size", "64G", "--no-data"}, 3), "DRAM buffer");
}

TEST(CollectiveBadInput, MethodThatDoesNotFit) {
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--method", "broadcast"}, 3),
                      "applies to reduce_scatter and all_reduce");
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--topology", "line", "--method", "clockwise_ring"}, 3),
                      "a line of chips has one method");
    expectConfigError(runT3000({"all_reduce", "--impl", "edm", "--bidir", "off", "--method", "clockwise_ring"}, 3),
                      "give --method or --bidir, not both");
}

TEST(CollectiveBadInput, BroadcastRootOutOfRange) {
    expectConfigError(runT3000({"broadcast", "--impl", "edm", "--root", "8"}, 3), "--root 8");
}

TEST(CollectiveBadInput, AxisOnABoardWithoutMesh) {
    expectConfigError(runN300({"all_gather", "--axis", "row"}, 3), "describes no mesh");
}

// ---- user-written cluster descriptors ----------------------------------------------

TEST(UserCluster, ThreeChipRing) {
    const std::string file = writeChainDescriptor("ring3", 3, true);
    const auto rep = runT3000({"all_reduce", "--impl", "edm", "--cluster", file, "--size", "78K"});
    expectExact(rep, 39);
    EXPECT_EQ(rep["n_chips"], 3);
    EXPECT_EQ(rep["results"]["orders"][0], nlohmann::json::array({0, 1, 2}));
}

TEST(UserCluster, FiveChipLine) {
    const std::string file = writeChainDescriptor("line5", 5, false);
    expectExact(
        runT3000({"reduce_scatter", "--impl", "edm", "--cluster", file, "--topology", "line", "--size", "130K"}), 13);
}

TEST(UserCluster, LineIsNotARing) {
    const std::string file = writeChainDescriptor("line4", 4, false);
    expectConfigError(runT3000({"all_gather", "--impl", "edm", "--cluster", file, "--size", "64K"}, 3), "wraparound");
}
