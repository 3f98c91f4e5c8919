// PE_IPCQ unit tests (docs/design/pe-ipcq.md#t1): hand-written kernels on two or
// three ranks of one N300 chip, timed by the kernels' own timestamps.
//   send without backpressure leaves at once; a full ring stalls the sender
//   (poll and sleep); recv waits and wakes on arrival; recv_any rotates
//   (weak fairness); copy_to_dst emits the credit before returning; a bad
//   direction and a type mismatch (strict mode) stop the run; the invariant
//   checker (I1, I2, I5, I6, I7) on its own.
#include "firmware/api/ipcq_api.h"
#include "firmware/api/kernel_api.h"
#include "host/ipcq/ProcessGroup.h"
#include "models/pe/IpcqEdge.h"
#include "models/pe/PeCore.h"
#include "platforms/Platform.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace cclsim;
using namespace cclsim::ipcq;
using namespace cclsim::fw;

namespace {

constexpr std::uint32_t kTile = 2048;

/// A process group of `n` ranks on adjacent cores of N300 chip 0 (tcm rings).
struct Group {
    ClusterDescriptor desc = loadClusterDescriptor(CCLSIM_SOURCE_DIR "/platforms/n300.yaml");
    Platform platform{"n300", desc, PlatformOptions{}};
    Runtime rt{platform};
    std::unique_ptr<ProcessGroup> pg;
    std::vector<std::uint32_t> buf, res;

    Group(unsigned n, const std::string& topology, Backpressure bp, unsigned slots, bool strict = false) {
        GroupConfig g;
        g.file = "test";
        g.algorithm = "test";
        g.topology.value = topology;
        g.backpressure.value = bp;
        g.nSlots.value = slots;
        g.slotSize.value = kTile;
        g.creditBytes.value = 16;
        g.strict.value = strict;
        g.fabric.value = "auto";
        for (unsigned r = 0; r < n; ++r)
            g.placement.ranks.push_back(RankSpec{0, CoreCoord{std::uint8_t(1 + r), 1}, std::nullopt, "test"});
        g.placementGiven = true;
        pg = std::make_unique<ProcessGroup>(rt, g);
        for (const RankInfo& r : pg->ranks()) {
            Program& p = rt.program(r.chip);
            buf.push_back(p.allocateL1(r.core, kTile, 32));
            res.push_back(p.allocateL1(r.core, 64, 16));
            std::vector<std::uint8_t> pattern(kTile);
            std::iota(pattern.begin(), pattern.end(), std::uint8_t(r.rank * 16));
            platform.chip(r.chip).worker(r.core)->l1.writeBytes(buf.back(), kTile, pattern.data());
        }
    }
    /// Run kernel `k(rank)` on every rank.
    void launch(std::function<std::function<void()>(unsigned)> k) {
        std::vector<std::function<void()>> entries;
        for (unsigned r = 0; r < pg->world_size(); ++r) entries.push_back(k(r));
        // ProcessGroup::launch takes one entry for all ranks: dispatch on the rank.
        pg->launch(
            "test_kernel", [entries] { entries.at(ipcq_rank())(); },
            [](unsigned) { return std::vector<std::uint32_t>{}; });
    }
    RunResult run() {
        const RunResult r = rt.run();
        EXPECT_TRUE(r.completed) << r.report;
        return r;
    }
    std::uint32_t result(unsigned rank, unsigned word) {
        const RankInfo& r = pg->ranks()[rank];
        return rt.readL1(CoreRef{r.chip, r.core}, res[rank] + 4 * word);
    }
};

std::uint32_t now_ns() {
    return std::uint32_t(get_timestamp());
}  // 1 GHz AICLK: cycles are ns

}  // namespace

TEST(PeIpcq, SendWithoutBackpressureLeavesAtOnce) {
    Group g(2, "ring_1d", Backpressure::Poll, 4);
    const std::uint32_t b0 = g.buf[0], r0 = g.res[0], r1 = g.res[1];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0)
            return [=] {
                const std::uint32_t t0 = now_ns();
                ipcq_send(ipcq_dir::E, b0, kTile);
                l1_write_u32(r0, now_ns() - t0);
                l1_write_u32(r0 + 4, t0);
                ipcq_close();
            };
        return [=] {
            const ipcq_slot s = ipcq_recv(ipcq_dir::W, kTile);
            l1_write_u32(r1, now_ns());
            l1_write_u32(r1 + 4, s.l1_addr);
            ipcq_release(s);
            ipcq_close();
        };
    });
    g.run();
    const std::uint32_t sendNs = g.result(0, 0), start = g.result(0, 1), arrived = g.result(1, 0);
    // The send returns after the control-plane work and the command issue,
    // long before the 2 KB write lands (64 ns of injection alone).
    EXPECT_LT(sendNs, 100u);
    EXPECT_GT(arrived, start + sendNs);
    EXPECT_GT(arrived - start, 64u + 30u);
    // Zero-copy: the slot in the receiver's L1 holds the sender's bytes.
    std::vector<std::uint8_t> want(kTile), got(kTile);
    Chip& chip = g.platform.chip(0);
    chip.worker(g.pg->ranks()[0].core)->l1.readBytes(g.buf[0], kTile, want.data());
    chip.worker(g.pg->ranks()[1].core)->l1.readBytes(g.result(1, 1), kTile, got.data());
    EXPECT_EQ(want, got);
    EXPECT_EQ(g.pg->ipcqOf(0).queue(IpcqDir::E, "test").my_head, 1u);
    EXPECT_EQ(g.pg->ipcqOf(1).queue(IpcqDir::W, "test").my_tail, 1u);
    EXPECT_EQ(g.pg->ipcqOf(0).peerTailCache(IpcqDir::E), 1u);  // the credit came back
}

namespace {
/// Rank 0 sends three tiles into a two-slot ring; rank 1 starts receiving after 5 us.
void fullRingStalls(Backpressure bp) {
    Group g(2, "ring_1d", bp, 2);
    const std::uint32_t b0 = g.buf[0], r0 = g.res[0];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0)
            return [=] {
                const std::uint32_t t0 = now_ns();
                for (unsigned i = 0; i < 3; ++i) {
                    ipcq_send(ipcq_dir::E, b0, kTile);
                    l1_write_u32(r0 + 4 * i, now_ns() - t0);
                }
                ipcq_close();
            };
        return [=] {
            spin_cycles(5000);
            for (unsigned i = 0; i < 3; ++i) ipcq_release(ipcq_recv(ipcq_dir::W, kTile));
            ipcq_close();
        };
    });
    g.run();
    EXPECT_LT(g.result(0, 0), 500u);
    EXPECT_LT(g.result(0, 1), 500u);
    // The third send waits for the first credit: after 5 us plus the credit's path.
    EXPECT_GT(g.result(0, 2), 5000u);
    EXPECT_LT(g.result(0, 2), 6000u);
}

void recvWakesOnArrival(Backpressure bp) {
    Group g(2, "ring_1d", bp, 2);
    const std::uint32_t b0 = g.buf[0], r0 = g.res[0], r1 = g.res[1];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0)
            return [=] {
                spin_cycles(3000);
                l1_write_u32(r0, now_ns());
                ipcq_send(ipcq_dir::E, b0, kTile);
                ipcq_close();
            };
        return [=] {
            ipcq_release(ipcq_recv(ipcq_dir::W, kTile));
            l1_write_u32(r1, now_ns());
            ipcq_close();
        };
    });
    g.run();
    const std::uint32_t sent = g.result(0, 0), woke = g.result(1, 0);
    EXPECT_GT(woke, sent + 64);   // after the write landed
    EXPECT_LT(woke, sent + 600);  // ... and promptly
}
}  // namespace

TEST(PeIpcq, FullRingStallsSenderPoll) {
    fullRingStalls(Backpressure::Poll);
}
TEST(PeIpcq, FullRingStallsSenderSleep) {
    fullRingStalls(Backpressure::Sleep);
}
TEST(PeIpcq, RecvWakesOnArrivalPoll) {
    recvWakesOnArrival(Backpressure::Poll);
}
TEST(PeIpcq, RecvWakesOnArrivalSleep) {
    recvWakesOnArrival(Backpressure::Sleep);
}

TEST(PeIpcq, RoundRobinRecvRotatesDirections) {
    // Rank 1 has data waiting from both sides; recv() without a direction
    // takes them in turn (weak fairness), not all of one side first.
    Group g(3, "ring_1d", Backpressure::Sleep, 4);
    const std::vector<std::uint32_t> b = g.buf;
    const std::uint32_t r1 = g.res[1];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 1)
            return [=] {
                spin_cycles(5000);
                for (unsigned i = 0; i < 8; ++i) {
                    const ipcq_slot s = ipcq_recv_any(kTile);
                    l1_write_u32(r1 + 4 * i, unsigned(s.dir));
                    ipcq_release(s);
                }
                ipcq_close();
            };
        const ipcq_dir to = rank == 0 ? ipcq_dir::E : ipcq_dir::W;
        const std::uint32_t src = b[rank];
        return [=] {
            for (unsigned i = 0; i < 4; ++i) ipcq_send(to, src, kTile);
            ipcq_close();
        };
    });
    g.run();
    for (unsigned i = 1; i < 8; ++i) EXPECT_NE(g.result(1, i), g.result(1, i - 1)) << "recv " << i;
}

TEST(PeIpcq, CopyToDstEmitsTheCreditBeforeReturning) {
    Group g(2, "ring_1d", Backpressure::Poll, 2);
    const std::uint32_t b0 = g.buf[0], b1 = g.buf[1], r1 = g.res[1];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0)
            return [=] {
                ipcq_send(ipcq_dir::E, b0, kTile);
                ipcq_close();
            };
        return [=] {
            while (!ipcq_can_recv(ipcq_dir::W)) {
            }
            const std::uint32_t t0 = now_ns();
            ipcq_recv_to(ipcq_dir::W, b1, kTile);
            l1_write_u32(r1, now_ns() - t0);
            ipcq_close();
        };
    });
    g.run();
    // The copy (a local 2 KB NoC write) plus the credit's path latency.
    const double credit = ticksToNs(g.pg->creditLatency(1, IpcqDir::W));
    EXPECT_GT(credit, 30.0);
    EXPECT_GT(g.result(1, 0), credit + 64);
    std::vector<std::uint8_t> a(kTile), c(kTile);
    g.platform.chip(0).worker(g.pg->ranks()[0].core)->l1.readBytes(b0, kTile, a.data());
    g.platform.chip(0).worker(g.pg->ranks()[1].core)->l1.readBytes(b1, kTile, c.data());
    EXPECT_EQ(a, c);
}

TEST(PeIpcq, BadDirectionNamesRankAndDirection) {
    Group g(2, "ring_1d", Backpressure::Poll, 2);
    const std::uint32_t b0 = g.buf[0];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0) return [=] { ipcq_send(ipcq_dir::N, b0, kTile); };
        return [] {};
    });
    try {
        g.rt.run();
        FAIL() << "a send in an uninstalled direction must stop the run";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("IpcqInvalidDirection: ipcq_send on rank 0 in direction N"), std::string::npos) << m;
        EXPECT_NE(m.find("installed: E, W"), std::string::npos) << m;
    }
}

TEST(PeIpcq, SendOnAReceiveOnlyDirectionIsInvalid) {
    Group g(2, "ring_1d_unidir", Backpressure::Poll, 2);
    const std::uint32_t b0 = g.buf[0];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0) return [=] { ipcq_send(ipcq_dir::W, b0, kTile); };
        return [] {};
    });
    try {
        g.rt.run();
        FAIL() << "a send on a receive-only direction must stop the run";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("which only receives"), std::string::npos) << e.what();
    }
}

namespace {
/// Rank 0 sends 512 fp32 elements; rank 1 expects 1024 bf16 elements.
void typeMismatch(Group& g) {
    const std::uint32_t b0 = g.buf[0];
    g.launch([=](unsigned rank) -> std::function<void()> {
        if (rank == 0)
            return [=] {
                ipcq_send(ipcq_dir::E, b0, kTile, ipcq_meta(2, 512));
                ipcq_close();
            };
        return [=] {
            ipcq_release(ipcq_recv(ipcq_dir::W, kTile, ipcq_meta(0, 1024)));
            ipcq_close();
        };
    });
}
}  // namespace

TEST(PeIpcq, StrictValidationCatchesTypeMismatch) {
    Group g(2, "ring_1d", Backpressure::Poll, 2, /*strict=*/true);
    typeMismatch(g);
    try {
        g.rt.run();
        FAIL() << "strict validation must catch the dtype/shape mismatch";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("IPCQ type mismatch (F2, strict validation)"), std::string::npos) << m;
        EXPECT_NE(m.find("rank0.E->rank1.W"), std::string::npos) << m;
    }
}

TEST(PeIpcq, TypeMismatchPassesWithoutStrictValidation) {
    Group g(2, "ring_1d", Backpressure::Poll, 2, /*strict=*/false);
    typeMismatch(g);
    g.run();
}

TEST(IpcqEdge, InvariantViolationsNameInvariantQueueAndValues) {
    auto expectViolation = [](const std::function<void()>& f, const std::string& what) {
        try {
            f();
            ADD_FAILURE() << "expected " << what;
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    // I2: sender_seq must grow by one.
    expectViolation(
        [] {
            IpcqEdge e("q", 2, {});
            e.onSend(1, 0, 16, 0);
        },
        "IPCQ invariant I2 violated: sender_seq 1");
    // I1: a third send into two slots without a credit.
    expectViolation(
        [] {
            IpcqEdge e("q", 2, {});
            e.onSend(0, 0, 16, 0), e.onSend(1, 0, 16, 0), e.onSend(2, 0, 16, 0);
        },
        "I1 violated: send 2 would overwrite");
    // I5: a head update for a slot never sent.
    expectViolation(
        [] {
            IpcqEdge e("q", 2, {});
            e.onHeadArrival(1);
        },
        "I5 violated");
    // I7: a recv before the head update.
    expectViolation(
        [] {
            IpcqEdge e("q", 2, {});
            e.onSend(0, 0, 16, 0);
            e.onRecv(0, 16, 0, false);
        },
        "I7 violated");
    // I6: the slot does not hold the sent bytes when the head becomes visible.
    expectViolation(
        [] {
            IpcqEdge e("q", 2, [](std::uint64_t, std::uint32_t) { return std::uint64_t(42); });
            e.onSend(0, 7, 16, 0);
            e.onHeadArrival(1);
        },
        "I6 violated");
    // A consistent sequence passes.
    IpcqEdge ok("q", 1, [](std::uint64_t, std::uint32_t) { return std::uint64_t(7); });
    ok.onSend(0, 7, 16, 0);
    ok.onHeadArrival(1);
    ok.onRecv(0, 16, 0, true);
    ok.onCredit(1);
    ok.onSend(1, 7, 16, 0);
    EXPECT_EQ(ok.sends(), 2u);
}

namespace {
/// docs/design/pe-ipcq.md#t3: after init_process_group every queue's peer endpoint is the
/// peer's own rx ring, registers and routes point at the peer, and the rings
/// sit where the buffer kind says.
void checkInit(BufferKind kind) {
    ClusterDescriptor desc = loadClusterDescriptor(CCLSIM_SOURCE_DIR "/platforms/n300.yaml");
    Platform platform{"n300", desc, PlatformOptions{}};
    Runtime rt{platform};
    GroupConfig g;
    g.file = "test";
    g.algorithm = "test";
    g.kernel.value = "ring_allreduce";
    g.topology.value = "ring_1d";
    g.bufferKind.value = kind;
    g.nSlots.value = 4;
    g.slotSize.value = 4096;
    g.creditBytes.value = 16;
    g.fabric.value = "auto";
    ProcessGroup pg(rt, g);
    ASSERT_EQ(pg.world_size(), 16u);  // 2 chips x 8 cores
    const BankMap& banks = platform.chip(0).banks();
    for (const RankInfo& r : pg.ranks()) {
        EXPECT_EQ(r.chip, r.rank / 8);
        for (const auto& [d, nb] : pg.neighbors()[r.rank]) {
            const IpcqQueuePair& q = pg.ipcqOf(r.rank).queue(d, "test");
            const IpcqDir back = *landingDirection(pg.neighbors(), r.rank, d);
            const RankInfo& peer = pg.ranks()[nb.peer];
            const IpcqQueuePair& pq = pg.ipcqOf(peer.rank).queue(back, "test");
            // Endpoint consistency: what we send into is the peer's ring.
            EXPECT_EQ(q.peer.rank, peer.rank);
            EXPECT_EQ(q.peer.memory, pq.self.memory);
            EXPECT_EQ(q.peer.rx_base, pq.self.rx_base);
            EXPECT_EQ(q.peer.n_slots, 4u);
            EXPECT_EQ(q.peerHeadReg, nocaddr::encode(peer.core.x, peer.core.y, pg.ipcqOf(peer.rank).headReg(back)));
            EXPECT_EQ(q.crossChip, peer.chip != r.chip);
            EXPECT_EQ(q.txConnection.empty(), !q.crossChip);
            EXPECT_GT(q.creditLatency, 0u);
            // Placement of our own ring.
            EXPECT_EQ(q.self.buffer_kind, kind);
            switch (kind) {
                case BufferKind::Tcm:
                    EXPECT_EQ(q.self.memory, r.core);
                    EXPECT_GE(q.self.rx_base, desc.arch.workerUnreservedBase);
                    EXPECT_LE(q.self.rx_base + 4 * 4096, desc.arch.worker.l1.sizeBytes);
                    break;
                case BufferKind::Hbm:
                    EXPECT_NE(std::find(banks.dramEndpoint.begin(), banks.dramEndpoint.end(), q.self.memory),
                              banks.dramEndpoint.end());
                    break;
                case BufferKind::Sram:
                    EXPECT_NE(std::find(banks.sramEndpoint.begin(), banks.sramEndpoint.end(), q.self.memory),
                              banks.sramEndpoint.end());
                    break;
            }
        }
    }
    // Rings of different ranks never overlap in one memory.
    std::map<std::pair<unsigned, CoreCoord>, std::vector<std::pair<std::uint64_t, std::uint64_t>>> used;
    for (const RankInfo& r : pg.ranks())
        for (const auto& [d, nb] : pg.neighbors()[r.rank]) {
            const IpcqEndpoint& e = pg.ipcqOf(r.rank).queue(d, "test").self;
            for (const auto& [lo, hi] : used[{e.chip, e.memory}])
                EXPECT_TRUE(e.rx_base >= hi || e.rx_base + 4 * 4096 <= lo) << "rank " << r.rank;
            used[{e.chip, e.memory}].push_back({e.rx_base, e.rx_base + 4 * 4096});
        }
}
}  // namespace

TEST(ProcessGroupInit, EndpointsAndTcmRings) {
    checkInit(BufferKind::Tcm);
}
TEST(ProcessGroupInit, EndpointsAndHbmRings) {
    checkInit(BufferKind::Hbm);
}
TEST(ProcessGroupInit, EndpointsAndSramRings) {
    checkInit(BufferKind::Sram);
}
