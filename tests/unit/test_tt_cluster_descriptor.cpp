// tt-metal's cluster descriptors (platforms/TtClusterDescriptor.h): the YAML
// tt-metal's driver writes for a machine, read into our descriptor. The
// fixtures in tests/data/tt_cluster/ describe an N300 (tt-umd's example,
// harvesting included), a T3000 and a Galaxy in that format; each must give
// the same board as ours: chips, PCIe, cabling with channel numbers, the
// links dispatch reserves, the mesh and a ring through every chip.
#include "models/common/Report.h"
#include "platforms/ClusterDescriptor.h"
#include "platforms/ClusterDescriptorWriter.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

namespace cclsim {
namespace {

const std::string kArchDir = test::sourcePath("platforms/arch");

ClusterDescriptor tt(const std::string& board) {
    return loadClusterDescriptor(test::sourcePath("tests/data/tt_cluster/" + board + ".yaml"), "", false, kArchDir);
}

/// Every link as "chip.chan-chip.chan" (lower end first) with its dispatch flag.
std::set<std::string> cabling(const ClusterDescriptor& d) {
    std::set<std::string> out;
    for (const LinkDesc& l : d.links) {
        const EthEndpoint& a = l.b < l.a ? l.b : l.a;
        const EthEndpoint& b = l.b < l.a ? l.a : l.b;
        out.insert(fmt::format("{}.{}-{}.{}{}", a.chip, a.chan, b.chip, b.chan, l.dispatch ? " dispatch" : ""));
    }
    return out;
}

void expectSameBoard(const ClusterDescriptor& ours, const ClusterDescriptor& theirs) {
    ASSERT_EQ(ours.chips.size(), theirs.chips.size());
    for (std::size_t c = 0; c < ours.chips.size(); ++c) EXPECT_EQ(ours.chips[c].pcie, theirs.chips[c].pcie) << c;
    EXPECT_EQ(cabling(ours), cabling(theirs));
    EXPECT_EQ(ours.mesh, theirs.mesh);
    EXPECT_EQ(ours.meshOrder, theirs.meshOrder);
}

/// A ring through every chip, each hop a user link.
void expectFullRing(const ClusterDescriptor& d) {
    ASSERT_EQ(d.ringOrder.size(), d.chips.size());
    EXPECT_EQ(std::set<unsigned>(d.ringOrder.begin(), d.ringOrder.end()).size(), d.chips.size());
    for (std::size_t i = 0; i < d.ringOrder.size(); ++i)
        EXPECT_FALSE(d.userLinksBetween(d.ringOrder[i], d.ringOrder[(i + 1) % d.ringOrder.size()]).empty()) << i;
}

TEST(TtClusterDescriptor, N300AsUmdWritesIt) {
    const ClusterDescriptor d = tt("n300");
    const ClusterDescriptor ours = loadClusterDescriptor(test::sourcePath("platforms/n300.yaml"));
    EXPECT_EQ(d.name, "n300");
    ASSERT_EQ(d.chips.size(), 2u);
    EXPECT_TRUE(d.chips[0].pcie);
    EXPECT_FALSE(d.chips[1].pcie);
    // The dispatcher's link to chip 1: chip 0's lowest channel to it (8), as ours.
    EXPECT_EQ(cabling(d), cabling(ours));
    EXPECT_EQ(d.ringOrder, (std::vector<unsigned>{0, 1}));
    // harvest_mask 65 (bits 0, 6) and 5 (bits 0, 2): NoC rows 11, 8 and 10 leave every chip's grid.
    EXPECT_EQ(d.arch.workers.size(), ours.arch.workers.size() - 3 * 8);
    for (const CoreCoord& w : d.arch.workers) EXPECT_TRUE(w.y != 11 && w.y != 8 && w.y != 10) << w.str();
}

TEST(TtClusterDescriptor, T3000IsOurT3000) {
    const ClusterDescriptor d = tt("t3000");
    expectSameBoard(loadClusterDescriptor(test::sourcePath("platforms/t3000.yaml")), d);
    EXPECT_EQ(d.name, "n300+n300+n300+n300");
    expectFullRing(d);
    EXPECT_EQ(d.arch.workers.size(), 80u) << "no row harvested";
}

TEST(TtClusterDescriptor, GalaxyMeshFromCoordinates) {
    const ClusterDescriptor d = tt("galaxy");
    const ClusterDescriptor ours = loadClusterDescriptor(test::sourcePath("platforms/galaxy.yaml"));
    ASSERT_EQ(d.chips.size(), 32u);
    for (const ChipDesc& c : d.chips) EXPECT_TRUE(c.pcie);
    EXPECT_EQ(d.mesh, ours.mesh);
    EXPECT_EQ(d.meshOrder, ours.meshOrder);
    EXPECT_EQ(d.links.size(), ours.links.size()) << "4 links per neighbour pair, no torus";
    for (unsigned a = 0; a < 32; ++a)
        for (unsigned b = 0; b < 32; ++b)
            EXPECT_EQ(d.linksBetween(a, b).size(), ours.linksBetween(a, b).size()) << a << "-" << b;
    expectFullRing(d);
}

// UMD writes a 6U Galaxy with `chips: {}`: no coordinates, so no mesh; the
// ring through every chip is searched for over the cabling.
TEST(TtClusterDescriptor, RingWithoutCoordinates) {
    test::ScratchDir dir;
    const std::string f = dir.path("galaxy_nocoords.yaml");
    std::ifstream in(test::sourcePath("tests/data/tt_cluster/galaxy.yaml"));
    std::ofstream out(f);
    bool inChips = false;
    for (std::string line; std::getline(in, line);) {
        if (line == "chips:") {
            out << "chips: {}\n";
            inChips = true;
            continue;
        }
        if (inChips && line.rfind("  ", 0) == 0) continue;
        inChips = false;
        out << line << "\n";
    }
    out.close();
    const ClusterDescriptor d = loadClusterDescriptor(f, "", false, kArchDir);
    EXPECT_FALSE(d.mesh.has_value());
    expectFullRing(d);
}

TEST(TtClusterDescriptor, BadInputNamesTheKey) {
    test::ScratchDir dir;
    auto errorOf = [&](const std::string& text) {
        const std::string f = dir.path("c.yaml");
        std::ofstream(f) << text;
        try {
            loadClusterDescriptor(f, "", false, kArchDir);
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    const std::string eth = "ethernet_connections: [[{chip: 0, chan: 8}, {chip: 1, chan: 0}]]\n";
    EXPECT_NE(errorOf("arch: {0: blackhole, 1: blackhole}\n" + eth).find("models Wormhole chips only"),
              std::string::npos);
    EXPECT_NE(errorOf("arch: {0: wormhole_b0, 2: wormhole_b0}\n" + eth).find("chip ids must be 0..1"),
              std::string::npos);
    EXPECT_NE(errorOf("arch: {0: wormhole_b0, 1: wormhole_b0}\n"
                      "ethernet_connections: [[{chip: 0, chan: 99}, {chip: 1, chan: 0}]]\n")
                  .find("channel 99 does not exist"),
              std::string::npos);
    EXPECT_NE(errorOf("arch: {0: wormhole_b0, 1: wormhole_b0}\n" + eth + "harvesting: {0: {harvest_mask: 4096}}\n")
                  .find("beyond Wormhole's 10 Tensix rows"),
              std::string::npos);
    const std::string f = dir.path("torus.yaml");
    std::ofstream(f) << "arch: {0: wormhole_b0, 1: wormhole_b0}\n" + eth;
    EXPECT_THROW(loadClusterDescriptor(f, "", true, kArchDir), ConfigError) << "--torus has nothing to add";
}

// `cclsim cluster convert` (--write-cluster): the file written in our form
// reads back as the same board, link for link, with the same derived parts
// (dispatch links, mesh, rings) and, for a harvested cluster, the same
// worker grid through an arch overlay beside it.
void expectRoundTrip(const ClusterDescriptor& d, bool overlay) {
    test::ScratchDir dir;
    const std::string f = dir.path("converted.yaml");
    const WrittenCluster w = writeClusterDescriptor(d, f, "a test");
    EXPECT_EQ(w.archOverlay.empty(), !overlay);
    const ClusterDescriptor back = loadClusterDescriptor(f);
    EXPECT_EQ(back.name, d.name);
    expectSameBoard(d, back);
    EXPECT_EQ(cabling(back), cabling(d));
    for (std::size_t i = 0; i < d.chips.size(); ++i) EXPECT_EQ(back.chips[i].location, d.chips[i].location) << i;
    EXPECT_EQ(back.ringOrder, d.ringOrder);
    EXPECT_EQ(back.ringOrders, d.ringOrders);
    EXPECT_EQ(back.arch.workers, d.arch.workers);
    EXPECT_EQ(back.arch.name, overlay ? d.arch.name + "_" + d.name : d.arch.name);
}

TEST(ClusterConvert, TtMetalN300WithHarvestedRows) {
    expectRoundTrip(tt("n300"), true);
}

TEST(ClusterConvert, TtMetalT3000AndGalaxy) {
    expectRoundTrip(tt("t3000"), false);
    expectRoundTrip(tt("galaxy"), false);
}

TEST(ClusterConvert, OurOwnBoardsAreWrittenAsTheyRead) {
    for (const char* b : {"n300", "t3000", "galaxy"})
        expectRoundTrip(loadClusterDescriptor(test::sourcePath(std::string("platforms/") + b + ".yaml")), false);
}

TEST(ClusterConvert, AMissingDirectoryIsAnError) {
    EXPECT_THROW(writeClusterDescriptor(tt("n300"), "/nonexistent/dir/out.yaml", "a test"), ConfigError);
}

}  // namespace
}  // namespace cclsim
