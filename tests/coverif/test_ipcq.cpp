// PE_IPCQ end to end (docs/design/pe-ipcq.md#t2 to #t5): every shipped all-reduce
// algorithm byte-exact against the golden reference on N300, T3000 and
// Galaxy, with every buffer kind and backpressure mode; ccl.yaml and
// topology errors at init (F4); deadlocks reported with the pointer dump and
// the wait-for cycle (F3, F5); the CCL trace and the pointer dump on demand;
// the T5 overhead of one send/recv against the raw write.
#include "firmware/api/ipcq_api.h"
#include "firmware/api/kernel_api.h"
#include "host/ipcq/IpcqAlgorithms.h"
#include "tests/coverif/CoverifHelpers.h"
#include "tests/unit/TestSupport.h"

#include <chrono>
#include <fstream>

using cclsim::test::runGalaxy;
using cclsim::test::runN300;
using cclsim::test::runT3000;
using namespace cclsim;
using namespace cclsim::ipcq;

namespace {

std::string errorOf(const nlohmann::json& rep) {
    return rep.value("error", std::string());
}
const char* kCcl = CCLSIM_SOURCE_DIR "/platforms/ccl.yaml";

/// A ccl.yaml with one algorithm `a` (its entry's body) and `defaults` extras.
std::string cclText(const std::string& entry, const std::string& defaults = "") {
    return "defaults:\n  algorithm: a\n" + defaults + "algorithms:\n  a:\n" + entry;
}

void expectPass(const nlohmann::json& rep) {
    EXPECT_EQ(rep["data_check"], "pass") << rep.dump(2);
    EXPECT_GT(rep["results"].value("sim_time_us", 0.0), 0.0);
}

}  // namespace

// ---- the design record's own ccl.yaml (D11), as written ------------------------

// `module: kernbench.ccl.algorithms.X` runs the kernel X; what cannot be
// honoured is an error naming the key and what to write instead. (One run
// per test: SystemC elaborates once per process.)
const char* kAdr = CCLSIM_SOURCE_DIR "/tests/data/ccl_adr_d11.yaml";

TEST(IpcqConfigAdr, RingWithTheRecordsNelemRunsAtFp32) {
    // ring_allreduce_tcm (the default): n_elem 8 at fp32 gives 16-B half-chunks.
    const auto ring = runN300({"ipcq_allreduce", "--ccl", kAdr, "--dtype", "fp32"});
    expectPass(ring);
    EXPECT_EQ(ring["results"]["algorithm"], "ring_allreduce_tcm") << ring.dump(2);
}

TEST(IpcqConfigAdr, RingWithTheRecordsNelemAtBf16SaysWhichNelemSplits) {
    const auto bf16 = runN300({"ipcq_allreduce", "--ccl", kAdr}, 3);
    EXPECT_NE(errorOf(bf16).find("n_elem: 8 of bf16 does not: make n_elem a multiple of 16"), std::string::npos)
        << errorOf(bf16);
}

TEST(IpcqConfigAdr, TreeWithTheRecordsWorldSize) {
    const auto tree = runT3000({"ipcq_allreduce", "--ccl", kAdr, "--algorithm", "tree_allreduce_7"});
    expectPass(tree);
    EXPECT_EQ(tree["results"]["world_size"], 7) << tree.dump(2);
}

TEST(IpcqConfigAdr, CustomMeshNamesTheKeyAndTheWayOut) {
    const auto custom = runN300({"ipcq_allreduce", "--ccl", kAdr, "--algorithm", "custom_mesh"}, 3);
    EXPECT_NE(errorOf(custom).find("key 'algorithms.custom_mesh.module': kernel 'custom_mesh' is not a registered"),
              std::string::npos)
        << errorOf(custom);
    EXPECT_NE(errorOf(custom).find("add the kernel in C++"), std::string::npos);
}

TEST(IpcqConfigAdr, ModuleOutsideThePackageIsRefused) {
    const std::string other = std::string(::testing::TempDir()) + "ccl_module_other.yaml";
    std::ofstream(other) << cclText("    module: mypkg.ring_allreduce\n    topology: ring_1d\n");
    EXPECT_NE(errorOf(runN300({"ipcq_allreduce", "--ccl", other}, 3))
                  .find("key 'algorithms.a.module' 'mypkg.ring_allreduce' is not a module of kernbench.ccl.algorithms"),
              std::string::npos);
}

TEST(IpcqConfigAdr, ModuleBesideKernelIsRefused) {
    const std::string both = std::string(::testing::TempDir()) + "ccl_module_both.yaml";
    std::ofstream(both) << cclText(
        "    kernel: ring_allreduce\n    module: kernbench.ccl.algorithms.ring_allreduce\n    topology: ring_1d\n");
    EXPECT_NE(errorOf(runN300({"ipcq_allreduce", "--ccl", both}, 3)).find("and 'kernel' both name the kernel"),
              std::string::npos);
}

// ---- T2: every shipped algorithm, byte-exact, bf16 and fp32 ------------------

#define IPCQ_ALGORITHM_TEST(name, algorithm)                                                  \
    TEST(IpcqAllReduceN300, name##Bf16) {                                                     \
        expectPass(runN300({"ipcq_allreduce", "--algorithm", algorithm}));                    \
    }                                                                                         \
    TEST(IpcqAllReduceN300, name##Fp32) {                                                     \
        expectPass(runN300({"ipcq_allreduce", "--algorithm", algorithm, "--dtype", "fp32"})); \
    }
IPCQ_ALGORITHM_TEST(RingBidirectional, "ring_allreduce")
IPCQ_ALGORITHM_TEST(RingUnidirectional, "ring_allreduce_unidir")
IPCQ_ALGORITHM_TEST(RingHbm, "ring_allreduce_hbm")
IPCQ_ALGORITHM_TEST(RingSram, "ring_allreduce_sram")
IPCQ_ALGORITHM_TEST(Mesh4x4, "mesh_allreduce")
IPCQ_ALGORITHM_TEST(Tree7, "tree_allreduce_7")
IPCQ_ALGORITHM_TEST(Tree10, "tree_allreduce_10")
IPCQ_ALGORITHM_TEST(StridedCustomRing, "ring_allreduce_strided")

TEST(IpcqAllReduce, TwoRankRing) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: ring_allreduce, topology: ring_1d, world_size: 2}\n"));
    const auto rep = runN300({"ipcq_allreduce", "--ccl", f});
    expectPass(rep);
    EXPECT_EQ(rep["results"]["world_size"], 2);
}

TEST(IpcqAllReduce, FourRankBidirectionalRingWithOneSlotDoesNotDeadlock) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: ring_allreduce, topology: ring_1d, world_size: 4}\n",
                                             "  n_slots: 1\n  slot_size: 1024\n"));
    expectPass(runN300({"ipcq_allreduce", "--ccl", f, "--size", "64K"}));
}

TEST(IpcqAllReduce, CrossChipRingOnT3000Of64Ranks) {
    const auto rep = runT3000({"ipcq_allreduce", "--ccl", kCcl});
    expectPass(rep);
    EXPECT_EQ(rep["results"]["world_size"], 64);
    EXPECT_EQ(rep["results"]["fabric"]["topology"], "ring");
    EXPECT_EQ(rep["results"]["cross_chip_links"], 16);
}

TEST(IpcqAllReduce, MeshOnT3000OverTheFabricWithFabricCredits) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: mesh_allreduce, topology: mesh_2d}\n",
                                             "  credit_return_mode: fabric\n  n_slots: 2\n"));
    const auto rep = runT3000({"ipcq_allreduce", "--ccl", f, "--dtype", "fp32"});
    expectPass(rep);
    EXPECT_EQ(rep["results"]["credit_return_mode"], "fabric");
}

TEST(IpcqAllReduce, UnidirectionalRingWithFabricCreditsOnT3000) {
    // Receive-only directions send credits; send-only ones open no credit connection.
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: ring_allreduce, topology: ring_1d_unidir}\n",
                                             "  credit_return_mode: fabric\n  n_elem: 256\n"));
    expectPass(runT3000({"ipcq_allreduce", "--ccl", f}));
}

TEST(IpcqAllReduce, CrossChipRingOnGalaxy) {
    // 32 chips x 2 cores: the ring crosses every chip of the Galaxy ring.
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: ring_allreduce, topology: ring_1d}\n",
                                             "  placement: {cores_per_chip: 2}\n  n_elem: 256\n"));
    const auto rep = runGalaxy({"ipcq_allreduce", "--ccl", f});
    expectPass(rep);
    EXPECT_EQ(rep["results"]["world_size"], 64);
    EXPECT_EQ(rep["results"]["chips"].size(), 32u);
}

TEST(IpcqAllReduce, HbmPollAndSramSleepOnT3000) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml",
                           "defaults: {algorithm: h, backpressure: poll, n_slots: 2, n_elem: 256}\n"
                           "algorithms:\n"
                           "  h: {kernel: ring_allreduce, topology: ring_1d, buffer_kind: hbm}\n");
    expectPass(runT3000({"ipcq_allreduce", "--ccl", f}));
}

TEST(IpcqAllReduce, SramSleepTreeOnGalaxy) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml",
                           "defaults: {algorithm: t, backpressure: sleep, buffer_kind: sram}\n"
                           "algorithms:\n"
                           "  t: {kernel: tree_allreduce, topology: tree_binary, world_size: 24}\n");
    const auto rep = runGalaxy({"ipcq_allreduce", "--ccl", f, "--dtype", "fp32"});
    expectPass(rep);
    EXPECT_EQ(rep["results"]["buffer_kind"], "sram");
}

TEST(IpcqAllReduce, ExplicitPlacementAndHbmBuffers) {
    test::ScratchDir d;
    const auto f =
        d.write("c.yaml",
                cclText("    {kernel: ring_allreduce, topology: ring_1d_unidir, buffer_kind: hbm}\n",
                        "  placement:\n    ranks: [{chip: 0, core: 1-1}, {chip: 1, core: 9-11}, {chip: 0, core: 6-5}]\n"
                        "  n_elem: 512\n"));
    const auto rep = runN300({"ipcq_allreduce", "--ccl", f});
    expectPass(rep);
    EXPECT_EQ(rep["results"]["buffer_kind"], "hbm");
}

// ---- Diagnostics ---------------------------------------------------------------

TEST(IpcqDiagnostics, CclTraceLinePerSendAndRecvAndPointerDump) {
    test::ScratchDir d;
    const std::string trace = d.path("trace.txt");
    const auto rep =
        runN300({"ipcq_allreduce", "--algorithm", "tree_allreduce_7", "--ccl-trace", trace, "--pointer-dump"});
    expectPass(rep);
    const std::string text = test::readText(trace);
    std::size_t sends = 0, recvs = 0;
    for (std::size_t p = 0; (p = text.find("op=send", p)) != std::string::npos; ++p) ++sends;
    for (std::size_t p = 0; (p = text.find("op=recv", p)) != std::string::npos; ++p) ++recvs;
    EXPECT_EQ(sends, rep["results"]["sends"].get<std::size_t>());
    EXPECT_EQ(recvs, sends);
    EXPECT_NE(text.find("ccl_trace rank=1 t="), std::string::npos);
    EXPECT_NE(text.find("dir=parent op=send nbytes=4096"), std::string::npos) << text.substr(0, 400);
    const std::string dump = rep["results"]["pointer_dump"].get<std::string>();
    test::expectContains(dump, {"rank   0 child_left", "my_head", "peer_tail_cache", "buffer_kind tcm"});
}

// ---- F4: errors at init with file:line:key ---------------------------------------

TEST(IpcqInitErrors, MissingDefaultAlgorithm) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", "defaults: {n_slots: 2}\nalgorithms:\n  a: {topology: ring_1d}\n");
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
                         {f + ":1: key 'defaults' has no 'algorithm'"});
}

TEST(IpcqInitErrors, UnknownAlgorithm) {
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--algorithm", "ring_allreduc"}, 3)),
                         {"algorithm 'ring_allreduc' is not defined", "ring_allreduce_unidir"});
}

TEST(IpcqInitErrors, UnknownKernel) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    kernel: ring_allreduse\n    topology: ring_1d\n"));
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
                         {f + ":5: key 'algorithms.a.kernel'", "'ring_allreduse' is not a registered IPCQ algorithm"});
}

TEST(IpcqInitErrors, NonSquareMesh) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    kernel: mesh_allreduce\n    topology: mesh_2d\n    world_size: 8\n"));
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
                         {f + ":6: key 'algorithms.a.topology'", "needs a square world_size", "8 is not square"});
}

TEST(IpcqInitErrors, EndpointAsymmetryI3) {
    // A neighbors() hook (pattern A) that breaks symmetry: rank 1 points E at rank 3.
    IpcqAlgorithm a = *findAlgorithm("ring_allreduce");
    a.name = "asymmetric_ring";
    a.neighbors = [](unsigned rank, unsigned, NeighborMap& m, const AlgoParams&) -> std::optional<NeighborMap> {
        if (rank == 1) m[IpcqDir::E].peer = 3;
        return std::nullopt;
    };
    registerAlgorithm(a);
    test::ScratchDir d;
    const auto f =
        d.write("c.yaml", cclText("    kernel: asymmetric_ring\n    topology: ring_1d\n    world_size: 5\n"));
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
                         {f + ":6: key 'algorithms.a.topology'",
                          "I3 endpoint asymmetry: rank 1 direction E names rank 3, but rank 3 direction W does not "
                          "name rank 1"});
}

TEST(IpcqInitErrors, MixedBufferKindsI4) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: ring_allreduce, topology: ring_1d}\n",
                                             "  placement:\n    ranks:\n      - {chip: 0, core: 1-1}\n"
                                             "      - {chip: 0, core: 2-1, buffer_kind: hbm}\n"));
    test::expectContains(
        errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
        {f + ":3: key 'defaults.placement'", "I4 buffer_kind consistency: rank 0 uses tcm but rank 1 uses hbm"});
}

TEST(IpcqInitErrors, WorldSizeBeyondThePlacement) {
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: tree_allreduce, topology: tree_binary, world_size: 40}\n"));
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
                         {f + ":5: key 'algorithms.a.world_size'", "world_size 40 but the placement offers 16 ranks"});
}

TEST(IpcqInitErrors, TensorThatDoesNotSplit) {
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--size", "1000"}, 3)),
                         {"algorithm 'ring_allreduce'", "does not split into 32 half-chunks"});
}

TEST(IpcqInitErrors, SlotLargerThanAFabricPacket) {
    test::ScratchDir d;
    const auto f =
        d.write("c.yaml", cclText("    {kernel: ring_allreduce, topology: ring_1d}\n", "  slot_size: 8192\n"));
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 3)),
                         {f + ":3: key 'defaults.slot_size'", "exceeds the fabric's largest payload (4352 B)"});
}

// ---- F1, F3, F5 at run time -------------------------------------------------------

namespace {
/// Register a test algorithm on ring_1d whose kernel is `k`.
void registerKernel(const std::string& name, std::function<void()> k) {
    IpcqAlgorithm a;
    a.name = name;
    a.topologies = {TopologyKind::Ring1d};
    a.kernel = std::move(k);
    a.checkSize = [](const AlgoShape&) { return std::string(); };
    a.kernelArgs = [](const AlgoShape&, unsigned, const TensorArgs& t) { return pack_ipcq_args(t); };
    a.golden = [](const golden::Tensors& x, const AlgoShape&) { return x.front(); };
    registerAlgorithm(a);
}
TensorArgs tensorArgs() {
    TensorArgs t;
    int i = 0;
    auto get = [&i](std::uint32_t& f) { f = fw::get_arg_val<std::uint32_t>(i++); };
    t.visit(get);
    return t;
}
}  // namespace

TEST(IpcqRunErrors, BadDirectionF1) {
    registerKernel("sends_north", [] { fw::ipcq_send(fw::ipcq_dir::N, tensorArgs().tensor, 64); });
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: sends_north, topology: ring_1d, world_size: 3}\n"));
    test::expectContains(errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 4)),
                         {"IpcqInvalidDirection: ipcq_send on rank", "in direction N"});
}

TEST(IpcqRunErrors, DeadlockNamesTheCycleWithinSeconds) {
    // Every rank receives before it sends: a cycle of waits around the ring.
    registerKernel("recv_first", [] {
        const TensorArgs t = tensorArgs();
        fw::ipcq_release(fw::ipcq_recv(fw::ipcq_dir::W, 64));
        fw::ipcq_send(fw::ipcq_dir::E, t.tensor, 64);
        fw::ipcq_close();
    });
    test::ScratchDir d;
    const auto f = d.write("c.yaml", cclText("    {kernel: recv_first, topology: ring_1d, world_size: 4}\n"));
    const auto t0 = std::chrono::steady_clock::now();
    const std::string e = errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 5));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    test::expectContains(e, {"deadlock", "IPCQ pointer dump", "rank   2 W           my_head      0 my_tail      0",
                             "recv W waits for data (rank 3 must send E)",
                             "IPCQ deadlock cycle: rank 0 -> rank 3 -> rank 2 -> rank 1 -> rank 0"});
}

TEST(IpcqRunErrors, FullRingThatIsNeverDrainedF5) {
    // Rank 0 sends one slot more than rank 1's ring holds; rank 1 never receives.
    registerKernel("never_drained", [] {
        const TensorArgs t = tensorArgs();
        if (fw::ipcq_rank() == 0)
            for (unsigned i = 0; i < 3; ++i) fw::ipcq_send(fw::ipcq_dir::E, t.tensor, 64);
    });
    test::ScratchDir d;
    const auto f =
        d.write("c.yaml", cclText("    {kernel: never_drained, topology: ring_1d, world_size: 2}\n", "  n_slots: 2\n"));
    test::expectContains(
        errorOf(runN300({"ipcq_allreduce", "--ccl", f}, 5)),
        {"send E blocked, its ring is full (rank 1 must recv W)", "rank 0 waits for rank 1, which has finished"});
}

// ---- T5: one send/recv costs the raw write plus < 100 ns ---------------------------

#define IPCQ_T5_TEST(name, peer, bp)                                                                         \
    TEST(IpcqLatencyT5, name) {                                                                              \
        const auto rep = runN300({"ipcq_latency", "--peer", peer, "--backpressure", bp, "--samples", "20"}); \
        const double raw = rep["results"]["raw_write_ns"], ipcq = rep["results"]["ipcq_ns"];                 \
        EXPECT_GT(raw, 100.0);                                                                               \
        EXPECT_GE(ipcq, raw);                                                                                \
        EXPECT_LT(ipcq - raw, 100.0) << rep["results"].dump(2);                                              \
    }
IPCQ_T5_TEST(SameChipPoll, "same_chip", "poll")
IPCQ_T5_TEST(SameChipSleep, "same_chip", "sleep")
IPCQ_T5_TEST(EthernetHopPoll, "eth_hop", "poll")
IPCQ_T5_TEST(EthernetHopSleep, "eth_hop", "sleep")
