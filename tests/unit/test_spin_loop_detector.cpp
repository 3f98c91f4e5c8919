// SpinLoopDetector: when would a kernel re-reading a status condition see
// nothing new? Each case drives a loop of status reads through the detector
// the way KernelContext::poll does (ask wouldSpin before a read, then record
// it) and asserts the exact poll at which the detector first calls the loop
// idle — the poll the model would sleep at instead of executing the loop.
// No SystemC: the detector is pure bookkeeping.
#include "models/core/SpinLoopDetector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace cclsim {
namespace {

// Keys of the things read; the detector does not interpret them.
constexpr std::uint64_t kWordA = 0x1000;
constexpr std::uint64_t kWordB = 0x1004;
constexpr std::uint64_t kWordX = 0x1008;
constexpr std::uint64_t kWordY = 0x100c;
constexpr std::uint64_t kQueue = 0x3000;
// One API name: conditions differ by key and expected value (the detector
// compares API names by pointer, as the firmware API passes literals).
constexpr const char* kSemWait = "noc_semaphore_wait";

/// One status read of a loop: the condition and what the read finds.
struct Read {
    std::uint64_t key;
    PollDesc desc;
    bool result;
};

/// An L1-word condition `word == expect` that the read finds unmet (or met).
Read wordRead(std::uint64_t key, std::uint32_t expect, bool met = false) {
    return Read{key, PollDesc{PollDesc::L1Word, kSemWait, std::uint32_t(key), expect}, met};
}

/// Runs a loop's pass over and over through a detector, continuing where it
/// stopped on the next call.
class LoopDriver {
public:
    explicit LoopDriver(std::vector<Read> pass) : pass_(std::move(pass)) {}

    /// Reads until the detector says the next read would spin; returns that
    /// read's poll number (1-based; it is not made), or 0 if `maxPolls` reads
    /// went by without it. `afterRead(poll)` runs after every read.
    std::uint64_t pollsUntilIdle(std::uint64_t maxPolls = 200,
                                 const std::function<void(std::uint64_t)>& afterRead = {}) {
        for (std::uint64_t n = 0; n < maxPolls; ++n) {
            const Read& r = pass_[next_ % pass_.size()];
            if (det.wouldSpin(r.key, r.desc)) return det.polls() + 1;
            det.record(r.key, r.desc, r.result);
            ++next_;
            if (afterRead) afterRead(det.polls());
        }
        return 0;
    }
    /// The read the loop makes next.
    const Read& next() const { return pass_[next_ % pass_.size()]; }

    SpinLoopDetector det;

private:
    std::vector<Read> pass_;
    std::size_t next_ = 0;
};

TEST(SpinLoopDetector, ALoopThatSpinsIsIdleAfterTheSecondUnchangedPass) {
    // Poll 1 is new, polls 2 and 3 repeat it unchanged: poll 4 would show
    // nothing new, and not a poll earlier.
    LoopDriver loop({wordRead(kWordA, 1)});
    EXPECT_EQ(loop.pollsUntilIdle(), 4u);
    EXPECT_EQ(loop.det.polls(), 3u);
    // Asking again changes nothing: the kernel sleeps there until a change.
    EXPECT_TRUE(loop.det.wouldSpin(kWordA, loop.next().desc));
}

TEST(SpinLoopDetector, ALoopThatMakesProgressIsNeverIdle) {
    // The word the loop waits on is written between every two reads (a
    // counter another core bumps): every read may show something new.
    LoopDriver written({wordRead(kWordA, 100)});
    EXPECT_EQ(written.pollsUntilIdle(200, [&](std::uint64_t) { written.det.wordWritten(kWordA); }), 0u);
    // A loop that acts in every pass (sends, writes, issues) may take another
    // path next time: it must be read again.
    LoopDriver acting({wordRead(kWordA, 1), wordRead(kWordB, 1)});
    EXPECT_EQ(acting.pollsUntilIdle(200,
                                    [&](std::uint64_t poll) {
                                        if (poll % 2 == 0) acting.det.noteNovelty();
                                    }),
              0u);
}

TEST(SpinLoopDetector, AConditionFoundMetIsNeverIdle) {
    LoopDriver loop({wordRead(kWordA, 1, /*met=*/true)});
    EXPECT_EQ(loop.pollsUntilIdle(), 0u);
}

TEST(SpinLoopDetector, ALoopOnTwoConditionsIsIdleOnlyWhenTheWholePassRepeats) {
    // A B | A B | A B | A: pass 1 (polls 1-2) is new, passes 2 and 3 (polls
    // 3-6) repeat it unchanged; the detector calls the loop idle at A's
    // fourth read, poll 7, and not at B's third (poll 6).
    LoopDriver loop({wordRead(kWordA, 1), wordRead(kWordB, 1)});
    EXPECT_EQ(loop.pollsUntilIdle(), 7u);
    EXPECT_EQ(loop.next().key, kWordA);
}

TEST(SpinLoopDetector, AConditionReadTwicePerPassIsNotTakenForAFullPass) {
    // A A B: between A's two reads of a pass lies nothing, between the
    // passes lies B, so A alone never shows a repeated segment; the pass
    // closes at B, whose last two segments (A A) match: idle at B's fourth
    // read, poll 12 (three passes of three reads, then A A).
    LoopDriver twice({wordRead(kWordA, 1), wordRead(kWordA, 1), wordRead(kWordB, 1)});
    EXPECT_EQ(twice.pollsUntilIdle(), 12u);
    EXPECT_EQ(twice.next().key, kWordB);

    // A X A Y: A's segments alternate (X, then Y); X's repeat (A Y A) at its
    // fourth read, poll 14. Without the segment test A would pass for idle
    // at poll 9 on the evidence of half a pass (A X A).
    LoopDriver interleaved({wordRead(kWordA, 1), wordRead(kWordX, 1), wordRead(kWordA, 1), wordRead(kWordY, 1)});
    EXPECT_EQ(interleaved.pollsUntilIdle(), 14u);
    EXPECT_EQ(interleaved.next().key, kWordX);
}

TEST(SpinLoopDetector, AWrittenWordIsNotIdleUntilItHasGoneRoundAgain) {
    LoopDriver loop({wordRead(kWordA, 1)});
    ASSERT_EQ(loop.pollsUntilIdle(), 4u);
    // The kernel sleeps at poll 4; a write to the word wakes it, and the
    // word still does not hold the value. Poll 4 reads the changed word
    // (new), polls 5 and 6 repeat it: idle again at poll 7.
    loop.det.wordWritten(kWordA);
    EXPECT_FALSE(loop.det.wouldSpin(kWordA, loop.next().desc));
    EXPECT_EQ(loop.pollsUntilIdle(), 7u);
}

TEST(SpinLoopDetector, AWriteInvalidatesEveryTestOfTheWord) {
    // The word tested against two values in one pass: two conditions, both
    // read again after a write (polls 7 and 8 new, then two clean passes).
    LoopDriver loop({wordRead(kWordA, 1), wordRead(kWordA, 2)});
    ASSERT_EQ(loop.pollsUntilIdle(), 7u);
    loop.det.wordWritten(kWordA);
    EXPECT_EQ(loop.pollsUntilIdle(), 13u);
}

TEST(SpinLoopDetector, AnActionMakesTheLoopGoRoundAgain) {
    // The kernel acts after poll 3 (one poll before it would have been
    // idle): polls 4 and 5 make the two clean passes again, idle at 6.
    LoopDriver loop({wordRead(kWordA, 1)});
    ASSERT_EQ(loop.pollsUntilIdle(3), 0u);
    loop.det.noteNovelty();
    EXPECT_EQ(loop.pollsUntilIdle(), 6u);
}

TEST(SpinLoopDetector, AWordTestedAgainstSeveralValuesIsOneConditionPerValue) {
    // A loop that waits for a word to reach either of two values reads it
    // twice per pass; like two conditions, it is idle at poll 7.
    LoopDriver loop({wordRead(kWordA, 1), wordRead(kWordA, 2)});
    EXPECT_EQ(loop.pollsUntilIdle(), 7u);
    EXPECT_EQ(loop.det.records().size(), 2u);
}

TEST(SpinLoopDetector, AFreeRunningCounterIsNeverIdleAndKeepsItsRecordsBounded) {
    // Each pass tests the word against a new value (a counter the loop
    // advances): every read is a new condition, and the least recently read
    // variant is reused, so the records stay at kMaxVariants.
    SpinLoopDetector det;
    for (std::uint32_t value = 0; value < 100; ++value) {
        const Read r = wordRead(kWordA, value);
        EXPECT_FALSE(det.wouldSpin(r.key, r.desc)) << "value " << value;
        det.record(r.key, r.desc, r.result);
    }
    EXPECT_EQ(det.records().size(), SpinLoopDetector::kMaxVariants);
    EXPECT_EQ(det.polls(), 100u);
}

TEST(SpinLoopDetector, AsksToWatchEachNewTestOfAnL1WordOnce) {
    SpinLoopDetector det;
    const Read a1 = wordRead(kWordA, 1), a2 = wordRead(kWordA, 2);
    EXPECT_TRUE(det.record(a1.key, a1.desc, false)) << "first test of the word";
    EXPECT_FALSE(det.record(a1.key, a1.desc, false)) << "a repeat";
    EXPECT_TRUE(det.record(a2.key, a2.desc, false)) << "another value: a record of its own";
    const PollDesc queue{PollDesc::TxQueue, "eth_txq_is_busy", 0, 0};
    EXPECT_FALSE(det.record(kQueue, queue, false)) << "not an L1 word";
    for (std::uint32_t value = 3; value <= SpinLoopDetector::kMaxVariants; ++value)
        EXPECT_TRUE(det.record(kWordA, wordRead(kWordA, value).desc, false));
    EXPECT_FALSE(det.record(kWordA, wordRead(kWordA, 99).desc, false)) << "a reused variant is watched already";
    EXPECT_EQ(det.records().size(), SpinLoopDetector::kMaxVariants + 1);
}

TEST(SpinLoopDetector, ClearForgetsTheConditionsButNotThePollCount) {
    LoopDriver loop({wordRead(kWordA, 1)});
    ASSERT_EQ(loop.pollsUntilIdle(), 4u);
    loop.det.clear();
    EXPECT_TRUE(loop.det.records().empty());
    EXPECT_EQ(loop.det.polls(), 3u);
    // The next read is a new condition again: idle three polls later.
    EXPECT_EQ(loop.pollsUntilIdle(), 7u);
}

}  // namespace
}  // namespace cclsim
