#include "models/common/EventQueue.h"

#include "models/common/Report.h"
#include "models/common/Simulate.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim {

EventQueue::EventQueue(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
    // Ticks are SystemC time values (scNow, toScTime): the model needs
    // SystemC's resolution to be 1 ps, its default. A top level that set
    // another one (sc_set_time_resolution) would scale every time by it.
    if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
        throw ConfigError(fmt::format(
            "{}: the SystemC time resolution is {}, but cclsim keeps time in picoseconds and needs 1 ps "
            "(SystemC's default): remove sc_set_time_resolution() from the top level or set it to (1, SC_PS)",
            this->name(), sc_core::sc_get_time_resolution().to_string()));
    slotTask_.q = this;
    SC_HAS_PROCESS(EventQueue);
    SC_METHOD(drain);
    sensitive << wake_;
    dont_initialize();
}

void EventQueue::at(Tick when, Callback cb) {
    std::uint32_t slot;
    if (freeSlots_.empty()) {
        slot = std::uint32_t(slots_.size());
        slots_.push_back(std::move(cb));
    } else {
        slot = freeSlots_.back();
        freeSlots_.pop_back();
        slots_[slot] = std::move(cb);
    }
    push(when, kModel, seq_++, &slotTask_, slot);
}

void EventQueue::SlotTask::onCalendar(std::uint64_t slot) {
    // Move the callback out first: it may schedule more work into the slab.
    Callback cb = std::move(q->slots_[slot]);
    q->freeSlots_.push_back(std::uint32_t(slot));
    cb();
}

void EventQueue::arm() {
    if (queue_.empty()) return;
    const Tick next = queue_.top().when;
    const Tick t = scNow();
    // sc_event keeps the earliest pending notification, so re-arming for a later
    // tick is a no-op and an earlier one overrides.
    if (armedFor_ != kNever && armedFor_ >= t && armedFor_ <= next) return;
    wakeAt(next);
}

void EventQueue::wakeAt(Tick when) {
    const Tick t = scNow();
    armedFor_ = when;
    if (when == t)
        wake_.notify(sc_core::SC_ZERO_TIME);
    else
        wake_.notify(toScTime(when - t));
}

void EventQueue::pause() {
    if (draining_)
        pauseRequested_ = true;
    else
        sc_core::sc_pause();
}

bool EventQueue::quietThrough(Tick dt) const {
    if (!draining_) return false;
    // As SystemC's own test did for the kernels' threads: something must be
    // pending (with nothing at all pending, time would not move either).
    const Tick limit = now() + dt;
    const Tick next = std::min(queue_.empty() ? kNever : queue_.top().when, std::min(otherActivity_, wakeLimit_));
    return next != kNever && next > limit;
}

void EventQueue::drain() {
    // An SC_METHOD: on the main stack, which ASan must know for the
    // exceptions the callbacks throw (models/common/Simulate.h).
    announceThreadStack();
    const Tick t0 = scNow();
    armedFor_ = kNever;
    if (pauseAt_ != kNever && t0 >= pauseAt_) {
        // SystemC time has caught up with a pause the calendar ran ahead to.
        pauseAt_ = kNever;
        sc_core::sc_pause();
        arm();
        return;
    }
    draining_ = true;
    pauseRequested_ = false;
    // Run ahead strictly before the next tick at which another process may
    // run (its order against our entries at that tick is the scheduler's).
    otherActivity_ = kNever;
    if (sc_core::sc_pending_activity_at_current_time())
        otherActivity_ = t0;
    else if (sc_core::sc_pending_activity_at_future_time())
        otherActivity_ = t0 + sc_core::sc_time_to_pending_activity().value();
    // Nothing runs at or after a pause SystemC time has not reached yet.
    const Tick horizon = std::min({runLimit_, otherActivity_, pauseAt_});
    wakeLimit_ = kNever;
    Tick last = t0;
    // Entries read the calendar's tick (no call into SystemC for now()).
    detail::calendarNow = t0;
    while (!queue_.empty()) {
        const Entry top = queue_.top();
        if (top.when > t0) {
            if (top.when >= horizon || top.when > wakeLimit_) break;
            detail::calendarNow = top.when;
        }
        curTick_ = top.when;
        curRound_ = top.order >> kRoundShift;
        curPhase_ = unsigned(top.order >> kPhaseShift) & 1u;
        queue_.pop();
        ++fired_;
        last = top.when;
        top.task->onCalendar(top.arg);
        if (pauseRequested_) break;
    }
    detail::calendarNow = kNever;
    draining_ = false;
    if (pauseRequested_) {
        pauseRequested_ = false;
        if (last == t0) {
            sc_core::sc_pause();
            arm();
        } else {
            // Ran ahead: SystemC time must reach the pause's tick first.
            pauseAt_ = last;
            wakeAt(last);
        }
        return;
    }
    if (pauseAt_ != kNever) {
        // Woken before a pause's tick (another process scheduled work): keep
        // it, and wake earlier for work scheduled before it.
        wakeAt(queue_.empty() ? pauseAt_ : std::min(pauseAt_, queue_.top().when));
        return;
    }
    if (last > t0 && queue_.empty()) {
        // Nothing left: bring SystemC time to where the activity ended.
        wakeAt(last);
        return;
    }
    arm();
}

}  // namespace cclsim
