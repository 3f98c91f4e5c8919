#include "models/common/EventQueue.h"

namespace cclsim {

EventQueue::EventQueue(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
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
    const Tick t = now();
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
    const Tick t = now();
    armedFor_ = kNever;
    draining_ = true;
    while (!heap_.empty() && heap_.top().when <= t) {
        // Move the callback out before popping: it may schedule more work.
        const std::uint32_t slot = heap_.top().slot;
        heap_.pop();
        Callback cb = std::move(slots_[slot]);
        freeSlots_.push_back(slot);
        ++fired_;
        cb();
    }
    draining_ = false;
    arm();
}

}  // namespace cclsim
