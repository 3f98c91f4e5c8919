// The base firmware's turn on an Ethernet core, as seen from the kernel's
// main loop: counting idle rounds, the time one idle round takes, and when
// the turn falls while the kernel sleeps in a modelled spin loop. Pure logic
// on Ticks (no SystemC process, no sc_start); KernelContext feeds it and
// EriscCore schedules the turns it predicts.
//
// tt-metal's fabric EDM gives the base firmware its turn (run_routing) after
// a number of main-loop rounds in a row that did nothing (WAIT_FOR_IDLE
// context switching). The model does not execute idle rounds: a kernel whose
// loop only re-reads unchanged status sleeps (SpinLoopDetector). So the
// counter predicts the turn instead:
//
//   round  round  round   sleep from S ...........................  wake
//   idle   idle   (busy)  |<- (limit - idle rounds) x round time ->| turn
//
// The round time is the status reads of the cheapest round seen so far (a
// busy round reads the same and acts too); a turn taken while asleep keeps the
// core busy for its cost, and the count restarts after it. A blocking wait
// that yields while it spins (tt-metal's Ethernet waits call run_routing()
// every iteration) counts as a loop with a limit of one round of one poll,
// nested in the main loop's counting, which it restores.
#pragma once

#include "models/common/Time.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cclsim {

/// Counts a kernel's idle main-loop rounds and predicts the base firmware's
/// turn while the kernel sleeps (see the file comment).
class IdleTurnCounter {
public:
    /// `pollIteration`: the cost of one status read (one spin-loop iteration).
    explicit IdleTurnCounter(Tick pollIteration) : pollIteration_(pollIteration) {}

    /// One round of a main loop that gives the base firmware its turn after
    /// `idleRounds` rounds in a row that did nothing; `polls` is the kernel's
    /// status reads so far (SpinLoopDetector::polls). True: the count was
    /// reached now and the caller takes the turn; the count restarts.
    bool round(bool didSomething, std::uint64_t idleRounds, std::uint64_t polls);
    /// A yielding wait begins: until it ends, the turn may come one poll
    /// after the kernel went to sleep. Nests; endYieldingWait restores
    /// (std::logic_error without a wait to end).
    void beginYieldingWait();
    void endYieldingWait();

    /// The kernel goes to sleep in a spin loop; the sleep stands for its
    /// local time `from` (when the loop would have gone idle).
    void sleeps(Tick from) {
        ++sleeps_;
        asleep_ = true;
        sleepFrom_ = from;
    }
    /// The kernel woke up.
    void wakes() { asleep_ = false; }
    /// While asleep in a loop that counts rounds: when the loop reaches its
    /// turn (kNever if it does not count rounds, has no measured round time,
    /// or is not asleep).
    Tick turnAt() const;
    /// The base firmware took the turn at `at` while the kernel slept: the
    /// core is busy with it until `at + cost`, and the idle count restarts.
    void tookTurnAsleep(Tick at, Tick cost) {
        busyUntil_ = at + cost;
        idleRounds_ = 0;
    }
    /// When a kernel waking from a sleep that stood for local time `until`
    /// resumes: after a turn the base firmware took meanwhile, if later.
    Tick resumeAt(Tick until) const { return std::max(until, busyUntil_); }

    /// Identifies the current sleep (changes every time the kernel sleeps).
    std::uint64_t sleepId() const { return sleeps_; }
    bool asleep() const { return asleep_; }

private:
    Tick pollIteration_;
    std::uint64_t idleLimit_ = 0;      ///< rounds before a turn; 0: the kernel does not count
    std::uint64_t idleRounds_ = 0;     ///< idle rounds in a row so far
    std::uint64_t lastRoundPoll_ = 0;  ///< status reads at the last round
    Tick roundTime_ = 0;               ///< time of one idle round (its status reads)
    std::uint64_t sleeps_ = 0;         ///< sleeps so far
    bool asleep_ = false;
    Tick sleepFrom_ = 0;  ///< local time the current sleep stands for
    Tick busyUntil_ = 0;  ///< a turn taken while asleep ends here
    struct SavedRounds {
        std::uint64_t limit, rounds;
        Tick roundTime;
    };
    std::vector<SavedRounds> savedRounds_;  ///< main-loop counting under yielding waits
};

}  // namespace cclsim
