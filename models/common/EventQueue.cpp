#include "models/common/EventQueue.h"

#include "models/common/Report.h"
#include "models/common/Simulate.h"

#include <fmt/format.h>

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
    SC_HAS_PROCESS(EventQueue);
    SC_METHOD(drain);
    sensitive << wake_;
    dont_initialize();
}

void EventQueue::at(Tick when, Callback cb) {
    const Tick t = now();
    if (when < t) when = t;
    std::uint32_t slot;
    if (freeSlots_.empty()) {
        slot = std::uint32_t(slots_.size());
        slots_.push_back(std::move(cb));
    } else {
        slot = freeSlots_.back();
        freeSlots_.pop_back();
        slots_[slot] = std::move(cb);
    }
    heap_.push(Entry{when, seq_++, slot});
    if (!draining_) arm();
}

void EventQueue::arm() {
    if (heap_.empty()) return;
    const Tick next = heap_.top().when;
    const Tick t = scNow();
    // sc_event keeps the earliest pending notification, so re-arming for a later
    // tick is a no-op and an earlier one overrides.
    if (armedFor_ != kNever && armedFor_ >= t && armedFor_ <= next) return;
    armedFor_ = next;
    if (next == t)
        wake_.notify(sc_core::SC_ZERO_TIME);
    else
        wake_.notify(toScTime(next - t));
}

void EventQueue::drain() {
    // An SC_METHOD: on the main stack, which ASan must know for the
    // exceptions the callbacks throw (models/common/Simulate.h).
    announceThreadStack();
    const Tick t0 = scNow();
    armedFor_ = kNever;
    draining_ = true;
    // Run ahead strictly before the next tick at which another process may
    // run (its order against our callbacks at that tick is the scheduler's).
    Tick horizon = runLimit_;
    if (horizon > t0) {
        if (sc_core::sc_pending_activity_at_current_time())
            horizon = t0;
        else if (sc_core::sc_pending_activity_at_future_time())
            horizon = std::min<Tick>(horizon, t0 + sc_core::sc_time_to_pending_activity().value());
    }
    wakeLimit_ = kNever;
    // Callbacks read the calendar's tick (no call into SystemC for now()).
    detail::calendarNow = t0;
    while (!heap_.empty()) {
        const Tick w = heap_.top().when;
        if (w > t0) {
            if (w >= horizon || w > wakeLimit_) break;
            detail::calendarNow = w;
        }
        // Move the callback out before popping: it may schedule more work.
        const std::uint32_t slot = heap_.top().slot;
        heap_.pop();
        Callback cb = std::move(slots_[slot]);
        freeSlots_.push_back(slot);
        ++fired_;
        cb();
    }
    detail::calendarNow = kNever;
    draining_ = false;
    arm();
}

}  // namespace cclsim
