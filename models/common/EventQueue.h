// A calendar of timed callbacks, the model's payload-event queue.
//
// Components that keep their own timing arithmetic (bandwidth servers, NoC
// reservations, Ethernet delivery) schedule "at tick T call f" here instead of
// owning an SC_THREAD per transfer. One SC_METHOD drains the calendar, so a
// transfer costs one heap push/pop and no context switch. Callbacks scheduled
// for the same tick run in the order they were scheduled (deterministic).
//
// Running ahead: SystemC time only has to advance for its processes (the
// kernel threads). When the calendar method runs at time t0 and no process
// can run before tick H (SystemC's next pending activity, the end of the
// current sc_start slice), the callbacks at ticks in (t0, H) run in the same
// activation, each seeing now() == its own tick. A callback that wakes a
// kernel (KernelContext notifies with the delay from SystemC time) limits
// the run-ahead to that tick, so the kernel acts before anything later
// happens. Ordering is the same as draining tick by tick: nothing else could
// run in between. Enabled by setRunLimit (Runtime::run does, per slice).
#pragma once

#include "models/common/Time.h"

#include <systemc>

#include <functional>
#include <queue>
#include <vector>

namespace cclsim {

class EventQueue : public sc_core::sc_module {
public:
    using Callback = std::function<void()>;

    explicit EventQueue(const sc_core::sc_module_name& name);
    EventQueue(const EventQueue&) = delete;
    EventQueue& operator=(const EventQueue&) = delete;

    /// Run `cb` at absolute tick `when` (clamped to now).
    void at(Tick when, Callback cb);
    /// Run `cb` `delay` ticks from now.
    void after(Tick delay, Callback cb) { at(now() + delay, std::move(cb)); }

    /// Allow running ahead up to (not including) `t`; 0 disables it.
    void setRunLimit(Tick t) { runLimit_ = t; }
    /// A callback woke a SystemC process at tick `t`: do not run ahead past it.
    void processWokenAt(Tick t) {
        if (draining_ && t < wakeLimit_) wakeLimit_ = t;
    }

    std::size_t pending() const { return heap_.size(); }
    std::uint64_t fired() const { return fired_; }

private:
    // The heap orders small records; callbacks live in a slab so sifting
    // moves 24-byte PODs instead of std::function objects.
    struct Entry {
        Tick when;
        std::uint64_t seq;
        std::uint32_t slot;
    };
    struct Later {
        bool operator()(const Entry& a, const Entry& b) const {
            return a.when != b.when ? a.when > b.when : a.seq > b.seq;
        }
    };

    void drain();
    void arm();

    std::priority_queue<Entry, std::vector<Entry>, Later> heap_;
    std::vector<Callback> slots_;
    std::vector<std::uint32_t> freeSlots_;
    sc_core::sc_event wake_;
    std::uint64_t seq_ = 0;
    std::uint64_t fired_ = 0;
    Tick armedFor_ = kNever;
    Tick runLimit_ = 0;        ///< run ahead up to here (exclusive); 0: never
    Tick wakeLimit_ = kNever;  ///< ... and not past a process woken by a callback
    bool draining_ = false;
};

}  // namespace cclsim
