// TickQueue: the calendar's priority queue must hand out entries in exactly
// the order of a plain heap on (tick, order key), or swapping it in would move
// simulated figures. Seeded random schedules drive it and a reference heap
// side by side, the way the calendar does (entries due at or after the tick
// last taken, most within a few microseconds, some far beyond the wheel's
// reach, many at one tick with different keys). No SystemC.
#include "models/common/TickQueue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <vector>

namespace cclsim {
namespace {

struct Later {
    bool operator()(const CalendarEntry& a, const CalendarEntry& b) const { return TickQueue::before(b, a); }
};
using Reference = std::priority_queue<CalendarEntry, std::vector<CalendarEntry>, Later>;

constexpr Tick kReach = Tick(TickQueue::kBuckets) << TickQueue::kBucketShift;

/// Run `steps` random pushes and pops through both queues; every pop must
/// give the same entry. `delay` draws how far ahead of the current tick an
/// entry is due.
template <class Delay> void compareOrder(unsigned seed, unsigned steps, Delay&& delay) {
    std::mt19937_64 rng(seed);
    TickQueue q;
    Reference ref;
    Tick now = 0;
    std::uint64_t order = 0;
    for (unsigned i = 0; i < steps; ++i) {
        const bool push = ref.empty() || rng() % 100 < 52;
        if (push) {
            // Unique keys, in a random order (the calendar's kernel tie keys
            // are not monotone in push order).
            const CalendarEntry e{now + delay(rng), (rng() % 1024) << 20 | order++, nullptr, i};
            q.push(e);
            ref.push(e);
        } else {
            ASSERT_FALSE(q.empty());
            const CalendarEntry want = ref.top();
            const CalendarEntry got = q.top();
            ASSERT_EQ(got.when, want.when) << "step " << i;
            ASSERT_EQ(got.order, want.order) << "step " << i;
            ASSERT_EQ(got.arg, want.arg) << "step " << i;
            q.pop();
            ref.pop();
            now = want.when;
        }
        ASSERT_EQ(q.size(), ref.size());
    }
    while (!ref.empty()) {
        ASSERT_EQ(q.top().arg, ref.top().arg);
        q.pop();
        ref.pop();
    }
    EXPECT_TRUE(q.empty());
}

TEST(TickQueue, MatchesAHeapForNearEntries) {
    for (unsigned seed = 1; seed <= 5; ++seed)
        compareOrder(seed, 200000, [](std::mt19937_64& rng) { return Tick(rng() % 1000000); });
}

TEST(TickQueue, MatchesAHeapWithManyEntriesAtOneTick) {
    // Ties at one tick (and at the current one) order by key alone.
    for (unsigned seed = 1; seed <= 5; ++seed)
        compareOrder(seed, 100000, [](std::mt19937_64& rng) { return Tick(rng() % 4) * 3000; });
}

TEST(TickQueue, MatchesAHeapAcrossTheWheelsReach) {
    // A third of the entries lie beyond the wheel (the far heap), some just
    // at its edge, and time jumps far ahead when only those are left.
    for (unsigned seed = 1; seed <= 5; ++seed)
        compareOrder(seed, 200000, [](std::mt19937_64& rng) {
            switch (rng() % 6) {
                case 0: return kReach - 1 - Tick(rng() % 2048);
                case 1: return kReach + Tick(rng() % 2048);
                case 2: return Tick(rng() % (50 * kReach));
                default: return Tick(rng() % 5000);
            }
        });
}

TEST(TickQueue, TakesEntriesEarlierThanTheLastOneTaken) {
    // The calendar runs ahead of SystemC time; a plug-in's thread that runs
    // afterwards schedules at SystemC time, before the last tick the
    // calendar took. Such entries must still come out first.
    TickQueue q;
    Reference ref;
    std::uint64_t order = 0;
    auto push = [&](Tick when) {
        const CalendarEntry e{when, order++, nullptr, order};
        q.push(e);
        ref.push(e);
    };
    for (Tick t = 0; t < 200; ++t) push(100000 + t * 700);
    for (unsigned i = 0; i < 150; ++i) {
        q.pop();
        ref.pop();
    }
    push(5000);    // far below the wheel's base
    push(150000);  // below the last tick taken, in the wheel's range
    push(ref.top().when + 3 * kReach);
    while (!ref.empty()) {
        ASSERT_EQ(q.top().when, ref.top().when);
        ASSERT_EQ(q.top().order, ref.top().order);
        q.pop();
        ref.pop();
    }
    EXPECT_TRUE(q.empty());
}

TEST(TickQueue, EmptiesAndRefills) {
    TickQueue q;
    EXPECT_TRUE(q.empty());
    // Far apart in time, each pushed after the previous one is taken: the
    // wheel's base moves a long way between entries.
    Tick t = 0;
    for (unsigned i = 0; i < 100; ++i) {
        t += (i % 3 == 0 ? 7 * kReach : 1000) + i;
        q.push(CalendarEntry{t, i, nullptr, i});
        ASSERT_EQ(q.size(), 1u);
        EXPECT_EQ(q.top().when, t);
        q.pop();
        EXPECT_TRUE(q.empty());
    }
}

}  // namespace
}  // namespace cclsim
