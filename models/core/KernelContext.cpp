#include "models/core/KernelContext.h"

#include "models/common/Report.h"
#include "models/core/ProgrammableCore.h"

#include <algorithm>
#include <cstdlib>

namespace cclsim {

thread_local KernelContext* KernelContext::current_ = nullptr;

KernelContext::KernelContext(ProgrammableCore& core, KernelLaunch launch, unsigned /*index*/)
    : core_(core), launch_(std::move(launch)),
      fullName_(std::string(core.name()) + "." + launch_.processor + "(" + launch_.name + ")"),
      costs_(core.costs()), dmaVc_(launch_.vc) {
    for (auto& c : counters_) c.onChange = [this] { bump(); };
    for (std::size_t i = 0; i < launch_.traceSlots.size(); ++i) slots_.emplace_back(32);
    setWaypoint("PEND");
    sc_core::sc_spawn_options opts;
    std::string proc = fullName_;
    std::replace_if(proc.begin(), proc.end(), [](char c) { return c == '.' || c == '(' || c == ')'; }, '_');
    sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name(proc.c_str()), &opts);
}

KernelContext::~KernelContext() { core_.l1.unwatchAll(this); }

KernelContext& KernelContext::current() {
    if (!current_) throw std::logic_error("firmware API called outside a kernel thread");
    return *current_;
}

void KernelContext::run() {
    if (launch_.startAt > now()) sc_core::wait(toScTime(launch_.startAt - now()));
    current_ = this;
    state_ = State::Running;
    startedAt_ = now();
    setWaypoint("RUN");
    launch_.entry();
    current_ = this;
    sync();
    state_ = State::Done;
    finishedAt_ = now();
    setWaypoint("DONE");
    for (const PollRecord& r : polls_)
        if (r.desc.kind == PollDesc::L1Word) core_.l1.unwatch(r.desc.addr, 4, this);
    polls_.clear();
    pollIndex_.clear();
    lastFound_ = oldest_ = newest_ = kNone;
    activeUnmet_ = staleUnmet_ = 0;
    current_ = nullptr;
}

void KernelContext::sync() {
    if (!pending_) return;
    const Tick t = pending_;
    pending_ = 0;
    sc_core::wait(toScTime(t));
    current_ = this;
    waypoint_.set(waypointWord_);
}

bool KernelContext::coreQuietThrough(Tick dt, bool l1WordOnly) const {
    if (core_.kernels().size() == 1 && dt < core_.lookahead()) {
        const Tick next = l1WordOnly ? core_.activity().nextL1Write() : core_.activity().next();
        // Something is scheduled in between: the global test cannot pass either.
        return next > now() + dt;
    }
    return quietThrough(dt);
}

void KernelContext::syncForStore() {
    // Nothing can read or change this core's L1 before the kernel's local
    // time (no scheduled arrival, queued injection or deferred command, and
    // the owed time is below the lookahead): storing now is storing then.
    if (pending_ && !coreQuietThrough(pending_)) sync();
}

void KernelContext::wakeIfBlocked() {
    if (state_ != State::Blocked) return;
    // Called from calendar callbacks that may run ahead of SystemC time.
    const Tick t = now(), sc = scNow();
    core_.eq().processWokenAt(t);
    if (t == sc)
        wake_.notify(sc_core::SC_ZERO_TIME);
    else
        wake_.notify(toScTime(t - sc));
}

void KernelContext::bump() {
    ++epoch_;
    newGeneration();
    wakeIfBlocked();
}

void KernelContext::onWatchedWrite(std::uint32_t watchedAddr) {
    ++epoch_;
    // Only the reads of the written word start over.
    const auto it = pollIndex_.find(l1WordKey(watchedAddr));
    if (it != pollIndex_.end()) {
        PollRecord& r = polls_[it->second];
        if (r.active && !r.lastResult && fresh(r)) ++staleUnmet_;
        r.readSinceChange = false;
    }
    wakeIfBlocked();
}

void KernelContext::sleepUntilChange() {
    // Block now, with the local time still owed: if the change comes after
    // the local time (the usual case), waking up pays it, one activation
    // instead of a wait for the local time and another for the change. A
    // change before the local time wakes the kernel early; it then still
    // owes the rest, and a change is never slept through.
    const std::uint64_t seen = epoch_;
    const Tick until = localTime();
    const State before = state_;
    state_ = State::Blocked;
    if (!pending_) waypoint_.set(waypointWord_);
    pending_ = 0;
    while (epoch_ == seen) sc_core::wait(wake_);
    current_ = this;
    state_ = before;
    if (now() < until)
        pending_ = until - now();
    else
        waypoint_.set(waypointWord_);
    // Detecting the change takes one iteration of the spin loop.
    advance(costs_.pollIteration);
}

KernelContext::PollRecord* KernelContext::find(std::uint64_t key) {
    if (lastFound_ != kNone && polls_[lastFound_].key == key) return &polls_[lastFound_];
    const auto it = pollIndex_.find(key);
    if (it == pollIndex_.end()) return nullptr;
    lastFound_ = it->second;
    return &polls_[it->second];
}

void KernelContext::unlinkRecord(std::uint32_t i) {
    PollRecord& r = polls_[i];
    (r.prev == kNone ? oldest_ : polls_[r.prev].next) = r.next;
    (r.next == kNone ? newest_ : polls_[r.next].prev) = r.prev;
    r.prev = r.next = kNone;
}

void KernelContext::record(std::uint64_t key, const PollDesc& desc, bool result) {
    PollRecord* r = find(key);
    if (!r) {
        if (desc.kind == PollDesc::L1Word) core_.l1.watch(desc.addr, 4, this);
        pollIndex_.emplace(key, std::uint32_t(polls_.size()));
        polls_.push_back(PollRecord{key, desc, result, false, false, 0, 0});
        lastFound_ = std::uint32_t(polls_.size() - 1);
        r = &polls_.back();
    }
    const std::uint32_t i = std::uint32_t(r - polls_.data());
    // Take the record's old contribution out of the counts ...
    if (r->active) {
        if (stale(*r)) --staleUnmet_;
        if (!r->lastResult) --activeUnmet_;
        unlinkRecord(i);
    }
    // ... and put the fresh read back in (fresh: never stale).
    r->desc = desc;
    r->lastResult = result;
    r->readSinceChange = true;
    r->gen = readGen_;
    r->lastSeq = ++pollSeq_;
    r->active = true;
    if (!result) ++activeUnmet_;
    r->prev = newest_;
    (newest_ == kNone ? oldest_ : polls_[newest_].next) = i;
    newest_ = i;
    // Reads the loop no longer makes drop out of it.
    while (oldest_ != kNone && pollSeq_ - polls_[oldest_].lastSeq > kPollWindow) {
        PollRecord& o = polls_[oldest_];
        if (stale(o)) --staleUnmet_;
        if (!o.lastResult) --activeUnmet_;
        o.active = false;
        unlinkRecord(oldest_);
    }
}

std::uint32_t KernelContext::rtArg(std::size_t i) const {
    if (i >= launch_.rtArgs.size())
        CCLSIM_ERROR(fullName_, "get_arg_val({}) but the kernel has {} runtime arguments", i, launch_.rtArgs.size());
    return launch_.rtArgs[i];
}

std::uint32_t KernelContext::ctArg(std::size_t i) const {
    if (i >= launch_.ctArgs.size())
        CCLSIM_ERROR(fullName_, "get_compile_time_arg_val({}) but the kernel has {} compile-time arguments", i,
                     launch_.ctArgs.size());
    return launch_.ctArgs[i];
}

void KernelContext::setTraceSlot(std::size_t slot, std::uint64_t v) {
    if (slot < slots_.size()) slots_[slot].set(v);
}

void KernelContext::trace(TraceFile& tf) {
    const std::string base = std::string(core_.name()) + "." + launch_.processor;
    waypoint_.attach(tf, base + ".waypoint");
    for (std::size_t i = 0; i < slots_.size(); ++i) slots_[i].attach(tf, base + "." + launch_.traceSlots[i]);
}

std::string KernelContext::describeWait() const {
    std::string out;
    for (const PollRecord& r : polls_) {
        if (r.lastResult || pollSeq_ - r.lastSeq > kPollWindow) continue;  // only what it spins on now
        std::string line = fmt::format("    polls {}", r.desc.api);
        switch (r.desc.kind) {
            case PollDesc::L1Word:
                line += fmt::format(" on L1 word 0x{:x} (now {}, waiting for {})", r.desc.addr,
                                    core_.l1.readU32(r.desc.addr), r.desc.expect);
                break;
            case PollDesc::TxQueue: line += fmt::format(" on tx_cmd_q {} ({})", r.desc.addr, core_.describeQueue(r.desc.addr)); break;
            case PollDesc::NocCounter: {
                const NocCounters& c = counters_[r.desc.addr & 1];
                line += fmt::format(" on NoC{} (writes {}/{} flushed, {}/{} acked; reads {}/{}; atomics {}/{})",
                                    r.desc.addr & 1, c.writesFlushed, c.writesIssued, c.nonpostedAcked,
                                    c.nonpostedIssued, c.readsDone, c.readsIssued, c.atomicsAcked, c.atomicsIssued);
                break;
            }
            case PollDesc::Other: break;
        }
        out += line + "\n";
    }
    if (out.empty()) out = "    (no outstanding poll)\n";
    if (std::getenv("CCLSIM_DEBUG_POLLS")) {
        out += fmt::format("    [debug] epoch {} readGen {} seq {}\n", epoch_, readGen_, pollSeq_);
        for (const PollRecord& r : polls_)
            out += fmt::format("    [debug] {} 0x{:x} last {} fresh {} seq {}\n", r.desc.api, r.desc.addr, r.lastResult,
                               fresh(r), r.lastSeq);
    }
    return out;
}

}  // namespace cclsim
