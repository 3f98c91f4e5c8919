// IdleTurnCounter: the base firmware's turn after a main loop's idle rounds
// (tt-metal's fabric EDM context switch), counted while the kernel runs and
// predicted while it sleeps in a modelled spin loop. Pure arithmetic on
// Ticks: no SystemC process, no sc_start.
#include "models/core/IdleTurnCounter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

namespace cclsim {
namespace {

constexpr Tick kPoll = 5 * kTicksPerNs;  ///< one status read

TEST(IdleTurnCounter, TakesTheTurnAfterTheIdleRoundsAndCountsAgain) {
    IdleTurnCounter turns(kPoll);
    std::uint64_t polls = 0;
    auto idle = [&] { return turns.round(false, 3, polls += 2); };
    EXPECT_FALSE(idle());
    EXPECT_FALSE(idle());
    EXPECT_TRUE(idle()) << "the third idle round in a row is the turn";
    // The count restarts after the turn.
    EXPECT_FALSE(idle());
    EXPECT_FALSE(idle());
    EXPECT_TRUE(idle());
}

TEST(IdleTurnCounter, ARoundThatDidSomethingRestartsTheCount) {
    IdleTurnCounter turns(kPoll);
    EXPECT_FALSE(turns.round(false, 2, 1));
    EXPECT_FALSE(turns.round(true, 2, 2));
    EXPECT_FALSE(turns.round(false, 2, 3));
    EXPECT_TRUE(turns.round(false, 2, 4));
}

TEST(IdleTurnCounter, ATurnDueWhileAsleep) {
    IdleTurnCounter turns(kPoll);
    EXPECT_EQ(turns.turnAt(), kNever) << "awake";
    // Rounds of 4, 2 and 3 status reads: an idle round takes the cheapest,
    // 2 reads = 10 ns. Three idle rounds of a limit of 5 are counted.
    turns.round(false, 5, 4);
    turns.round(false, 5, 6);
    turns.round(false, 5, 9);
    // The loop goes idle at local time 1 us and sleeps: its two remaining
    // rounds take 20 ns.
    const Tick sleepFrom = 1000 * kTicksPerNs;
    turns.sleeps(sleepFrom);
    EXPECT_TRUE(turns.asleep());
    EXPECT_EQ(turns.turnAt(), sleepFrom + 2 * 10 * kTicksPerNs);
    turns.wakes();
    EXPECT_EQ(turns.turnAt(), kNever) << "woken: the loop counts its rounds itself";
}

TEST(IdleTurnCounter, TheCountRestartsAfterATurnTakenAsleep) {
    IdleTurnCounter turns(kPoll);
    turns.round(false, 4, 2);  // rounds of 2 reads: 10 ns; one idle round
    const Tick sleepFrom = 1000 * kTicksPerNs;
    turns.sleeps(sleepFrom);
    const Tick at = turns.turnAt();
    ASSERT_EQ(at, sleepFrom + 3 * 10 * kTicksPerNs);
    // The base firmware takes the turn for 200 ns; the next one is four
    // whole rounds after it ends.
    const Tick cost = 200 * kTicksPerNs;
    turns.tookTurnAsleep(at, cost);
    EXPECT_EQ(turns.turnAt(), at + cost + 4 * 10 * kTicksPerNs);
    // A kernel woken during the turn resumes when it ends; one woken later
    // resumes at its own time.
    EXPECT_EQ(turns.resumeAt(sleepFrom), at + cost);
    EXPECT_EQ(turns.resumeAt(at + cost + 1), at + cost + 1);
}

TEST(IdleTurnCounter, NoTurnIsPredictedWithoutCountingOrARoundTime) {
    IdleTurnCounter notCounting(kPoll);
    notCounting.sleeps(0);
    EXPECT_EQ(notCounting.turnAt(), kNever) << "the loop never called round()";

    IdleTurnCounter noReads(kPoll);
    noReads.round(false, 3, 0);  // a round without status reads: no round time
    noReads.sleeps(0);
    EXPECT_EQ(noReads.turnAt(), kNever);
}

TEST(IdleTurnCounter, YieldingWaitsNestInTheMainLoopsCounting) {
    IdleTurnCounter turns(kPoll);
    turns.round(false, 4, 2);  // main loop: rounds of 10 ns, one idle round
    const Tick t = 1000 * kTicksPerNs;
    turns.beginYieldingWait();
    turns.sleeps(t);
    EXPECT_EQ(turns.turnAt(), t + kPoll) << "a yielding wait: the turn one poll after it went idle";
    turns.wakes();
    turns.beginYieldingWait();  // a yielding wait inside another
    turns.sleeps(t);
    EXPECT_EQ(turns.turnAt(), t + kPoll);
    turns.endYieldingWait();
    EXPECT_EQ(turns.turnAt(), t + kPoll) << "back in the outer yielding wait";
    turns.endYieldingWait();
    EXPECT_EQ(turns.turnAt(), t + 3 * 10 * kTicksPerNs) << "the main loop's count and round time are restored";
}

TEST(IdleTurnCounter, EndingAYieldingWaitThatNeverBeganIsAnError) {
    IdleTurnCounter c(kPoll);
    EXPECT_THROW(c.endYieldingWait(), std::logic_error);
    c.beginYieldingWait();
    c.endYieldingWait();
    EXPECT_THROW(c.endYieldingWait(), std::logic_error);
}

TEST(IdleTurnCounter, EachSleepHasItsOwnId) {
    IdleTurnCounter turns(kPoll);
    const std::uint64_t before = turns.sleepId();
    turns.sleeps(0);
    const std::uint64_t first = turns.sleepId();
    turns.wakes();
    turns.sleeps(0);
    EXPECT_NE(first, before);
    EXPECT_NE(turns.sleepId(), first);
}

}  // namespace
}  // namespace cclsim
