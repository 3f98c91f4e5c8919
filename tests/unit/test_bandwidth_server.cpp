// BandwidthServer: service time, fair and weighted sharing, chunk-boundary
// joins (no head-of-line blocking across classes), FIFO within a class, and
// the onStart/onDone callback contract.
//
// Every timing test elaborates an EventQueue and runs sc_start, so it is one
// test case (one process). Expected ticks are derived from the configuration:
// a job of B bytes alone at R B/ns takes B/R ns; k backlogged classes with
// weights w_i move at R * w_i / sum(w).
#include "models/common/BandwidthServer.h"
#include "models/common/Simulate.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>
#include <systemc>

#include <string>
#include <vector>

namespace cclsim {
namespace {

constexpr double kBw = 32.0;      // B/ns, a NoC injection port
constexpr double kChunk = 256.0;  // PE_DMA interleave granularity

BandwidthServerConfig config(unsigned classes) {
    return BandwidthServerConfig{kBw, kChunk, classes};
}

std::unique_ptr<SharePolicy> wrr(std::vector<double> w) {
    return std::make_unique<WeightedRoundRobin>(std::move(w));
}

/// Completion ticks must match the analytic value to within rounding (the
/// server rounds each plan up to whole picoseconds).
constexpr Tick kSlack = 2;

/// Records "<tag>@<tick>" for each callback, in the order they ran.
struct CallLog {
    std::vector<std::string> entries;
    std::vector<Tick> ticks;
    BandwidthServer::Callback mark(std::string tag) {
        return [this, tag] {
            entries.push_back(tag);
            ticks.push_back(now());
        };
    }
    Tick at(const std::string& tag) const {
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (entries[i] == tag) return ticks[i];
        ADD_FAILURE() << "callback '" << tag << "' never ran";
        return kNever;
    }
};

// ---- pure logic: share policies and argument checks (no sc_start) ----------

TEST(SharePolicy, WeightedRoundRobinSharesAmongActiveClassesOnly) {
    const WeightedRoundRobin p({1.0, 2.0, 3.0});
    std::vector<double> s;
    p.shares({0, 2}, s);  // class 1 idle: 1 and 3 split 1:3
    ASSERT_EQ(s.size(), 2u);
    EXPECT_DOUBLE_EQ(s[0], 0.25);
    EXPECT_DOUBLE_EQ(s[1], 0.75);
    p.shares({1}, s);  // alone: everything
    ASSERT_EQ(s.size(), 1u);
    EXPECT_DOUBLE_EQ(s[0], 1.0);
    EXPECT_EQ(p.describe(), "weighted round-robin 1/2/3");
}

TEST(SharePolicy, WeightsMustBePositive) {
    EXPECT_THROW(WeightedRoundRobin({1.0, 0.0}), std::invalid_argument);
    EXPECT_THROW(WeightedRoundRobin({-1.0}), std::invalid_argument);
}

TEST(SharePolicy, StrictPriorityGivesEverythingToLowestActiveClass) {
    const StrictPriority p;
    std::vector<double> s;
    p.shares({2, 1, 3}, s);
    EXPECT_EQ(s, (std::vector<double>{0.0, 1.0, 0.0}));
}

TEST(BandwidthServer, RejectsInvalidConfigurationAndClass) {
    EventQueue eq("eq");
    EXPECT_THROW(BandwidthServer(eq, "zero_bw", BandwidthServerConfig{0.0, kChunk, 1}, wrr({1})),
                 std::invalid_argument);
    EXPECT_THROW(BandwidthServer(eq, "zero_chunk", BandwidthServerConfig{kBw, 0.0, 1}, wrr({1})),
                 std::invalid_argument);
    EXPECT_THROW(BandwidthServer(eq, "no_class", BandwidthServerConfig{kBw, kChunk, 0}, wrr({})),
                 std::invalid_argument);
    BandwidthServer s(eq, "bw", config(2), wrr({1, 1}));
    EXPECT_THROW(s.submit(2, 64, nullptr, nullptr), std::out_of_range);
    EXPECT_TRUE(s.idle());
}

TEST(BandwidthServer, JobsBeyondCountsWhatABufferBehindTheHeadCannotHold) {
    // A MAC's tx FIFO behind the command on the wire (EthSubsystem::busy):
    // the head job never counts; the jobs behind it fill `bytes` in order.
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(2), wrr({1, 1}));
    EXPECT_EQ(s.jobsBeyond(0, 0), 0u);
    s.submit(0, 4096, nullptr, nullptr);
    EXPECT_EQ(s.jobsBeyond(0, 0), 0u) << "the head alone";
    s.submit(0, 4096, nullptr, nullptr);
    s.submit(0, 16, nullptr, nullptr);
    s.submit(0, 4096, nullptr, nullptr);
    EXPECT_EQ(s.jobsBeyond(0, 0), 3u) << "no buffer: everything behind the head";
    EXPECT_EQ(s.jobsBeyond(0, 4096), 2u) << "the second job fits, not the 16 B one after it";
    EXPECT_EQ(s.jobsBeyond(0, 4112), 1u);
    EXPECT_EQ(s.jobsBeyond(0, 8208), 0u) << "all three behind the head fit exactly";
    EXPECT_EQ(s.jobsBeyond(1, 0), 0u) << "classes are counted apart";
}

TEST(BandwidthServer, JobsBeyondAlsoAcceptsACountOfUnits) {
    // A MAC that accepts N packets ahead of the wire (ETH_TXQ_DATA_PACKET_
    // ACCEPT_AHEAD): a job fits while the jobs behind the head count at most
    // N units of `unitBytes`, each job at least one, whatever the byte buffer.
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(1), wrr({1}));
    s.submit(0, 4294, nullptr, nullptr);  // head: on the wire
    s.submit(0, 4294, nullptr, nullptr);  // 3 units of 1550
    s.submit(0, 66, nullptr, nullptr);    // 1 unit
    s.submit(0, 4294, nullptr, nullptr);  // 3 units
    EXPECT_EQ(s.jobsBeyond(0, 0, 0, 1550), 3u) << "no units: the byte buffer alone";
    EXPECT_EQ(s.jobsBeyond(0, 0, 3, 1550), 2u) << "the first job's 3 units fit";
    EXPECT_EQ(s.jobsBeyond(0, 0, 4, 1550), 1u) << "the 66 B job counts one unit";
    EXPECT_EQ(s.jobsBeyond(0, 0, 7, 1550), 0u);
    EXPECT_EQ(s.jobsBeyond(0, 8654, 1, 1550), 0u) << "either limit lets a job in";
}

// ---- timing (each case elaborates and simulates once) -----------------------

TEST(BandwidthServer, SingleJobTakesBytesOverBandwidth) {
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(1), wrr({1}));
    CallLog log;
    const double bytes = 1024;
    const Tick expected = nsToTicks(bytes / kBw);  // 32 ns
    ASSERT_EQ(expected, 32'000u);
    s.submit(0, bytes, log.mark("start"), log.mark("done"));
    EXPECT_FALSE(s.idle());
    cclsim::simulate();

    EXPECT_EQ(log.at("start"), 0u);
    EXPECT_NEAR(double(log.at("done")), double(expected), kSlack);
    EXPECT_TRUE(s.idle());
    EXPECT_NEAR(s.bytesServed(), bytes, 1e-6);
    EXPECT_NEAR(double(s.busyTicks()), double(expected), kSlack);
}

TEST(BandwidthServer, BytesQueuedReflectsProgressBetweenEvents) {
    // Regression test (was a bug, models/common/BandwidthServer.cpp, bytesQueued): the server
    // advances its per-class `remaining` only in advanceTo(), i.e. on
    // submit() and on its own timer. Between those events bytesQueued()
    // returns the value of the last re-plan, so halfway through a lone
    // 1024 B job it still reports 1024 B instead of 512 B. Anything that
    // samples the queue from outside the server's own callbacks (a report,
    // a firmware status poll, a trace sampled on another component's event)
    // sees stale backlog. Fix: in bytesQueued() subtract the service since
    // last_, i.e. use max(0, c.remaining - c.rate * (now() - last_)) for a
    // joined class.
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(1), wrr({1}));
    const double bytes = 1024;
    double queuedHalfway = -1;
    s.submit(0, bytes, nullptr, nullptr);
    eq.at(nsToTicks(bytes / kBw / 2), [&] { queuedHalfway = s.bytesQueued(0); });
    cclsim::simulate();
    EXPECT_NEAR(queuedHalfway, bytes / 2, 1.0);
}

TEST(BandwidthServer, EqualWeightsShareBandwidthEqually) {
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(2), wrr({1, 1}));
    CallLog log;
    const double bytes = 1024;
    const Tick single = nsToTicks(bytes / kBw);
    s.submit(0, bytes, log.mark("s0"), log.mark("d0"));
    s.submit(1, bytes, log.mark("s1"), log.mark("d1"));
    cclsim::simulate();

    // Both start at once (the pipe was at a chunk boundary) and each moves at
    // half the bandwidth: both finish at twice the single-job time.
    EXPECT_EQ(log.at("s0"), 0u);
    EXPECT_EQ(log.at("s1"), 0u);
    EXPECT_NEAR(double(log.at("d0")), double(2 * single), kSlack);
    EXPECT_NEAR(double(log.at("d1")), double(2 * single), kSlack);
}

TEST(BandwidthServer, WeightedSplitGivesRatesInProportion) {
    EventQueue eq("eq");
    // Same load on both classes: class 0 (weight 3) moves at 24 B/ns, class 1
    // at 8 B/ns until class 0 is done, then alone at 32 B/ns.
    BandwidthServer equalLoad(eq, "equal_load", config(2), wrr({3, 1}));
    // Load in the weight ratio: both finish together at (3072+1024)/32 ns.
    BandwidthServer ratioLoad(eq, "ratio_load", config(2), wrr({3, 1}));
    CallLog log;
    equalLoad.submit(0, 1024, nullptr, log.mark("e0"));
    equalLoad.submit(1, 1024, nullptr, log.mark("e1"));
    ratioLoad.submit(0, 3072, nullptr, log.mark("r0"));
    ratioLoad.submit(1, 1024, nullptr, log.mark("r1"));
    cclsim::simulate();

    const double fast = kBw * 3 / 4, slow = kBw / 4;
    const double e0 = 1024 / fast;                    // 42.667 ns
    const double e1 = e0 + (1024 - slow * e0) / kBw;  // 64 ns: work-conserving
    EXPECT_NEAR(double(log.at("e0")), e0 * kTicksPerNs, kSlack);
    EXPECT_NEAR(double(log.at("e1")), e1 * kTicksPerNs, kSlack);
    EXPECT_NEAR(double(log.at("r0")), 4096 / kBw * kTicksPerNs, kSlack);
    EXPECT_NEAR(double(log.at("r1")), 4096 / kBw * kTicksPerNs, kSlack);
}

TEST(BandwidthServer, NewcomerJoinsAtNextChunkBoundaryNotAfterLongJob) {
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(2), wrr({1, 1}));
    CallLog log;
    const double longBytes = 64 * 1024, shortBytes = 512;
    const double submitNs = 101;  // 3232 B served: 160 B into a chunk
    s.submit(0, longBytes, log.mark("long_start"), log.mark("long_done"));
    eq.at(nsToTicks(submitNs), [&] { s.submit(1, shortBytes, log.mark("short_start"), log.mark("short_done")); });
    cclsim::simulate();

    // The short job waits for the rest of the current chunk (96 B at full
    // rate), then moves at half the bandwidth.
    const double served = submitNs * kBw;
    const double toBoundary = kChunk - std::fmod(served, kChunk);
    const double joinNs = submitNs + toBoundary / kBw;           // 104 ns
    const double shortDoneNs = joinNs + shortBytes / (kBw / 2);  // 136 ns
    EXPECT_NEAR(double(log.at("short_start")), joinNs * kTicksPerNs, kSlack);
    EXPECT_NEAR(double(log.at("short_done")), shortDoneNs * kTicksPerNs, kSlack);
    // Head-of-line freedom: within one chunk plus twice its own time.
    const double boundNs = (kChunk + 2 * shortBytes) / kBw;
    EXPECT_LE(double(log.at("short_done")), (submitNs + boundNs) * kTicksPerNs);
    // The long job loses exactly the short job's bytes (work conservation).
    EXPECT_NEAR(double(log.at("long_done")), (longBytes + shortBytes) / kBw * kTicksPerNs, kSlack);
    EXPECT_LT(log.at("short_done"), log.at("long_done"));
}

TEST(BandwidthServer, FifoWithinClassAndStartBeforeDone) {
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(1), wrr({1}));
    CallLog log;
    const std::vector<double> sizes{256, 512, 128};
    for (std::size_t i = 0; i < sizes.size(); ++i)
        s.submit(0, sizes[i], log.mark("start" + std::to_string(i)), log.mark("done" + std::to_string(i)));
    EXPECT_EQ(s.jobsQueued(0), 3u);
    EXPECT_NEAR(s.bytesQueued(0), 896, 1e-9);
    cclsim::simulate();

    // One job at a time, in submission order; the next job starts in the
    // same tick the previous one finishes, after its onDone.
    EXPECT_EQ(log.entries, (std::vector<std::string>{"start0", "done0", "start1", "done1", "start2", "done2"}));
    double t = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::string k = std::to_string(i);
        EXPECT_NEAR(double(log.at("start" + k)), t * kTicksPerNs, kSlack) << "job " << i;
        t += sizes[i] / kBw;
        EXPECT_NEAR(double(log.at("done" + k)), t * kTicksPerNs, kSlack) << "job " << i;
    }
    EXPECT_NEAR(double(s.busyTicks()), t * kTicksPerNs, kSlack);
}

TEST(BandwidthServer, NewBusyPeriodRestartsChunkPhase) {
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(2), wrr({1, 1}));
    CallLog log;
    // 100 B leave the pipe idle 160 B into a chunk. A later busy period starts
    // at a fresh boundary, so a second class submitted in its first tick joins
    // at once instead of waiting for the old chunk's remaining 156 B.
    s.submit(0, 100, nullptr, log.mark("first"));
    eq.at(nsToTicks(10), [&] {
        s.submit(0, 1024, nullptr, log.mark("a"));
        s.submit(1, 1024, log.mark("b_start"), log.mark("b"));
    });
    cclsim::simulate();

    EXPECT_NEAR(double(log.at("first")), 100 / kBw * kTicksPerNs, kSlack);
    EXPECT_EQ(log.at("b_start"), nsToTicks(10));
    EXPECT_NEAR(double(log.at("a")), (10 + 2048 / kBw) * kTicksPerNs, kSlack);
    EXPECT_NEAR(double(log.at("b")), (10 + 2048 / kBw) * kTicksPerNs, kSlack);
    // Busy time excludes the idle gap.
    EXPECT_NEAR(double(s.busyTicks()), (100 + 2048) / kBw * kTicksPerNs, 2 * kSlack);
}

TEST(BandwidthServer, StrictPriorityServesLowClassFirst) {
    EventQueue eq("eq");
    BandwidthServer s(eq, "bw", config(2), std::make_unique<StrictPriority>());
    CallLog log;
    s.submit(1, 1024, nullptr, log.mark("low_prio"));
    s.submit(0, 1024, nullptr, log.mark("high_prio"));
    cclsim::simulate();
    EXPECT_NEAR(double(log.at("high_prio")), 1024 / kBw * kTicksPerNs, kSlack);
    EXPECT_NEAR(double(log.at("low_prio")), 2048 / kBw * kTicksPerNs, kSlack);
}

}  // namespace
}  // namespace cclsim
