// The NoC interconnect contract (models/noc/NocInterconnect.h) from the
// chip's side, without elaborating SystemC: which interconnect a chip's NoC
// gets (models/chip/NocSelection.h) for an arch YAML with and without a
// `models: noc:` entry, the errors of a bad entry, the ObservedNoc decorator
// (timing untouched, every booking reported) and the built-in packet_trace
// model's CSV.
#include "models/chip/ArchConfig.h"
#include "models/chip/NocSelection.h"
#include "models/common/Report.h"
#include "models/noc/Noc.h"
#include "models/noc/NocPacketTrace.h"
#include "models/plugin/ModelRegistry.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace cclsim {
namespace {

using test::ScratchDir;

const std::string kArchPath = test::sourcePath("platforms/arch/wormhole_b0.yaml");

/// The shipped arch YAML with a `models:` section appended, loaded.
ArchConfig archWithNoc(const ScratchDir& dir, const std::string& entry) {
    const std::string text = test::readText(kArchPath) + "\nmodels:\n  noc: " + entry + "\n";
    return loadArchConfig(dir.write("arch.yaml", text));
}

/// A fixed traffic pattern: several sources into one core and across the
/// grid on both lanes, some packets overlapping on shared links.
struct Booking {
    CoreCoord src, dst;
    std::uint32_t bytes;
    Tick at;
    unsigned lane;
};
std::vector<Booking> traffic() {
    std::vector<Booking> v;
    for (unsigned i = 0; i < 24; ++i) {
        const CoreCoord src{std::uint8_t(1 + i % 8), std::uint8_t(1 + (i / 3) % 9)};
        const CoreCoord dst{std::uint8_t(1 + (i * 5) % 8), std::uint8_t(1 + (i * 7) % 9)};
        v.push_back(Booking{src, dst, 8192 + 32 - (i % 4) * 2048, Tick(i / 2) * 40 * kTicksPerNs, i % 2});
    }
    return v;
}

TEST(NocSelection, WithoutAModelsEntryTheChipGetsTheBookingModel) {
    const ArchConfig arch = loadArchConfig(kArchPath);
    for (unsigned n = 0; n < 2; ++n) {
        auto noc = makeNocInterconnect(arch, 3, n);
        ASSERT_NE(dynamic_cast<Noc*>(noc.get()), nullptr);
        EXPECT_EQ(noc->id(), n);
        EXPECT_EQ(noc->config().gridX, arch.noc.gridX);
        EXPECT_EQ(noc->config().maxPacketBytes, arch.noc.maxPacketBytes);
    }
}

TEST(NocSelection, ARegisteredModelGetsTheSpecAndTheBookingModel) {
    ScratchDir dir;
    const ArchConfig arch = archWithNoc(dir, "{name: test_spy, params: {depth: 3, mode: x}}");
    std::vector<NocModelSpec> seen;
    modelRegistry().addNoc("test_spy", [&](const NocModelSpec& s, std::unique_ptr<NocInterconnect> booking) {
        seen.push_back(s);
        EXPECT_NE(dynamic_cast<Noc*>(booking.get()), nullptr);
        return std::make_unique<ObservedNoc>(s.chip, std::move(booking), nullptr);
    });
    auto noc = makeNocInterconnect(arch, 5, 1);
    ASSERT_NE(dynamic_cast<ObservedNoc*>(noc.get()), nullptr);
    EXPECT_EQ(noc->id(), 1u);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].chip, 5u);
    EXPECT_EQ(seen[0].noc, 1u);
    EXPECT_EQ(seen[0].config, &arch.noc);
    EXPECT_EQ(seen[0].params, (std::map<std::string, std::string>{{"depth", "3"}, {"mode", "x"}}));
}

TEST(NocSelection, AnUnknownNameNamesTheEntryAndTheRegisteredModels) {
    ScratchDir dir;
    const ArchConfig arch = archWithNoc(dir, "{name: no_such_noc}");
    const int line = test::lineOf(test::readText(dir.path("arch.yaml")), "no_such_noc");
    const std::string msg = test::thrownMessage([&] { makeNocInterconnect(arch, 0, 0); });
    test::expectContains(msg, {dir.path("arch.yaml") + ":" + std::to_string(line), "no NoC model named 'no_such_noc'",
                               "registered: ", "packet_trace"});
    EXPECT_THROW(makeNocInterconnect(arch, 0, 0), ConfigError);
}

TEST(NocSelection, AMissingLibraryIsAConfigErrorAtTheEntry) {
    ScratchDir dir;
    const ArchConfig arch = archWithNoc(dir, "{name: my_noc, library: libnot_there.so}");
    const std::string msg = test::thrownMessage([&] { makeNocInterconnect(arch, 0, 0); });
    test::expectContains(msg, {dir.path("arch.yaml") + ":", "models.noc", "libnot_there.so", "cannot load"});
}

TEST(NocSelection, AFactoryThatFailsOrReturnsNothingOrTheWrongNocIsAConfigError) {
    ScratchDir dir;
    modelRegistry().addNoc(
        "test_throws", [](const NocModelSpec&, std::unique_ptr<NocInterconnect>) -> std::unique_ptr<NocInterconnect> {
            throw std::invalid_argument("depth must be > 0");
        });
    modelRegistry().addNoc("test_null", [](const NocModelSpec&, std::unique_ptr<NocInterconnect>) {
        return std::unique_ptr<NocInterconnect>();
    });
    modelRegistry().addNoc("test_other", [](const NocModelSpec& s, std::unique_ptr<NocInterconnect>) {
        return std::unique_ptr<NocInterconnect>(std::make_unique<Noc>(1 - s.noc, *s.config));
    });
    const std::string where = dir.path("arch.yaml") + ":";
    test::expectContains(
        test::thrownMessage([&] { makeNocInterconnect(archWithNoc(dir, "{name: test_throws}"), 2, 0); }),
        {where, "'test_throws' (chip 2, NoC 0): depth must be > 0"});
    test::expectContains(test::thrownMessage([&] { makeNocInterconnect(archWithNoc(dir, "{name: test_null}"), 2, 1); }),
                         {where, "'test_null' returned no interconnect for chip 2, NoC 1"});
    test::expectContains(
        test::thrownMessage([&] { makeNocInterconnect(archWithNoc(dir, "{name: test_other}"), 0, 0); }),
        {where, "'test_other' built NoC 1"});
}

TEST(ObservedNoc, ForwardsEveryCallUnchangedAndReportsEachBooking) {
    const ArchConfig arch = loadArchConfig(kArchPath);
    for (unsigned n = 0; n < 2; ++n) {
        Noc plain(n, arch.noc);
        std::vector<NocPacket> seen;
        ObservedNoc observed(7, std::make_unique<Noc>(n, arch.noc), [&](const NocPacket& p) { seen.push_back(p); });
        NocInterconnect& via = observed;
        EXPECT_EQ(via.id(), n);
        const auto bookings = traffic();
        for (const Booking& b : bookings) {
            EXPECT_EQ(via.hops(b.src, b.dst), plain.hops(b.src, b.dst));
            EXPECT_EQ(via.unloadedLatency(b.src, b.dst), plain.unloadedLatency(b.src, b.dst));
            Tick freePlain = 0, freeVia = 0;
            const Tick tailPlain = plain.reservePacket(b.src, b.dst, b.bytes, b.at, b.at, b.lane, &freePlain);
            const Tick tailVia = via.reservePacket(b.src, b.dst, b.bytes, b.at, b.at, b.lane, &freeVia);
            EXPECT_EQ(tailVia, tailPlain);
            EXPECT_EQ(freeVia, freePlain);
            ASSERT_FALSE(seen.empty());
            const NocPacket& p = seen.back();
            EXPECT_EQ(p.chip, 7u);
            EXPECT_EQ(p.noc, n);
            EXPECT_EQ(p.src, b.src);
            EXPECT_EQ(p.dst, b.dst);
            EXPECT_EQ(p.lane, b.lane);
            EXPECT_EQ(p.wireBytes, b.bytes);
            EXPECT_EQ(p.injectStart, b.at);
            EXPECT_EQ(p.tail, tailPlain);
            EXPECT_EQ(p.sourceFree, freePlain);
        }
        EXPECT_EQ(seen.size(), bookings.size());
        EXPECT_EQ(via.busiestLinkBytes(), plain.busiestLinkBytes());
        EXPECT_GT(plain.busiestLinkBytes(), 0.0);
    }
}

TEST(PacketTrace, WritesOneCsvLinePerPacketOfEveryNocNamingTheFile) {
    ScratchDir dir;
    const std::string csv = dir.path("packets.csv");
    const ArchConfig arch = archWithNoc(dir, "{name: packet_trace, params: {file: " + csv + "}}");
    std::vector<Tick> tails;
    {
        auto a = makeNocInterconnect(arch, 0, 0);
        auto b = makeNocInterconnect(arch, 1, 1);
        for (const Booking& k : traffic()) tails.push_back(a->reservePacket(k.src, k.dst, k.bytes, k.at, k.at, k.lane));
        tails.push_back(b->reservePacket(CoreCoord{2, 3}, CoreCoord{9, 0}, 4128, 1500 * kTicksPerNs + 250,
                                         1500 * kTicksPerNs + 250, 2));
        flushNocPacketTraces();
        std::istringstream is(test::readText(csv));
        std::string line;
        std::getline(is, line);
        EXPECT_EQ(line, "chip,noc,src,dst,lane,bytes,inject_ns,tail_ns");
        std::vector<std::string> lines;
        while (std::getline(is, line)) lines.push_back(line);
        ASSERT_EQ(lines.size(), tails.size());
        const Booking first = traffic().front();
        EXPECT_EQ(lines.front(), fmt::format("0,0,{},{},{},{},{:.3f},{:.3f}", first.src.str(), first.dst.str(),
                                             first.lane, first.bytes, ticksToNs(first.at), ticksToNs(tails.front())));
        EXPECT_EQ(lines.back(), fmt::format("1,1,2-3,9-0,2,4128,1500.250,{:.3f}", ticksToNs(tails.back())));
    }
    // The NoCs are gone, so is the file's last holder: a new run starts a new file.
    auto c = makeNocInterconnect(arch, 0, 0);
    flushNocPacketTraces();
    EXPECT_EQ(test::readText(csv), "chip,noc,src,dst,lane,bytes,inject_ns,tail_ns\n");
}

TEST(PacketTrace, AUserModelOfTheSameNameWins) {
    ScratchDir dir;
    bool called = false;
    modelRegistry().addNoc("packet_trace", [&](const NocModelSpec&, std::unique_ptr<NocInterconnect> booking) {
        called = true;
        return booking;
    });
    auto noc = makeNocInterconnect(archWithNoc(dir, "{name: packet_trace}"), 0, 0);
    EXPECT_TRUE(called);
    EXPECT_NE(dynamic_cast<Noc*>(noc.get()), nullptr);
}

TEST(PacketTrace, BadParametersAreConfigErrorsAtTheEntry) {
    ScratchDir dir;
    const std::string where = dir.path("arch.yaml") + ":";
    test::expectContains(
        test::thrownMessage([&] { makeNocInterconnect(archWithNoc(dir, "{name: packet_trace}"), 0, 0); }),
        {where, "packet_trace: params: file: is required"});
    test::expectContains(test::thrownMessage([&] {
                             makeNocInterconnect(
                                 archWithNoc(dir, "{name: packet_trace, params: {file: a.csv, every: 2}}"), 0, 0);
                         }),
                         {where, "unknown parameter 'every' (it takes: file)"});
    test::expectContains(
        test::thrownMessage([&] {
            makeNocInterconnect(
                archWithNoc(dir, "{name: packet_trace, params: {file: " + dir.path("no/such/dir.csv") + "}}"), 0, 0);
        }),
        {where, "cannot write the packet trace", "no/such/dir.csv"});
}

}  // namespace
}  // namespace cclsim
