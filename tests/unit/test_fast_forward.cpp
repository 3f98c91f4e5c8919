// FastForward: the controller behind --fast-forward, driven by hand (pure
// arithmetic on Ticks: no SystemC process, no sc_start). Loops make points at
// fixed periods; the tests check when a skip is ordered, what each loop
// skips and for how long it pauses.
#include "models/core/FastForward.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cclsim {
namespace {

constexpr Tick kNs = kTicksPerNs;

/// A loop making a point every `period` until `packets` are done, taking
/// any skip it is ordered (and pausing for it).
struct Driver {
    FastForward::LoopId id = 0;
    Tick period = 0;
    Tick next = 0;  ///< its next point
    std::uint64_t left = 0;
    std::uint64_t skipped = 0;
    Tick paused = 0;
};

/// Run the loops in time order until all are done; returns the end time.
Tick drive(FastForward& ff, std::vector<Driver>& loops) {
    Tick end = 0;
    for (;;) {
        Driver* d = nullptr;
        for (Driver& l : loops)
            if (l.left > 0 && (!d || l.next < d->next)) d = &l;
        if (!d) return end;
        const FastForward::Skip s = ff.point(d->id, d->next, d->left);
        if (s.packets > 0) {
            EXPECT_LT(s.packets, d->left) << "a skip leaves the loop's margin";
            d->left -= s.packets;
            d->skipped += s.packets;
        }
        const Tick pause = ff.pauseAt(d->next, s.pause);
        d->paused += pause;
        d->next += pause;
        --d->left;
        d->next += d->period;
        end = std::max(end, d->next);
        if (d->left == 0) {
            ff.leave(d->id, d->next);
            ff.kernelReturned();  // the kernel returns right after its loop
        }
    }
}

std::vector<Driver> enterAll(FastForward& ff, const std::vector<Tick>& periods, std::uint64_t packets,
                             std::uint32_t group = 0) {
    std::vector<Driver> loops;
    for (Tick p : periods) {
        Driver d;
        d.id = ff.enter(0, packets, 8, group);
        d.period = p;
        d.next = p;
        d.left = packets;
        loops.push_back(d);
    }
    return loops;
}

TEST(FastForward, SteadyLoopsSkipAtTheirRateAndTheEndTimeHolds) {
    FastForward ff;
    ff.addKernels(2);
    // Two loops of one group at one rate: 10 ns a packet, 100000 packets.
    std::vector<Driver> loops = enterAll(ff, {10 * kNs, 10 * kNs}, 100000);
    const Tick end = drive(ff, loops);
    ASSERT_GE(ff.skips(), 1u) << ff.whyNone();
    EXPECT_GT(ff.packetsSkipped(), 100000u) << "most of both loops is skipped";
    EXPECT_EQ(loops[0].skipped, loops[1].skipped) << "one group skips one count";
    for (const Driver& d : loops) {
        // A skip of n packets pauses for about n periods (the rate is
        // measured in windows that close at one loop's point, and the other
        // loop's point of the same tick falls in the next: +-1 point per
        // window start after a skip).
        EXPECT_NEAR(double(d.paused), double(d.skipped * d.period), 0.01 * double(d.paused));
    }
    // ... so the loops end within 1 % of when they would have without skipping.
    EXPECT_NEAR(double(end), double(100000 * 10 * kNs + 10 * kNs), 0.01 * double(end));
    EXPECT_EQ(ff.timeSkipped(), loops[0].paused);
    EXPECT_EQ(ff.whyNone(), "");
}

TEST(FastForward, LoopsOfDifferentRatesSkipInProportionForTheSameTime) {
    FastForward ff;
    ff.addKernels(2);
    std::vector<Driver> loops;
    for (std::uint32_t g = 0; g < 2; ++g) {
        std::vector<Driver> one = enterAll(ff, {g == 0 ? 10 * kNs : 20 * kNs}, g == 0 ? 100000 : 50000, g);
        loops.push_back(one[0]);
    }
    drive(ff, loops);
    ASSERT_GE(ff.skips(), 1u) << ff.whyNone();
    // Same pause, twice the packets for the loop twice as fast (within the
    // rounding of one packet per skip).
    EXPECT_EQ(loops[0].paused, loops[1].paused);
    EXPECT_NEAR(double(loops[0].skipped), 2.0 * double(loops[1].skipped), 2.0 * double(ff.skips()));
}

// A sender that walks C buffer channels round-robin skips whole rounds of
// them: every skip is a multiple of its quantum, and it pauses for the time
// of the packets it skips (not the whole stretch), so it still ends on time.
TEST(FastForward, SkipsAreWholeQuantaAndPauseForThePacketsTaken) {
    FastForward ff;
    ff.addKernels(2);
    std::vector<Driver> loops(2);
    std::vector<std::uint64_t> sizes;
    for (int i = 0; i < 2; ++i) {
        loops[i].id = ff.enter(0, 100000, 64, 0, /*quantum=*/7);
        loops[i].period = 10 * kNs;
        loops[i].next = 10 * kNs;
        loops[i].left = 100000;
    }
    // drive(), recording every skip's size and pause.
    Tick end = 0;
    for (;;) {
        Driver* d = nullptr;
        for (Driver& l : loops)
            if (l.left > 0 && (!d || l.next < d->next)) d = &l;
        if (!d) break;
        const FastForward::Skip s = ff.point(d->id, d->next, d->left);
        if (s.packets > 0) {
            sizes.push_back(s.packets);
            EXPECT_EQ(s.packets % 7, 0u) << "a skip of " << s.packets << " packets is not whole quanta";
            EXPECT_NEAR(double(s.pause), double(s.packets * d->period), 0.01 * double(s.pause))
                << "the pause is the skipped packets' time";
            d->left -= s.packets;
            d->skipped += s.packets;
            d->paused += s.pause;
        }
        d->next += ff.pauseAt(d->next, s.pause) + d->period;
        end = std::max(end, d->next);
        if (--d->left == 0) {
            ff.leave(d->id, d->next);
            ff.kernelReturned();
        }
    }
    ASSERT_FALSE(sizes.empty()) << ff.whyNone();
    EXPECT_EQ(loops[0].skipped, loops[1].skipped);
    EXPECT_NEAR(double(end), double(100000 * 10 * kNs + 10 * kNs), 0.01 * double(end));
    EXPECT_EQ(ff.timeSkipped(), loops[0].paused) << "the time reported skipped is the pauses, not D";
    EXPECT_THROW(ff.enter(0, 10, 1, 0, 0), std::invalid_argument) << "a quantum of 0";
}

// A stream resumes off its steady rate after a pause (what was in flight
// landed during it: here its first 8 packets come at 0.92 of the period, a
// first window 2 % fast, inside the 3 % steadiness test). The
// first window after a skip is not measured on streams, so every skip moves
// the packets of its pause at the steady rate; a collective's loops keep
// that window (their rate dips at block steps, which it stands in for), and
// the same transient then shows in their skips.
TEST(FastForward, AStreamSkipsAtItsSteadyRateDespiteTheTransientAfterAPause) {
    for (const bool stream : {true, false}) {
        FastForward ff;
        ff.addKernels(1);
        const Tick period = 10 * kNs;
        const FastForward::LoopId id = ff.enter(0, 200000, 8, 0, 1, stream);
        std::uint64_t left = 200000, burst = 0;
        Tick next = period;
        double worst = 0;
        while (left > 0) {
            const FastForward::Skip s = ff.point(id, next, left);
            if (s.packets > 0) {
                left -= s.packets;
                worst = std::max(worst, std::abs(double(s.packets) * double(period) / double(s.pause) - 1.0));
                burst = 8;
            }
            next += ff.pauseAt(next, s.pause) + (burst > 0 ? period * 92 / 100 : period);
            if (burst > 0) --burst;
            --left;
        }
        ASSERT_GE(ff.skips(), 2u) << ff.whyNone();
        if (stream)
            EXPECT_LT(worst, 0.001) << "a stream's skips move its steady rate";
        else
            EXPECT_GT(worst, 0.005) << "a collective's loop keeps the first window (the transient shows: 1.6 %)";
    }
}

// A loop that still makes packets near its end would end inside a skip and
// change the board (its lane's share of a link goes to the others): no
// stretch may cover its end; the long loop skips before and after it.
TEST(FastForward, NoStretchCoversTheEndOfALoopStillMakingPackets) {
    FastForward ff;
    ff.addKernels(2);
    std::vector<Driver> loops(2);
    const std::uint64_t packets[2] = {100000, 2000};
    const std::uint64_t margin[2] = {8, 400};  // the short loop's exact end: 400 packets, ~13 windows
    for (int i = 0; i < 2; ++i) {
        loops[i].id = ff.enter(0, packets[i], margin[i], std::uint32_t(i));
        loops[i].period = 10 * kNs;
        loops[i].next = 10 * kNs;
        loops[i].left = packets[i];
    }
    drive(ff, loops);
    ASSERT_GE(ff.skips(), 2u) << ff.whyNone();
    // The short loop's end: its last point, one period before it left.
    const Tick shortEnd = loops[1].next;
    bool after = false;
    for (const FastForward::Stretch& st : ff.stretches()) {
        EXPECT_FALSE(st.from < shortEnd && shortEnd <= st.from + st.length)
            << "a stretch from " << st.from << " for " << st.length << " covers the end at " << shortEnd;
        after |= st.from >= shortEnd;
    }
    EXPECT_TRUE(after) << "the long loop skips again once the short one has left";
}

// A collective's worker moves block by block, and the board's rate dips at
// every step boundary: here each step is 400 packets, the first 60 of them at
// twice the period (a step takes 15 % longer than its steady part suggests),
// and the loop's first step runs faster than the rest (its own data, no wait
// for the previous chip). Windows between the dips see only the steady part.
// With the packets left in each step given, a skip across boundaries runs at
// the rate of a whole measured step and the end time holds to 1 %; without
// them the same loops skip at the rate between dips and end far too early.
TEST(FastForward, SkipsAcrossStepBoundariesRunAtTheRateOfWholeSteps) {
    constexpr std::uint64_t kSteps = 50, kStep = 400, kDip = 60, kPackets = kSteps * kStep;
    const Tick period = 10 * kNs;
    auto packetTime = [&](std::uint64_t k) {  // k: the packet's index in the loop
        if (k < kStep) return period * 8 / 10;
        return k % kStep < kDip ? 2 * period : period;
    };
    Tick exact = 0;
    for (std::uint64_t k = 0; k < kPackets; ++k) exact += packetTime(k);
    for (const bool steps : {true, false}) {
        FastForward ff;
        ff.addKernels(2);
        std::vector<Driver> loops(2);
        for (Driver& d : loops) {
            d.id = ff.enter(0, kPackets, 8, 0);
            d.left = kPackets;
        }
        Tick end = 0;
        bool crossed = false;
        for (;;) {
            Driver* d = nullptr;
            for (Driver& l : loops)
                if (l.left > 0 && (!d || l.next < d->next)) d = &l;
            if (!d) break;
            const std::uint64_t k = kPackets - d->left;
            const FastForward::Skip s = ff.point(d->id, d->next, d->left, steps ? kStep - k % kStep : 0);
            d->next += ff.pauseAt(d->next, s.pause);
            if (s.packets > 0) {  // as the firmware: this packet and the n - 1 after it
                crossed |= k / kStep != (k + s.packets) / kStep;
                d->left -= s.packets;
                d->skipped += s.packets;
            } else {
                d->next += packetTime(k);
                --d->left;
            }
            end = std::max(end, d->next);
            if (d->left == 0) {
                ff.leave(d->id, d->next);
                ff.kernelReturned();
            }
        }
        ASSERT_GE(ff.skips(), 1u) << ff.whyNone();
        EXPECT_GT(loops[0].skipped, kPackets / 2) << "most of the loop is skipped";
        const double diff = double(end) / double(exact) - 1.0;
        if (steps) {
            EXPECT_TRUE(crossed) << "once a whole step is measured, skips cross boundaries";
            EXPECT_LT(std::abs(diff), 0.01) << "end " << end << " against exact " << exact;
        } else {
            EXPECT_LT(diff, -0.05) << "without steps the dips are not sampled (this test's premise)";
        }
    }
}

// Until two whole steps (boundary to boundary, not the loop's first) have
// been measured, a skip stays inside the first step of every loop: the first
// step's own rate never stands for the rest. Loops with long steps (here
// 3000 packets, at least FastForwardOptions::shortStepPackets) skip across
// boundaries at the windows' rate: their dips are a small share.
TEST(FastForward, BeforeWholeStepsAreMeasuredShortStepsAreSkippedOnlyInside) {
    for (const std::uint64_t step : {std::uint64_t(480), std::uint64_t(3000)}) {
        const bool shortSteps = step < FastForwardOptions{}.shortStepPackets;
        const std::uint64_t packets = 8 * step;
        FastForward ff;
        ff.addKernels(1);
        const FastForward::LoopId id = ff.enter(0, packets, 8, 0);
        std::uint64_t left = packets;
        Tick t = 0;
        bool skippedInFirst = false, crossedEarly = false;
        while (left > 0) {
            const std::uint64_t k = packets - left;
            const FastForward::Skip s = ff.point(id, t, left, step - k % step);
            t += ff.pauseAt(t, s.pause);
            if (s.packets > 0) {
                const bool crosses = k % step + s.packets >= step;
                if (shortSteps && k < 3 * step) {
                    EXPECT_FALSE(crosses) << "a skip at packet " << k << " leaves its step";
                    EXPECT_LT(k, step) << "a skip before two whole steps are measured, after the first";
                }
                crossedEarly |= crosses && k < 3 * step;
                skippedInFirst |= k < step;
                left -= s.packets;
            } else {
                t += (k < step ? 5 : 10) * kNs;
                --left;
            }
        }
        ff.leave(id, t);
        EXPECT_TRUE(skippedInFirst) << "the first step is skipped inside: " << ff.whyNone();
        if (!shortSteps) {
            EXPECT_TRUE(crossedEarly) << "long steps are skipped across at the windows' rate";
        }
    }
}

TEST(FastForward, NothingIsSkippedWhileAKernelRunsOutsideASteadyLoop) {
    FastForward ff;
    ff.addKernels(2);  // the second kernel never enters a loop
    std::vector<Driver> loops = enterAll(ff, {10 * kNs}, 100000);
    drive(ff, loops);
    EXPECT_EQ(ff.skips(), 0u);
    EXPECT_EQ(loops[0].paused, 0u);
    EXPECT_NE(ff.whyNone().find("never were all kernels inside steady loops"), std::string::npos) << ff.whyNone();
}

TEST(FastForward, AnUnsteadyRateIsNeverSkipped) {
    FastForward ff;
    ff.addKernels(1);
    const FastForward::LoopId id = ff.enter(0, 200000, 8, 0);
    // Windows alternate between 10 and 14 ns a packet (40 % apart).
    Tick t = 0;
    for (std::uint64_t i = 0; i < 200000; ++i) {
        t += ((i / 32) % 2 ? 14 : 10) * kNs;
        const FastForward::Skip s = ff.point(id, t, 200000 - i);
        ASSERT_EQ(s.packets, 0u) << "at packet " << i;
    }
    ff.leave(id, t);
    EXPECT_EQ(ff.skips(), 0u);
    EXPECT_NE(ff.whyNone().find("never held steady"), std::string::npos) << ff.whyNone();
}

TEST(FastForward, AWorkloadWithoutSteadyLoopsSaysSo) {
    FastForward ff;
    ff.addKernels(3);
    EXPECT_EQ(ff.loopsSeen(), 0u);
    EXPECT_EQ(ff.whyNone().rfind("no kernel of this run marked a steady loop", 0), 0u) << ff.whyNone();
}

TEST(FastForward, ServicesPauseOncePerSkipAndNotLateInTheStretch) {
    FastForward ff;
    ff.addKernels(1);
    std::uint64_t early = 0, late = 0;
    EXPECT_EQ(ff.servicePoint(0, &early), 0u) << "no skip yet";
    std::vector<Driver> loops = enterAll(ff, {10 * kNs}, 100000);
    // Run until the first skip is ordered and taken.
    Driver& d = loops[0];
    while (ff.skips() == 0) {
        ff.point(d.id, d.next, d.left--);
        d.next += d.period;
    }
    const FastForward::Skip s = ff.point(d.id, d.next, d.left);
    ASSERT_GT(s.pause, 0u);
    EXPECT_EQ(ff.servicePoint(d.next, &early), s.pause) << "a service in the stretch pauses with the loops";
    EXPECT_EQ(ff.servicePoint(d.next, &early), 0u) << "... once";
    EXPECT_EQ(ff.servicePoint(d.next + s.pause, &late), 0u) << "one woken after the stretch does not";
    EXPECT_EQ(ff.pauseAt(d.next + s.pause - 1, s.pause), 0u) << "nor a loop that got there late";
}

TEST(FastForward, MisuseIsALogicError) {
    FastForward ff;
    EXPECT_THROW(ff.enter(0, 10, 1, 0), std::logic_error) << "a kernel that was never counted";
    EXPECT_THROW(ff.kernelReturned(), std::logic_error);
    ff.addKernels(1);
    const FastForward::LoopId id = ff.enter(0, 10, 1, 0);
    ff.leave(id, 0);
    EXPECT_THROW(ff.leave(id, 0), std::logic_error);
    FastForwardOptions one;
    one.windows = 1;
    EXPECT_THROW(FastForward{one}, std::invalid_argument);
}

}  // namespace
}  // namespace cclsim
