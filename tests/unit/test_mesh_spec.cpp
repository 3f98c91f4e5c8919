// Mesh descriptors from a compact spec (platforms/MeshSpec.h).
//
// platforms/galaxy.yaml says `mesh: {rows: 4, cols: 8, links_per_pair: 4,
// torus: true, pcie: all}`; the written-out descriptor it replaced is kept as
// tests/data/galaxy_expanded.yaml. The two must describe the same board chip
// by chip and connection by connection, with and without --torus. Further
// cases: a torus adds exactly the wrap links, other shapes and link counts
// use the documented channel groups, and bad specs are clear errors.
#include "models/common/Report.h"
#include "platforms/ClusterDescriptor.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace cclsim {
namespace {

using test::lineOf;
using test::ScratchDir;

const std::string kArchPath = test::sourcePath("platforms/arch/wormhole_b0.yaml");
const std::string kGalaxyPath = test::sourcePath("platforms/galaxy.yaml");
const std::string kGalaxyExpandedPath = test::sourcePath("tests/data/galaxy_expanded.yaml");

std::string describe(const LinkDesc& l) {
    return fmt::format("chip {} ch {} <-> chip {} ch {}{}{}", l.a.chip, l.a.chan, l.b.chip, l.b.chan,
                       l.dispatch ? " dispatch" : "", l.torus ? " torus" : "");
}

/// Same chips, links in the same order, same rings and mesh.
void expectSameBoard(const ClusterDescriptor& a, const ClusterDescriptor& b) {
    EXPECT_EQ(a.name, b.name);
    ASSERT_EQ(a.chips.size(), b.chips.size());
    for (std::size_t i = 0; i < a.chips.size(); ++i) {
        SCOPED_TRACE("chip " + std::to_string(i));
        EXPECT_EQ(a.chips[i].id, b.chips[i].id);
        EXPECT_EQ(a.chips[i].location, b.chips[i].location);
        EXPECT_EQ(a.chips[i].pcie, b.chips[i].pcie);
    }
    ASSERT_EQ(a.links.size(), b.links.size());
    for (std::size_t i = 0; i < a.links.size(); ++i)
        EXPECT_EQ(describe(a.links[i]), describe(b.links[i])) << "link " << i;
    EXPECT_EQ(a.ringOrder, b.ringOrder);
    EXPECT_EQ(a.ringOrders, b.ringOrders);
    EXPECT_EQ(a.mesh, b.mesh);
    EXPECT_EQ(a.meshOrder, b.meshOrder);
}

TEST(MeshSpec, GalaxyIsGeneratedFromItsSpec) {
    // The shipped file is the compact form: no chip or link is written out.
    const std::string text = test::readText(kGalaxyPath);
    EXPECT_NE(text.find("links_per_pair: 4"), std::string::npos);
    EXPECT_EQ(text.find("\nchips:"), std::string::npos);
    EXPECT_EQ(text.find("\nlinks:"), std::string::npos);
}

TEST(MeshSpec, GeneratedGalaxyEqualsTheWrittenOutOneLinkByLink) {
    const ClusterDescriptor gen = loadClusterDescriptor(kGalaxyPath);
    const ClusterDescriptor old = loadClusterDescriptor(kGalaxyExpandedPath, kArchPath);
    expectSameBoard(gen, old);
    // 4 rows x 7 east pairs + 3 x 8 south pairs, 4 links each.
    EXPECT_EQ(gen.links.size(), 4u * (4 * 7 + 3 * 8));
}

TEST(MeshSpec, GeneratedGalaxyTorusEqualsTheWrittenOutTorus) {
    const ClusterDescriptor gen = loadClusterDescriptor(kGalaxyPath, "", true);
    const ClusterDescriptor old = loadClusterDescriptor(kGalaxyExpandedPath, kArchPath, true);
    expectSameBoard(gen, old);
}

TEST(MeshSpec, ATorusAddsExactlyTheWrapLinks) {
    const ClusterDescriptor mesh = loadClusterDescriptor(kGalaxyPath);
    const ClusterDescriptor torus = loadClusterDescriptor(kGalaxyPath, "", true);
    // The mesh links come first and are unchanged.
    ASSERT_EQ(torus.links.size(), mesh.links.size() + 4u * (4 + 8));
    for (std::size_t i = 0; i < mesh.links.size(); ++i) EXPECT_EQ(describe(torus.links[i]), describe(mesh.links[i]));
    // Each added link joins the two ends of a row (east group 12-15 -> west 4-7)
    // or of a column (south 8-11 -> north 0-3).
    for (std::size_t i = mesh.links.size(); i < torus.links.size(); ++i) {
        const LinkDesc& l = torus.links[i];
        EXPECT_TRUE(l.torus);
        const auto& ca = torus.chips[l.a.chip].location;
        const auto& cb = torus.chips[l.b.chip].location;
        const bool rowWrap = ca[1] == cb[1] && ca[0] == 7 && cb[0] == 0 && l.a.chan / 4 == 3 && l.b.chan / 4 == 1;
        const bool colWrap = ca[0] == cb[0] && ca[1] == 3 && cb[1] == 0 && l.a.chan / 4 == 2 && l.b.chan / 4 == 0;
        EXPECT_TRUE(rowWrap || colWrap) << describe(l);
    }
}

TEST(MeshSpec, GalaxyDefaultRingIsTheWrittenOutRing) {
    const ClusterDescriptor gen = loadClusterDescriptor(kGalaxyPath);
    EXPECT_EQ(test::readText(kGalaxyPath).find("\nring_order:"), std::string::npos);
    EXPECT_EQ(gen.ringOrder, loadClusterDescriptor(kGalaxyExpandedPath, kArchPath).ringOrder);
}

class MeshSpecFiles : public ::testing::Test {
protected:
    ScratchDir dir;
    std::string path;

    std::string write(const std::string& mesh, const std::string& extra = "") {
        text = "name: m\narch: " + kArchPath + "\n" + extra + "mesh: " + mesh + "\n";
        path = dir.write("mesh.yaml", text);
        return path;
    }
    std::string error(const std::string& mesh, const std::string& extra = "", bool torus = false) {
        write(mesh, extra);
        try {
            loadClusterDescriptor(path, "", torus);
        } catch (const ConfigError& e) {
            return e.what();
        }
        ADD_FAILURE() << "loaded without error: " << mesh;
        return {};
    }
    std::string text;
};

TEST_F(MeshSpecFiles, ShapeAndLinkCountFollowTheChannelGroups) {
    const ClusterDescriptor d =
        loadClusterDescriptor(write("{rows: 2, cols: 3, links_per_pair: 2, torus: true, pcie: [0, 5]}"), "", true);
    ASSERT_EQ(d.chips.size(), 6u);
    EXPECT_TRUE(d.chips[0].pcie);
    EXPECT_FALSE(d.chips[1].pcie);
    EXPECT_TRUE(d.chips[5].pcie);
    EXPECT_EQ(d.chips[4].location, (std::array<int, 4>{1, 1, 0, 0}));
    EXPECT_EQ(d.mesh, (std::array<unsigned, 2>{2, 3}));
    EXPECT_EQ(d.meshOrder, (std::vector<unsigned>{0, 1, 2, 3, 4, 5}));
    // 2 x 2 east pairs + 3 south pairs, + 2 row wraps + 3 column wraps; 2 links each.
    ASSERT_EQ(d.links.size(), 2u * (4 + 3 + 2 + 3));
    EXPECT_EQ(describe(d.links[0]), "chip 0 ch 12 <-> chip 1 ch 4");
    EXPECT_EQ(describe(d.links[1]), "chip 0 ch 13 <-> chip 1 ch 5");
    EXPECT_EQ(describe(d.links[2]), "chip 0 ch 8 <-> chip 3 ch 0");
    EXPECT_EQ(describe(d.links[14]), "chip 2 ch 12 <-> chip 0 ch 4 torus");
    EXPECT_EQ(describe(d.links.back()), "chip 5 ch 9 <-> chip 2 ch 1 torus");
    // A neighbour pair has links_per_pair links; with two rows the column
    // wrap joins the same pair again (the other two channel groups).
    EXPECT_EQ(d.userLinksBetween(0, 1).size(), 2u);
    EXPECT_EQ(d.userLinksBetween(1, 4).size(), 4u);
    EXPECT_EQ(d.userLinksBetween(0, 4).size(), 0u);
}

TEST_F(MeshSpecFiles, ALineWrapsOnlyAlongItsLength) {
    const ClusterDescriptor d =
        loadClusterDescriptor(write("{rows: 1, cols: 4, links_per_pair: 1, torus: true, pcie: all}"), "", true);
    ASSERT_EQ(d.links.size(), 4u);  // 3 pairs + the 3 -> 0 wrap, no column wraps
    EXPECT_EQ(describe(d.links.back()), "chip 3 ch 12 <-> chip 0 ch 4 torus");
}

TEST_F(MeshSpecFiles, TheDefaultRingVisitsEveryChipOverMeshLinks) {
    for (const char* shape : {"rows: 1, cols: 2", "rows: 2, cols: 2", "rows: 2, cols: 3", "rows: 3, cols: 2",
                              "rows: 3, cols: 4", "rows: 5, cols: 2", "rows: 4, cols: 8", "rows: 6, cols: 5"}) {
        SCOPED_TRACE(shape);
        const ClusterDescriptor d =
            loadClusterDescriptor(write(std::string("{") + shape + ", links_per_pair: 1, pcie: all}"));
        ASSERT_EQ(d.ringOrder.size(), d.chips.size());
        EXPECT_EQ(std::set<unsigned>(d.ringOrder.begin(), d.ringOrder.end()).size(), d.chips.size());
        for (std::size_t i = 0; i < d.ringOrder.size(); ++i) {
            const unsigned a = d.ringOrder[i], b = d.ringOrder[(i + 1) % d.ringOrder.size()];
            EXPECT_FALSE(d.linksBetween(a, b).empty()) << "chips " << a << " and " << b << " are not neighbours";
        }
    }
    // No cycle through every chip: both dimensions odd, or a line of more than two.
    for (const char* shape : {"rows: 3, cols: 3", "rows: 1, cols: 4", "rows: 5, cols: 1"}) {
        SCOPED_TRACE(shape);
        EXPECT_TRUE(loadClusterDescriptor(write(std::string("{") + shape + ", links_per_pair: 1, pcie: all}"))
                        .ringOrder.empty());
    }
    // A written ring_order wins.
    const ClusterDescriptor d =
        loadClusterDescriptor(write("{rows: 2, cols: 2, links_per_pair: 1, pcie: all}", "ring_order: [0, 2, 3, 1]\n"));
    EXPECT_EQ(d.ringOrder, (std::vector<unsigned>{0, 2, 3, 1}));
}

TEST_F(MeshSpecFiles, AnOpenMeshRefusesTorus) {
    test::expectContains(error("{rows: 2, cols: 2, links_per_pair: 1, pcie: all}", "", true),
                         {"--torus", "torus: true"});
}

TEST_F(MeshSpecFiles, ZeroRows) {
    const std::string msg = error("{rows: 0, cols: 8, links_per_pair: 4, pcie: all}");
    test::expectContains(msg, {path + ":3:", "'mesh.rows'", "must be >= 1"});
}

TEST_F(MeshSpecFiles, MoreLinksPerPairThanTheChannelsAllow) {
    const std::string msg = error("{rows: 4, cols: 8, links_per_pair: 5, pcie: all}");
    test::expectContains(msg, {path + ":3:", "'mesh.links_per_pair'", "16 Ethernet channels", "at most 4"});
}

TEST_F(MeshSpecFiles, UnknownKey) {
    const std::string msg = error("{rows: 4, cols: 8, links_per_pair: 4, pcie: all, tours: true}");
    test::expectContains(msg, {path + ":3:", "unknown key 'mesh.tours'"});
}

TEST_F(MeshSpecFiles, PcieIsRequiredAndChecked) {
    test::expectContains(error("{rows: 2, cols: 2, links_per_pair: 1}"), {"'mesh.pcie'", "is required"});
    test::expectContains(error("{rows: 2, cols: 2, links_per_pair: 1, pcie: some}"), {"'mesh.pcie'", "'all'"});
    test::expectContains(error("{rows: 2, cols: 2, links_per_pair: 1, pcie: [4]}"), {"mesh.pcie[0]", "chip 4"});
}

TEST_F(MeshSpecFiles, GeneratedAndWrittenOutChipsDoNotMix) {
    const std::string msg = error("{rows: 1, cols: 2, links_per_pair: 1, pcie: all}", "chips:\n  - {id: 0}\n");
    test::expectContains(msg, {path + ":" + std::to_string(lineOf(text, "chips:")) + ":", "'chips'", "generated"});
}

TEST_F(MeshSpecFiles, TorusNeedsAGeneratedMesh) {
    // Without links_per_pair, mesh: {rows, cols} only names the shape of written-out chips.
    const std::string msg = error("{rows: 1, cols: 2, torus: true}", "chips:\n  - {id: 0, pcie: true}\n  - {id: 1}\n");
    test::expectContains(msg, {"'mesh.torus'", "links_per_pair"});
}

TEST_F(MeshSpecFiles, AnArchWithFewerChannelsLimitsLinksPerPair) {
    // An overlay arch with 8 Ethernet channels: two per direction.
    dir.write("small.yaml",
              "base: " + kArchPath + "\nname: small\neth:\n  cores: [9-0, 1-0, 8-0, 2-0, 7-0, 3-0, 6-0, 4-0]\n");
    write("{rows: 2, cols: 2, links_per_pair: 3, pcie: all}");
    try {
        loadClusterDescriptor(path, dir.path("small.yaml"));
        ADD_FAILURE() << "loaded without error";
    } catch (const ConfigError& e) {
        test::expectContains(e.what(), {"'mesh.links_per_pair'", "8 Ethernet channels", "at most 2"});
    }
    write("{rows: 2, cols: 2, links_per_pair: 2, pcie: all}");
    const ClusterDescriptor d = loadClusterDescriptor(path, dir.path("small.yaml"));
    EXPECT_EQ(describe(d.links[0]), "chip 0 ch 6 <-> chip 1 ch 2");
}

}  // namespace
}  // namespace cclsim
