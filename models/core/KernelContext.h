// A firmware thread: one kernel running on one RISC-V of a core, on a
// Fiber that the board's calendar resumes (models/core/Fiber.h).
//
// The firmware API (firmware/api) finds the running kernel through
// `KernelContext::current()` and charges every call's cost with `advance()`.
// Costs accumulate as local time and are paid (one calendar entry and a
// switch to the calendar and back) only when the kernel next touches shared
// state, so a burst of API calls costs one context switch.
//
// Spin loops are modelled, not executed: every status read goes through
// `poll()`, which records each condition the kernel reads (an L1 word, a tx
// queue, a NoC counter, tested against a value) and what it found in a
// SpinLoopDetector. A kernel about to re-read a condition it found unmet is
// idle when its loop has provably gone round unchanged (the detector's rule:
// nothing it reads has been written, no action, and the last pass repeated
// the one before it). An idle kernel sleeps until a watched word is written
// (or its core's queues or NoC counters change) and is charged one poll
// iteration on wake-up. The reads before it sleeps are charged like the real
// loop's, so timing is that of the spinning firmware; waiting costs no
// wall-clock time; and a kernel that waits forever is Blocked on described
// polls, which the deadlock report prints. (A loop that gives up after N
// iterations without any change sees the limit only if something changes:
// firmware waits on state, not on counts.)
//
// The base firmware's turn while a main loop idles is counted by an
// IdleTurnCounter, and a wait that gives up by a WaitTimeout; this class
// feeds them from the kernel's thread.
#pragma once

#include "models/common/ActivityLog.h"
#include "models/common/EventQueue.h"
#include "models/common/Time.h"
#include "models/common/Trace.h"
#include "models/core/Fiber.h"
#include "models/core/FirmwareCosts.h"
#include "models/core/IdleTurnCounter.h"
#include "models/core/SpinLoopDetector.h"
#include "models/core/WaitTimeout.h"
#include "models/memory/L1Memory.h"
#include "models/noc/Niu.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim {

class FastForward;
class ProgrammableCore;
class Scoreboard;

struct KernelLaunch {
    std::string name;                   ///< e.g. "edm", "ring_ping"
    std::string processor = "brisc";    ///< RISC-V the kernel runs on (brisc, ncrisc, erisc)
    std::function<void()> entry;        ///< kernel_main
    std::vector<std::uint32_t> ctArgs;  ///< compile-time arguments
    std::vector<std::uint32_t> rtArgs;  ///< runtime arguments
    unsigned noc = 0;                   ///< noc_index
    unsigned vc = 0;                    ///< default PE_DMA virtual channel for noc_async_*
    Tick startAt = 0;                   ///< go signal: when the dispatcher starts the kernel
    /// Started by go() instead (the second op of a sequence, whose go
    /// signal waits for the op before it to complete); startAt is unused.
    bool gated = false;
    std::uint32_t semaphores = 0;       ///< semaphores of its core (start-up firmware sets them up)
    std::vector<TraceSlot> traceSlots;  ///< kernel-owned trace values
    Scoreboard* scoreboard = nullptr;   ///< testbench data checks (testbench_check)
    /// A service kernel (a fabric router, a mux) that runs until the run
    /// ends: the run completes when every other kernel has returned.
    bool persistent = false;
    std::function<void()> onFinish;  ///< called when the kernel returns
    /// A wait that sees no change for this long gives up (0: never).
    Tick waitTimeout = 0;
    std::string waitTimeoutKey;  ///< the arch YAML key it came from, for the report
    /// The board's fast-forward controller (nullptr: --fast-forward is off);
    /// steady loops report to it (fw::SteadyLoop).
    FastForward* fastForward = nullptr;
};

class KernelContext final : public MemoryWatcher, private CalendarTask {
public:
    enum class State { Pending, Running, Blocked, Done };

    KernelContext(ProgrammableCore& core, KernelLaunch launch, unsigned index);
    /// A gated kernel's go signal (KernelLaunch::gated): it starts at `at`
    /// (not before now). Called once, by the runtime.
    void go(Tick at);
    KernelContext(const KernelContext&) = delete;
    KernelContext& operator=(const KernelContext&) = delete;
    ~KernelContext() override;

    static KernelContext& current();
    static KernelContext* currentOrNull() { return current_; }

    // --- time ---------------------------------------------------------------
    void advance(Tick t) { pending_ += t; }
    /// Pay accumulated local time (one wait) so the kernel's view is "now".
    void sync();
    /// True if no simulation activity is pending within the next `dt` ticks.
    bool quietThrough(Tick dt) const;
    /// True if nothing can change this core's observable state within `dt`:
    /// the kernel runs alone on its core, `dt` is below the lookahead, and no
    /// effect on the core is scheduled before then (or nothing at all is).
    /// With `l1WordOnly`, only writes into the core's L1 count (a status read
    /// of an L1 word sees nothing else).
    bool coreQuietThrough(Tick dt, bool l1WordOnly = false) const {
        // Every poll asks: inline, on the core's state cached here.
        if (coreKernels_.size() == 1 && dt < coreLookahead_) {
            const Tick next = l1WordOnly ? activity_.nextL1Write() : activity_.next();
            // Something is scheduled in between: the global test cannot pass either.
            return next > now() + dt;
        }
        return quietThrough(dt);
    }
    /// Before a store to (or compute on) local L1: like sync(), but when
    /// nothing can touch the core before the kernel's local time
    /// (coreQuietThrough), storing now is indistinguishable from storing then.
    void syncForStore();
    /// Local time of the kernel (now + unpaid cost).
    Tick localTime() const { return now() + pending_; }

    // --- polling --------------------------------------------------------------
    /// The poll key of a status read of the L1 word at `addr` (every L1-word
    /// poll must use it: a write to the word finds the read by it).
    static std::uint64_t l1WordKey(std::uint32_t addr) { return (std::uint64_t{1} << 48) | addr; }
    /// Evaluate a status read; see the class comment.
    template <class Eval> bool poll(std::uint64_t key, const PollDesc& desc, Eval&& eval);
    /// Sleep (no spin-loop cost) until `eval()` holds, woken by writes to the
    /// L1 words `addrs` of this core; charges `wakeCost` once on wake-up (an
    /// interrupt-like wait). `desc` describes the wait in deadlock reports.
    template <class Eval>
    void sleepUntil(const std::vector<std::uint32_t>& addrs, const std::string& desc, Tick wakeCost, Eval&& eval);
    /// Something this kernel may poll changed (its core's queues or counters).
    void bump();
    /// The kernel changed state (sent, wrote, issued): its loop may now take
    /// another path, so it must go round once more before it can sleep.
    void acted() { spin_.noteNovelty(); }
    /// A watched L1 word changed: the reads of that word are no longer fresh.
    void onWatchedWrite(std::uint32_t watchedAddr) override;

    // --- the base firmware's turn (context switch on idle) ---------------------
    /// One round of a main loop that gives the base firmware its turn after
    /// `idleRounds` rounds in a row that did nothing (tt-metal's fabric EDM,
    /// WAIT_FOR_IDLE context switching). True: the count was reached now, the
    /// caller must call run_routing(). An idle round takes the status reads
    /// of the kernel's cheapest round so far (poll_iteration_cycles each).
    bool idleRound(bool didSomething, std::uint64_t idleRounds) {
        return turns_.round(didSomething, idleRounds, spin_.polls());
    }
    /// While the kernel sleeps in a modelled spin loop of a main loop that
    /// counts idle rounds: when that loop reaches its turn (kNever if it does
    /// not count rounds, has no measured round time, or is not asleep).
    Tick idleTurnAt() const { return turns_.turnAt(); }
    /// A blocking wait that yields while it spins (tt-metal's Ethernet waits
    /// call run_routing() every iteration): until it ends, the base firmware
    /// may take its turn one poll after the wait went idle. Without a turn
    /// wanted it costs nothing extra (the calibrated poll cost covers the
    /// visits). Nested in a main loop's counting, which it restores.
    void beginYieldingWait() { turns_.beginYieldingWait(); }
    void endYieldingWait() { turns_.endYieldingWait(); }
    /// Identifies the current sleep (changes every time the kernel sleeps).
    std::uint64_t sleepId() const { return turns_.sleepId(); }
    bool asleep() const { return turns_.asleep(); }
    /// The base firmware took the turn at `at` while the kernel slept: the
    /// core is busy with it until `at + cost`, and the idle count restarts.
    void tookTurnAsleep(Tick at, Tick cost) { turns_.tookTurnAsleep(at, cost); }

    // --- identity and arguments -----------------------------------------------
    ProgrammableCore& core() { return core_; }
    const ProgrammableCore& core() const { return core_; }
    const KernelLaunch& launch() const { return launch_; }
    const std::string& name() const { return fullName_; }
    State state() const { return state_; }
    NocCounters& counters(unsigned noc) { return counters_[noc]; }
    unsigned dmaVc() const { return dmaVc_; }
    void setDmaVc(unsigned vc) { dmaVc_ = vc; }
    std::uint32_t rtArg(std::size_t i) const;
    std::uint32_t ctArg(std::size_t i) const;
    std::size_t rtArgCount() const { return launch_.rtArgs.size(); }

    /// Mark progress; shown in the VCD when the kernel's local time is paid
    /// (a waypoint is never stamped before the point it marks).
    void setWaypoint(const char* code) {
        waypointWord_ = packWaypoint(code);
        if (!pending_) waypoint_.set(waypointWord_);
    }
    std::string waypoint() const { return unpackWaypoint(waypointWord_); }
    void setTraceSlot(std::size_t slot, std::uint64_t v);
    Tick finishedAt() const { return finishedAt_; }
    Tick startedAt() const { return startedAt_; }

    /// Multi-line description of what the kernel is blocked on.
    std::string describeWait() const;
    /// When the wait in progress gives up (its launch's waitTimeout without a
    /// change); kNever if the kernel is not waiting or has no timeout. The
    /// runtime checks it between slices and when nothing else can happen, so
    /// a timeout adds no simulation event to a healthy run.
    Tick waitDeadline() const;
    /// The firmware gave up its wait (now >= waitDeadline()): the run ends.
    void giveUp();
    /// Why the kernel gave up (empty: it did not).
    const std::string& timedOut() const { return timeout_.gaveUp(); }
    bool persistent() const { return launch_.persistent; }

    void trace(TraceFile& tf);

private:
    /// Reads within this many polls count as what the kernel "spins on now"
    /// in deadlock reports.
    static constexpr std::uint64_t kPollWindow = 64;
    void run();
    /// Watches the words of a sleepUntil wait (separate from the poll watches).
    struct SleepWatcher final : MemoryWatcher {
        KernelContext* k = nullptr;
        void onWatchedWrite(std::uint32_t /*watchedAddr*/) override {
            ++k->epoch_;
            k->wakeIfBlocked();
        }
    };
    void beginSleep(const std::vector<std::uint32_t>& addrs, const std::string& desc);
    void endSleep(const std::vector<std::uint32_t>& addrs);
    void blockUntilChange();
    void sleepUntilChange();
    /// Wait timeouts: a wait starts/ends.
    void waitStarts() { timeout_.starts(now()); }
    void waitEnds() { timeout_.ends(); }
    void wakeIfBlocked();
    /// Have the calendar resume the kernel's fiber at `t` (the earliest of
    /// the requests stands; a later resume supersedes nothing).
    void resumeAt(Tick t);
    /// The calendar resumes the kernel (`arg`: the resumption's resumeGen_).
    void onCalendar(std::uint64_t arg) override;
    /// Watch the L1 word at `addr` for the spin-loop detector (onWatchedWrite).
    void watchWord(std::uint32_t addr);

    static thread_local KernelContext* current_;

    ProgrammableCore& core_;
    // The core's state every poll reads (coreQuietThrough), cached.
    const std::vector<std::unique_ptr<KernelContext>>& coreKernels_;
    const Tick& coreLookahead_;
    ActivityLog& activity_;
    KernelLaunch launch_;
    std::string fullName_;
    const FirmwareCosts& costs_;
    Tick pending_ = 0;
    std::uint64_t epoch_ = 0;
    std::unique_ptr<Fiber> fiber_;  ///< the kernel's stack, resumed by the calendar
    Tick resumeArmed_ = kNever;     ///< the pending resumption's tick (kNever: none)
    std::uint64_t resumeGen_ = 0;   ///< identifies the pending resumption
    std::uint64_t lastServed_ = 0;  ///< when the calendar last resumed it (EventQueue::nextServed)
    SpinLoopDetector spin_;         ///< the status reads of the kernel's loops
    NocCounters counters_[2];
    State state_ = State::Pending;
    unsigned dmaVc_ = 0;
    std::uint32_t waypointWord_ = 0;
    TraceSignal waypoint_{32, TraceFormat::Ascii};
    std::vector<TraceSignal> slots_;
    Tick startedAt_ = kNever;
    Tick finishedAt_ = kNever;
    SleepWatcher sleepWatcher_;
    std::string sleepDesc_;
    IdleTurnCounter turns_;  ///< idle rounds and the base firmware's turn (idleRound)
    WaitTimeout timeout_;    ///< the wait in progress gives up (launch_.waitTimeout)

    friend class ProgrammableCore;
};

// ---- template implementation ------------------------------------------------

template <class Eval> bool KernelContext::poll(std::uint64_t key, const PollDesc& desc, Eval&& eval) {
    // A read at local time now + pending sees the same state as a read now if
    // nothing at all can happen in between; only then is the wait skipped.
    if (pending_ && !coreQuietThrough(pending_, desc.kind == PollDesc::L1Word)) sync();
    // Sleep only if the read would really find the condition unmet: one word
    // may be tested several ways (different values) in one pass, and its
    // record holds the last test's result.
    // One lookup serves both steps: sleeping changes no record's place.
    const SpinLoopDetector::PollRecord* rec = spin_.lookup(key, desc);
    if (spin_.wouldSpin(rec) && !eval()) sleepUntilChange();
    const bool ok = eval();
    advance(costs_.pollIteration);
    // A new test of an L1 word: its writes must reach the detector.
    if (spin_.recordAt(rec, key, desc, ok)) watchWord(desc.addr);
    return ok;
}

template <class Eval> void KernelContext::sleepUntil(const std::vector<std::uint32_t>& addrs, const std::string& desc,
                                                     Tick wakeCost, Eval&& eval) {
    sync();
    if (eval()) return;
    beginSleep(addrs, desc);
    while (!eval()) blockUntilChange();
    endSleep(addrs);
    advance(wakeCost);
}

}  // namespace cclsim
