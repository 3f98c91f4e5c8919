// Noc: dimension-order routing on the 10x12 torus (NoC0 +x then +y, NoC1
// -y then -x), unloaded latency, and link reservations: packets that share
// a link serialise on it, packets on disjoint paths do not interact.
//
// Pure arithmetic on "free at" ticks: no SystemC simulation.
#include "models/noc/Noc.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

namespace cclsim {
namespace {

const NocConfig kCfg{};  // Wormhole defaults: 10x12, 32 B/ns, 10 ns/hop, 30 ns startup

CoreCoord at(unsigned x, unsigned y) {
    return CoreCoord{std::uint8_t(x), std::uint8_t(y)};
}

TEST(Noc, DefaultsAreTheWormholeGrid) {
    EXPECT_EQ(kCfg.gridX, 10u);
    EXPECT_EQ(kCfg.gridY, 12u);
    EXPECT_EQ(kCfg.hopLatency, 10 * kTicksPerNs);
    EXPECT_EQ(kCfg.startupLatency, 30 * kTicksPerNs);
    EXPECT_DOUBLE_EQ(kCfg.linkBytesPerNs, 32.0);
}

TEST(Noc, Noc0HopsGoEastThenSouthWithWrap) {
    const Noc noc0(0, kCfg);
    EXPECT_EQ(noc0.hops(at(1, 1), at(1, 1)), 0u);
    EXPECT_EQ(noc0.hops(at(1, 1), at(3, 4)), 2u + 3u);
    // Going "back" wraps around the torus: 8 -> 9 -> 0 -> 1 is 3 hops in x,
    // 10 -> 11 -> 0 -> 1 -> 2 is 4 in y.
    EXPECT_EQ(noc0.hops(at(8, 1), at(1, 1)), 3u);
    EXPECT_EQ(noc0.hops(at(1, 10), at(1, 2)), 4u);
    EXPECT_EQ(noc0.hops(at(3, 4), at(1, 1)), 8u + 9u);
    EXPECT_EQ(noc0.hops(at(0, 0), at(9, 11)), 9u + 11u);  // the longest route
}

TEST(Noc, Noc1HopsGoNorthThenWestWithWrap) {
    const Noc noc1(1, kCfg);
    EXPECT_EQ(noc1.hops(at(3, 4), at(1, 1)), 2u + 3u);
    EXPECT_EQ(noc1.hops(at(1, 1), at(3, 4)), 8u + 9u);  // wraps both ways
    EXPECT_EQ(noc1.hops(at(1, 1), at(8, 1)), 3u);
    EXPECT_EQ(noc1.hops(at(1, 2), at(1, 10)), 4u);
}

TEST(Noc, TheTwoNocsAreMirrorImages) {
    // NoC1 from a to b takes exactly NoC0's route from b to a in reverse.
    const Noc noc0(0, kCfg), noc1(1, kCfg);
    for (unsigned sy = 0; sy < kCfg.gridY; sy += 3)
        for (unsigned sx = 0; sx < kCfg.gridX; ++sx)
            for (unsigned dy = 0; dy < kCfg.gridY; ++dy)
                for (unsigned dx = 0; dx < kCfg.gridX; dx += 2) {
                    const CoreCoord s = at(sx, sy), d = at(dx, dy);
                    ASSERT_EQ(noc1.hops(s, d), noc0.hops(d, s)) << s.str() << " -> " << d.str();
                    ASSERT_EQ(noc0.hops(s, d), (dx + 10 - sx) % 10 + (dy + 12 - sy) % 12);
                }
}

TEST(Noc, UnloadedLatencyIsStartupPlusHops) {
    const Noc noc0(0, kCfg), noc1(1, kCfg);
    EXPECT_EQ(noc0.unloadedLatency(at(1, 1), at(3, 4)), kCfg.startupLatency + 5 * kCfg.hopLatency);  // 80 ns
    EXPECT_EQ(noc0.unloadedLatency(at(1, 1), at(3, 4)), 80'000u);
    EXPECT_EQ(noc1.unloadedLatency(at(1, 1), at(3, 4)), 30'000u + 17 * 10'000u);
    EXPECT_EQ(noc0.unloadedLatency(at(2, 2), at(2, 2)), kCfg.startupLatency);
}

TEST(Noc, LonePacketArrivesAfterLatencyPlusSerialisation) {
    Noc noc0(0, kCfg);
    const std::uint32_t wire = 1024 + kCfg.headerBytes;
    const Tick ser = transferTicks(wire, kCfg.linkBytesPerNs);
    ASSERT_EQ(ser, 33'000u);  // 1056 B at 32 B/ns
    // Injected at link rate from t = 1 us: the tail reaches the destination
    // one path latency after it left the source.
    const Tick t0 = 1'000'000;
    EXPECT_EQ(noc0.reservePacket(at(1, 1), at(3, 4), wire, t0, t0 + ser),
              t0 + noc0.unloadedLatency(at(1, 1), at(3, 4)) + ser);
    // Injected slowly (a shared injection port): its last byte left at
    // t0 + 500 ns, and cannot arrive earlier than that plus the path latency.
    Noc fresh(0, kCfg);
    const Tick slowEnd = t0 + 500'000;
    EXPECT_EQ(fresh.reservePacket(at(1, 1), at(3, 4), wire, t0, slowEnd),
              slowEnd + fresh.unloadedLatency(at(1, 1), at(3, 4)));
}

TEST(Noc, PacketsSharingALinkSerialise) {
    Noc noc0(0, kCfg);
    const std::uint32_t wire = 1024 + kCfg.headerBytes;
    const Tick ser = transferTicks(wire, kCfg.linkBytesPerNs);
    // A: 1-1 -> 3-3 goes east over 1-1, 2-1, then south over 3-1, 3-2.
    // B: 3-0 -> 3-3 goes south over 3-0, 3-1, 3-2. Injected 10 ns after A,
    // B's head reaches link 3-1 (south) in the same tick as A's head, so it
    // waits exactly one serialisation time behind A's tail there.
    const CoreCoord a0 = at(1, 1), b0 = at(3, 0), dst = at(3, 3);
    const Tick tA = 0, tB = kCfg.hopLatency;
    ASSERT_EQ(tA + kCfg.startupLatency + 2 * kCfg.hopLatency, tB + kCfg.startupLatency + 1 * kCfg.hopLatency);
    const Tick arrA = noc0.reservePacket(a0, dst, wire, tA, tA + ser);
    const Tick arrB = noc0.reservePacket(b0, dst, wire, tB, tB + ser);
    const Tick aloneA = tA + noc0.unloadedLatency(a0, dst) + ser;
    const Tick aloneB = tB + noc0.unloadedLatency(b0, dst) + ser;
    EXPECT_EQ(aloneA, aloneB) << "both would arrive together on an empty NoC";
    EXPECT_EQ(arrA, aloneA);
    EXPECT_EQ(arrB, aloneB + ser);
    // The shared links carried both packets.
    EXPECT_DOUBLE_EQ(noc0.busiestLinkBytes(), 2.0 * wire);
}

TEST(Noc, PacketsOnDisjointPathsDoNotInterfere) {
    Noc noc0(0, kCfg), noc1(1, kCfg);
    const std::uint32_t wire = 4096 + kCfg.headerBytes;
    const Tick ser = transferTicks(wire, kCfg.linkBytesPerNs);
    // Rows 1 and 2 eastward: no common link, different ejection ports.
    EXPECT_EQ(noc0.reservePacket(at(1, 1), at(4, 1), wire, 0, ser), noc0.unloadedLatency(at(1, 1), at(4, 1)) + ser);
    EXPECT_EQ(noc0.reservePacket(at(1, 2), at(4, 2), wire, 0, ser), noc0.unloadedLatency(at(1, 2), at(4, 2)) + ser);
    // The same row on the other NoC is another set of links.
    EXPECT_EQ(noc1.reservePacket(at(4, 1), at(1, 1), wire, 0, ser), noc1.unloadedLatency(at(4, 1), at(1, 1)) + ser);
    EXPECT_DOUBLE_EQ(noc0.busiestLinkBytes(), double(wire));
}

TEST(Noc, WritersIntoOneCoreShareItsEjectionPort) {
    Noc noc0(0, kCfg);
    const std::uint32_t wire = 2048 + kCfg.headerBytes;
    const Tick ser = transferTicks(wire, kCfg.linkBytesPerNs);
    // 2-5 -> 4-5 (east) and 4-3 -> 4-5 (south) meet only at 4-5's ejection
    // port, both with 2 hops: the second tail is absorbed one serialisation later.
    const Tick first = noc0.reservePacket(at(2, 5), at(4, 5), wire, 0, ser);
    const Tick second = noc0.reservePacket(at(4, 3), at(4, 5), wire, 0, ser);
    EXPECT_EQ(first, noc0.unloadedLatency(at(2, 5), at(4, 5)) + ser);
    EXPECT_EQ(second, first + ser);
}

TEST(Noc, LateReservationOfAnEarlierPacketDoesNotDelayLaterTraffic) {
    // Regression test (was a bug, models/noc/Noc.cpp reservePacket, with Niu::writeInjected calling
    // it only when a whole transfer has left the source): a link is one
    // "free at" tick, so reservations must arrive in time order. They don't:
    // a transfer is reserved when its injection ends, for times that lie in
    // the past. Here a short packet B crosses link 2-1 at ~0.54 us and is
    // reserved first (its injection ended first); then a long transfer A,
    // whose first packet crossed the same link at 40 ns, is reserved. A is
    // queued behind B's *later* slot, so all of A moves ~0.5 us late, as if
    // B had been in its way from the start. Expected: A's packet that passed
    // the link before B existed is unaffected (only the packets after B's
    // slot may move, by at most B's serialisation time).
    // Fix: keep a short list of busy intervals per link (pruned below now())
    // and place each packet in the first gap at or after its head time; or
    // reserve each NoC packet when it has been injected (one event per
    // <= 8 KB packet) instead of the whole transfer at its end.
    Noc noc0(0, kCfg);
    const std::uint32_t wireB = 64 + kCfg.headerBytes;
    const Tick serB = transferTicks(wireB, kCfg.linkBytesPerNs);
    const Tick tB = 500'000;  // B from 2-1 to 3-1, head on link 2-1 at 530 ns
    noc0.reservePacket(at(2, 1), at(3, 1), wireB, tB, tB + serB);
    // A: one 8 KiB packet from 1-1 to 4-1 injected over [0, 257 ns]; its
    // head is on link 2-1 at 40 ns, long before B.
    const std::uint32_t wireA = 8192 + kCfg.headerBytes;
    const Tick serA = transferTicks(wireA, kCfg.linkBytesPerNs);
    const Tick arrA = noc0.reservePacket(at(1, 1), at(4, 1), wireA, 0, serA);
    EXPECT_LE(arrA, noc0.unloadedLatency(at(1, 1), at(4, 1)) + serA + serB);
}

}  // namespace
}  // namespace cclsim

namespace cclsim {
namespace {

// Wormhole back-pressure: a packet whose head waits at a busy link for
// longer than the routers behind it can buffer leaves its source late.
TEST(NocSourceHold, BlockedHeadHoldsTheSourceBeyondTheBuffers) {
    NocConfig cfg;
    cfg.routerBufferBytes = 256;  // 8 ns of a 32 B/ns link per hop
    Noc noc(0, cfg);
    // An 8 KiB packet from 3-1 books the link 3-1 -> 4-1 and the ejection at 4-1 first.
    Tick free = 0;
    noc.reservePacket(at(3, 1), at(4, 1), 8192, 0, 0, 0, &free);
    EXPECT_EQ(free, 0u);  // unblocked: leaves as its last byte is injected
    // (The first packet holds the link 3-1 from 30 to 30 + 256 ns.) A 2 KiB
    // packet from 1-1 to 4-1 reaches it at 30 + 20 ns and waits 236 ns; the
    // routers of its three links so far park 3 x 256 B (24 ns) of it.
    const Tick arrival = noc.reservePacket(at(1, 1), at(4, 1), 2048, 0, 0, 1, &free);
    const Tick wait = (30 + 256) * kTicksPerNs - (30 + 20) * kTicksPerNs;
    EXPECT_EQ(free, wait - 3 * 8 * kTicksPerNs);
    EXPECT_GE(arrival, (286 + 64) * kTicksPerNs);
}

TEST(NocSourceHold, ShortWaitsAreAbsorbedByTheRouterBuffers) {
    NocConfig cfg;
    cfg.routerBufferBytes = 8192;
    Noc noc(0, cfg);
    Tick free = 0;
    noc.reservePacket(at(3, 1), at(4, 1), 1024, 0, 0, 0, &free);
    noc.reservePacket(at(1, 1), at(4, 1), 1024, 0, 0, 1, &free);
    EXPECT_EQ(free, 0u);
}

TEST(NocAbsorption, SlowEndpointStretchesTheEjection) {
    NocConfig cfg;
    cfg.absorbBytesPerNs.assign(std::size_t(cfg.gridX) * cfg.gridY, 0.0);
    cfg.absorbBytesPerNs[std::size_t(1) * cfg.gridX + 0] = 24.0;  // a DRAM endpoint at 0-1
    Noc noc(1, cfg);
    // NoC1 from 1-1 to 0-1: one hop west. The tail crosses the ejection at
    // 24 B/ns: 30 + 10 + 2400 / 24 ns, not 2400 / 32.
    const Tick arrival = noc.reservePacket(at(1, 1), at(0, 1), 2400, 0, 0);
    EXPECT_EQ(arrival, (30 + 10 + 100) * kTicksPerNs);
    EXPECT_DOUBLE_EQ(cfg.absorbRate(1, 1), 32.0);  // unlisted cells absorb at the link rate
}

}  // namespace
}  // namespace cclsim
