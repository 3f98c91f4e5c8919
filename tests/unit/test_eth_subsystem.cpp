// EthSubsystem on an elaborated N300 board: the user link joins chip 0
// channel 9 and chip 1 channel 1; chip 0 channel 8 <-> chip 1 channel 0 is
// reserved for dispatch; every other channel is unconnected.
//
// Expected ticks come from EthConfig as the shipped arch YAML sets it
// (12.5 GB/s, 1500 B frames with 50 B overhead, store-and-forward MACs):
//   serialisation = wireBytes(P) / lineBytesPerNs
//   landing       = serialisation end + deliveryLatency(P)
//   next landing  >= previous landing + lastFrameTicks(P)   (in-order receive)
#include "models/chip/ArchConfig.h"
#include "models/common/Simulate.h"
#include "models/erisc/EriscCore.h"
#include "platforms/Platform.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>
#include <systemc>

#include <cstring>
#include <memory>
#include <vector>

namespace cclsim {
namespace {

using test::CallbackWatcher;
using test::pattern;
using test::readL1;

constexpr Tick kSlack = 2;
constexpr std::uint32_t kKernelBase = 0x1A800;  // ERISC_L1_UNRESERVED_BASE

/// When a range of an L1 was first written.
struct Landing {
    std::vector<Tick> ticks;
    std::unique_ptr<CallbackWatcher> watcher;
    void attach(L1Memory& l1, std::uint32_t addr, std::uint32_t n) {
        watcher = std::make_unique<CallbackWatcher>([this] { ticks.push_back(now()); });
        l1.watch(addr, n, watcher.get());
    }
    Tick first() const { return ticks.empty() ? kNever : ticks.front(); }
};

/// The Ethernet parameters of the shipped Wormhole arch YAML (the one place
/// they are written; EthConfig has no defaults of its own).
EthConfig shippedEth() {
    return loadArchConfig(test::sourcePath("platforms/arch/wormhole_b0.yaml")).erisc.eth;
}

Tick serialisation(const EthConfig& c, std::uint32_t bytes) {
    return transferTicks(c.wireBytes(bytes), c.lineBytesPerNs);
}

// ---- framing arithmetic (pure) ------------------------------------------------

TEST(EthConfig, WireBytesAddFiftyBytesPerStartedFrame) {
    const EthConfig c = shippedEth();
    for (std::uint32_t p : {16u, 1024u, 1488u, 1500u, 1504u, 3000u, 4096u, 16384u}) {
        const std::uint32_t frames = (p + 1499) / 1500;
        EXPECT_DOUBLE_EQ(c.wireBytes(p), double(p) + 50.0 * frames) << p << " B";
    }
    EXPECT_DOUBLE_EQ(c.wireBytes(1500), 1550);
    EXPECT_DOUBLE_EQ(c.wireBytes(1504), 1504 + 100);
}

TEST(EthConfig, FramingEfficiencyMatchesTheGuide) {
    const EthConfig c = shippedEth();
    auto efficiency = [&](std::uint32_t p) { return double(p) / c.wireBytes(p); };
    // bfp4 tile 576 B: ~91%; bfp8 1088 B and fp16 2048 B tiles: < 5% overhead;
    // 3-6% above 1 KB.
    EXPECT_NEAR(efficiency(576), 0.91, 0.015);
    EXPECT_GT(efficiency(1088), 0.95);
    EXPECT_GT(efficiency(2048), 0.95);
    for (std::uint32_t p : {1040u, 1488u, 2048u, 4096u, 8192u, 16384u}) {
        EXPECT_GE(1 - efficiency(p), 0.03 - 1e-9) << p;
        EXPECT_LE(1 - efficiency(p), 0.06) << p;
    }
}

TEST(EthConfig, StoreAndForwardLatencyAddsFirstAndLastFrame) {
    const EthConfig c = shippedEth();
    // 4096 B = frames of 1500, 1500, 1096 B: the TX MAC fills the first
    // frame, the RX MAC checks the last one.
    EXPECT_EQ(c.deliveryLatency(4096), c.latency + transferTicks(1500 + 1096 + 2 * 50, 12.5));
    EXPECT_EQ(c.lastFrameTicks(4096), transferTicks(1096 + 50, 12.5));
    EXPECT_EQ(c.deliveryLatency(16), c.latency + transferTicks(16 + 16 + 100, 12.5));
    EthConfig cutThrough = c;
    cutThrough.storeAndForward = false;
    EXPECT_EQ(cutThrough.deliveryLatency(4096), c.latency);
    EXPECT_EQ(cutThrough.lastFrameTicks(4096), 0u);
}

// ---- sends on the user link (each elaborates and simulates once) ---------------

TEST(EthSubsystem, PayloadLandsAfterSerialisationPlusLatencyBothDirections) {
    auto p = test::makeN300();
    EthSubsystem& tx0 = p->chip(0).erisc(9).eth;
    EthSubsystem& tx1 = p->chip(1).erisc(1).eth;
    L1Memory& l1c0 = p->chip(0).erisc(9).l1;
    L1Memory& l1c1 = p->chip(1).erisc(1).l1;
    ASSERT_TRUE(tx0.link().connected);
    EXPECT_EQ(tx0.link().peerChip, 1u);
    EXPECT_EQ(tx0.link().peerChannel, 1u);
    EXPECT_FALSE(tx0.link().dispatch);

    const std::uint32_t bytes = 4096, src = 0x20000, dst = 0x30000;
    const auto fwd = pattern(bytes, 1), rev = pattern(bytes, 2);
    l1c0.writeBytes(src, bytes, fwd.data());
    l1c1.writeBytes(src, bytes, rev.data());
    Landing atChip1, atChip0;
    atChip1.attach(l1c1, dst, bytes);
    atChip0.attach(l1c0, dst, bytes);
    p->eq.at(0, [&] {
        tx0.send(0, src, dst, bytes);
        tx1.send(0, src, dst, bytes);
    });
    cclsim::simulate();

    const EthConfig& c = tx0.config();
    const Tick expected = serialisation(c, bytes) + c.deliveryLatency(bytes);
    EXPECT_EQ(expected, 1'015'360u);  // 339.68 ns on the wire + 460 ns + 215.68 ns store-and-forward
    // The two directions are independent.
    ASSERT_EQ(atChip1.ticks.size(), 1u);
    ASSERT_EQ(atChip0.ticks.size(), 1u);
    EXPECT_NEAR(double(atChip1.first()), double(expected), kSlack);
    EXPECT_NEAR(double(atChip0.first()), double(expected), kSlack);
    EXPECT_EQ(readL1(l1c1, dst, bytes), fwd);
    EXPECT_EQ(readL1(l1c0, dst, bytes), rev);
    EXPECT_EQ(tx0.stats().commands, 1u);
    EXPECT_DOUBLE_EQ(tx0.stats().payloadBytes, bytes);
    EXPECT_DOUBLE_EQ(tx0.stats().wireBytes, c.wireBytes(bytes));
}

TEST(EthSubsystem, CommandsInOneQueueCompleteInOrder) {
    auto p = test::makeN300();
    EthSubsystem& tx = p->chip(0).erisc(9).eth;
    L1Memory& remote = p->chip(1).erisc(1).l1;
    const auto big = pattern(4096, 3), small = pattern(16, 4);
    p->chip(0).erisc(9).l1.writeBytes(0x20000, 4096, big.data());
    p->chip(0).erisc(9).l1.writeBytes(0x21000, 16, small.data());
    Landing bigLanded, smallLanded;
    bigLanded.attach(remote, 0x30000, 4096);
    smallLanded.attach(remote, 0x31000, 16);
    p->eq.at(0, [&] {
        tx.send(0, 0x20000, 0x30000, 4096);
        tx.send(0, 0x21000, 0x31000, 16);  // queued behind the 4 KiB command
    });
    cclsim::simulate();

    const EthConfig& c = tx.config();
    const Tick bigAt = serialisation(c, 4096) + c.deliveryLatency(4096);
    // Alone the 16 B command would land at its own serialisation end plus its
    // (short) latency, before the big one: it must wait for it instead.
    const Tick smallAlone = serialisation(c, 4096) + serialisation(c, 16) + c.deliveryLatency(16);
    ASSERT_LT(smallAlone, bigAt);
    EXPECT_NEAR(double(bigLanded.first()), double(bigAt), kSlack);
    EXPECT_NEAR(double(smallLanded.first()), double(bigAt + c.lastFrameTicks(16)), kSlack);
    EXPECT_GT(smallLanded.first(), bigLanded.first());
    EXPECT_EQ(readL1(remote, 0x30000, 4096), big);
    EXPECT_EQ(readL1(remote, 0x31000, 16), small);
    EXPECT_EQ(tx.stats().commands, 2u);
    EXPECT_NEAR(tx.mac().bytesServed(), c.wireBytes(4096) + c.wireBytes(16), 1e-6);
}

TEST(EthSubsystem, TwoQueuesShareTheWire) {
    auto p = test::makeN300();
    EthSubsystem& tx = p->chip(0).erisc(9).eth;
    L1Memory& remote = p->chip(1).erisc(1).l1;
    Landing q0, q1;
    q0.attach(remote, 0x30000, 4096);
    q1.attach(remote, 0x32000, 4096);
    p->eq.at(0, [&] {
        tx.send(0, 0x20000, 0x30000, 4096);
        tx.send(1, 0x22000, 0x32000, 4096);
    });
    cclsim::simulate();
    // Frame by frame at equal weights both commands finish serialising at
    // twice the single time; the receive side then writes one after the
    // other, a last frame apart.
    const EthConfig& c = tx.config();
    const Tick both = 2 * serialisation(c, 4096) + c.deliveryLatency(4096);
    const Tick firstLanded = std::min(q0.first(), q1.first());
    const Tick secondLanded = std::max(q0.first(), q1.first());
    EXPECT_NEAR(double(firstLanded), double(both), kSlack);
    EXPECT_NEAR(double(secondLanded), double(both + c.lastFrameTicks(4096)), kSlack);
}

TEST(EthSubsystem, StreamsCountEachOpsBytesAndWireTime) {
    // Concurrent ops: a command tagged with its stream, one an op's declared
    // region names, and untagged control (stream 0).
    auto p = test::makeN300();
    EthSubsystem& tx = p->chip(0).erisc(9).eth;
    tx.declareStreams(2);
    tx.tagRegion(0x32000, 0x33000, 2);
    p->eq.at(0, [&] {
        tx.send(0, 0x20000, 0x30000, 4096, 1);
        tx.send(1, 0x22000, 0x32000, 4096);
        tx.sendRegAdd(0, 0x34000, 1);
    });
    cclsim::simulate();
    const EthConfig& c = tx.config();
    const auto& st = tx.streamStats();
    ASSERT_EQ(st.size(), 3u);
    EXPECT_EQ(st[1].commands, 1u);
    EXPECT_DOUBLE_EQ(st[1].payloadBytes, 4096);
    EXPECT_DOUBLE_EQ(st[2].payloadBytes, 4096);
    EXPECT_DOUBLE_EQ(st[0].payloadBytes, c.minPacketBytes);
    EXPECT_EQ(st[1].wireTicks, serialisation(c, 4096));
    EXPECT_EQ(st[2].wireTicks, serialisation(c, 4096));
    // The streams add up to the link's own counters.
    EXPECT_DOUBLE_EQ(st[0].wireBytes + st[1].wireBytes + st[2].wireBytes, tx.stats().wireBytes);
    EXPECT_DOUBLE_EQ(st[0].payloadBytes + st[1].payloadBytes + st[2].payloadBytes, tx.stats().payloadBytes);
}

TEST(EthSubsystem, QueueIsBusyWhileItsRegisterHoldsACommandTheFifoCannotTake) {
    // One command register per queue; the MAC takes a command when it starts
    // on the wire or when it fits in the tx FIFO behind the one being sent.
    auto p = test::makeN300();
    EthSubsystem& tx = p->chip(0).erisc(9).eth;
    const EthConfig& c = tx.config();
    ASSERT_EQ(c.txQueueDepth, 1u);
    ASSERT_GE(c.txFifoBytes, c.wireBytes(16)) << "a credit fits behind a payload";
    ASSERT_LT(c.txFifoBytes, c.wireBytes(4096)) << "a 4 KB payload does not";
    unsigned changes = 0;
    tx.onTxqChange = [&] { ++changes; };
    bool busyAfterOne = true, busyAfterCredit = true, busyAfterThree = false, otherBusy = true;
    bool busyAfterFirstDone = false, busyAfterCreditDone = true;
    std::size_t depthAfterThree = 0, depthAfterCreditDone = 0;
    std::string overflow;
    p->eq.at(0, [&] {
        tx.send(0, 0x20000, 0x30000, 4096);
        busyAfterOne = tx.busy(0);
        tx.send(0, 0x21000, 0x31000, 16);  // into the FIFO
        busyAfterCredit = tx.busy(0);
        tx.send(0, 0x22000, 0x32000, 4096);  // waits in the register
        busyAfterThree = tx.busy(0);
        depthAfterThree = tx.depth(0);
        otherBusy = tx.busy(1);
        overflow = test::thrownMessage([&] { tx.send(0, 0x23000, 0x33000, 16); });
    });
    // The first payload is sent: the credit is on the wire, and the second
    // payload still does not fit behind it.
    const Tick first = serialisation(c, 4096);
    p->eq.at(first + 1, [&] { busyAfterFirstDone = tx.busy(0); });
    // The credit is sent: the second payload is on the wire, the register free.
    p->eq.at(first + serialisation(c, 16) + 1, [&] {
        busyAfterCreditDone = tx.busy(0);
        depthAfterCreditDone = tx.depth(0);
    });
    cclsim::simulate();

    EXPECT_FALSE(busyAfterOne);
    EXPECT_FALSE(busyAfterCredit) << "a 16 B command fits in the FIFO behind the payload on the wire";
    EXPECT_TRUE(busyAfterThree);
    EXPECT_EQ(depthAfterThree, 3u);
    EXPECT_FALSE(otherBusy) << "queues are independent";
    test::expectContains(overflow, {"n300.chip0.eth9.eth", "tx_cmd_q 0", "busy"});
    EXPECT_TRUE(busyAfterFirstDone);
    EXPECT_FALSE(busyAfterCreditDone);
    EXPECT_EQ(depthAfterCreditDone, 1u);
    EXPECT_TRUE(tx.busy(2)) << "a queue that does not exist is never free";
    EXPECT_GE(changes, 6u) << "three submits and three completions notify the ERISC";
    EXPECT_EQ(tx.stats().commands, 3u) << "the rejected fourth command was not sent";
}

TEST(EthSubsystem, AcceptAheadLetsTheQueueTakePayloadsBeforeTheWireFrees) {
    // ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD (tt-metal's fabric router writes 32):
    // the MAC takes commands while those it holds ahead of the wire are at
    // most N Ethernet packets, so a second 4 KB payload no longer waits in
    // the register; a payload beyond N packets still does.
    auto p = test::makeN300();
    EthSubsystem& tx = p->chip(0).erisc(9).eth;
    const EthConfig& c = tx.config();
    ASSERT_EQ(c.frames(4096), 3u);
    unsigned changes = 0;
    tx.onTxqChange = [&] { ++changes; };
    bool busyDefault = false, busyAhead6 = true, busyBeyond = false;
    std::size_t notTakenBeyond = 0;
    p->eq.at(0, [&] {
        tx.send(0, 0x20000, 0x30000, 4096);  // on the wire
        tx.send(0, 0x21000, 0x31000, 4096);
        busyDefault = tx.busy(0);
        tx.setAcceptAhead(0, 6);
        busyAhead6 = tx.busy(0);
        tx.send(0, 0x22000, 0x32000, 4096);  // 6 packets ahead: taken
        tx.send(0, 0x23000, 0x33000, 4096);  // 9: waits in the register
        busyBeyond = tx.busy(0);
        notTakenBeyond = tx.notTaken(0);
    });
    cclsim::simulate();
    EXPECT_TRUE(busyDefault) << "power-on: the one-frame FIFO cannot take a 4 KB payload";
    EXPECT_FALSE(busyAhead6) << "writing the register frees the queue at once";
    EXPECT_TRUE(busyBeyond);
    EXPECT_EQ(notTakenBeyond, 1u);
    EXPECT_EQ(tx.acceptAhead(0), 6u);
    EXPECT_EQ(tx.acceptAhead(1), 0u) << "per queue";
    EXPECT_GE(changes, 1u) << "the register write notifies the ERISC";
    EXPECT_EQ(tx.stats().commands, 4u);
}

TEST(EthSubsystem, InvalidSendsAreErrors) {
    auto p = test::makeN300();
    EthSubsystem& user = p->chip(0).erisc(9).eth;
    const std::uint32_t ok = 0x20000;
    const std::uint32_t end = p->chip(0).arch().erisc.kernelRegionEnd();  // 0x3FFE0
    // The checks run before anything is queued, so no simulation is needed.
    auto error = [&](EthSubsystem& e, unsigned q, std::uint32_t s, std::uint32_t d, std::uint32_t n) {
        return test::thrownMessage([&] { e.send(q, s, d, n); });
    };
    test::expectContains(error(user, 0, ok + 8, ok, 64), {"n300.chip0.eth9.eth", "16 B aligned", "src=0x20008"});
    test::expectContains(error(user, 0, ok, ok + 4, 64), {"16 B aligned", "dst=0x20004"});
    test::expectContains(error(user, 0, ok, ok, 24), {"16 B aligned", "size=24 B"});
    test::expectContains(error(user, 0, ok, ok, 0), {"below the minimum packet of 16 B"});
    // Reserved L1 below the kernel region (base firmware) and past its end.
    test::expectContains(error(user, 0, 0x1000, ok, 64), {"source is outside the kernel-usable L1"});
    test::expectContains(error(user, 0, ok, end - 32, 64), {"destination is outside"});
    test::expectContains(error(user, 0, end - 16, ok, 32), {"source is outside"});
    test::expectContains(error(user, 2, ok, ok, 64), {"tx_cmd_q 2", "2 queues"});
    // The dispatch link (chip 0 channel 8 <-> chip 1 channel 0).
    EthSubsystem& dispatch = p->chip(0).erisc(8).eth;
    EXPECT_TRUE(dispatch.link().connected);
    test::expectContains(error(dispatch, 0, ok, ok, 64),
                         {"n300.chip0.eth8.eth", "reserved for dispatch", "chip 1 channel 0"});
    test::expectContains(error(p->chip(1).erisc(0).eth, 0, ok, ok, 64), {"reserved for dispatch", "chip 0 channel 8"});
    // A channel without a cable.
    EthSubsystem& loose = p->chip(0).erisc(0).eth;
    EXPECT_FALSE(loose.link().connected);
    test::expectContains(error(loose, 0, ok, ok, 64), {"n300.chip0.eth0.eth", "no Ethernet link"});
    // The kernel-usable regions themselves are fine: the erisc_info sync
    // words and the whole kernel region up to the barrier.
    EXPECT_NO_THROW(user.check(0, 0x18030, 0x18030, 16 * 8));
    EXPECT_NO_THROW(user.check(0, kKernelBase, end - 4096, 4096));
    EXPECT_EQ(user.depth(0), 0u);
    // Channels and chips that do not exist.
    test::expectContains(test::thrownMessage([&] { p->chip(0).erisc(16); }),
                         {"n300.chip0", "channel 16 does not exist"});
    test::expectContains(test::thrownMessage([&] { p->chip(2); }), {"n300", "chip 2 does not exist"});
}

TEST(EthSubsystem, TimingModeCarriesOnlyControlWords) {
    PlatformOptions opts;
    opts.storePayload = false;
    auto p = test::makeN300({}, opts);
    L1Memory& local = p->chip(0).erisc(9).l1;
    L1Memory& remote = p->chip(1).erisc(1).l1;
    // The first 16 B of the kernel region (the handshake word) are a control
    // range on every ERISC; the rest of the payload is timing only.
    const auto data = pattern(64, 9);
    for (std::uint32_t i = 0; i < 64; i += 4) {
        std::uint32_t w;
        std::memcpy(&w, &data[i], 4);
        local.writeU32(kKernelBase + i, w);  // word writes are stored in timing mode
    }
    Landing landed;
    landed.attach(remote, kKernelBase, 64);
    p->eq.at(0, [&] { p->chip(0).erisc(9).eth.send(0, kKernelBase, kKernelBase, 64); });
    cclsim::simulate();

    const EthConfig& c = p->chip(0).erisc(9).eth.config();
    EXPECT_NEAR(double(landed.first()), double(serialisation(c, 64) + c.deliveryLatency(64)), kSlack)
        << "timing is the same as in data mode";
    const auto got = readL1(remote, kKernelBase, 64);
    for (std::uint32_t i = 0; i < 64; ++i) ASSERT_EQ(got[i], i < 16 ? data[i] : 0) << "byte " << i;
}

}  // namespace
}  // namespace cclsim
