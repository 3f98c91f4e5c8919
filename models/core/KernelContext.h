// A firmware thread: one kernel running on one RISC-V of a core.
//
// The firmware API (firmware/api) finds the running kernel through
// `KernelContext::current()` and charges every call's cost with `advance()`.
// Costs accumulate as local time and are paid (one SystemC wait) only when
// the kernel next touches shared state, so a burst of API calls costs one
// context switch.
//
// Spin loops are modelled, not executed: every status read goes through
// `poll()`, which remembers each thing the kernel reads (an L1 word, a tx
// queue, a NoC counter) and how often it has read it since it last changed.
// A kernel that is about to re-read a condition it found unmet, when every
// condition it recently found unmet has been read since its last change and
// the kernel took no action since, cannot see anything new: it sleeps until a
// watched word is written (or its core's queues or NoC counters change) and
// is charged one poll iteration on wake-up. The reads before it sleeps are
// charged like the real loop's, so timing is that of the spinning firmware;
// waiting costs no wall-clock time; and a kernel that waits forever is Blocked
// on described polls, which the deadlock report prints. (A loop that gives up
// after N iterations without any change sees the limit only if something
// changes: firmware waits on state, not on counts.)
#pragma once

#include "models/common/Time.h"
#include "models/common/Trace.h"
#include "models/core/FirmwareCosts.h"
#include "models/memory/L1Memory.h"
#include "models/noc/Niu.h"

#include <systemc>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cclsim {

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
    Tick startAt = 0;                   ///< dispatch time on this chip
    std::vector<std::string> traceSlots;  ///< names of kernel-owned trace values
    Scoreboard* scoreboard = nullptr;     ///< testbench data checks (testbench_check)
    /// A service kernel (a fabric router, a mux) that runs until the run
    /// ends: the run completes when every other kernel has returned.
    bool persistent = false;
    std::function<void()> onFinish;       ///< called when the kernel returns
};

/// What a poll read, for the blocked-kernel report.
struct PollDesc {
    enum Kind : std::uint8_t { L1Word, TxQueue, NocCounter, Other };
    Kind kind = Other;
    const char* api = "";
    std::uint32_t addr = 0;    ///< L1 address, queue index or NoC index
    std::uint32_t expect = 0;  ///< what the caller waits for (for the report)
};

class KernelContext final : public MemoryWatcher {
public:
    enum class State { Pending, Running, Blocked, Done };

    KernelContext(ProgrammableCore& core, KernelLaunch launch, unsigned index);
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
    static bool quietThrough(Tick dt) {
        return sc_core::sc_pending_activity_at_future_time() && !sc_core::sc_pending_activity_at_current_time() &&
               sc_core::sc_time_to_pending_activity().value() > dt;
    }
    /// True if nothing can change this core's observable state within `dt`:
    /// the kernel runs alone on its core, `dt` is below the lookahead, and no
    /// effect on the core is scheduled before then (or nothing at all is).
    /// With `l1WordOnly`, only writes into the core's L1 count (a status read
    /// of an L1 word sees nothing else).
    bool coreQuietThrough(Tick dt, bool l1WordOnly = false) const;
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
    /// another path, so every condition must be re-read before it can sleep.
    void acted() { newGeneration(); }
    /// A watched L1 word changed: only the reads of that word start over.
    void onWatchedWrite(std::uint32_t watchedAddr) override;

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
    bool persistent() const { return launch_.persistent; }

    void trace(TraceFile& tf);

private:
    /// One condition the kernel's loop reads: the thing read (`key`) and
    /// the test applied to it (`desc.api`, `desc.expect`): the same word
    /// tested two ways is two conditions.
    struct PollRecord {
        std::uint64_t key;
        PollDesc desc;
        std::uint32_t nextSameKey;  ///< next record reading the same thing (kNone: last)
        bool lastResult;
        bool readSinceChange;   ///< read (in generation `gen`) since its value last changed
        bool active = false;    ///< read recently (part of the loop)
        std::uint64_t gen;      ///< readGen_ of that read
        std::uint64_t lastSeq;  ///< poll sequence number of the last read
    };
    static constexpr std::uint32_t kNone = ~0u;
    /// Reads older than this many polls are no longer part of the loop
    /// (checked every kPollWindow polls, so a read drops out after one to
    /// two windows).
    static constexpr std::uint64_t kPollWindow = 64;
    PollRecord* find(std::uint64_t key, const PollDesc& desc);
    static bool sameCondition(const PollRecord& r, std::uint64_t key, const PollDesc& d) {
        return r.key == key && r.desc.api == d.api && r.desc.expect == d.expect;
    }
    static std::size_t hashOf(std::uint64_t key, const PollDesc& d) {
        std::uint64_t h = key ^ (std::uint64_t(reinterpret_cast<std::uintptr_t>(d.api)) * 0x9E3779B97F4A7C15ull) ^
                          (std::uint64_t(d.expect) * 0xC2B2AE3D27D4EB4Full);
        return std::size_t(h ^ (h >> 29));
    }
    /// Re-reading `r` now cannot show anything new (see the class comment).
    /// O(1): staleUnmet_ counts the active records that found their
    /// condition unmet and have changed (or the kernel acted) since.
    bool loopIsIdle(const PollRecord* r) const {
        return r && r->active && !r->lastResult && fresh(*r) && staleUnmet_ == 0;
    }
    bool fresh(const PollRecord& r) const { return r.readSinceChange && r.gen == readGen_; }
    /// Does `r` count in staleUnmet_?
    bool stale(const PollRecord& r) const { return r.active && !r.lastResult && !fresh(r); }
    void newGeneration() {
        ++readGen_;
        staleUnmet_ = activeUnmet_;  // every unmet condition must be read again
    }
    void expireOldReads();
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
    void wakeIfBlocked();
    void record(std::uint64_t key, const PollDesc& desc, bool result);

    static thread_local KernelContext* current_;

    ProgrammableCore& core_;
    KernelLaunch launch_;
    std::string fullName_;
    const FirmwareCosts& costs_;
    Tick pending_ = 0;
    std::uint64_t epoch_ = 0;
    std::uint64_t readGen_ = 1;  ///< bumped by actions and core-wide changes
    std::uint64_t pollSeq_ = 0;
    sc_core::sc_event wake_;
    std::vector<PollRecord> polls_;
    /// key -> index in polls_: open addressing, linear probing, power-of-two
    /// size (a kernel reads a few dozen keys; no per-lookup hashing cost).
    std::vector<std::uint32_t> pollSlots_;
    std::int32_t slotOf(std::uint64_t key, const PollDesc& desc) const;
    void indexRecord(std::uint32_t index);
    /// Records of an L1 word, by word key: the first of a chain through nextSameKey.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> wordHeads_;
    std::uint32_t* wordHead(std::uint64_t key);
    std::uint32_t lastFound_ = kNone;    ///< index of the last record looked up
    std::uint32_t activeUnmet_ = 0;      ///< active records whose last read was unmet
    std::uint32_t staleUnmet_ = 0;       ///< ... of which changed since (see loopIsIdle)
    NocCounters counters_[2];
    State state_ = State::Pending;
    unsigned dmaVc_ = 0;
    std::uint32_t waypointWord_ = 0;
    TraceSignal waypoint_{32, TraceFormat::Ascii};
    std::vector<TraceSignal> slots_;
    Tick startedAt_ = kNever;
    Tick finishedAt_ = kNever;
    SleepWatcher sleepWatcher_;
    std::string sleepDesc_;  ///< the sleepUntil wait in progress, for reports

    friend class ProgrammableCore;
class Scoreboard;
};

// ---- template implementation ------------------------------------------------

template <class Eval> bool KernelContext::poll(std::uint64_t key, const PollDesc& desc, Eval&& eval) {
    // A read at local time now + pending sees the same state as a read now if
    // nothing at all can happen in between; only then is the wait skipped.
    if (pending_ && !coreQuietThrough(pending_, desc.kind == PollDesc::L1Word)) sync();
    if (loopIsIdle(find(key, desc))) sleepUntilChange();
    const bool ok = eval();
    advance(costs_.pollIteration);
    record(key, desc, ok);
    return ok;
}

template <class Eval>
void KernelContext::sleepUntil(const std::vector<std::uint32_t>& addrs, const std::string& desc, Tick wakeCost,
                               Eval&& eval) {
    sync();
    if (eval()) return;
    beginSleep(addrs, desc);
    while (!eval()) blockUntilChange();
    endSleep(addrs);
    advance(wakeCost);
}

}  // namespace cclsim
