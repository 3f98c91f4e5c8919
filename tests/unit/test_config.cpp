// Configuration decoding: platforms/arch/*.yaml (loadArchConfig) and cluster
// descriptors (loadClusterDescriptor). Malformed and inconsistent files are
// written to a scratch directory; each must throw ConfigError whose message
// names the file, the line and the key, so a user can fix it without
// reading the decoder.
//
// The arch cases start from the real wormhole_b0.yaml and change one line,
// so they keep testing the file users actually edit.
#include "models/chip/ArchConfig.h"
#include "models/common/Report.h"
#include "platforms/ClusterDescriptor.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <string>

namespace cclsim {
namespace {

using test::lineOf;
using test::ScratchDir;

const std::string kArchPath = test::sourcePath("platforms/arch/wormhole_b0.yaml");

/// `text` with the first line containing `needle` replaced by `line` (which
/// may hold several lines, or none to delete it).
std::string replaceLine(const std::string& text, const std::string& needle, const std::string& line) {
    const auto at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << "'" << needle << "' not found";
    if (at == std::string::npos) return text;
    const auto begin = text.rfind('\n', at) + 1;  // npos + 1 == 0 on the first line
    const auto end = text.find('\n', at);
    return text.substr(0, begin) + line + (line.empty() ? "" : "\n") + text.substr(end + 1);
}

using test::configError;
using test::expectLocated;

// ---- arch YAML ------------------------------------------------------------------

class ArchConfigErrors : public ::testing::Test {
protected:
    ScratchDir dir;
    const std::string original = test::readText(kArchPath);

    /// Write `text` as an arch file and return the load error's message.
    std::string load(const std::string& name, const std::string& text) {
        path = dir.write(name, text);
        return configError([&] { loadArchConfig(path); });
    }
    std::string path;  ///< of the file load() wrote last
    std::string msg;   ///< a test's last error message
};

TEST_F(ArchConfigErrors, TheShippedFileLoads) {
    const ArchConfig a = loadArchConfig(kArchPath);
    EXPECT_EQ(a.name, "wormhole_b0");
    EXPECT_EQ(a.noc.gridX, 10u);
    EXPECT_EQ(a.noc.gridY, 12u);
    EXPECT_EQ(a.workers.size(), 80u);
    ASSERT_EQ(a.ethCores.size(), 16u);
    EXPECT_EQ(a.ethCores[0], (CoreCoord{9, 0}));
    EXPECT_EQ(a.ethCores[9], (CoreCoord{1, 6}));
    EXPECT_DOUBLE_EQ(a.erisc.eth.lineBytesPerNs, 12.5);
    EXPECT_DOUBLE_EQ(a.worker.dma.injectBytesPerNs, 28.1);
    EXPECT_EQ(a.noc.hopLatency, 10 * kTicksPerNs);
}

TEST_F(ArchConfigErrors, ModifiedWeightsReachThePeDmaConfig) {
    path = dir.write("weights.yaml",
                     replaceLine(original, "weights:", "    weights: {vc_compute: 75, vc_comm: 25, response: 50}"));
    const ArchConfig a = loadArchConfig(path);
    EXPECT_DOUBLE_EQ(a.worker.dma.computeWeight, 75);
    EXPECT_DOUBLE_EQ(a.worker.dma.commWeight, 25);
}

TEST_F(ArchConfigErrors, UnknownKey) {
    const std::string text = replaceLine(original, "header_bytes:", "  header_bytes: 32\n  hop_latncy_cycles: 12");
    msg = load("unknown_key.yaml", text);
    expectLocated(msg, path, lineOf(text, "hop_latncy_cycles"), "noc.hop_latncy_cycles", {"unknown key"});
}

TEST_F(ArchConfigErrors, OldUnitKeysNameTheirNewNames) {
    // `_gbps` meant Gbit/s for the Ethernet line rate and GB/s for DRAM banks;
    // the keys now carry their unit, and an old key says which one to use.
    std::string text = replaceLine(original, "line_rate_gbit_s:", "  line_rate_gbps: 100");
    msg = load("old_line_rate.yaml", text);
    expectLocated(msg, path, lineOf(text, "line_rate_gbps"), "eth.line_rate_gbps",
                  {"renamed to 'eth.line_rate_gbit_s'", "Gbit/s"});
    text = replaceLine(original, "bank_bandwidth_GB_s: 24", "  bank_bandwidth_gbps: 24");
    msg = load("old_bank_bandwidth.yaml", text);
    expectLocated(msg, path, lineOf(text, "bank_bandwidth_gbps"), "dram.bank_bandwidth_gbps",
                  {"renamed to 'dram.bank_bandwidth_GB_s'", "GB/s"});
}

TEST_F(ArchConfigErrors, UnknownTopLevelSection) {
    const std::string text = original + "\nnocs:\n  extra: 1\n";
    msg = load("unknown_section.yaml", text);
    expectLocated(msg, path, lineOf(text, "nocs:"), "nocs", {"unknown key"});
}

TEST_F(ArchConfigErrors, WrongScalarType) {
    const std::string text = replaceLine(original, "hop_latency_cycles:", "  hop_latency_cycles: ten");
    msg = load("wrong_type.yaml", text);
    expectLocated(msg, path, lineOf(text, "hop_latency_cycles"), "noc.hop_latency_cycles",
                  {"expected a number", "'ten'"});
}

TEST_F(ArchConfigErrors, NegativeWhereUnsignedExpected) {
    const std::string text = replaceLine(original, "max_packet_bytes:", "  max_packet_bytes: -8192");
    msg = load("negative.yaml", text);
    expectLocated(msg, path, lineOf(text, "max_packet_bytes"), "noc.max_packet_bytes",
                  {"expected a non-negative integer", "'-8192'"});
}

TEST_F(ArchConfigErrors, ScalarWhereMappingExpected) {
    const std::string text = replaceLine(original, "grid:", "grid: 10x12");
    msg = load("scalar_grid.yaml", text);
    expectLocated(msg, path, lineOf(text, "grid: 10x12"), "grid", {"must be a mapping"});
}

TEST_F(ArchConfigErrors, MissingKeyNamesFileAndKey) {
    const std::string text = replaceLine(original, "header_bytes:", "");
    msg = load("missing_key.yaml", text);
    test::expectContains(msg, {path + ":", "'noc.header_bytes'"});
}

TEST_F(ArchConfigErrors, MissingKeyIsReportedAsMissingAtItsMapping) {
    // Regression test (was a bug, models/common/Yaml.cpp, YamlMap::child): for an absent key it
    // returns YAML::Node(), which in yaml-cpp is a *defined* Null node, so
    // the `if (!n) fail(key, "is required but missing")` checks in get<T>(),
    // map() and seq() never fire. The absent key is decoded as an empty value
    // instead: "missing_key.yaml: key 'noc.header_bytes': expected a
    // non-negative integer, found empty" -- misleading wording, and no line
    // (a default node has no mark, so yamlLocation() prints the file only).
    // Fix: return YAML::Node(YAML::NodeType::Undefined) from child() when the
    // key is absent (then where() falls back to the enclosing mapping's mark).
    const std::string text = replaceLine(original, "header_bytes:", "");
    msg = load("missing_key.yaml", text);
    // The key is absent, so the message points at the mapping that should
    // hold it: yaml-cpp marks a block mapping at its first key.
    expectLocated(msg, path, lineOf(text, "link_bytes_per_cycle:"), "noc.header_bytes", {"is required but missing"});
}

TEST_F(ArchConfigErrors, MissingSectionIsReportedAsMissing) {
    // BUG: same cause as MissingKeyIsReportedAsMissingAtItsMapping; today the
    // message is "key 'eth.tx_cmd_q' must be a mapping, found empty", no line.
    std::string text = original;
    for (const char* key : {"tx_cmd_q:", "count: 2", "depth: 1", "mac_fifo_bytes: 1550"})
        text = replaceLine(text, key, "");
    msg = load("missing_section.yaml", text);
    expectLocated(msg, path, lineOf(text, "cores: [9-0"), "eth.tx_cmd_q", {"is required but missing"});
}

TEST_F(ArchConfigErrors, EmptyValueNamesFileAndKey) {
    const std::string text = replaceLine(original, "hop_latency_cycles:", "  hop_latency_cycles:");
    msg = load("empty_value.yaml", text);
    test::expectContains(msg, {path + ":", "'noc.hop_latency_cycles'", "expected a number, found empty"});
}

TEST_F(ArchConfigErrors, EmptyValueIsLocatedOnItsKeysLine) {
    // Regression test (was a bug, models/common/Yaml.cpp, YamlMap::where -> yamlLocation of the
    // value node): yaml-cpp marks an empty (null) value at the next token,
    // i.e. the following key, so "hop_latency_cycles:" on line 13 is
    // reported at line 14 (startup_latency_cycles). Fix: locate key errors
    // with the mark of the key node (it->first.Mark() in child()), which is
    // always the line the user wrote the key on.
    const std::string text = replaceLine(original, "hop_latency_cycles:", "  hop_latency_cycles:");
    msg = load("empty_value.yaml", text);
    expectLocated(msg, path, lineOf(text, "hop_latency_cycles"), "noc.hop_latency_cycles", {"expected a number"});
}

TEST_F(ArchConfigErrors, YamlSyntaxError) {
    const std::string text = replaceLine(original, "grid:", "grid: {x: 10, y: 12");
    msg = load("syntax.yaml", text);
    test::expectContains(msg, {path + ":", "YAML syntax error"});
    // The parser notices the unclosed flow mapping at or after its line.
    const auto colon = msg.find(path + ":") + path.size() + 1;
    EXPECT_GE(std::stoi(msg.substr(colon)), lineOf(text, "grid:")) << msg;
}

TEST_F(ArchConfigErrors, InconsistentValues) {
    {
        const std::string text = replaceLine(original, "sync_info_base:", "  sync_info_base: 0x18038");
        msg = load("misaligned.yaml", text);
        expectLocated(msg, path, lineOf(text, "sync_info_base"), "eth.sync_info_base", {"16 B aligned"});
    }
    {
        const std::string text = replaceLine(original, "cores: [9-0", "  cores: [19-0, 1-0]");
        msg = load("outside_grid.yaml", text);
        expectLocated(msg, path, lineOf(text, "cores: [19-0"), "eth.cores[0]", {"outside the 10x12 grid"});
    }
    {
        const std::string text = replaceLine(original, "cores: [9-0", "  cores: [9-0, 1-0, 9-0]");
        msg = load("twice.yaml", text);
        expectLocated(msg, path, lineOf(text, "cores: [9-0, 1-0, 9-0]"), "eth.cores[2]", {"listed twice"});
    }
    {
        const std::string text = replaceLine(original, "cores: [9-0", "  cores: [9-0, 1/0]");
        msg = load("bad_coord.yaml", text);
        expectLocated(msg, path, lineOf(text, "1/0"), "eth.cores[1]", {"'x-y'", "'1/0'"});
    }
    {
        const std::string text =
            replaceLine(original, "packet:", "  packet: {min_bytes: 2000, max_bytes: 1500, overhead_bytes: 50}");
        msg = load("min_max.yaml", text);
        expectLocated(msg, path, lineOf(text, "min_bytes: 2000"), "eth.packet.min_bytes",
                      {"must not exceed max_bytes"});
    }
    {
        const std::string text = replaceLine(original, "count: 2", "    count: 65");
        msg = load("many_queues.yaml", text);
        expectLocated(msg, path, lineOf(text, "count: 65"), "eth.tx_cmd_q.count", {"at most 64"});
    }
    {
        const std::string text = replaceLine(original, "aiclk_mhz:", "aiclk_mhz: 0");
        msg = load("zero_clock.yaml", text);
        expectLocated(msg, path, lineOf(text, "aiclk_mhz"), "aiclk_mhz", {"must be > 0"});
    }
}

TEST_F(ArchConfigErrors, MissingFile) {
    const std::string missing = dir.path("nope.yaml");
    test::expectContains(configError([&] { loadArchConfig(missing); }), {missing, "cannot open file"});
}

TEST_F(ArchConfigErrors, DuplicateKeyIsRejected) {
    // Regression test (was a bug, models/common/Yaml.cpp, YamlMap): yaml-cpp accepts duplicate keys
    // in a mapping, and YamlMap::child() returns the first match, so a second
    // "hop_latency_cycles" (e.g. an override appended while tuning) is
    // silently ignored and finish() does not object because the key name
    // was "used". The user sees the old value with no diagnostic. Fix: in the
    // YamlMap constructor (or finish()), walk the mapping once and throw
    // ConfigError "<file>:<line>: key '<path>' is given twice (first at line
    // N)" for a repeated scalar key.
    const std::string text = replaceLine(original, "header_bytes:", "  header_bytes: 32\n  hop_latency_cycles: 20");
    msg = load("duplicate.yaml", text);
    expectLocated(msg, path, lineOf(text, "hop_latency_cycles: 20"), "noc.hop_latency_cycles");
}

// ---- cluster descriptors ------------------------------------------------------

class ClusterDescriptorErrors : public ::testing::Test {
protected:
    ScratchDir dir;
    std::string path;  ///< of the file load() wrote last
    std::string msg;   ///< a test's last error message

    /// A two-chip board in the n300 shape, with an absolute arch path.
    std::string board(const std::string& links, const std::string& chips = "") const {
        return "name: pair\n"
               "arch: " +
               kArchPath +
               "\n"
               "chips:\n" +
               (chips.empty() ? "  - {id: 0, location: [0, 0, 0, 0], pcie: true}\n"
                                "  - {id: 1, location: [1, 0, 0, 0]}\n"
                              : chips) +
               "links:\n" + links;
    }
    static std::string userLinks() {
        return "  - {a: {chip: 0, chan: 8}, b: {chip: 1, chan: 0}, dispatch: true}\n"
               "  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}}\n";
    }
    std::string load(const std::string& name, const std::string& text) {
        path = dir.write(name, text);
        return configError([&] { loadClusterDescriptor(path); });
    }
};

TEST_F(ClusterDescriptorErrors, AValidBoardLoads) {
    path = dir.write("pair.yaml", board(userLinks()));
    const ClusterDescriptor cd = loadClusterDescriptor(path);
    EXPECT_EQ(cd.name, "pair");
    ASSERT_EQ(cd.chips.size(), 2u);
    EXPECT_TRUE(cd.chips[0].pcie);
    EXPECT_FALSE(cd.chips[1].pcie);
    EXPECT_EQ(cd.chips[1].location[0], 1);
    ASSERT_EQ(cd.links.size(), 2u);
    EXPECT_TRUE(cd.links[0].dispatch);
    EXPECT_EQ(cd.linksBetween(0, 1).size(), 2u);
    ASSERT_EQ(cd.userLinksBetween(1, 0).size(), 1u);
    EXPECT_EQ(cd.userLinksBetween(1, 0)[0]->a, (EthEndpoint{0, 9}));
    EXPECT_EQ(cd.linkAt(EthEndpoint{1, 0}), &cd.links[0]);
    EXPECT_EQ(cd.linkAt(EthEndpoint{1, 5}), nullptr);
    // The shipped n300 descriptor resolves its arch path relative to itself.
    const ClusterDescriptor n300 = loadClusterDescriptor(test::sourcePath("platforms/n300.yaml"));
    EXPECT_EQ(n300.arch.name, "wormhole_b0");
    EXPECT_EQ(n300.userLinksBetween(0, 1).size(), 1u);
}

TEST_F(ClusterDescriptorErrors, LinkToChipThatDoesNotExist) {
    const std::string text = board("  - {a: {chip: 0, chan: 9}, b: {chip: 2, chan: 1}}\n");
    msg = load("missing_chip.yaml", text);
    expectLocated(msg, path, lineOf(text, "chip: 2"), "links[0].b.chip", {"refers to chip 2", "chips 0..1"});
}

TEST_F(ClusterDescriptorErrors, ChannelThatDoesNotExist) {
    const std::string text = board(userLinks() + "  - {a: {chip: 0, chan: 16}, b: {chip: 1, chan: 2}}\n");
    msg = load("missing_chan.yaml", text);
    expectLocated(msg, path, lineOf(text, "chan: 16"), "links[2].a.chan", {"Ethernet channel 16", "channels 0..15"});
}

TEST_F(ClusterDescriptorErrors, ChannelInTwoLinks) {
    const std::string text = board(userLinks() + "  - {a: {chip: 1, chan: 2}, b: {chip: 0, chan: 9}}\n");
    msg = load("twice.yaml", text);
    // Points at the second use and names the first.
    expectLocated(
        msg, path, lineOf(text, "chip: 1, chan: 2"), "links[2]",
        {"chip 0 channel 9", "already used by the link at " + path + ":" +
                                 std::to_string(lineOf(text, "chan: 9}, b: {chip: 1, chan: 1}")) + ": key 'links[1]'"});
}

TEST_F(ClusterDescriptorErrors, LinkFromAChipToItself) {
    const std::string text = board("  - {a: {chip: 1, chan: 3}, b: {chip: 1, chan: 4}}\n");
    msg = load("self.yaml", text);
    expectLocated(msg, path, lineOf(text, "chan: 3"), "links[0]", {"connects chip 1 to itself"});
}

TEST_F(ClusterDescriptorErrors, UnknownKey) {
    const std::string text = board(userLinks(), "  - {id: 0, pcei: true}\n  - {id: 1}\n");
    msg = load("unknown_key.yaml", text);
    expectLocated(msg, path, lineOf(text, "pcei"), "chips[0].pcei", {"unknown key"});
    const std::string linkTypo = board("  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}, dispach: true}\n");
    msg = load("unknown_link_key.yaml", linkTypo);
    expectLocated(msg, path, lineOf(linkTypo, "dispach"), "links[0].dispach", {"unknown key"});
}

TEST_F(ClusterDescriptorErrors, WrongType) {
    const std::string text = board(userLinks(), "  - {id: zero}\n  - {id: 1}\n");
    msg = load("wrong_type.yaml", text);
    expectLocated(msg, path, lineOf(text, "zero"), "chips[0].id", {"expected a non-negative integer", "'zero'"});
    const std::string flag = board("  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}, dispatch: maybe}\n");
    msg = load("wrong_bool.yaml", flag);
    expectLocated(msg, path, lineOf(flag, "maybe"), "links[0].dispatch", {"true or false", "'maybe'"});
    const std::string loc = board(userLinks(), "  - {id: 0, location: [0, 0]}\n  - {id: 1}\n");
    msg = load("short_location.yaml", loc);
    expectLocated(msg, path, lineOf(loc, "location"), "chips[0].location", {"[x, y, rack, shelf]"});
}

TEST_F(ClusterDescriptorErrors, MissingKeyNamesFileAndKey) {
    const std::string text = replaceLine(board(userLinks()), "name: pair", "");
    msg = load("missing_name.yaml", text);
    test::expectContains(msg, {path + ":", "'name'"});
    const std::string noChan = board("  - {a: {chip: 0}, b: {chip: 1, chan: 1}}\n");
    msg = load("missing_chan.yaml", noChan);
    test::expectContains(msg, {path + ":", "'links[0].a.chan'"});
}

TEST_F(ClusterDescriptorErrors, MissingKeyIsReportedAsMissingWithItsLine) {
    // BUG: see ArchConfigErrors.MissingKeyIsReportedAsMissingAtItsMapping
    // (YamlMap::child returns a defined Null node for an absent key). Today:
    // "missing_chan.yaml: key 'links[0].a.chan': expected a non-negative
    // integer, found empty".
    const std::string noChan = board("  - {a: {chip: 0}, b: {chip: 1, chan: 1}}\n");
    msg = load("missing_chan.yaml", noChan);
    expectLocated(msg, path, lineOf(noChan, "{chip: 0}"), "links[0].a.chan", {"is required but missing"});
}

TEST_F(ClusterDescriptorErrors, DuplicateOrOutOfRangeChipIds) {
    const std::string twice = board(userLinks(), "  - {id: 0}\n  - {id: 0}\n");
    msg = load("dup_id.yaml", twice);
    expectLocated(msg, path, lineOf(twice, "chips:") + 2, "chips[1].id", {"chip 0 is listed twice"});
    const std::string gap = board(userLinks(), "  - {id: 0}\n  - {id: 5}\n");
    msg = load("gap_id.yaml", gap);
    expectLocated(msg, path, lineOf(gap, "id: 5"), "chips[1].id", {"0..1"});
}

TEST_F(ClusterDescriptorErrors, RingOrdersAreChecked) {
    const std::string good = board(userLinks()) + "ring_orders:\n  2: [0, 1]\n";
    path = dir.write("ring.yaml", good);
    EXPECT_EQ(loadClusterDescriptor(path).ringOrders.at(2), (std::vector<unsigned>{0, 1}));
    const std::string count = board(userLinks()) + "ring_orders:\n  3: [0, 1]\n";
    msg = load("ring_count.yaml", count);
    expectLocated(msg, path, lineOf(count, "3: [0, 1]"), "ring_orders.3", {"lists 2 chips for 3 hops"});
    const std::string word = board(userLinks()) + "ring_orders:\n  two: [0, 1]\n";
    msg = load("ring_word.yaml", word);
    test::expectContains(msg, {path + ":", "'ring_orders.two'", "keys are hop counts"});
}

TEST_F(ClusterDescriptorErrors, RingOrderKeyWithTrailingJunkIsRejected) {
    // Regression test (was a bug, platforms/ClusterDescriptor.cpp, ring_orders): the hop count is
    // parsed with std::stoul(key) without checking that the whole key was
    // consumed, so "2x" (or "2 # hops", "2.5") silently means 2 -- unlike
    // every other value, which yamlScalar parses strictly. Fix: pass a `pos`
    // to stoul and fail(key, "keys are hop counts") unless pos == key.size().
    const std::string text = board(userLinks()) + "ring_orders:\n  2x: [0, 1]\n";
    msg = load("ring_junk.yaml", text);
    test::expectContains(msg, {path + ":", "'ring_orders.2x'", "keys are hop counts"});
}

TEST_F(ClusterDescriptorErrors, YamlSyntaxError) {
    const std::string text = board("  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}\n");  // unclosed
    msg = load("syntax.yaml", text);
    test::expectContains(msg, {path + ":", "YAML syntax error"});
}

TEST_F(ClusterDescriptorErrors, ArchErrorsNameTheArchFile) {
    const std::string arch = dir.write(
        "broken_arch.yaml", replaceLine(test::readText(kArchPath), "hop_latency_cycles:", "  hop_latency_cycles: x"));
    std::string text = board(userLinks());
    text = replaceLine(text, "arch:", "arch: broken_arch.yaml");  // relative to the descriptor
    msg = load("uses_broken_arch.yaml", text);
    test::expectContains(msg, {arch + ":", "'noc.hop_latency_cycles'"});
}

}  // namespace
}  // namespace cclsim
