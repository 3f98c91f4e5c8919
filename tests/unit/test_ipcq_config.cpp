// PE_IPCQ host logic without simulation (docs/design/pe-ipcq.md#t1 "builtin
// topology", T3 ccl.yaml loading, F4 errors): ccl.yaml parsing and
// resolution, the builtin topologies, neighbors() hooks, I3 symmetry, and the
// golden reduction orders of the algorithms.
#include "golden/AllReduceGolden.h"
#include "host/ipcq/IpcqAlgorithms.h"
#include "host/ipcq/IpcqConfig.h"
#include "host/ipcq/IpcqTopology.h"
#include "models/common/Report.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <set>

using namespace cclsim;
using namespace cclsim::ipcq;

namespace {

const char* kBase = R"(defaults:
  algorithm: ring
  buffer_kind: tcm
  n_slots: 4
  world_size: 12
algorithms:
  ring:
    kernel: ring_allreduce
    topology: ring_1d
    world_size: 6
  ring_default_ws:
    kernel: ring_allreduce
    topology: ring_1d
    backpressure: poll
)";

std::string errorOf(const std::string& text, const std::string& algorithm = "") {
    try {
        resolve(parseIpcqConfig(text, "test.yaml"), algorithm);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return {};
}

std::vector<std::uint8_t> sumInOrder(const golden::Tensors& x, const std::vector<unsigned>& order, std::size_t off,
                                     std::size_t len, golden::DType t) {
    std::vector<std::uint8_t> acc(x[order[0]].begin() + off, x[order[0]].begin() + off + len);
    for (std::size_t k = 1; k < order.size(); ++k)
        golden::combine(golden::RedOp::Add, t, acc.data(), x[order[k]].data() + off, acc.data(),
                        len / golden::elementBytes(t));
    return acc;
}

}  // namespace

TEST(IpcqConfig, ShippedFileLoadsAndEveryAlgorithmResolves) {
    const IpcqConfig cfg = loadIpcqConfig(CCLSIM_SOURCE_DIR "/platforms/ccl.yaml");
    EXPECT_EQ(resolve(cfg, "").algorithm, cfg.defaultAlgorithm.value);
    std::set<std::string> kernels;
    for (const std::string& n : cfg.names()) {
        const GroupConfig g = resolve(cfg, n);
        ASSERT_NE(findAlgorithm(g.kernel.value), nullptr) << n << ": kernel " << g.kernel.value;
        ASSERT_TRUE(parseTopology(g.topology.value).has_value()) << n;
        kernels.insert(g.kernel.value);
    }
    // Every registered algorithm is listed in the example file.
    for (const std::string& a : algorithmNames()) EXPECT_TRUE(kernels.count(a)) << a << " missing from ccl.yaml";
}

TEST(IpcqConfig, AlgorithmOverridesDefaults) {
    const IpcqConfig cfg = parseIpcqConfig(kBase, "test.yaml");
    const GroupConfig ring = resolve(cfg, "");
    EXPECT_EQ(ring.algorithm, "ring");
    EXPECT_EQ(ring.worldSize.value, 6u);  // algorithm > defaults
    EXPECT_EQ(ring.worldSize.where, "test.yaml:10: key 'algorithms.ring.world_size'");
    EXPECT_EQ(ring.nSlots.value, 4u);
    EXPECT_EQ(ring.backpressure.value, Backpressure::Sleep);  // built-in default
    const GroupConfig other = resolve(cfg, "ring_default_ws");
    EXPECT_EQ(other.worldSize.value, 12u);  // defaults
    EXPECT_EQ(other.backpressure.value, Backpressure::Poll);
    EXPECT_EQ(other.slotSize.value, 4096u);
}

TEST(IpcqConfig, WorldSizeFallsBackToPlacement) {
    const GroupConfig g =
        resolve(parseIpcqConfig("defaults: {algorithm: a}\nalgorithms:\n  a: {topology: ring_1d}\n", "t.yaml"), "");
    EXPECT_FALSE(g.worldSize.given);
    EXPECT_EQ(g.kernel.value, "a");  // kernel defaults to the entry's name
}

TEST(IpcqConfigErrors, MissingDefaultAlgorithm) {
    const std::string e = errorOf("defaults: {n_slots: 2}\nalgorithms:\n  a: {topology: ring_1d}\n");
    EXPECT_NE(e.find("test.yaml:1: key 'defaults' has no 'algorithm'"), std::string::npos) << e;
}

TEST(IpcqConfigErrors, UnknownAlgorithm) {
    std::string text = kBase;
    text.replace(text.find("algorithm: ring"), 15, "algorithm: rnig");
    const std::string e = errorOf(text);
    EXPECT_NE(e.find("test.yaml:2: key 'defaults.algorithm'"), std::string::npos) << e;
    EXPECT_NE(e.find("'rnig' is not defined"), std::string::npos) << e;
    EXPECT_NE(e.find("ring, ring_default_ws"), std::string::npos) << e;
    const std::string cli = errorOf(kBase, "nope");
    EXPECT_NE(cli.find("'nope' is not defined"), std::string::npos) << cli;
}

TEST(IpcqConfigErrors, UnknownKeyBadValueAndMissingTopology) {
    EXPECT_NE(errorOf(std::string(kBase) + "    colour: blue\n")
                  .find("test.yaml:15: unknown key 'algorithms.ring_default_ws.colour'"),
              std::string::npos);
    std::string text = kBase;
    text.replace(text.find("buffer_kind: tcm"), 16, "buffer_kind: hmb");
    const std::string e = errorOf(text);
    EXPECT_NE(e.find("test.yaml:3: key 'defaults.buffer_kind' must be tcm, hbm or sram, found 'hmb'"),
              std::string::npos)
        << e;
    EXPECT_NE(errorOf("defaults: {algorithm: a}\nalgorithms:\n  a: {kernel: ring_allreduce}\n")
                  .find("'algorithms.a.topology' is required"),
              std::string::npos);
    EXPECT_NE(errorOf("defaults: {algorithm: a, slot_size: 100}\nalgorithms:\n  a: {topology: ring_1d}\n")
                  .find("multiple of 16"),
              std::string::npos);
    EXPECT_NE(errorOf("defaults: {algorithm: a, n_slots: 0}\nalgorithms:\n  a: {topology: ring_1d}\n")
                  .find("'defaults.n_slots' must be in 1..1024"),
              std::string::npos);
    EXPECT_NE(errorOf("defaults: {algorithm: a, placement: {ranks: [{chip: 0, core: 1-1}], chips: [0]}}\nalgorithms:\n "
                      " a: {topology: ring_1d}\n")
                  .find("leave out chips"),
              std::string::npos);
}

TEST(IpcqTopology, Ring1d) {
    const GroupNeighbors g = builtinNeighbors(TopologyKind::Ring1d, 5);
    for (unsigned r = 0; r < 5; ++r) {
        EXPECT_EQ(g[r].at(IpcqDir::E).peer, (r + 1) % 5);
        EXPECT_EQ(g[r].at(IpcqDir::W).peer, (r + 4) % 5);
        EXPECT_TRUE(g[r].at(IpcqDir::W).canSend);
        EXPECT_EQ(landingDirection(g, r, IpcqDir::E), IpcqDir::W);
    }
    EXPECT_EQ(checkSymmetry(g), "");
}

TEST(IpcqTopology, Ring1dUnidirHasReceiveOnlyWest) {
    const GroupNeighbors g = builtinNeighbors(TopologyKind::Ring1dUnidir, 4);
    for (unsigned r = 0; r < 4; ++r) {
        EXPECT_TRUE(g[r].at(IpcqDir::E).canSend);
        EXPECT_FALSE(g[r].at(IpcqDir::W).canSend);
    }
    EXPECT_EQ(checkSymmetry(g), "");
}

TEST(IpcqTopology, Mesh2dWrapsAndNeedsASquare) {
    const GroupNeighbors g = builtinNeighbors(TopologyKind::Mesh2d, 16, meshShape(16, std::nullopt, std::nullopt));
    // rank 5 = (1, 1)
    EXPECT_EQ(g[5].at(IpcqDir::N).peer, 1u);
    EXPECT_EQ(g[5].at(IpcqDir::S).peer, 9u);
    EXPECT_EQ(g[5].at(IpcqDir::E).peer, 6u);
    EXPECT_EQ(g[5].at(IpcqDir::W).peer, 4u);
    // rank 0 wraps (the design record's torus map)
    EXPECT_EQ(g[0].at(IpcqDir::N).peer, 12u);
    EXPECT_EQ(g[0].at(IpcqDir::W).peer, 3u);
    EXPECT_EQ(checkSymmetry(g), "");
    EXPECT_THROW(meshShape(8, std::nullopt, std::nullopt), std::invalid_argument);
    const MeshShape m = meshShape(8, 2u, std::nullopt);
    EXPECT_EQ(m.cols, 4u);
    EXPECT_THROW(meshShape(8, 3u, std::nullopt), std::invalid_argument);
    EXPECT_THROW(meshShape(4, 1u, std::nullopt), std::invalid_argument);  // an axis of one rank
}

TEST(IpcqTopology, TreeBinaryHeapOrder) {
    for (unsigned n : {7u, 10u}) {
        const GroupNeighbors g = builtinNeighbors(TopologyKind::TreeBinary, n);
        EXPECT_FALSE(g[0].count(IpcqDir::Parent));
        for (unsigned r = 1; r < n; ++r) {
            EXPECT_EQ(g[r].at(IpcqDir::Parent).peer, (r - 1) / 2);
            EXPECT_EQ(landingDirection(g, r, IpcqDir::Parent), r % 2 ? IpcqDir::ChildLeft : IpcqDir::ChildRight);
        }
        EXPECT_EQ(checkSymmetry(g), "");
    }
    const GroupNeighbors g = builtinNeighbors(TopologyKind::TreeBinary, 10);
    EXPECT_EQ(g[4].at(IpcqDir::ChildLeft).peer, 9u);
    EXPECT_FALSE(g[4].count(IpcqDir::ChildRight));
}

TEST(IpcqTopology, SymmetryViolationNamesBothRanks) {
    GroupNeighbors g = builtinNeighbors(TopologyKind::Ring1d, 4);
    g[1][IpcqDir::E].peer = 3;  // 1 -> 3 but 3's W is 2
    const std::string e = checkSymmetry(g);
    EXPECT_NE(e.find("I3 endpoint asymmetry: rank 1 direction E names rank 3, but rank 3 direction W does not name "
                     "rank 1"),
              std::string::npos)
        << e;
    GroupNeighbors self = builtinNeighbors(TopologyKind::Ring1d, 3);
    self[2][IpcqDir::E].peer = 2;
    EXPECT_NE(checkSymmetry(self).find("names the rank itself"), std::string::npos);
}

TEST(IpcqTopology, NeighborsHookPatterns) {
    IpcqAlgorithm a;
    const GroupNeighbors builtin = builtinNeighbors(TopologyKind::Ring1d, 4);
    // Pattern C: no hook keeps the builtin map.
    EXPECT_EQ(applyNeighborsHook(a, builtin, {})[2].at(IpcqDir::E).peer, 3u);
    // Pattern A: edit in place (rank 0 stops sending W; rank 3's E then only... both sides edited).
    a.neighbors = [](unsigned rank, unsigned n, NeighborMap& m, const AlgoParams&) -> std::optional<NeighborMap> {
        if (rank == 0) m[IpcqDir::W].canSend = false;
        (void)n;
        return std::nullopt;
    };
    const GroupNeighbors edited = applyNeighborsHook(a, builtin, {});
    EXPECT_FALSE(edited[0].at(IpcqDir::W).canSend);
    EXPECT_TRUE(edited[1].at(IpcqDir::W).canSend);
    // Pattern B: the strided ring replaces the map.
    const IpcqAlgorithm* strided = findAlgorithm("ring_allreduce_strided");
    ASSERT_NE(strided, nullptr);
    const GroupNeighbors s =
        applyNeighborsHook(*strided, builtinNeighbors(TopologyKind::None, 8), {{"stride", 3}, {"bidir", 1}});
    EXPECT_EQ(checkSymmetry(s), "");
    // One ring through every rank: 0, 3, 6, 1, 4, 7, 2, 5.
    std::vector<unsigned> seen{0};
    for (unsigned r = s[0].at(IpcqDir::E).peer; r != 0; r = s[r].at(IpcqDir::E).peer) seen.push_back(r);
    EXPECT_EQ(seen, (std::vector<unsigned>{0, 3, 6, 1, 4, 7, 2, 5}));
}

TEST(IpcqGolden, RingOrdersAsDefined) {
    const unsigned n = 4;
    for (golden::DType t : {golden::DType::BF16, golden::DType::FP32}) {
        golden::Tensors x;
        for (unsigned r = 0; r < n; ++r) x.push_back(golden::rankTensor(5, r, t, 256));
        const std::vector<unsigned> ring{0, 1, 2, 3};
        const auto uni = golden::ringAllReduce(x, ring, false, t);
        const auto bi = golden::ringAllReduce(x, ring, true, t);
        for (unsigned f = 0; f < n; ++f) {
            // Chunk f (64 B): E order f+1, f+2, ..., f; W half: f-1, f-2, ..., f.
            const auto e = sumInOrder(x, {(f + 1) % n, (f + 2) % n, (f + 3) % n, f}, f * 64, 64, t);
            EXPECT_EQ(0, std::memcmp(uni.data() + f * 64, e.data(), 64));
            EXPECT_EQ(0, std::memcmp(bi.data() + f * 64, e.data(), 32));
            const auto w = sumInOrder(x, {(f + 3) % n, (f + 2) % n, (f + 1) % n, f}, f * 64 + 32, 32, t);
            EXPECT_EQ(0, std::memcmp(bi.data() + f * 64 + 32, w.data(), 32));
        }
    }
}

TEST(IpcqGolden, TreeAndMeshOrders) {
    const golden::DType t = golden::DType::BF16;
    golden::Tensors x;
    for (unsigned r = 0; r < 4; ++r) x.push_back(golden::rankTensor(9, r, t, 64));
    // Tree of 4: s(1) = x1 + x3; s(0) = (x0 + s(1)) + x2.
    std::vector<std::uint8_t> s1(64), s0(64);
    golden::combine(golden::RedOp::Add, t, x[1].data(), x[3].data(), s1.data(), 32);
    golden::combine(golden::RedOp::Add, t, x[0].data(), s1.data(), s0.data(), 32);
    golden::combine(golden::RedOp::Add, t, s0.data(), x[2].data(), s0.data(), 32);
    EXPECT_EQ(golden::treeAllReduce(x, t), s0);
    // Mesh 2x2: rows {0,1}, {2,3}, then the column ring over the two row results.
    const auto row0 = golden::ringAllReduce({x[0], x[1]}, {0, 1}, false, t);
    const auto row1 = golden::ringAllReduce({x[2], x[3]}, {0, 1}, false, t);
    EXPECT_EQ(golden::meshAllReduce(x, 2, 2, t), golden::ringAllReduce({row0, row1}, {0, 1}, false, t));
}

TEST(IpcqGolden, ReductionOrderMattersInBf16) {
    // Different algorithms are different bytes: byte-exact checks do test the order.
    golden::Tensors x;
    for (unsigned r = 0; r < 8; ++r) x.push_back(golden::rankTensor(3, r, golden::DType::BF16, 4096));
    std::vector<unsigned> ring(8);
    std::iota(ring.begin(), ring.end(), 0u);
    EXPECT_NE(golden::ringAllReduce(x, ring, false, golden::DType::BF16),
              golden::treeAllReduce(x, golden::DType::BF16));
}
