// Fabric routing, headers and router layout (pure logic; the builder tests
// elaborate a platform but never run it).
#include "host/fabric/FabricBuilder.h"
#include "host/fabric/FabricRouting.h"
#include "models/common/Report.h"
#include "tests/unit/TestSupport.h"

#include <algorithm>
#include <cstring>
#include <set>

using namespace cclsim;
using namespace cclsim::fabric;
using cclsim::test::sourcePath;

namespace {

ClusterDescriptor t3000(bool torus = false) {
    return loadClusterDescriptor(sourcePath("platforms/t3000.yaml"), "", torus);
}
ClusterDescriptor galaxy(bool torus = false) {
    return loadClusterDescriptor(sourcePath("platforms/galaxy.yaml"), "", torus);
}

/// Walk a route from src: the chip it ends at.
unsigned walk(const FabricTopology& t, const Route& r) {
    unsigned c = r.src;
    for (Dir d : r.hops) {
        auto n = t.neighbour(c, d);
        EXPECT_TRUE(n.has_value()) << "no neighbour " << dirName(d) << " of " << c;
        if (!n) return ~0u;
        c = *n;
    }
    return c;
}

}  // namespace

TEST(FabricRouting, LineGoesTowardsTheDestination) {
    const auto t = makeTopology1d(FabricKind::Line, {3, 1, 4, 0, 2});
    const Route r = route(t, 3, 2, true);
    EXPECT_EQ(r.size(), 4u);
    for (Dir d : r.hops) EXPECT_EQ(d, Dir::E);
    const Route back = route(t, 0, 1, true);
    EXPECT_EQ(back.size(), 2u);
    for (Dir d : back.hops) EXPECT_EQ(d, Dir::W);
    EXPECT_EQ(walk(t, back), 1u);
    EXPECT_FALSE(t.neighbour(3, Dir::W).has_value());  // the line's end
    EXPECT_EQ(t.maxHops(), 4u);
}

TEST(FabricRouting, RingTakesTheShorterWayEastOnATie) {
    const auto t = makeTopology1d(FabricKind::Ring, {0, 1, 2, 3, 4, 5, 6, 7});
    EXPECT_EQ(route(t, 0, 3, true).size(), 3u);
    EXPECT_EQ(route(t, 0, 3, true).first(), Dir::E);
    EXPECT_EQ(route(t, 0, 5, true).size(), 3u);
    EXPECT_EQ(route(t, 0, 5, true).first(), Dir::W);
    EXPECT_EQ(route(t, 0, 4, true).first(), Dir::E);  // 4 hops either way
    EXPECT_EQ(route(t, 6, 1, true).size(), 3u);
    EXPECT_EQ(walk(t, route(t, 6, 1, true)), 1u);
    // The longest unicast is 4 hops, but a multicast round the ring (a ring
    // op's start barrier) reaches the 7 other chips: the header holds 7.
    EXPECT_EQ(t.maxHops(), 7u);
    EXPECT_TRUE(t.wraps(Dir::E));
}

TEST(FabricRouting, OneDimensionalTopologiesAreValidated) {
    EXPECT_THROW(makeTopology1d(FabricKind::Ring, {0, 1}), cclsim::ConfigError);  // two links per plane needed
    EXPECT_THROW(makeTopology1d(FabricKind::Line, {0, 1, 0}), cclsim::ConfigError);
    EXPECT_THROW(makeTopology1d(FabricKind::Line, {0}), cclsim::ConfigError);
    const auto t = makeTopology1d(FabricKind::Line, {0, 1});
    EXPECT_THROW(route(t, 0, 0, true), cclsim::ConfigError);
    EXPECT_THROW(route(t, 0, 5, true), cclsim::ConfigError);
}

TEST(FabricRouting, MeshRoutesAreDimensionOrdered) {
    const ClusterDescriptor d = galaxy();
    const auto t = makeTopologyMesh(d, false);
    ASSERT_EQ(t.rows, 4u);
    ASSERT_EQ(t.cols, 8u);
    const unsigned src = t.grid[0 * 8 + 1], dst = t.grid[3 * 8 + 6];
    const Route yx = route(t, src, dst, true);
    ASSERT_EQ(yx.size(), 3u + 5u);
    for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(yx.hops[i], Dir::S);  // N/S first
    for (unsigned i = 3; i < 8; ++i) EXPECT_EQ(yx.hops[i], Dir::E);
    EXPECT_EQ(walk(t, yx), dst);
    const Route xy = route(t, src, dst, false);
    EXPECT_EQ(xy.hops.front(), Dir::E);
    EXPECT_EQ(xy.hops.back(), Dir::S);
    EXPECT_EQ(walk(t, xy), dst);
    // A dimension-ordered route turns at most once.
    for (unsigned a : t.grid)
        for (unsigned b : t.grid) {
            if (a == b) continue;
            const Route r = route(t, a, b, true);
            unsigned turns = 0;
            for (std::size_t i = 1; i < r.hops.size(); ++i) turns += isX(r.hops[i]) != isX(r.hops[i - 1]);
            EXPECT_LE(turns, 1u);
            EXPECT_EQ(walk(t, r), b);
        }
    EXPECT_EQ(t.maxHops(), 10u);
}

TEST(FabricRouting, TorusWrapsBothGalaxyAxes) {
    const ClusterDescriptor d = galaxy(true);
    const auto t = makeTopologyMesh(d, true);
    EXPECT_TRUE(t.wrapX);
    EXPECT_TRUE(t.wrapY);
    const unsigned a = t.grid[0], b = t.grid[3 * 8 + 7];  // opposite corners: one hop each way round
    const Route r = route(t, a, b, true);
    EXPECT_EQ(r.size(), 2u);
    EXPECT_EQ(r.hops[0], Dir::N);
    EXPECT_EQ(r.hops[1], Dir::W);
    EXPECT_EQ(walk(t, r), b);
    EXPECT_EQ(t.maxHops(), 2u + 4u);
    // Without the torus links loaded, a torus is refused with the way out.
    EXPECT_THROW(topologyFromOptions(galaxy(false), "torus", {}), cclsim::ConfigError);
}

TEST(FabricRouting, T3000MeshHasNoTorusAndTwoRows) {
    const auto t = makeTopologyMesh(t3000(), false);
    EXPECT_EQ(t.rows, 2u);
    EXPECT_EQ(t.cols, 4u);
    EXPECT_FALSE(t.wraps(Dir::N));
    try {
        topologyFromOptions(t3000(), "torus", {});
        FAIL() << "expected a ConfigError";
    } catch (const cclsim::ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("--torus"), std::string::npos) << e.what();
    }
}

TEST(FabricRouting, OneDimensionalRouteFields) {
    PacketHeader h;
    h.set_route_1d(3);
    // FORWARD, FORWARD, WRITE: two bits per hop, the next chip in the low bits.
    EXPECT_EQ(h.words[hdr::kRoute / 4], 0b01'10'10u);
    PacketHeader longer;
    longer.set_route_1d(20);
    EXPECT_EQ(longer.words[hdr::kRoute / 4], 0xAAAAAAAAu);  // 16 x FORWARD
    EXPECT_EQ(longer.words[hdr::kRouteExt / 4], 0b01'10'10'10u);
    EXPECT_EQ(PacketHeader::route_word(1, 0), route1d::WRITE_ONLY);
}

TEST(FabricRouting, TwoDimensionalRouteAndReplyNibbles) {
    const auto t = makeTopologyMesh(galaxy(), false);
    const Route r = route(t, t.grid[0], t.grid[2 * 8 + 1], true);  // S, S, E
    PacketHeader h;
    setRoute(h, t, r);
    setReplyRoute(h, t, r);
    EXPECT_EQ(h.words[hdr::kRoute / 4], 1u);  // the sender's hop is taken
    EXPECT_EQ(route_nibble(h.words, hdr::kRoute2d, 0), unsigned(Dir::S));
    EXPECT_EQ(route_nibble(h.words, hdr::kRoute2d, 2), unsigned(Dir::E));
    EXPECT_EQ(route_nibble(h.words, hdr::kRoute2d, 3), route2d::kLocal);
    // The reply retraces the path: W, N, N, then deliver.
    EXPECT_EQ(route_nibble(h.words, hdr::kReplyRoute2d, 0), unsigned(Dir::W));
    EXPECT_EQ(route_nibble(h.words, hdr::kReplyRoute2d, 1), unsigned(Dir::N));
    EXPECT_EQ(route_nibble(h.words, hdr::kReplyRoute2d, 3), route2d::kLocal);
    EXPECT_EQ(h.src_chip(), t.grid[0]);
    EXPECT_EQ(h.dst_chip(), t.grid[17]);
}

TEST(FabricRouting, PacketCommands) {
    PacketHeader h;
    h.to_noc_fused_unicast_write_atomic_inc(0x1234500, 0x6789a00, 3, 4352);
    EXPECT_EQ(h.noc_send_type(), NocSendType::NOC_FUSED_UNICAST_ATOMIC_INC);
    EXPECT_EQ(h.payload_size_bytes(), 4352u);
    EXPECT_EQ(h.noc_addr(), 0x1234500u);
    EXPECT_EQ(h.sem_noc_addr(), 0x6789a00u);
    EXPECT_EQ(h.value(), 3u);
    // tt-metal's fused header flushes unless the kernel says otherwise.
    EXPECT_EQ(h.words[hdr::kFlags / 4] & hdr::kFlagFlush, hdr::kFlagFlush);
    h.to_noc_fused_unicast_write_atomic_inc(0x1234500, 0x6789a00, 3, 4352, /*flush=*/false);
    EXPECT_EQ(h.words[hdr::kFlags / 4] & hdr::kFlagFlush, 0u);
    h.to_noc_unicast_atomic_inc(0x40, 1);  // the standalone increment too
    EXPECT_EQ(h.words[hdr::kFlags / 4] & hdr::kFlagFlush, hdr::kFlagFlush);
    h.to_noc_unicast_atomic_inc(0x40, 1, /*flush=*/false);
    EXPECT_EQ(h.words[hdr::kFlags / 4] & hdr::kFlagFlush, 0u);
    h.to_noc_unicast_inline_write(0x40, 77);
    EXPECT_EQ(h.noc_send_type(), NocSendType::NOC_UNICAST_INLINE_WRITE);
    EXPECT_EQ(h.payload_size_bytes(), 0u);
    EXPECT_EQ(h.value(), 77u);
    h.to_noc_unicast_read(0x100, 512, 0x200, 0x300, 1);
    EXPECT_EQ(h.read_size(), 512u);
    EXPECT_EQ(h.reply_sem_noc_addr(), 0x300u);
    EXPECT_STREQ(nocSendTypeName(NocSendType::NOC_UNICAST_READ), "NOC_UNICAST_READ");
}

TEST(FabricRouting, ChannelNumbering) {
    // 1D: worker, upstream (VC0); reply, upstream (VC1).
    EXPECT_EQ(numSenderChannels(false), 4u);
    EXPECT_EQ(upstreamChannel(Dir::E, Dir::W, false, 0), 1u);
    EXPECT_EQ(upstreamChannel(Dir::E, Dir::W, false, 1), 3u);
    EXPECT_EQ(replyChannel(false), 2u);
    // 2D: the three other directions in E, W, N, S order on each VC.
    EXPECT_EQ(numSenderChannels(true), 8u);
    EXPECT_EQ(upstreamChannel(Dir::N, Dir::E, true, 0), 1u);
    EXPECT_EQ(upstreamChannel(Dir::N, Dir::W, true, 0), 2u);
    EXPECT_EQ(upstreamChannel(Dir::N, Dir::S, true, 0), 3u);
    EXPECT_EQ(upstreamChannel(Dir::N, Dir::S, true, 1), 7u);
    EXPECT_EQ(channelVc(3, true), 0u);
    EXPECT_EQ(channelVc(4, true), 1u);
    std::set<unsigned> seen;
    for (unsigned d = 0; d < kDirs; ++d)
        if (Dir(d) != Dir::W) seen.insert(upstreamChannel(Dir::W, Dir(d), true, 0));
    EXPECT_EQ(seen, (std::set<unsigned>{1, 2, 3}));
}

// Builders elaborate a platform (one per process) but never simulate.
TEST(FabricBuilderLayout, LineOnT3000PicksEightSixteenSlotsAndOnePlane) {
    Platform p("t3000", t3000(), PlatformOptions{});
    Runtime rt(p);
    FabricBuilder fab(rt, makeTopology1d(FabricKind::Line, {0, 4, 5, 1, 2, 6, 7, 3}), {});
    EXPECT_EQ(fab.planes(), 1u);  // the N300 pairs keep one user link
    EXPECT_EQ(fab.headerBytes(), 48u);
    EXPECT_EQ(fab.maxPayloadBytes(), 4352u);
    EXPECT_EQ(fab.senderSlots(), 8u);
    EXPECT_EQ(fab.receiverSlots(), 16u);
    EXPECT_EQ(fab.routers().size(), 14u);  // two per inner chip, one at each end
    const RouterInfo& r = fab.router(0, 0, Dir::E);
    EXPECT_EQ(r.peerChip, 4u);
    EXPECT_FALSE(r.bubble);
    EXPECT_THROW(fab.router(0, 0, Dir::W), cclsim::ConfigError);
}

// tt-metal builds a second VC only for reads (UDM mode); its
// fabric_static_sized_channels_allocator fits {8, 8} slots of 6144 B + header
// in the ERISC region of a 1D fabric. The read-reply channels' L1 would push
// the model to {4, 8}, so they exist only on a fabric that reads.
TEST(FabricBuilderLayout, ReadReplyChannelsTakeL1OnlyOnAFabricThatReads) {
    ClusterDescriptor d = t3000();
    d.arch.fabric.maxPayloadBytes = 6144;
    Platform p("t3000", d, PlatformOptions{});
    Runtime rt(p);
    const auto line = makeTopology1d(FabricKind::Line, {0, 4, 5, 1});
    FabricBuilder plain(rt, line, {});
    EXPECT_EQ(plain.senderSlots(), 8u);
    EXPECT_EQ(plain.receiverSlots(), 8u);
    FabricOptions withReads;
    withReads.reads = true;
    FabricBuilder reading(rt, line, withReads);
    EXPECT_EQ(reading.senderSlots(), 4u);
    EXPECT_EQ(reading.receiverSlots(), 8u);
    // A read request needs the reply channels.
    PacketHeader h = plain.header(0, 1);
    EXPECT_THROW(plain.setReadReply(h, 0, 1), std::logic_error);
    PacketHeader h2 = reading.header(0, 1);
    EXPECT_NO_THROW(reading.setReadReply(h2, 0, 1));
}

TEST(FabricBuilderLayout, GalaxyMeshPicksFourEightSlotsAndFourPlanes) {
    Platform p("galaxy", galaxy(), PlatformOptions{});
    Runtime rt(p);
    FabricBuilder fab(rt, makeTopologyMesh(p.descriptor(), false), {});
    EXPECT_EQ(fab.planes(), 4u);
    EXPECT_EQ(fab.headerBytes(), 96u);
    EXPECT_EQ(fab.senderSlots(), 4u);
    EXPECT_EQ(fab.receiverSlots(), 8u);
    // Inner chips use all 16 Ethernet cores; every router core is distinct per chip.
    std::set<std::pair<unsigned, unsigned>> cores;
    for (const RouterInfo& r : fab.routers()) EXPECT_TRUE(cores.insert({r.chip, r.channel}).second);
    EXPECT_THROW(FabricBuilder(rt, makeTopologyMesh(p.descriptor(), false), FabricOptions{5}), cclsim::ConfigError);
}

TEST(FabricBuilderLayout, RingOnTheTorusUsesBubbleFlowControl) {
    Platform p("galaxy", galaxy(true), PlatformOptions{});
    Runtime rt(p);
    FabricBuilder fab(rt, makeTopologyMesh(p.descriptor(), true), {});
    for (const RouterInfo& r : fab.routers()) EXPECT_TRUE(r.bubble);
}

TEST(FabricBuilderLayout, NeighboursWithoutUserLinksAreRefused) {
    Platform p("t3000", t3000(), PlatformOptions{});
    Runtime rt(p);
    try {
        FabricBuilder fab(rt, makeTopology1d(FabricKind::Line, {0, 2}), {});
        FAIL() << "expected a ConfigError";
    } catch (const cclsim::ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("no user Ethernet link"), std::string::npos) << e.what();
    }
}

TEST(FabricRouting, LineMulticastRouteBits) {
    // Two bits per hop from the sender: pass start-1 chips, then write and
    // forward, the last chip write only.
    auto bitsOf = [](const PacketHeader& h, unsigned hop) {  // hop counted from 1
        const unsigned i = hop - 1;
        const std::uint32_t w = i < 16 ? h.words[hdr::kRoute / 4] : h.words[hdr::kRouteExt / 4 + i / 16 - 1];
        return (w >> (2 * (i % 16))) & 3u;
    };
    PacketHeader h;
    h.set_route_1d_multicast(1, 3);
    EXPECT_EQ(bitsOf(h, 1), route1d::WRITE_AND_FORWARD);
    EXPECT_EQ(bitsOf(h, 2), route1d::WRITE_AND_FORWARD);
    EXPECT_EQ(bitsOf(h, 3), route1d::WRITE_ONLY);
    EXPECT_EQ(bitsOf(h, 4), route1d::NOOP);
    h.set_route_1d_multicast(3, 2);
    EXPECT_EQ(bitsOf(h, 1), route1d::FORWARD_ONLY);
    EXPECT_EQ(bitsOf(h, 2), route1d::FORWARD_ONLY);
    EXPECT_EQ(bitsOf(h, 3), route1d::WRITE_AND_FORWARD);
    EXPECT_EQ(bitsOf(h, 4), route1d::WRITE_ONLY);
    // Across route words (a 32-chip ring: 16 chips each way).
    h.set_route_1d_multicast(1, 20);
    for (unsigned hop = 1; hop < 20; ++hop) EXPECT_EQ(bitsOf(h, hop), route1d::WRITE_AND_FORWARD) << hop;
    EXPECT_EQ(bitsOf(h, 20), route1d::WRITE_ONLY);
    // A range of one is a unicast.
    PacketHeader m, u;
    m.set_route_1d_multicast(5, 1);
    u.set_route_1d(5);
    EXPECT_EQ(0, std::memcmp(m.words, u.words, sizeof m.words));
}
