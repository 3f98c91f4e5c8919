// Idle-round counting and the predicted turn of the base firmware (see
// IdleTurnCounter.h).
#include "models/core/IdleTurnCounter.h"

#include <stdexcept>

namespace cclsim {

bool IdleTurnCounter::round(bool didSomething, std::uint64_t idleRounds, std::uint64_t polls) {
    idleLimit_ = idleRounds;
    // An idle round costs the status reads of one pass of the loop: the
    // cheapest round seen so far (a busy round reads the same and acts too).
    const std::uint64_t reads = polls - lastRoundPoll_;
    lastRoundPoll_ = polls;
    if (reads && (!roundTime_ || Tick(reads) * pollIteration_ < roundTime_)) roundTime_ = Tick(reads) * pollIteration_;
    if (didSomething) {
        idleRounds_ = 0;
        return false;
    }
    if (++idleRounds_ < idleLimit_) return false;
    idleRounds_ = 0;
    return true;
}

void IdleTurnCounter::beginYieldingWait() {
    savedRounds_.push_back({idleLimit_, idleRounds_, roundTime_});
    idleLimit_ = 1;
    idleRounds_ = 0;
    roundTime_ = pollIteration_;
}

void IdleTurnCounter::endYieldingWait() {
    if (savedRounds_.empty()) throw std::logic_error("IdleTurnCounter: endYieldingWait without a beginYieldingWait");
    idleLimit_ = savedRounds_.back().limit;
    idleRounds_ = savedRounds_.back().rounds;
    roundTime_ = savedRounds_.back().roundTime;
    savedRounds_.pop_back();
}

Tick IdleTurnCounter::turnAt() const {
    if (!asleep_ || !idleLimit_ || !roundTime_) return kNever;
    const std::uint64_t left = idleLimit_ > idleRounds_ ? idleLimit_ - idleRounds_ : 1;
    return std::max(sleepFrom_, busyUntil_) + Tick(left) * roundTime_;
}

}  // namespace cclsim
