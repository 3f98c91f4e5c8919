// PTO communication ops on the model (the `pto` workload, subprocesses):
// every op on same-chip and cross-chip peers and on every board, gets served
// by the fabric's read relays against puts, 2D sliding
// with divisible, non-divisible and dynamic shapes, ping-pong, async events,
// reductions over several operators and types, user inputs, and every
// "not allowed" case as a clear error.
#include "tests/coverif/SubprocessRunner.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <vector>

using cclsim::test::runBinary;

namespace {

const std::string kN300 = CCLSIM_N300_BIN;
const std::string kT3000 = CCLSIM_T3000_BIN;
const std::string kGalaxy = CCLSIM_GALAXY_BIN;

nlohmann::json pto(const std::string& bin, const std::string& args) {
    const auto rep = runBinary(bin, "pto " + args);
    EXPECT_EQ(rep.value("data_check", std::string("missing")), "pass") << args << "\n" << rep.dump(2);
    if (rep.contains("results")) {
        EXPECT_GT(rep["results"]["elements_checked"].get<std::uint64_t>(), 0u) << args;
        EXPECT_EQ(rep["results"]["wrong_elements"].get<std::uint64_t>(), 0u) << args;
    }
    return rep.value("results", nlohmann::json::object());
}

/// The run fails (exit 4: the firmware reported it) with `fragment` in its error.
void expectFirmwareError(const std::string& bin, const std::string& args, const std::string& fragment, int code = 4) {
    const auto rep = runBinary(bin, "pto " + args, code);
    EXPECT_NE(rep.value("error", std::string()).find(fragment), std::string::npos)
        << args << "\n"
        << rep.value("error", std::string("(no error)"));
}

}  // namespace

// ---- point to point ------------------------------------------------------------------------------

class PtoPointToPoint : public ::testing::TestWithParam<std::string> {};
TEST_P(PtoPointToPoint, SameChipNeighbourAndFarPeers) {
    const std::string op = GetParam();
    for (const char* peer : {"0", "1", "4"}) {  // the root itself, 1 hop, 4 hops around the T3000 ring
        const auto r = pto(kT3000, fmt::format("--op {} --peer {} --shape 24x100 --tile 8x64", op, peer));
        EXPECT_EQ(r["peer"], std::stoi(peer));
        EXPECT_EQ(r["hops"], std::string(peer) == "0" ? 0 : std::string(peer) == "1" ? 1 : 4);
    }
    pto(kN300, fmt::format("--op {} --shape 16x64", op));
    pto(kGalaxy, fmt::format("--op {} --peer 16 --shape 8x64", op));
}
INSTANTIATE_TEST_SUITE_P(Pto, PtoPointToPoint, ::testing::Values("put", "get", "put_async", "get_async"));

TEST(PtoSignals, NotifyRoundTripOnEveryBoard) {
    for (const std::string& bin : {kN300, kT3000, kGalaxy}) {
        const auto r = pto(bin, "--op notify --repeat 3");
        EXPECT_GT(r["one_way_us"].get<double>(), 0.5);  // at least one fabric hop
        EXPECT_LT(r["one_way_us"].get<double>(), 5.0);
    }
    // Farther peers take longer.
    const double near = pto(kT3000, "--op notify --peer 1")["one_way_us"].get<double>();
    const double far = pto(kT3000, "--op notify --peer 4")["one_way_us"].get<double>();
    EXPECT_GT(far, near + 1.0);
}

TEST(PtoAsync, CallsReturnBeforeTheDataMoved) {
    const auto put = pto(kT3000, "--op put_async --shape 64x256 --tile 16x256 --ping-pong");
    EXPECT_LT(put["issue_us"].get<double>(), put["op_time_us"].get<double>());
    const auto get = pto(kT3000, "--op get_async --shape 64x256 --tile 16x256");
    EXPECT_LT(get["issue_us"].get<double>() * 4, get["op_time_us"].get<double>());  // one chunk requested of four
}

// A get is read requests that the data's chip answers by writing (tt-metal's
// UDM read relay): one request per tensor row, served one at a time, each
// read under one barrier in up to 8 payload-sized pieces. A get of long rows
// comes within a request's round trip of a put of the same bytes; one of
// 4 KiB rows trails it (the router serving 1 KiB reads itself gave 0.05).
TEST(PtoGet, TheRelayAnswersWithWritesNearAPutForLongRows) {
    auto gbps = [](const std::string& args) {
        return pto(kT3000, args + " --repeat 4 --ping-pong")["bandwidth_GBps"].get<double>();
    };
    const double putLong = gbps("--op put --shape 16x4096 --tile 4x4096");
    const double getLong = gbps("--op get --shape 16x4096 --tile 4x4096");
    EXPECT_GT(getLong, 0.7 * putLong);
    EXPECT_LT(getLong, putLong);
    const double putShort = gbps("--op put --shape 64x1024 --tile 4x1024");
    const double getShort = gbps("--op get --shape 64x1024 --tile 4x1024");
    EXPECT_GT(getShort, 0.25 * putShort);
    EXPECT_LT(getShort, 0.6 * putShort);
    // Gather reads every rank's tensor: it is no longer an order of magnitude
    // behind broadcast, which writes them.
    const double gather = gbps("--op gather --shape 16x1024 --tile 4x1024");
    const double broadcast = gbps("--op broadcast --shape 16x1024 --tile 4x1024");
    EXPECT_GT(gather, 0.2 * broadcast);
}

// ---- 2D sliding and ping-pong -------------------------------------------------------------------------------

TEST(PtoSliding, DivisibleStaticShapes) {
    pto(kT3000, "--op put --shape 64x256 --tile 16x64 --valid-row 16 --valid-col 64");
    pto(kT3000, "--op get --shape 64x256 --tile 16x64 --valid-row 8 --valid-col 32");
    pto(kT3000, "--op reduce --ranks 8 --shape 32x128 --tile 16x64 --valid-row 16 --valid-col 64");
}

TEST(PtoSliding, NonDivisibleShapesWithDynamicValidSizes) {
    pto(kT3000, "--op put --shape 61x100 --tile 16x32 --valid-row dynamic --valid-col dynamic");
    pto(kT3000, "--op get --shape 61x100 --tile 16x32 --ping-pong");
    pto(kT3000, "--op scatter --shape 7x33 --tile 4x16");
    pto(kT3000, "--op gather --shape 7x33 --tile 4x16 --ping-pong");
    pto(kT3000, "--op broadcast --shape 13x50 --tile 4x32 --valid-col 25 --ping-pong");  // static columns, ragged rows
}

TEST(PtoSliding, StaticValidSizesMustDivide) {
    expectFirmwareError(kT3000, "--op put --shape 60x100 --tile 16x32 --valid-row 16",
                        "static valid row 16 does not divide the tensor's 60 rows");
    expectFirmwareError(kT3000, "--op get --shape 64x100 --tile 16x32 --valid-col 32",
                        "static valid column 32 does not divide the tensor's 100 columns");
    expectFirmwareError(kT3000, "--op put --shape 64x100 --tile 16x32 --valid-row 32", "exceeds the tile");
}

TEST(PtoSliding, PingPongOverlapsTheLoads) {
    const auto one = pto(kT3000, "--op put --shape 64x1024 --tile 4x1024");
    const auto two = pto(kT3000, "--op put --shape 64x1024 --tile 4x1024 --ping-pong");
    EXPECT_LT(two["op_time_us"].get<double>(), one["op_time_us"].get<double>());
}

// ---- collectives ---------------------------------------------------------------------------------------------

class PtoCollective : public ::testing::TestWithParam<std::string> {};
TEST_P(PtoCollective, EveryBoardAnyRoot) {
    const std::string op = GetParam();
    pto(kN300, fmt::format("--op {} --shape 16x64 --tile 8x32", op));
    pto(kT3000, fmt::format("--op {} --shape 16x64 --tile 8x32 --root 3", op));
    pto(kT3000, fmt::format("--op {} --ranks 5 --shape 9x40 --tile 4x16 --root 4 --ping-pong", op));
    pto(kGalaxy, fmt::format("--op {} --shape 4x32 --tile 4x32 --root 17", op));
}
INSTANTIATE_TEST_SUITE_P(Pto, PtoCollective, ::testing::Values("broadcast", "scatter", "gather", "reduce"));

TEST(PtoReduce, OperatorsAndTypes) {
    for (const char* args :
         {"--reduce sum --dtype fp32", "--reduce max --dtype bf16", "--reduce min --dtype int32",
          "--reduce mean --dtype fp16", "--reduce mul --dtype int64", "--reduce square_add --dtype uint32",
          "--reduce logical_or --dtype bool", "--reduce logical_and --dtype bool"})
        pto(kT3000, fmt::format("--op reduce --ranks 4 --shape 8x48 --tile 4x16 {}", args));
    const auto bad = runBinary(kT3000, "pto --op reduce --reduce logical_or --dtype fp32", 3);
    EXPECT_NE(bad.value("error", std::string()).find("logical_or takes: bool"), std::string::npos);
}

TEST(PtoInputs, UserTensorsInAndOut) {
    const std::string dir = std::string(::testing::TempDir()) + "cclsim_pto_" + std::to_string(getpid());
    const std::string in = dir + "_in.json", out = dir + "_out.json";
    // 3 ranks, 2x2 int32 tensors: the root (rank 0) gets max over ranks.
    std::ofstream(in) << R"({"ranks": [[1, 9, 3, 4], [5, 2, 7, 0], [-1, 8, 6, 10]]})";
    pto(kT3000, "--op reduce --reduce max --dtype int32 --ranks 3 --shape 2x2 --tile 1x2 --inputs " + in +
                    " --dump-outputs " + out);
    std::ifstream is(out);
    const auto dumped = nlohmann::json::parse(is)["ranks"];
    EXPECT_EQ(dumped[0], (nlohmann::json{5, 9, 7, 10}));
    EXPECT_EQ(dumped[1], (nlohmann::json{0, 0, 0, 0}));  // only the root receives
    const auto wrong = runBinary(kT3000, "pto --op reduce --dtype int32 --ranks 3 --shape 4x4 --inputs " + in, 3);
    EXPECT_NE(wrong.value("error", std::string()).find("the reduce source tensor holds 16"), std::string::npos);
}

// ---- every op x ranks x peers x fabrics ---------------------------------------------------------------------

// Every op on 2..8 ranks of the T3000, point to point with the nearest and the
// farthest peer, collectives rooted at the first and the last rank, on a line
// and on a ring, data checked. A ring of fewer ranks than chips runs around a
// block of the mesh; an odd rank count closes no ring and is refused (exit 3),
// never a hang. The ranks that
// neither initiate nor answer a point-to-point op only open and close their
// fabric connections: that used to deadlock whenever the close request
// reached the router before it had seen the open (ranks 3 to 7).
class PtoMatrix : public ::testing::TestWithParam<std::string> {};
TEST_P(PtoMatrix, EveryRankCountPeerAndFabric) {
    const std::string op = GetParam();
    const bool rootOnly = op == "broadcast" || op == "scatter" || op == "gather" || op == "reduce";
    for (unsigned n = 2; n <= 8; ++n)
        for (const char* fabric : {"line", "ring"}) {
            std::vector<std::string> who;  // --peer or --root choices
            for (unsigned r : {1u, n - 1}) {
                const std::string w = fmt::format("{} {}", rootOnly ? "--root" : "--peer", rootOnly ? r - 1 : r);
                if (std::find(who.begin(), who.end(), w) == who.end()) who.push_back(w);
            }
            if (rootOnly) who.push_back(fmt::format("--root {}", n - 1));
            for (const std::string& w : who) {
                const std::string args =
                    fmt::format("--op {} --ranks {} --fabric {} {} --shape 8x64 --tile 4x64", op, n, fabric, w);
                // Fewer ranks than chips take a ring around a block of the mesh
                // (4: the first four of the ring order, 6: a 2x3 block); an odd
                // count closes none (a grid's rings are even), nor do 2 chips.
                if (std::string(fabric) == "ring" && n < 8 && (n % 2 == 1 || n == 2)) {
                    const auto rep = runBinary(kT3000, "pto " + args, 3);
                    EXPECT_NE(rep.value("error", std::string()).find("close a ring"), std::string::npos) << args;
                    continue;
                }
                const auto r = pto(kT3000, args);
                EXPECT_EQ(r.value("ranks", 0u), n) << args;
            }
        }
}
INSTANTIATE_TEST_SUITE_P(Pto, PtoMatrix,
                         ::testing::Values("put", "get", "put_async", "get_async", "notify", "broadcast", "scatter",
                                           "gather", "reduce"));

// ---- what is not allowed --------------------------------------------------------------------------------------

TEST(PtoMisuse, EveryCaseIsAClearError) {
    expectFirmwareError(kT3000, "--op broadcast --misuse nonroot", "only the group's root (rank 0) may call it");
    expectFirmwareError(kT3000, "--op scatter --misuse nonroot", "TSCATTER: called on rank 1");
    expectFirmwareError(kT3000, "--op put --misuse group", "mismatched ParallelGroup");
    expectFirmwareError(kT3000, "--op gather --misuse group", "mismatched ParallelGroup");
    expectFirmwareError(kT3000, "--op put --ping-pong --misuse overlap", "overlap in UB");
    expectFirmwareError(kT3000, "--op reduce --misuse overlap", "overlap in UB");
    expectFirmwareError(kT3000, "--op put --misuse small-dst", "improperly sized destination");
    expectFirmwareError(kT3000, "--op broadcast --misuse small-dst", "too small");
    expectFirmwareError(kT3000, "--op broadcast --misuse no-dst", "is uninitialised (no buffer)");
    expectFirmwareError(kT3000, "--op get --misuse no-dst", "is uninitialised (no buffer)");
    expectFirmwareError(kT3000, "--op put --misuse remote-wait", "a rank waits on its own signals");
    expectFirmwareError(kT3000, "--op put --misuse nonroot", "applies to the root-only ops", 3);
    expectFirmwareError(kT3000, "--op put --shape 64", "expected ROWSxCOLS", 3);
    expectFirmwareError(kT3000, "--op put --tile 4096x4096", "cannot allocate 67108864 B of L1", 3);
    expectFirmwareError(kT3000, "--op notify --peer 0", "the peer must differ", 3);
    // A destination too small is the root's own where the op writes locally (it
    // used to shrink the peer's source: get failed its data check, gather and
    // reduce passed).
    expectFirmwareError(kT3000, "--op get --misuse small-dst", "improperly sized destination");
    expectFirmwareError(kT3000, "--op get_async --misuse small-dst", "improperly sized destination");
    expectFirmwareError(kT3000, "--op gather --misuse small-dst", "too small");
    expectFirmwareError(kT3000, "--op reduce --misuse small-dst", "too small");
    // notify moves no tensor and stages no tile: those misuses cannot apply to it.
    for (const char* m : {"group", "overlap", "small-dst", "no-dst"})
        expectFirmwareError(kT3000, fmt::format("--op notify --misuse {} --ping-pong", m), "only remote-wait", 3);
    // Overlapping ping and pong needs two tiles: put stages through one without --ping-pong.
    expectFirmwareError(kT3000, "--op put --misuse overlap", "add --ping-pong", 3);
    // The group check and the data ride the payload: --no-data is refused, not left to hang.
    expectFirmwareError(kT3000, "--op put --no-data", "--no-data cannot run pto", 3);
}
