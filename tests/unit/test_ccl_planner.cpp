// The collectives' pure planner (host/ccl/plan/, no Runtime, no SystemC):
// method plans per method on rings and lines of odd and even size, the
// shapes and page layouts of every collective (the broadcast method's
// whole inputs, all_gather along dim 1), directions and EDM channels,
// packet sizing and its limits, the fabric ring's step plan, the registry,
// and errors in the op's own terms (no command-line flag in them).
#include "firmware/ccl/ccl_schedule.h"
#include "host/ccl/CclOpError.h"
#include "host/ccl/CclValidator.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/plan/CclPlanner.h"
#include "host/ccl/plan/FabricRingPlan.h"
#include "host/ccl/plan/MethodPlan.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <set>

namespace cclsim::ccl {
namespace {

using golden::Method;
using golden::Op;
using Dirs = std::vector<unsigned>;
namespace rs = ring_step;

CclSpec spec(Op op, std::uint64_t count, Method m = Method::MeetInMiddle) {
    CclSpec s;
    s.op = op;
    s.count = count;
    s.method = m;
    s.groups = {{0, 1, 2, 3}};
    return s;
}

/// The error `f` throws, which must be a CclOpError naming `field`; its
/// message speaks the op's terms, not the command line's.
std::string opError(const std::function<void()>& f, const std::string& field) {
    try {
        f();
    } catch (const CclOpError& e) {
        EXPECT_EQ(e.field(), field) << e.what();
        EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no CclOpError";
    return {};
}

// ---- method plans ------------------------------------------------------------------

TEST(MethodPlan, OneDirectionRings) {
    const MethodPlan cw = planMethod(Method::Clockwise, 4, true, 10);
    EXPECT_EQ(cw.gatherDirs, Dirs{0});
    EXPECT_EQ(cw.gatherReach[0], 3u);
    EXPECT_EQ(cw.gatherReach[1], 0u);
    EXPECT_EQ(cw.reduceDirs, Dirs{0});
    EXPECT_EQ(cw.reduce[0].ring_reach[0], 3u);
    EXPECT_EQ(cw.reduce[0].ring_reach[1], 0u);
    EXPECT_EQ(cw.a2aSplit, 3u);
    EXPECT_TRUE((cw.range[0] == MethodPlan::Range{0, 10}));

    const MethodPlan acw = planMethod(Method::Anticlockwise, 5, true, 10);
    EXPECT_EQ(acw.gatherDirs, Dirs{1});
    EXPECT_EQ(acw.gatherReach[1], 4u);
    EXPECT_EQ(acw.reduceDirs, Dirs{1});
    EXPECT_EQ(acw.reduce[1].ring_reach[1], 4u);
    EXPECT_EQ(acw.a2aSplit, 0u);
}

TEST(MethodPlan, BidirectionalPairSplitsEveryBlock) {
    const MethodPlan p = planMethod(Method::BidirPair, 5, true, 7);
    EXPECT_EQ(p.gatherDirs, (Dirs{0, 1}));
    EXPECT_EQ(p.gatherReach[0], 4u);
    EXPECT_EQ(p.gatherReach[1], 4u);
    EXPECT_TRUE((p.range[0] == MethodPlan::Range{0, 4}));  // the first ceil(B/2) pages clockwise
    EXPECT_TRUE((p.range[1] == MethodPlan::Range{4, 3}));
    // Each direction's mover reduces its half all the way round.
    EXPECT_EQ(p.reduce[0].ring_reach[0], 4u);
    EXPECT_EQ(p.reduce[0].ring_reach[1], 0u);
    EXPECT_EQ(p.reduce[1].ring_reach[0], 0u);
    EXPECT_EQ(p.reduce[1].ring_reach[1], 4u);
    EXPECT_EQ(p.reduceDirs, (Dirs{0, 1}));
    EXPECT_EQ(p.a2aSplit, 2u);
    // A one-page block has no second half: one direction only.
    const MethodPlan one = planMethod(Method::BidirPair, 4, true, 1);
    EXPECT_EQ(one.gatherDirs, Dirs{0});
    EXPECT_EQ(one.reduceDirs, Dirs{0});
}

TEST(MethodPlan, MeetInTheMiddleOnOddAndEvenRings) {
    const MethodPlan even = planMethod(Method::MeetInMiddle, 8, true, 3);
    EXPECT_EQ(even.gatherReach[0], 4u);  // ceil(7 / 2) one way, the rest the other
    EXPECT_EQ(even.gatherReach[1], 3u);
    EXPECT_EQ(even.reduce[0].ring_reach[0], 4u);
    EXPECT_EQ(even.reduce[0].ring_reach[1], 3u);
    EXPECT_EQ(even.reduceDirs, (Dirs{0, 1}));
    const MethodPlan odd = planMethod(Method::MeetInMiddle, 5, true, 3);
    EXPECT_EQ(odd.gatherReach[0], 2u);
    EXPECT_EQ(odd.gatherReach[1], 2u);
    // A ring of two: the whole way is one hop, direction 1 reduces nothing.
    const MethodPlan two = planMethod(Method::MeetInMiddle, 2, true, 3);
    EXPECT_EQ(two.gatherReach[0], 1u);
    EXPECT_EQ(two.gatherReach[1], 0u);
    EXPECT_EQ(two.reduceDirs, Dirs{0});
    EXPECT_EQ(two.gatherDirs, (Dirs{0, 1}));
}

TEST(MethodPlan, LineUsesBothDirectionsToItsEnds) {
    for (unsigned n : {2u, 3u, 6u}) {
        const MethodPlan p = planMethod(Method::Line, n, false, 4);
        EXPECT_EQ(p.gatherDirs, (Dirs{0, 1})) << n;
        EXPECT_EQ(p.reduceDirs, (Dirs{0, 1})) << n;
        EXPECT_FALSE(p.reduce[0].ring);
        // On a line a partial collects everything up to the end.
        EXPECT_EQ(p.reduce[0].reach(n - 1, 0), n - 1);
        EXPECT_EQ(p.reduce[1].reach(0, 1), n - 1);
    }
}

// ---- shapes --------------------------------------------------------------------------

TEST(CclShape, EveryCollectiveOnFourRanks) {
    // bf16 pages of 2048 B: 1024 elements each.
    const CclShape ag = planShape(spec(Op::AllGather, 1500), 4);
    EXPECT_EQ(ag.blockPages, 2u);
    EXPECT_EQ(ag.in.blocks, 1u);
    EXPECT_EQ(ag.out.blocks, 4u);
    EXPECT_EQ(ag.out.validElems, 6000u);
    EXPECT_EQ(ag.out.pages(), 8u);

    const CclShape rsc = planShape(spec(Op::ReduceScatter, 1001), 4);
    EXPECT_EQ(rsc.in.blockElems, 251u);  // fractures of ceil(E / n)
    EXPECT_EQ(rsc.in.blocks, 4u);
    EXPECT_EQ(rsc.in.validElems, 1001u);
    EXPECT_EQ(rsc.out.blocks, 1u);
    EXPECT_EQ(rsc.out.validElems, 251u);

    const CclShape ar = planShape(spec(Op::AllReduce, 1001), 4);
    EXPECT_EQ(ar.out.blocks, 4u);
    EXPECT_EQ(ar.out.validElems, 1001u);

    const CclShape a2a = planShape(spec(Op::AllToAll, 4096), 4);
    EXPECT_EQ(a2a.in.blockElems, 1024u);
    EXPECT_EQ(a2a.blockPages, 1u);
    EXPECT_EQ(a2a.out.validElems, 4096u);

    const CclShape bc = planShape(spec(Op::Broadcast, 3000), 4);
    EXPECT_EQ(bc.blockPages, 3u);
    EXPECT_EQ(bc.in.blocks, 1u);
    EXPECT_EQ(bc.out.blocks, 1u);
}

TEST(CclShape, BroadcastMethodMovesWholeInputs) {
    const CclShape rsc = planShape(spec(Op::ReduceScatter, 5000, Method::Broadcast), 4);
    EXPECT_EQ(rsc.blockPages, 5u);  // ceil(E / page elements), not a fracture
    EXPECT_EQ(rsc.in.blocks, 1u);
    EXPECT_EQ(rsc.in.blockElems, 5000u);
    EXPECT_EQ(rsc.out.validElems, 1250u);  // the output stays one fracture
    const CclShape ar = planShape(spec(Op::AllReduce, 5000, Method::Broadcast), 4);
    EXPECT_EQ(ar.out.blocks, 1u);  // ... all_reduce's output is whole too
    EXPECT_EQ(ar.out.blockElems, 5000u);
}

TEST(CclShape, AllGatherAlongDimOneInterleavesRows) {
    CclSpec s = spec(Op::AllGather, 4096);
    s.dim = 1;
    s.rowPages = 2;
    const CclShape sh = planShape(s, 4);
    EXPECT_EQ(sh.out.blocks, 1u);
    EXPECT_EQ(sh.out.blockElems, 4u * 4096);
    EXPECT_EQ(sh.blockPages, 4u);
    s.rowPages = 3;
    EXPECT_EQ(opError([&] { planShape(s, 4); }, "row_pages"),
              "all_gather dim=1: the 4096 elements per rank do not split into rows of 3 pages (3072 elements; "
              "row_pages)");
    s.dim = 2;
    EXPECT_EQ(opError([&] { planShape(s, 4); }, "dim"), "dim=2: must be 0 or 1");
}

TEST(CclShape, CountsThatDoNotFitTheCollective) {
    EXPECT_EQ(opError([&] { planShape(spec(Op::AllGather, 0), 4); }, "count"), "all_gather: the input has no elements");
    EXPECT_EQ(opError([&] { planShape(spec(Op::AllToAll, 12), 8); }, "count"),
              "all_to_all: the input's first dimension must equal the 8 replicas: 12 elements do not split into 8 "
              "equal blocks");
    CclSpec bc = spec(Op::Broadcast, 100);
    bc.root = 4;
    EXPECT_EQ(opError([&] { planShape(bc, 4); }, "root"), "root=4: the collective has ranks 0..3");
    CclSpec huge = spec(Op::AllGather, 1ull << 40);
    huge.pageBytes = 32;
    EXPECT_EQ(opError([&] { planShape(huge, 8); }, "count"), "1099511627776 elements is too large");
}

// ---- directions, channels, packets ------------------------------------------------------

TEST(CclPlanner, DirectionsFollowTheStreams) {
    const CclSpec a2a = spec(Op::AllToAll, 4096, Method::Clockwise);
    EXPECT_EQ(planDirections(a2a, planMethod(a2a.method, 4, true, 1)), Dirs{0});
    const CclSpec rsc = spec(Op::ReduceScatter, 4096, Method::BidirPair);
    EXPECT_EQ(planDirections(rsc, planMethod(rsc.method, 4, true, 1)), Dirs{0});  // one page: one half
    const CclSpec bm = spec(Op::AllReduce, 4096, Method::Broadcast);
    EXPECT_EQ(planDirections(bm, planMethod(bm.method, 4, true, 1)), (Dirs{0, 1}));
    const CclSpec ag = spec(Op::AllGather, 4096, Method::Anticlockwise);
    EXPECT_EQ(planDirections(ag, planMethod(ag.method, 4, true, 4)), Dirs{1});
}

TEST(CclPlanner, EdmChannelsPerLinkEnd) {
    CclSpec ar = spec(Op::AllReduce, 1 << 20);
    ar.workers = 4;
    const MethodPlan mp = planMethod(ar.method, 8, true, 64);
    // Reduce movers and gather streams, both directions, 4 workers each.
    EXPECT_EQ(edmChannelsPerLinkEnd(ar, mp, planDirections(ar, mp), 1), 16u);
    EXPECT_EQ(edmChannelsPerLinkEnd(ar, mp, planDirections(ar, mp), 2), 32u);  // a ring of two: both hops
    ar.method = Method::Broadcast;
    const MethodPlan bm = planMethod(ar.method, 8, true, 64);
    EXPECT_EQ(edmChannelsPerLinkEnd(ar, bm, planDirections(ar, bm), 1), 8u);  // the exchange only
    CclSpec ag = spec(Op::AllGather, 1 << 20, Method::Clockwise);
    ag.workers = 3;
    const MethodPlan cw = planMethod(ag.method, 8, true, 64);
    EXPECT_EQ(edmChannelsPerLinkEnd(ag, cw, planDirections(ag, cw), 1), 3u);
}

// The fabric's packets (the figure the report gives): up to four pages on a
// ring all-gather or all-reduce, two on a line and on the other ops.
TEST(CclPlanner, FabricPacketsFollowTheOpsCap) {
    PacketLimits lim;
    lim.fabricPayloadBytes = 4352;
    CclSpec s = spec(Op::AllGather, 1 << 20);
    s.impl = CclSpec::Impl::Fabric;
    s.pageBytes = 1024;
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 4u);
    s.op = Op::AllReduce;
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 4u);
    s.op = Op::ReduceScatter;
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 2u);
    s.op = Op::AllGather;
    s.method = Method::Line;
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 2u);
}

TEST(CclPlanner, EdmPacketsFillAChannelSlot) {
    PacketLimits lim;
    lim.edmRegionBytes = 100000;
    lim.fabricPayloadBytes = 4096;
    CclSpec s = spec(Op::AllGather, 1 << 20);
    s.edmBuffers = 2;
    // 8 channels of 12500 B: slots of 6242 B hold three 2048 B pages.
    EXPECT_EQ(planPagesPerChunk(s, 64, 8, lim), 3u);
    EXPECT_EQ(planPagesPerChunk(s, 2, 8, lim), 2u);   // chunks never span blocks
    EXPECT_EQ(planPagesPerChunk(s, 64, 1, lim), 8u);  // at most 16 KB
    s.sharing.edmShare = 2;                           // two ops split the region
    EXPECT_EQ(planPagesPerChunk(s, 64, 8, lim), 1u);
    s.sharing.edmShare = 1;
    s.packetBytes = 4096;
    EXPECT_EQ(planPagesPerChunk(s, 64, 8, lim), 2u);
    s.packetBytes = 3000;
    EXPECT_EQ(opError([&] { planPagesPerChunk(s, 64, 8, lim); }, "packet_bytes"),
              "packet_bytes=3000: must be a whole number of 2048 B pages");
    s.packetBytes = 8192;
    EXPECT_EQ(opError([&] { planPagesPerChunk(s, 64, 8, lim); }, "packet_bytes"),
              "packet_bytes=8192: 8 EDM channels per Ethernet core (1 link(s) x 4 worker(s)) of 2 buffer(s) fit at "
              "most 6144 B per buffer in the 100000 B kernel region");
    s.packetBytes = 0;
    s.edmBuffers = 16;
    EXPECT_EQ(opError([&] { planPagesPerChunk(s, 64, 32, lim); }, "edm_buffers"),
              "all_gather: 32 EDM channels of 16 buffer(s) per Ethernet core leave 194 B per buffer, less than one "
              "2048 B page; use fewer workers or edm_buffers");
}

TEST(CclPlanner, FabricPacketsCarryAtMostTwoPages) {
    PacketLimits lim;
    lim.fabricPayloadBytes = 4096;
    CclSpec s = spec(Op::AllGather, 1 << 20);
    s.impl = CclSpec::Impl::Fabric;
    s.packetBytes = 2048;  // sizes EDM messages only
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 2u);
    EXPECT_EQ(planPagesPerChunk(s, 1, 0, lim), 1u);
    s.pageBytes = 4096;
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 1u);
    s.pageBytes = 8192;  // refused when the fabric is built
    EXPECT_EQ(planPagesPerChunk(s, 64, 0, lim), 1u);
}

TEST(CclPlanner, LinkShareCountsHopsOnTheBusiestLink) {
    LinkDesc a, b;
    CclTopology two;
    two.hops.resize(2);
    two.hops[0].segments = {{&a}};
    two.hops[1].segments = {{&a}};  // a ring of two: both hops on one link
    EXPECT_EQ(linkShare({two}), 2u);
    CclTopology other;
    other.hops.resize(1);
    other.hops[0].segments = {{&b}, {&a}};  // a relayed hop of another group
    EXPECT_EQ(linkShare({two, other}), 3u);
    EXPECT_EQ(linkShare({}), 1u);
}

TEST(CclPlanner, PlanOfAnAllReduceOnTheEdm) {
    CclSpec s = spec(Op::AllReduce, 1 << 20, Method::BidirPair);
    s.groups = {{0, 1, 2, 3, 4, 5, 6, 7}};
    s.links = 1;
    s.workers = 2;
    PacketLimits lim;
    lim.edmRegionBytes = 150000;
    lim.fabricPayloadBytes = 4096;
    const CclPlan p = planCcl(s, 8, 1, lim);
    EXPECT_EQ(p.ranks, 8u);
    EXPECT_TRUE(p.ring);
    EXPECT_EQ(p.units, 2u);
    EXPECT_FALSE(p.viaBroadcast);
    EXPECT_EQ(p.shape.blockPages, 128u);  // fractures of 131072 elements
    EXPECT_EQ(p.dirs, (Dirs{0, 1}));
    EXPECT_EQ(p.edmChannels, 8u);
    EXPECT_EQ(p.pagesPerChunk, 4u);  // 18750 B per channel, two slots of 9367 B
}

// ---- the fabric ring's step plan -----------------------------------------------------------

FabricRingInput ringInput(unsigned n, bool ring, RingPhases phases, unsigned workers = 1) {
    FabricRingInput in;
    in.ranks = n;
    in.ring = ring;
    in.phases = phases;
    in.blockPages = 12;
    in.pageBytes = 2048;
    in.payloadBytes = 4096;
    in.links = 1;
    in.workers = workers;
    return in;
}

std::vector<std::uint32_t> blocks(const FabricRingArgs& a) {
    return std::vector<std::uint32_t>(a.block, a.block + a.steps);
}

TEST(FabricRingPlan, RingReduceScatterSendsPartialsRoundToTheirOwner) {
    const FabricRingPlan p = planFabricRing(ringInput(4, true, {true, false}));
    EXPECT_EQ(p.pagesPerPacket, 2u);
    EXPECT_EQ(p.granularity, 8u);
    EXPECT_EQ(p.workers.size(), 8u);  // every position, both directions
    const FabricRingArgs& cw = p.find(0, 0, 0, 0)->args;
    EXPECT_EQ(blocks(cw), (std::vector<std::uint32_t>{3, 2, 1, 0}));
    EXPECT_EQ(cw.kind[0], rs::kSrcOwn);
    EXPECT_EQ(cw.kind[1], rs::kSrcReduce);
    EXPECT_EQ(cw.dst[2], rs::kDstSend);
    EXPECT_EQ(cw.dst[3], rs::kDstLocal);  // the last reduction is the own block
    EXPECT_EQ(cw.split, 1u);
    EXPECT_EQ(cw.takes_first, 1u);
    const FabricRingArgs& acw = p.find(0, 0, 1, 0)->args;
    EXPECT_EQ(blocks(acw), (std::vector<std::uint32_t>{1, 2, 3, 0}));
    EXPECT_EQ(acw.takes_first, 0u);
    EXPECT_EQ(acw.has_r, 1u);
    // Every worker keeps exactly the block it owns, and sends n - 1 partials.
    for (const RingWorkerPlan& k : p.workers) {
        EXPECT_EQ(k.args.block[k.args.steps - 1], k.pos);
        EXPECT_TRUE(k.sends);
        EXPECT_EQ(k.args.out_blocks, 1u);
    }
}

TEST(FabricRingPlan, LineReduceScatterFoldsBothSidesIntoTheOwner) {
    const FabricRingPlan p = planFabricRing(ringInput(4, false, {true, false}));
    // Forward: the farthest block first, then (behind the first chip) L into the own block.
    const RingWorkerPlan& e0 = *p.find(0, 0, 0, 0);
    EXPECT_EQ(blocks(e0.args), (std::vector<std::uint32_t>{3, 2, 1}));
    EXPECT_EQ(e0.args.kind[0], rs::kSrcOwn);
    EXPECT_EQ(e0.args.sem_sel[2], 0u);  // the neighbour's own block: its forward worker's out_ready_sem
    EXPECT_FALSE(e0.stores);
    const RingWorkerPlan& e1 = *p.find(0, 1, 0, 0);
    EXPECT_EQ(blocks(e1.args), (std::vector<std::uint32_t>{3, 2, 1}));
    EXPECT_EQ(e1.args.kind[0], rs::kSrcReduce);
    EXPECT_EQ(e1.args.kind[2], rs::kSrcFoldL);
    EXPECT_EQ(e1.args.dst[2], rs::kDstLocal);
    EXPECT_EQ(e1.args.has_r, 1u);  // the backward worker finishes it
    EXPECT_FALSE(e1.stores);
    // The last chip's forward worker folds L alone and stores.
    const RingWorkerPlan& e3 = *p.find(0, 3, 0, 0);
    EXPECT_FALSE(e3.sends);
    EXPECT_TRUE(e3.stores);
    EXPECT_EQ(blocks(e3.args), (std::vector<std::uint32_t>{3}));
    EXPECT_EQ(e3.args.kind[0], rs::kSrcFoldL);
    EXPECT_EQ(e3.args.has_r, 0u);
    // Backward: block 0 first; the first chip only finishes its own block.
    const RingWorkerPlan& w0 = *p.find(0, 0, 1, 0);
    EXPECT_FALSE(w0.sends);
    EXPECT_TRUE(w0.stores);
    EXPECT_EQ(blocks(w0.args), (std::vector<std::uint32_t>{0}));
    EXPECT_EQ(w0.args.kind[0], rs::kSrcFinal);
    const RingWorkerPlan& w2 = *p.find(0, 2, 1, 0);
    EXPECT_EQ(blocks(w2.args), (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(w2.args.sem_sel[1], 2u);  // the neighbour's own block: its final_r semaphore
    EXPECT_EQ(w2.args.kind[2], rs::kSrcFoldR);
    EXPECT_TRUE(w2.stores);
    const RingWorkerPlan& w3 = *p.find(0, 3, 1, 0);
    EXPECT_EQ(blocks(w3.args), (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(w3.args.kind[0], rs::kSrcOwn);
    EXPECT_FALSE(w3.stores);
}

// Follows every page of the ring all-gather's plan: each send step lands its
// pages (a half with split forwarding) on the next chip of its direction,
// a forward sends only pages that landed here from upstream, and the own
// slice's local copy lands at home.
TEST(FabricRingPlan, RingAllGatherReachesEveryRankOnce) {
    for (unsigned n : {3u, 4u, 5u, 6u, 8u})
        for (std::uint32_t blockPages : {12u, 7u, 3u}) {
            FabricRingInput in = ringInput(n, true, {false, true}, 2);
            in.blockPages = blockPages;
            const FabricRingPlan p = planFabricRing(in);
            const std::string at = "n=" + std::to_string(n) + " B=" + std::to_string(blockPages);
            // (rank, block, page) -> times landed; (rank, dir, block, page) landed by direction
            std::map<std::array<unsigned, 3>, unsigned> landed;
            std::set<std::array<unsigned, 4>> byDir;
            std::map<std::array<unsigned, 3>, unsigned> sends;  // (pos, dir, unit) -> send steps
            std::uint64_t pagesPerDir[2] = {0, 0};
            // Walk hop by hop: a forward needs what the previous hop landed.
            for (unsigned hop = 0; hop < n; ++hop)
                for (const RingWorkerPlan& k : p.workers) {
                    const FabricRingArgs& a = k.args;
                    const unsigned next = k.dir == 0 ? (k.pos + 1) % n : (k.pos + n - 1) % n;
                    for (unsigned s = 0; s < a.steps; ++s) {
                        const unsigned b = a.block[s];
                        const unsigned hopsFromOwner = k.dir == 0 ? (k.pos + n - b) % n : (b + n - k.pos) % n;
                        if (hopsFromOwner != hop) continue;
                        std::uint32_t lo = 0, hi = 0;
                        rs::step_pages(a.dst[s], a.range_pages, lo, hi);
                        for (std::uint32_t i = lo; i < hi; ++i) {
                            const unsigned page = a.range_first + i;
                            if (a.kind[s] == rs::kSrcRecv) {
                                EXPECT_TRUE(byDir.count({k.pos, k.dir, b, page}))
                                    << at << ": forwards a page that never landed here";
                            }
                            if (a.dst[s] & rs::kDstSend) {
                                ++landed[{next, b, page}];
                                byDir.insert({next, k.dir, b, page});
                                ++pagesPerDir[k.dir];
                            }
                            if (a.dst[s] & rs::kDstLocal) ++landed[{k.pos, b, page}];
                        }
                        if (a.dst[s] & rs::kDstSend) ++sends[{next, k.dir, k.unit}];
                    }
                }
            for (unsigned r = 0; r < n; ++r)
                for (unsigned b = 0; b < n; ++b)
                    for (unsigned page = 0; page < blockPages; ++page)
                        EXPECT_EQ((landed[{r, b, page}]), 1u)
                            << at << " rank " << r << " block " << b << " page " << page;
            // Every worker waits for exactly the blocks its upstream sends it.
            for (const RingWorkerPlan& k : p.workers)
                EXPECT_EQ(k.args.recv_count, (sends[{k.pos, k.dir, k.unit}])) << at;
            // Both directions carry the same load, but for odd halves
            // (tt-metal's split forwarding on even rings).
            const double diff = std::abs(double(pagesPerDir[0]) - double(pagesPerDir[1]));
            if (n % 2 == 1)
                EXPECT_EQ(diff, 0.0) << at;
            else if (blockPages == 12u)
                EXPECT_EQ(diff, 0.0) << at;  // units of 6 pages: halves of 3
            else
                EXPECT_LE(diff, double(n * in.workers)) << at;
        }
}

TEST(FabricRingPlan, EvenRingSplitsTheDiametricSlice) {
    const FabricRingPlan p = planFabricRing(ringInput(8, true, {false, true}));
    const FabricRingArgs& cw = p.find(1, 0, 0, 0)->args;
    const FabricRingArgs& acw = p.find(1, 0, 1, 0)->args;
    // Clockwise: own, then blocks 7, 6, 5 (the last one's first half only).
    EXPECT_EQ(blocks(cw), (std::vector<std::uint32_t>{0, 7, 6, 5}));
    EXPECT_EQ(cw.dst[3], rs::kDstSend | rs::kDstFirstHalf);
    // Anticlockwise: own, then 1, 2, 3 (the last one's second half only).
    EXPECT_EQ(blocks(acw), (std::vector<std::uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(acw.dst[3], rs::kDstSend | rs::kDstSecondHalf);
    EXPECT_EQ(cw.recv_count, 4u);
    EXPECT_EQ(acw.recv_count, 4u);
    // An odd ring has no diametric chip: no half steps.
    for (const RingWorkerPlan& k : planFabricRing(ringInput(7, true, {false, true})).workers)
        for (unsigned s = 0; s < k.args.steps; ++s)
            EXPECT_EQ(k.args.dst[s] & (rs::kDstFirstHalf | rs::kDstSecondHalf), 0u);
}

TEST(FabricRingPlan, LineAllGatherEndsOnlyReceive) {
    const FabricRingPlan p = planFabricRing(ringInput(4, false, {false, true}));
    const RingWorkerPlan& w0 = *p.find(1, 0, 1, 0);  // position 0 sends nothing west
    EXPECT_FALSE(w0.sends);
    EXPECT_EQ(w0.args.steps, 0u);
    EXPECT_EQ(w0.args.recv_count, 3u);  // the blocks of positions 1..3 arrive from the east
    const RingWorkerPlan& e3 = *p.find(1, 3, 0, 0);
    EXPECT_FALSE(e3.sends);
    EXPECT_EQ(e3.args.recv_count, 3u);
    const RingWorkerPlan& e1 = *p.find(1, 1, 0, 0);
    EXPECT_EQ(blocks(e1.args), (std::vector<std::uint32_t>{1, 0}));  // own, then forward position 0's
}

TEST(FabricRingPlan, AllReduceRunsBothPhasesIntoTheOutput) {
    FabricRingInput in = ringInput(4, true, {true, true}, 2);
    in.agWorkers = 3;  // the all-gather is an op of its own, with its own worker count
    const FabricRingPlan p = planFabricRing(in);
    EXPECT_EQ(p.units, 2u);
    EXPECT_EQ(p.agUnits, 3u);
    EXPECT_EQ(p.workers.size(), 4u * 2 * (2 + 3));
    EXPECT_EQ(p.find(1, 0, 0, 2)->args.range_first, 8u);  // the all-gather's units split a block in 3
    EXPECT_EQ(p.find(1, 0, 0, 2)->args.range_pages, 4u);
    const FabricRingArgs& rsw = p.find(0, 2, 0, 1)->args;
    EXPECT_EQ(rsw.out_block, 2u);  // the reduce-scatter stores into the own block of the output
    EXPECT_EQ(rsw.out_blocks, 4u);
    EXPECT_EQ(p.find(1, 2, 0, 1)->args.source_single, 0u);                    // the all-gather reads the output
    EXPECT_EQ(p.find(1, 2, 0, 1)->args.dst[0], std::uint32_t(rs::kDstSend));  // no local copy of the own block
    // Units split every block's pages.
    EXPECT_EQ(p.find(0, 0, 0, 0)->args.range_first, 0u);
    EXPECT_EQ(p.find(0, 0, 0, 0)->args.range_pages, 6u);
    EXPECT_EQ(p.find(0, 0, 0, 1)->args.range_first, 6u);
}

// tt-metal caps a packet's pages per op: the ring all-gather (minimal
// default factory) at four, the reduce-scatter and the line (multicast)
// all-gather at two; an all-reduce's two phases each keep their op's.
TEST(FabricRingPlan, PagesPerPacketFollowTheOp) {
    FabricRingInput in = ringInput(4, true, {true, true});
    in.pageBytes = 1024;
    in.payloadBytes = 4352;
    const FabricRingPlan ar = planFabricRing(in);
    EXPECT_EQ(ar.pagesPerPacket, 2u);
    EXPECT_EQ(ar.agPagesPerPacket, 4u);
    EXPECT_EQ(ar.find(0, 0, 0, 0)->args.pages_per_packet, 2u);  // reduce-scatter phase
    EXPECT_EQ(ar.find(1, 0, 0, 0)->args.pages_per_packet, 4u);  // all-gather phase
    EXPECT_EQ(ar.find(1, 0, 0, 0)->args.cb_slots, 3u);          // tt-metal: 3 x num_tiles_to_write_per_packet
    in.payloadBytes = 6144;                                     // three 2 KB pages (tt-metal's CCL benchmark)
    in.pageBytes = 2048;
    EXPECT_EQ(planFabricRing(in).agPagesPerPacket, 3u);
    FabricRingInput line = ringInput(4, false, {false, true});
    line.pageBytes = 1024;
    line.payloadBytes = 4352;
    line.lineMulticast = true;
    EXPECT_EQ(planFabricRing(line).agPagesPerPacket, 2u);
}

TEST(FabricRingPlan, PacketsAndLimits) {
    FabricRingInput in = ringInput(4, true, {true, false});
    in.pageBytes = 4096;
    const FabricRingPlan one = planFabricRing(in);
    EXPECT_EQ(one.pagesPerPacket, 1u);
    EXPECT_EQ(one.granularity, 4u);
    EXPECT_EQ(one.workers[0].args.cb_slots, 12u);
    EXPECT_EQ(opError(
                  [&] {
                      planFabricRing(ringInput(65, true, {true, false}));
                  },
                  "impl"),
              "impl=fabric: too many ranks for one worker's steps");
}

// ---- registry, validation, errors -------------------------------------------------------

TEST(Collectives, RegistryInCommandLineOrder) {
    std::vector<std::string> names;
    for (const CollectiveDef* d : collectives()) names.emplace_back(d->name());
    EXPECT_EQ(names,
              (std::vector<std::string>{"all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"}));
    ASSERT_NE(findCollective("all_to_all"), nullptr);
    EXPECT_EQ(findCollective("all_to_all")->ncclCount(64, 8), 8u);
    EXPECT_EQ(findCollective("all_scatter"), nullptr);
    EXPECT_DOUBLE_EQ(busFactor(Op::AllReduce, 8), 1.75);
    EXPECT_DOUBLE_EQ(busFactor(Op::Broadcast, 8), 1.0);
    EXPECT_EQ(sizeBytesOf(Op::AllGather, 100, 8, golden::DType::BF16), 1600u);
    EXPECT_EQ(sizeBytesOf(Op::ReduceScatter, 100, 8, golden::DType::FP32), 400u);
    EXPECT_TRUE(collective(Op::AllReduce).reduces);
    EXPECT_TRUE(collective(Op::Broadcast).rooted);
    EXPECT_TRUE(collective(Op::AllGather).gatherDim);
}

TEST(Collectives, EveryGoldenOpIsRegisteredWithItsHooks) {
    // A collective the golden reference defines but the registry lacks
    // would be unreachable from the command line and the method table.
    for (Op op : golden::kAllOps) {
        const CollectiveDef& d = collective(op);  // throws if missing
        EXPECT_EQ(d.op, op);
        EXPECT_NE(d.shape, nullptr) << d.name();
        EXPECT_NE(d.ncclCount, nullptr) << d.name();
        EXPECT_NE(d.busFactor, nullptr) << d.name();
        EXPECT_NE(d.buildEdm, nullptr) << d.name();
        EXPECT_NE(d.buildFabric, nullptr) << d.name();
        EXPECT_STRNE(d.description, "") << d.name();
    }
    EXPECT_EQ(collectives().size(), std::size(golden::kAllOps));
}

TEST(CclValidator, SpecErrorsNameTheField) {
    CclSpec s = spec(Op::AllGather, 100);
    s.pageBytes = 100;
    EXPECT_EQ(opError([&] { validateSpec(s); }, "page_bytes"), "page_bytes=100: must be a non-zero multiple of 32");
    s = spec(Op::AllGather, 100);
    s.workers = 0;
    EXPECT_EQ(opError([&] { validateSpec(s); }, "workers"), "workers must be at least 1");
    s = spec(Op::AllGather, 100);
    s.edmBuffers = 17;
    EXPECT_EQ(opError([&] { validateSpec(s); }, "edm_buffers"), "edm_buffers=17: must be 1..16");
    s = spec(Op::AllReduce, 100);
    s.redop = golden::RedOp::Mean;
    s.dtype = golden::DType::INT32;
    EXPECT_NE(opError([&] { validateSpec(s); }, "redop").find("redop=mean does not support dtype=int32"),
              std::string::npos);
    s = spec(Op::AllGather, 100);
    s.groups.clear();
    EXPECT_EQ(opError([&] { validateSpec(s); }, "groups"), "a collective needs a chip order");
    CclTopology a, b;
    a.order = {0, 1, 2};
    b.order = {3, 4};
    EXPECT_EQ(opError(
                  [&] {
                      validateGroups({a, b});
                  },
                  "groups"),
              "every group of a collective must have the same size");
}

TEST(CclOpError, ReferencesAreSpelledByTheFrontEnd) {
    const CclOpError e("impl", "`impl=fabric`: relayed groups run on the EDM streams (`impl=edm`); fewer `workers`");
    EXPECT_STREQ(e.what(), "impl=fabric: relayed groups run on the EDM streams (impl=edm); fewer workers");
    const auto flags = [](std::string_view f, std::string_view v) {
        return "--" + std::string(f) + (v.empty() ? "" : " " + std::string(v));
    };
    EXPECT_EQ(e.render(flags), "--impl fabric: relayed groups run on the EDM streams (--impl edm); fewer --workers");
    EXPECT_EQ(CclOpError::render("no references, a lone ` stays", flags), "no references, a lone ` stays");
}

}  // namespace
}  // namespace cclsim::ccl
