// A calendar of timed callbacks, the model's payload-event queue.
//
// Components that keep their own timing arithmetic (bandwidth servers, NoC
// reservations, Ethernet delivery) schedule "at tick T call f" here instead of
// owning an SC_THREAD per transfer. One SC_METHOD drains the calendar, so a
// transfer costs one calendar entry and no context switch. Callbacks scheduled
// for the same tick run in the order they were scheduled (deterministic).
//
// Firmware kernels run on fibers that this calendar resumes (atKernel):
// the order at one tick follows SystemC's evaluation phases, which the
// kernels ran under when they were SC_THREADs. Each tick is worked in delta
// rounds; in a round, model callbacks (at) run before kernel resumptions
// (atKernel), as SystemC runs methods before threads. A callback scheduled
// for the current tick by a callback runs in the same round; one scheduled
// by a kernel, and a kernel woken for the current tick, run in the next
// round (SystemC's next delta cycle). Within a round and phase, entries run
// in the order they were scheduled.
//
// Running ahead: SystemC time only has to advance for other SystemC
// processes (plug-in targets' threads) and for the end of the current
// sc_start slice. When the calendar method runs at time t0 and no process
// can run before tick H, the entries at ticks in (t0, H) run in the same
// activation, each seeing now() == its own tick. A callback that wakes a
// SystemC process limits the run-ahead to that tick (processWokenAt).
// Ordering is the same as draining tick by tick: nothing else could run in
// between. When the calendar stops having run ahead (pause, or nothing left
// before the horizon), SystemC time is brought to the last tick it ran, so
// the simulation ends where its activity ended. Enabled by setRunLimit
// (Runtime::run does, per slice).
#pragma once

#include "models/common/TickQueue.h"
#include "models/common/Time.h"

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

namespace cclsim {

/// Something the calendar calls back without a std::function: a component
/// with one recurring kind of event (a kernel's resumption, a bandwidth
/// server's timer) implements it and passes `arg` (say, a generation number).
class CalendarTask {
public:
    virtual void onCalendar(std::uint64_t arg) = 0;

protected:
    ~CalendarTask() = default;
};

class EventQueue : public sc_core::sc_module {
public:
    using Callback = std::function<void()>;

    explicit EventQueue(const sc_core::sc_module_name& name);
    EventQueue(const EventQueue&) = delete;
    EventQueue& operator=(const EventQueue&) = delete;

    /// Run `cb` at absolute tick `when` (clamped to now).
    void at(Tick when, Callback cb);
    /// Call `task.onCalendar(arg)` at `when` (clamped to now), ordered as at().
    void at(Tick when, CalendarTask& task, std::uint64_t arg) { push(when, kModel, seq_++, &task, arg); }
    /// Resume a kernel at `when` (clamped to now): `task` switches to its
    /// fiber. Runs after the model callbacks of its tick's delta round;
    /// kernels due in the same round run least recently served first.
    void atKernel(Tick when, std::uint64_t lastServed, CalendarTask& task, std::uint64_t arg) {
        push(when, kKernel, lastServed, &task, arg);
    }
    /// Numbers kernel resumptions: a kernel's last one orders it among
    /// kernels due at the same tick (atKernel's `lastServed`).
    std::uint64_t nextServed() { return ++served_; }
    /// Run `cb` `delay` ticks from now.
    void after(Tick delay, Callback cb) { at(now() + delay, std::move(cb)); }

    /// Allow running ahead up to (not including) `t`; 0 disables it.
    void setRunLimit(Tick t) { runLimit_ = t; }
    /// A callback woke a SystemC process at tick `t`: do not run ahead past it.
    void processWokenAt(Tick t) {
        if (draining_ && t < wakeLimit_) wakeLimit_ = t;
    }
    /// sc_pause() at the current tick (from a callback or a kernel): the
    /// calendar stops after the running entry, and SystemC time is brought to
    /// its tick first if the calendar ran ahead.
    void pause();
    /// True if something is pending but nothing can happen in (now, now +
    /// dt]: no calendar entry at or before now + dt (none left at now either)
    /// and no other SystemC process before then. Only meaningful while
    /// draining (a kernel asks it); false otherwise.
    bool quietThrough(Tick dt) const;

    std::size_t pending() const { return queue_.size(); }
    std::uint64_t fired() const { return fired_; }

private:
    // The queue (TickQueue) orders 32-byte records: a task and its
    // argument; std::function callbacks live in a slab, run by slotTask_.
    // Entries order by tick, then by `order`: the delta round (bits 48..),
    // the phase (bit 47: model callbacks before kernels) and the tie key
    // (bits 0..46: the sequence number, or a kernel's last service).
    using Entry = CalendarEntry;
    static constexpr unsigned kModel = 0, kKernel = 1;
    static constexpr unsigned kPhaseShift = 47, kRoundShift = 48;
    static constexpr std::uint64_t kTieMask = (std::uint64_t{1} << kPhaseShift) - 1;

    /// Runs the std::function callbacks kept in slots_.
    struct SlotTask final : CalendarTask {
        EventQueue* q = nullptr;
        void onCalendar(std::uint64_t slot) override;
    };

    void push(Tick when, unsigned phase, std::uint64_t tie, CalendarTask* task, std::uint64_t arg) {
        const Tick t = now();
        if (when < t) when = t;
        // The delta round (see the header): a later tick starts at round 0; the
        // current tick's next round, unless a callback schedules a callback.
        std::uint64_t round = 0;
        if (when == curTick_) round = draining_ && phase == kModel && curPhase_ == kModel ? curRound_ : curRound_ + 1;
        queue_.push(
            Entry{when, (round << kRoundShift) | (std::uint64_t(phase) << kPhaseShift) | (tie & kTieMask), task, arg});
        if (!draining_) arm();
    }
    void drain();
    /// Notify the calendar method for the earliest entry (unless already armed for it).
    void arm();
    /// Notify the calendar method for tick `when` (>= SystemC time).
    void wakeAt(Tick when);

    TickQueue queue_;
    SlotTask slotTask_;
    std::vector<Callback> slots_;
    std::vector<std::uint32_t> freeSlots_;
    sc_core::sc_event wake_;
    std::uint64_t seq_ = 0;
    std::uint64_t served_ = 0;
    std::uint64_t fired_ = 0;
    Tick armedFor_ = kNever;
    Tick runLimit_ = 0;            ///< run ahead up to here (exclusive); 0: never
    Tick otherActivity_ = kNever;  ///< this drain: when another SystemC process runs next
    Tick wakeLimit_ = kNever;      ///< ... and not past a process woken by a callback
    // The entry running (or last run): its tick, delta round and phase.
    Tick curTick_ = 0;
    std::uint64_t curRound_ = 0;
    unsigned curPhase_ = kModel;
    bool draining_ = false;
    bool pauseRequested_ = false;  ///< pause(): stop after the running entry
    Tick pauseAt_ = kNever;        ///< ran ahead of a pause: sc_pause when SystemC time gets here
};

}  // namespace cclsim
