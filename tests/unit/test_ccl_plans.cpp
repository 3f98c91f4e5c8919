// Pure logic of the collectives (no simulation): the stream schedules shared
// by host and kernels, the tensor slicer, the topology config and mesh
// groups on the real board descriptors, the Galaxy descriptor, size parsing.
#include "cli/workloads/ccl/CollectiveWorkloads.h"
#include "firmware/ccl/ccl_schedule.h"
#include "host/ccl/CclTopology.h"
#include "host/ccl/CommGroups.h"
#include "host/ccl/MethodTable.h"
#include "host/ccl/TensorLayout.h"
#include "host/ccl/TensorSlicer.h"
#include "host/ccl/plan/DirectRsPlan.h"
#include "models/common/Report.h"
#include "tests/unit/TestSupport.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

using namespace cclsim;
using namespace cclsim::ccl;

namespace {

GatherPlan ringPlan(unsigned n, unsigned r0, unsigned r1, int root = -1) {
    GatherPlan p;
    p.ranks = n;
    p.ring = true;
    p.ring_reach[0] = r0;
    p.ring_reach[1] = r1;
    p.root = root;
    return p;
}

GatherPlan linePlan(unsigned n, int root = -1) {
    GatherPlan p;
    p.ranks = n;
    p.ring = false;
    p.root = root;
    return p;
}

/// Every stream's sender sends what its downstream receiver expects, and each
/// origin's block reaches exactly the ranks it should, once per direction.
void checkGather(const GatherPlan& p, const std::vector<unsigned>& dirs, bool everyRankGetsEveryBlock) {
    const unsigned n = p.ranks;
    std::map<std::pair<unsigned, unsigned>, unsigned> got;  // (rank, origin) -> times received
    for (unsigned dir : dirs)
        for (unsigned pos = 0; pos < n; ++pos) {
            const int down = downstream(pos, 1, dir, n, p.ring);
            if (down >= 0) {
                EXPECT_EQ(p.blocks_sent(pos, dir), p.blocks_received(unsigned(down), dir)) << pos << " " << dir;
            } else {
                EXPECT_EQ(p.blocks_sent(pos, dir), 0u);
            }
            for (unsigned k = 1; k < n; ++k)
                if (p.receives(pos, k, dir)) ++got[{pos, unsigned(upstream(pos, k, dir, n, p.ring))}];
        }
    for (unsigned r = 0; r < n; ++r)
        for (unsigned o = 0; o < n; ++o) {
            if (r == o) continue;
            const unsigned want = everyRankGetsEveryBlock ? 1 : (p.root < 0 || int(o) == p.root ? 1 : 0);
            EXPECT_EQ((got[{r, o}]), want) << "rank " << r << " origin " << o;
        }
}

}  // namespace

TEST(CclSchedule, GatherRingUnidirectionalAndFull) {
    for (unsigned n = 2; n <= 9; ++n) {
        checkGather(ringPlan(n, n - 1, 0), {0}, true);
        checkGather(ringPlan(n, n / 2, (n - 1) / 2), {0, 1}, true);  // whole block halfway each way
    }
}

TEST(CclSchedule, GatherRingHalvesSendEveryBlockBothWays) {
    // Each direction carries half the chunks all the way round.
    for (unsigned n = 2; n <= 9; ++n) {
        const GatherPlan p = ringPlan(n, n - 1, n - 1);
        for (unsigned dir : {0u, 1u}) checkGather(ringPlan(n, dir == 0 ? n - 1 : 0, dir == 1 ? n - 1 : 0), {dir}, true);
        EXPECT_EQ(p.blocks_sent(0, 0), n - 1);
        EXPECT_EQ(p.blocks_sent(0, 1), n - 1);
    }
}

TEST(CclSchedule, GatherLineReachesBothEnds) {
    for (unsigned n = 2; n <= 9; ++n) {
        checkGather(linePlan(n), {0, 1}, true);
        const GatherPlan p = linePlan(n);
        EXPECT_FALSE(p.sends_own(n - 1, 0));  // the end of the line sends nothing further
        EXPECT_FALSE(p.sends_own(0, 1));
        EXPECT_EQ(p.blocks_received(n - 1, 0), n - 1);
    }
}

TEST(CclSchedule, BroadcastOnlyFromTheRoot) {
    for (unsigned n = 2; n <= 9; ++n)
        for (unsigned root = 0; root < n; ++root) {
            checkGather(ringPlan(n, n / 2, (n - 1) / 2, int(root)), {0, 1}, false);
            checkGather(linePlan(n, int(root)), {0, 1}, false);
        }
}

TEST(CclSchedule, AllToAllDeliversEveryBlockOnceAndSendsMatchReceives) {
    for (bool ring : {true, false})
        for (unsigned n = 2; n <= 9; ++n)
            for (unsigned split : {n - 1, n / 2}) {
                AllToAllPlan p;
                p.ranks = n;
                p.ring = ring;
                p.ring_split = split;
                std::map<std::pair<unsigned, unsigned>, unsigned> stored;
                for (unsigned dir : {0u, 1u})
                    for (unsigned pos = 0; pos < n; ++pos) {
                        const int down = downstream(pos, 1, dir, n, ring);
                        if (down >= 0) {
                            EXPECT_EQ(p.items_sent(pos, dir), p.items_received(unsigned(down), dir));
                        }
                        // Relays leave in the order they arrived.
                        std::vector<std::pair<unsigned, unsigned>> in, out;
                        p.for_each_received(pos, dir, [&](unsigned, unsigned s, unsigned d, bool here) {
                            if (here)
                                ++stored[{s, d}];
                            else
                                in.emplace_back(s, d);
                            EXPECT_EQ(here, d == pos);
                        });
                        p.for_each_sent(pos, dir, [&](unsigned, unsigned s, unsigned d, bool own) {
                            EXPECT_EQ(own, s == pos);
                            if (!own) out.emplace_back(s, d);
                        });
                        EXPECT_EQ(in, out) << "n " << n << " pos " << pos << " dir " << dir;
                    }
                for (unsigned s = 0; s < n; ++s)
                    for (unsigned d = 0; d < n; ++d)
                        if (s != d) {
                            EXPECT_EQ((stored[{s, d}]), 1u) << s << "->" << d << " ring " << ring << " n " << n;
                        }
            }
}

// Simulates the partial movers of a ReducePlan on n positions and checks
// that every fracture collects exactly the chips its reach promises, that the
// neighbour downstream receives partials in the order they are sent, and
// that out_f is stored by exactly one mover.
static void checkReducePlan(const ReducePlan& p) {
    const unsigned n = p.ranks;
    for (unsigned dir : {0u, 1u})
        for (unsigned pos = 0; pos < n; ++pos) {
            // What pos sends in direction dir, in order.
            std::vector<unsigned> sent;
            p.for_each_step(pos, dir, [&](unsigned f, bool, bool own) {
                if (!own) sent.push_back(f);
            });
            const int next = downstream(pos, 1, dir, n, p.ring);
            if (next < 0) {
                EXPECT_TRUE(sent.empty()) << "line end sends, pos " << pos;
                continue;
            }
            std::vector<unsigned> received;
            p.for_each_step(unsigned(next), dir, [&](unsigned f, bool starts, bool) {
                if (!starts) received.push_back(f);
            });
            EXPECT_EQ(sent, received) << "n " << n << " pos " << pos << " dir " << dir;
            EXPECT_EQ(p.sends(pos, dir), p.recvs(unsigned(next), dir));
        }
    for (unsigned f = 0; f < n; ++f) {
        // Every other chip contributes to fracture f exactly once.
        EXPECT_EQ(p.reach(f, 0) + p.reach(f, 1), n - 1) << "fracture " << f << " n " << n;
        unsigned owners = 0;
        for (unsigned dir : {0u, 1u})
            p.for_each_step(f, dir, [&](unsigned g, bool, bool own) {
                if (own) {
                    EXPECT_EQ(g, f);
                    owners += 1;
                }
            });
        EXPECT_EQ(owners, (p.reach(f, 0) > 0 ? 1u : 0u) + (p.reach(f, 1) > 0 ? 1u : 0u));
        EXPECT_EQ(p.handoff(f), p.reach(f, 0) > 0 && p.reach(f, 1) > 0);
    }
}

TEST(CclSchedule, ReducePlansCollectEveryChipOnce) {
    for (unsigned n = 2; n <= 9; ++n) {
        ReducePlan cw{n, true, {n - 1, 0}};
        ReducePlan acw{n, true, {0, n - 1}};
        ReducePlan mid{n, true, {n / 2, (n - 1) - n / 2}};
        ReducePlan line{n, false, {0, 0}};
        for (const ReducePlan& p : {cw, acw, mid, line}) checkReducePlan(p);
    }
}

TEST(CclSchedule, ClockwiseRingSendsPreviousFractureFirst) {
    // The CCL guide's ring reduce-scatter: chip p starts with fracture p-1 and
    // ends on its own fracture.
    for (unsigned n = 2; n <= 9; ++n) {
        const ReducePlan cw{n, true, {n - 1, 0}};
        for (unsigned pos = 0; pos < n; ++pos) {
            std::vector<unsigned> order;
            cw.for_each_step(pos, 0, [&](unsigned f, bool, bool) { order.push_back(f); });
            ASSERT_EQ(order.size(), n);
            EXPECT_EQ(order.front(), (pos + n - 1) % n);
            EXPECT_EQ(order.back(), pos);
        }
    }
}

TEST(CclSchedule, GatheredPageIsAPermutation) {
    for (unsigned n : {2u, 3u, 8u})
        for (unsigned rowPages : {0u, 1u, 3u}) {
            const unsigned B = 12;
            std::set<unsigned> out;
            for (unsigned o = 0; o < n; ++o)
                for (unsigned p = 0; p < B; ++p) out.insert(gathered_page(o, p, n, B, rowPages));
            EXPECT_EQ(out.size(), n * B);
            EXPECT_EQ(*out.rbegin(), n * B - 1);
        }
}

TEST(TensorSlicer, UnitsPartitionTheChunks) {
    for (unsigned B : {1u, 7u, 13u, 64u})
        for (unsigned M : {1u, 3u, 8u})
            for (unsigned U : {1u, 3u, 8u}) {
                const TensorSlicer s(B, M, U);
                EXPECT_EQ(s.chunks(), (B + M - 1) / M);
                std::multiset<unsigned> all;
                std::uint32_t pages = 0;
                for (unsigned u = 0; u < U; ++u) {
                    const ChunkSet c = s.unit(u);
                    for (unsigned i = 0; i < c.count; ++i) {
                        all.insert(c.first + i * c.stride);
                        pages += chunk_pages(c.first + i * c.stride, B, M);
                    }
                }
                EXPECT_EQ(pages, B);
                EXPECT_EQ(all.size(), s.chunks());
                EXPECT_EQ(std::set<unsigned>(all.begin(), all.end()).size(), s.chunks());
            }
}

TEST(CclTopology, T3000RingsLinesAndErrors) {
    const ClusterDescriptor d = loadClusterDescriptor(test::sourcePath("platforms/t3000.yaml"));
    const CclTopology ring = buildTopology(d, d.ringOrder, TopologyKind::Ring, 1);
    EXPECT_EQ(ring.hops.size(), 8u);
    for (const CclHop& h : ring.hops) {
        ASSERT_EQ(h.links.size(), 1u);
        EXPECT_FALSE(h.links[0]->dispatch);
    }
    EXPECT_EQ(buildTopology(d, {0, 4, 5, 1}, TopologyKind::Line, 1).hops.size(), 3u);
    // Two links between chips 0 and 1 (inter-board); one user link inside an N300.
    EXPECT_EQ(buildTopology(d, {0, 1}, TopologyKind::Line, 2).hops[0].links.size(), 2u);
    auto error = [&](std::vector<unsigned> order, TopologyKind k, unsigned links) {
        try {
            buildTopology(d, order, k, links);
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(error({4, 0, 3, 7}, TopologyKind::Ring, 1).find("wraparound"), std::string::npos);
    EXPECT_NE(error({0, 2}, TopologyKind::Line, 1).find("not connected"), std::string::npos);
    EXPECT_NE(error({0, 4}, TopologyKind::Line, 2).find("user link"), std::string::npos);
    EXPECT_NE(error({0, 0}, TopologyKind::Line, 1).find("twice"), std::string::npos);
    EXPECT_NE(error({0, 9}, TopologyKind::Line, 1).find("does not exist"), std::string::npos);
    EXPECT_EQ(meshGroups(d, "row").size(), 2u);
    EXPECT_EQ(meshGroups(d, "col").size(), 4u);
    EXPECT_EQ(meshGroups(d, "row")[0], (std::vector<unsigned>{4, 0, 3, 7}));
}

// --chips K on a mesh: K chips that close a ring, every hop a link.
TEST(CclTopology, ClosedRingsOfAnySizeOnTheMeshes) {
    auto expectRing = [](const ClusterDescriptor& d, unsigned k, const std::string& howPart) {
        std::string how;
        const std::vector<unsigned> ring = closedRingOfSize(d, k, &how);
        ASSERT_EQ(ring.size(), k) << d.name << " k=" << k << ": " << how;
        EXPECT_EQ(std::set<unsigned>(ring.begin(), ring.end()).size(), k) << "distinct chips";
        EXPECT_NO_THROW(buildTopology(d, ring, TopologyKind::Ring, 1)) << d.name << " k=" << k;
        EXPECT_NE(how.find(howPart), std::string::npos) << how;
    };
    const ClusterDescriptor t = loadClusterDescriptor(test::sourcePath("platforms/t3000.yaml"));
    expectRing(t, 4, "the first 4 chips of the ring order");
    expectRing(t, 8, "the first 8 chips of the ring order");
    expectRing(t, 6, "a 2x3 block of the mesh");  // the first 6 of the ring order end two hops from chip 0
    EXPECT_EQ(closedRingOfSize(t, 6), (std::vector<unsigned>{4, 0, 3, 2, 1, 5}));
    const ClusterDescriptor g = loadClusterDescriptor(test::sourcePath("platforms/galaxy.yaml"));
    expectRing(g, 16, "a 4x4 block of the mesh");
    expectRing(g, 12, "block of the mesh");
    expectRing(g, 8, "ring order");
    expectRing(g, 24, "a 4x6 block of the mesh");
    // A grid's rings have an even number of chips: none of 3, 5 or 15.
    for (unsigned k : {3u, 5u, 15u}) {
        std::string how;
        EXPECT_TRUE(closedRingOfSize(g, k, &how).empty()) << k;
        EXPECT_NE(how.find("close a ring"), std::string::npos) << how;
    }
}

// --group consecutive:K on a mesh: every K consecutive chips of the order
// close a ring (a tiling of the mesh by blocks), so no group hop is relayed.
TEST(CclTopology, RingTilingsForConsecutiveGroups) {
    const ClusterDescriptor g = loadClusterDescriptor(test::sourcePath("platforms/galaxy.yaml"));
    for (const auto& [k, shape] : std::vector<std::pair<unsigned, std::string>>{
             {4, "8 blocks of 2x2"}, {8, "4 blocks of 2x4"}, {16, "2 blocks of 4x4"}}) {
        std::string how;
        const std::vector<unsigned> order = ringTilingOfSize(g, k, &how);
        ASSERT_EQ(order.size(), 32u) << k << ": " << how;
        EXPECT_EQ(std::set<unsigned>(order.begin(), order.end()).size(), 32u) << "every chip once";
        EXPECT_NE(how.find(shape), std::string::npos) << how;
        for (unsigned b = 0; b < 32 / k; ++b)
            EXPECT_NO_THROW(buildTopology(g, std::vector<unsigned>(order.begin() + b * k, order.begin() + (b + 1) * k),
                                          TopologyKind::Ring, 1))
                << "k=" << k << " group " << b;
    }
    EXPECT_EQ(ringTilingOfSize(g, 8).front(), 0u);
    // No tiling: 6 chips (2x3 does not divide 8 columns, 3 rows do not divide 4), 3 chips (odd).
    for (unsigned k : {3u, 6u}) {
        std::string how;
        EXPECT_TRUE(ringTilingOfSize(g, k, &how).empty()) << k;
        EXPECT_NE(how.find("no tiling"), std::string::npos) << how;
    }
    const ClusterDescriptor n = loadClusterDescriptor(test::sourcePath("platforms/n300.yaml"));
    EXPECT_EQ(ringTilingOfSize(n, 2).size(), 0u) << "a 1x2 mesh has no 2x2 block";
}

TEST(GalaxyDescriptor, MeshLinksRingAndTorus) {
    const ClusterDescriptor d = loadClusterDescriptor(test::sourcePath("platforms/galaxy.yaml"));
    ASSERT_EQ(d.chips.size(), 32u);
    ASSERT_TRUE(d.mesh);
    EXPECT_EQ((*d.mesh)[0], 4u);
    EXPECT_EQ((*d.mesh)[1], 8u);
    std::map<unsigned, unsigned> used;  // chip -> channels in use
    for (const LinkDesc& l : d.links) {
        ++used[l.a.chip];
        ++used[l.b.chip];
        EXPECT_FALSE(l.dispatch);
        EXPECT_FALSE(l.torus);
    }
    for (const ChipDesc& c : d.chips) {
        EXPECT_TRUE(c.pcie);
        const int x = c.location[0], y = c.location[1];
        const unsigned neighbours = (x > 0) + (x < 7) + (y > 0) + (y < 3);
        EXPECT_EQ(used[c.id], 4 * neighbours) << "chip " << c.id;  // inner chips: all 16
    }
    for (unsigned a = 0; a < 32; ++a)
        for (unsigned b = a + 1; b < 32; ++b) {
            const auto& la = d.chips[a].location;
            const auto& lb = d.chips[b].location;
            const bool adjacent = std::abs(la[0] - lb[0]) + std::abs(la[1] - lb[1]) == 1;
            EXPECT_EQ(d.linksBetween(a, b).size(), adjacent ? 4u : 0u) << a << "-" << b;
        }
    // The default ring is a Hamiltonian cycle over mesh links.
    EXPECT_EQ(d.ringOrder.size(), 32u);
    EXPECT_EQ(std::set<unsigned>(d.ringOrder.begin(), d.ringOrder.end()).size(), 32u);
    EXPECT_EQ(buildTopology(d, d.ringOrder, TopologyKind::Ring, 4).hops.size(), 32u);
    // Rows are lines without the torus, rings with it.
    EXPECT_THROW(buildTopology(d, meshGroups(d, "row")[0], TopologyKind::Ring, 1), ConfigError);
    const ClusterDescriptor t = loadClusterDescriptor(test::sourcePath("platforms/galaxy.yaml"), "", true);
    EXPECT_EQ(t.links.size(), d.links.size() + 4 * (4 + 8));
    for (const auto& g : meshGroups(t, "row")) EXPECT_EQ(buildTopology(t, g, TopologyKind::Ring, 4).hops.size(), 8u);
    for (const auto& g : meshGroups(t, "col")) EXPECT_EQ(buildTopology(t, g, TopologyKind::Ring, 4).hops.size(), 4u);
    // --torus on a board without torus links is an error.
    EXPECT_THROW(loadClusterDescriptor(test::sourcePath("platforms/t3000.yaml"), "", true), ConfigError);
}

TEST(CclSizes, ParseBytes) {
    EXPECT_EQ(parseBytes("4096", "--size"), 4096u);
    EXPECT_EQ(parseBytes("4K", "--size"), 4096u);
    EXPECT_EQ(parseBytes("64KiB", "--size"), 65536u);
    EXPECT_EQ(parseBytes("1m", "--size"), 1u << 20);
    EXPECT_EQ(parseBytes("1G", "--size"), 1u << 30);
    EXPECT_EQ(parseBytes("1.5K", "--size"), 1536u);
    EXPECT_THROW(parseBytes("12Q", "--size"), ConfigError);
    EXPECT_THROW(parseBytes("K", "--size"), ConfigError);
    EXPECT_THROW(parseBytes("-4K", "--size"), ConfigError);
}

// ---- communication groups (GCL user guide, tables 3.1 .. 3.3) -------------------------

TEST(CommGroups, GclTablesForSixteenReplicas) {
    using G = std::vector<std::vector<unsigned>>;
    EXPECT_EQ(commGroups(16, parseGroup("orthogonal:4")),
              (G{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}));
    EXPECT_EQ(commGroups(16, parseGroup("consecutive:4")),
              (G{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}}));
    G all(1);
    for (unsigned r = 0; r < 16; ++r) all[0].push_back(r);
    EXPECT_EQ(commGroups(16, parseGroup("all")), all);
    EXPECT_EQ(commGroups(8, parseGroup("orthogonal:2")), (G{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
    EXPECT_EQ(parseGroup("consecutive:4").text(), "consecutive:4");
}

TEST(CommGroups, BadGroupsAreErrors) {
    EXPECT_THROW(commGroups(16, parseGroup("consecutive:3")), ConfigError);
    EXPECT_THROW(commGroups(16, parseGroup("orthogonal:32")), ConfigError);
    EXPECT_THROW(parseGroup("orthogonal"), ConfigError);
    EXPECT_THROW(parseGroup("orthogonal:0"), ConfigError);
    EXPECT_THROW(parseGroup("ring:2"), ConfigError);
}

// ---- the auto method table ----------------------------------------------------------------

TEST(MethodTable, ShippedTablePicksBySizeRanksAndTopology) {
    const MethodTable t = loadMethodTable(test::sourcePath("platforms/collective_methods.yaml"));
    using golden::Method;
    using golden::Op;
    auto pick = [&](Op op, TopologyKind topo, unsigned n, std::uint64_t bytes) {
        return chooseMethod(t, op, GroupKind::All, topo, n, bytes).method;
    };
    EXPECT_EQ(t.maxBroadcastSize, 2048u);
    EXPECT_EQ(pick(Op::AllReduce, TopologyKind::Ring, 8, 256), Method::Broadcast);  // 8 x 256 B = 2048
    EXPECT_EQ(pick(Op::AllReduce, TopologyKind::Ring, 8, 258), Method::MeetInMiddle);
    EXPECT_EQ(pick(Op::AllGather, TopologyKind::Ring, 8, 64), Method::MeetInMiddle);  // never broadcast
    EXPECT_EQ(pick(Op::ReduceScatter, TopologyKind::Line, 4, 1 << 20), Method::Line);
    EXPECT_EQ(pick(Op::AllGather, TopologyKind::Ring, 2, 1 << 20), Method::Clockwise);
    EXPECT_EQ(pick(Op::ReduceScatter, TopologyKind::Ring, 4, 65536), Method::BidirPair);
    EXPECT_EQ(pick(Op::ReduceScatter, TopologyKind::Ring, 8, 65536), Method::MeetInMiddle);
    EXPECT_EQ(pick(Op::ReduceScatter, TopologyKind::Ring, 8, 1 << 20), Method::BidirPair);
    EXPECT_EQ(pick(Op::AllToAll, TopologyKind::Ring, 8, 1 << 20), Method::MeetInMiddle);
    EXPECT_NE(chooseMethod(t, Op::AllReduce, GroupKind::All, TopologyKind::Ring, 8, 256).rule.find("rules[0]"),
              std::string::npos);
}

TEST(MethodTable, TablesWithoutACatchAllOrWithBadKeysAreErrors) {
    auto load = [](const std::string& text) {
        const std::string path = std::string(::testing::TempDir()) + "cclsim_methods_" +
                                 std::to_string(std::hash<std::string>{}(text)) + ".yaml";
        std::ofstream(path) << text;
        return loadMethodTable(path);
    };
    EXPECT_THROW(load("rules:\n  - {ops: [all_gather], method: clockwise_ring}\n"), ConfigError);
    EXPECT_THROW(load("rules:\n  - {method: spiral}\n"), ConfigError);
    EXPECT_THROW(load("rules:\n  - {ops: [all_sum], method: line}\n"), ConfigError);
    try {
        load("rules:\n  - {method: meet_in_middle_ring, max_bites: 4}\n");
        ADD_FAILURE() << "unknown key accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("max_bites"), std::string::npos) << e.what();
    }
    EXPECT_EQ(load("rules:\n  - {method: line, topology: line}\n  - {method: clockwise_ring}\n").rules.size(), 2u);
}

// ---- the fabric reduce-scatter's page split (tt-metal reduce_scatter_minimal_async) ----

TEST(FabricRingPages, DirectionsTakeChunksInTurnsAndCoverTheRangeOnce) {
    for (std::uint32_t count : {0u, 1u, 2u, 7u, 16u, 17u, 40u, 65u})
        for (std::uint32_t G : {1u, 4u, 8u}) {
            std::vector<std::uint32_t> first, second;
            cclsim::ccl::for_each_ring_page(5, count, true, true, G, [&](std::uint32_t p) { first.push_back(p); });
            cclsim::ccl::for_each_ring_page(5, count, true, false, G, [&](std::uint32_t p) { second.push_back(p); });
            std::vector<int> seen(count, 0);
            for (auto p : first) ++seen.at(p - 5);
            for (auto p : second) ++seen.at(p - 5);
            for (std::uint32_t i = 0; i < count; ++i) EXPECT_EQ(seen[i], 1) << count << " " << G << " page " << i;
            EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
            EXPECT_TRUE(std::is_sorted(second.begin(), second.end()));
        }
    // 40 pages, G = 8: the first direction takes min(40/2, 8) = 8, the other 8,
    // then min(24/2, 8) = 8, 8, then min(8/2, 8) = 4 and the last 4.
    std::vector<std::uint32_t> a;
    cclsim::ccl::for_each_ring_page(0, 40, true, true, 8, [&](std::uint32_t p) { a.push_back(p); });
    ASSERT_EQ(a.size(), 20u);
    EXPECT_EQ(a[0], 0u);
    EXPECT_EQ(a[8], 16u);
    EXPECT_EQ(a[16], 32u);
    EXPECT_EQ(a.back(), 35u);
    // Without the split a worker moves its whole range.
    std::vector<std::uint32_t> whole;
    cclsim::ccl::for_each_ring_page(3, 5, false, false, 8, [&](std::uint32_t p) { whole.push_back(p); });
    EXPECT_EQ(whole, (std::vector<std::uint32_t>{3, 4, 5, 6, 7}));
}

// The direct reduce-scatter's plan (tt-metal reduce_scatter_minimal_direct):
// each block straight to its owner, the shorter way round with ties forward,
// farthest first; the barrier reaches the farthest destination each way.
TEST(DirectRsPlan, FarthestFirstShorterWayTiesForward) {
    const auto d = directRsDestinations(2, 8);
    ASSERT_EQ(d.size(), 7u);
    // Rank 6 is 4 hops both ways: forward. Then 3 hops: 5 forward, 7 backward (rank order).
    EXPECT_EQ(d[0].rank, 6u);
    EXPECT_EQ(d[0].conn, 0u);
    EXPECT_EQ(d[0].hops, 4u);
    EXPECT_EQ(d[1].rank, 5u);
    EXPECT_EQ(d[1].conn, 0u);
    EXPECT_EQ(d[2].rank, 7u);
    EXPECT_EQ(d[2].conn, 1u);
    EXPECT_EQ(d[2].hops, 3u);
    for (std::size_t i = 1; i < d.size(); ++i) EXPECT_GE(d[i - 1].hops, d[i].hops);
    std::uint32_t range[2];
    directRsBarrierRanges(d, range);
    EXPECT_EQ(range[0], 4u);
    EXPECT_EQ(range[1], 3u);
    // An odd ring: 3 each way.
    directRsBarrierRanges(directRsDestinations(0, 7), range);
    EXPECT_EQ(range[0], 3u);
    EXPECT_EQ(range[1], 3u);
}

TEST(DirectRsPlan, ChunksSplitOverLinksNoneIdle) {
    const auto two = directRsChunks(3, 2);  // two chunks: two links
    EXPECT_EQ(two.links, 2u);
    EXPECT_EQ(two.first(1, 2), 1u);
    EXPECT_EQ(two.count(1, 2), 1u);
    const auto s = directRsChunks(4, 10);  // 3, 3, 2, 2
    std::uint32_t next = 0;
    for (unsigned l = 0; l < s.links; ++l) {
        EXPECT_EQ(s.first(l, 10), next);
        EXPECT_EQ(s.count(l, 10), l < 2 ? 3u : 2u);
        next += s.count(l, 10);
    }
    EXPECT_EQ(next, 10u);
}
