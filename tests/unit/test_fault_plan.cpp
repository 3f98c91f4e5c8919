// Fault plans (models/eth/FaultPlan.h): strict decoding with file:line
// errors; and the link layer's bit-error model (models/eth/LinkFaults.h):
// deterministic for a seed, nothing at a zero rate, FEC corrections at a
// rate where codewords collect a few errors, CRC failures and Go-Back-N
// replays where they collect many.
#include "models/common/Yaml.h"
#include "models/eth/FaultPlan.h"
#include "models/eth/LinkFaults.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

namespace cclsim {
namespace {

FaultPlan decode(const std::string& text) {
    return decodeFaultPlan(YamlMap::loadString(text, "plan.yaml"));
}

TEST(FaultPlan, DecodesEveryKind) {
    const FaultPlan p = decode(
        "seed: 42\n"
        "faults:\n"
        "  - {kind: ber, link: all, rate: 1.0e-9}\n"
        "  - {kind: retrain, link: {chip: 0, channel: 1}, at_us: 20, duration_us: 50}\n"
        "  - {kind: down, link: {chip: 4, channel: 0}, at_us: 10}\n"
        "  - {kind: drop, link: {chip: 1, channel: 2}, at_us: 5, packets: 3}\n");
    EXPECT_EQ(p.seed, 42u);
    ASSERT_EQ(p.faults.size(), 4u);
    EXPECT_EQ(p.faults[0].kind, FaultSpec::Ber);
    EXPECT_TRUE(p.faults[0].allLinks);
    EXPECT_DOUBLE_EQ(p.faults[0].rate, 1e-9);
    EXPECT_EQ(p.faults[1].kind, FaultSpec::Retrain);
    EXPECT_EQ(p.faults[1].chip, 0u);
    EXPECT_EQ(p.faults[1].channel, 1u);
    EXPECT_EQ(p.faults[1].at, nsToTicks(20000));
    EXPECT_EQ(p.faults[1].duration, nsToTicks(50000));
    EXPECT_EQ(p.faults[2].kind, FaultSpec::Down);
    EXPECT_EQ(p.faults[3].packets, 3u);
    EXPECT_NE(p.faults[3].where.find("plan.yaml:6"), std::string::npos) << p.faults[3].where;
}

TEST(FaultPlan, BadEntriesNameFileLineAndKey) {
    auto err = [](const std::string& text) { return test::configError([&] { decode(text); }); };
    test::expectContains(err("faults:\n  - {kind: melt, link: all}\n"),
                         {"plan.yaml:2", "kind", "ber, retrain, down or drop"});
    test::expectContains(err("faults:\n  - {kind: ber, link: some, rate: 1e-9}\n"), {"plan.yaml:2", "link"});
    test::expectContains(err("faults:\n  - {kind: ber, link: all, rate: 2}\n"), {"rate", "[0, 1)"});
    test::expectContains(err("faults:\n  - {kind: retrain, link: all, at_us: 1, duration_us: 0}\n"), {"duration_us"});
    test::expectContains(err("faults:\n  - {kind: drop, link: all, at_us: 1, packets: 0}\n"), {"packets"});
    test::expectContains(err("faults:\n  - {kind: down, link: {chip: 0, chan: 1}, at_us: 1}\n"), {"chan"});
    test::expectContains(err("faults:\n  - {kind: down, link: all, at_us: -1}\n"), {"at_us"});
    test::expectContains(err("faults:\n  - {kind: down, link: all, at_us: 1, speed: 3}\n"), {"speed", "unknown"});
    test::expectContains(err("seed: 1\nfault: []\n"), {"faults"});
}

EthConfig eth() {
    EthConfig e;
    e.lineBytesPerNs = 12.5;
    e.wordBytes = 16;
    e.minPacketBytes = 16;
    e.maxPacketBytes = 1500;
    e.packetOverheadBytes = 50;
    e.latency = nsToTicks(460);
    e.fecCodewordSymbols = 528;
    e.fecDataSymbols = 514;
    e.fecSymbolBits = 10;
    e.fecCorrectableSymbols = 7;
    return e;
}

LinkHealth stream(double ber, std::uint64_t seed, double* extra) {
    LinkFaults f(eth(), seed);
    f.addBitErrorRate(ber);
    *extra = 0;
    for (int i = 0; i < 20000; ++i) *extra += f.replayWireBytes(4096);
    return f.health;
}

TEST(LinkFaults, BitErrorsAreCorrectedOrReplayedDeterministically) {
    double extra = 0;
    const LinkHealth clean = stream(0, 1, &extra);
    EXPECT_EQ(extra, 0);
    EXPECT_FALSE(clean.any());

    // 80 MiB through 5280-bit codewords at 1e-6: ~0.5 % of codewords see one
    // error (corrected); eight or more in one codeword essentially never.
    const LinkHealth low = stream(1e-6, 7, &extra);
    EXPECT_GT(low.correctedCodewords, 500u);
    EXPECT_EQ(low.uncorrectedCodewords, 0u);
    EXPECT_EQ(extra, 0);

    // At 5e-4 a codeword averages ~2.6 errors and ~0.6 % have more than 7:
    // those fail their CRC and are sent again (Go-Back-N), each failure
    // costing a round trip of frames.
    const LinkHealth high = stream(5e-4, 7, &extra);
    EXPECT_GT(high.crcErrors, 200u);
    EXPECT_FALSE(high.unusable);
    EXPECT_EQ(high.crcErrors, high.uncorrectedCodewords);
    EXPECT_GE(high.retransmittedFrames, high.crcErrors);
    EXPECT_GT(extra, 0);

    // The same seed gives the same counters; another seed others.
    double again = 0;
    const LinkHealth same = stream(1e-6, 7, &again);
    EXPECT_EQ(same.correctedCodewords, low.correctedCodewords);
    const LinkHealth other = stream(1e-6, 8, &again);
    EXPECT_NE(other.correctedCodewords, low.correctedCodewords);
}

TEST(LinkFaults, ALinkWhoseReplaysCannotConvergeIsUnusable) {
    // At 5e-3 (~26 errors per codeword) every frame fails: Go-Back-N never
    // gets through, and the link counts as down rather than costing forever.
    LinkFaults f(eth(), 3);
    f.addBitErrorRate(5e-3);
    f.replayWireBytes(4096);
    EXPECT_TRUE(f.health.unusable);
    EXPECT_TRUE(f.downAt(0));
}

TEST(LinkFaults, DropsEatFramesFromTheirTimeOn) {
    LinkFaults f(eth(), 1);
    f.addDrop(nsToTicks(1000), 3);
    EXPECT_FALSE(f.dropsCommand(4096, nsToTicks(999)));  // before the fault
    EXPECT_TRUE(f.dropsCommand(4096, nsToTicks(1000)));  // 3 frames: all of the drop
    EXPECT_FALSE(f.dropsCommand(4096, nsToTicks(2000)));
    EXPECT_EQ(f.health.lostFrames, 3u);
    EXPECT_EQ(f.health.lostCommands, 1u);
    EXPECT_DOUBLE_EQ(f.health.lostBytes, 4096);
}

}  // namespace
}  // namespace cclsim
