#include "models/core/KernelContext.h"

#include "models/common/Report.h"
#include "models/core/ProgrammableCore.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace cclsim {

thread_local KernelContext* KernelContext::current_ = nullptr;

KernelContext::KernelContext(ProgrammableCore& core, KernelLaunch launch, unsigned /*index*/)
    : core_(core),
      coreKernels_(core.kernels()),
      coreLookahead_(core.lookaheadRef()),
      activity_(core.activity()),
      launch_(std::move(launch)),
      fullName_(std::string(core.name()) + "." + launch_.processor + "(" + launch_.name + ")"),
      costs_(core.costs()),
      dmaVc_(launch_.vc),
      turns_(costs_.pollIteration),
      timeout_(launch_.waitTimeout, launch_.waitTimeoutKey) {
    sleepWatcher_.k = this;
    for (auto& c : counters_) c.onChange = [this] { bump(); };
    for (const TraceSlot& s : launch_.traceSlots) slots_.emplace_back(32, TraceFormat::Decimal, s.values);
    setWaypoint("PEND");
    fiber_ = std::make_unique<Fiber>([this] { run(); }, Fiber::defaultStackBytes());
    // Kernels that start at the same tick start in launch order (every
    // kernel's tie key is unique: see EventQueue::atKernel).
    lastServed_ = core_.eq().nextServed();
    // The go signal: the dispatcher starts the kernel at its launch time
    // (a gated kernel when the runtime calls go()).
    if (!launch_.gated) resumeAt(std::max(launch_.startAt, now()));
}

void KernelContext::go(Tick at) {
    if (!launch_.gated || state_ != State::Pending || resumeArmed_ != kNever)
        throw std::logic_error(fullName_ + ": go() on a kernel that is not a waiting gated kernel");
    lastServed_ = core_.eq().nextServed();
    resumeAt(std::max(at, now()));
}

Tick KernelContext::waitDeadline() const {
    return state_ == State::Done ? kNever : timeout_.deadline();
}

void KernelContext::giveUp() {
    timeout_.giveUp(fullName_, now());
}

KernelContext::~KernelContext() {
    core_.l1.unwatchAll(this);
    core_.l1.unwatchAll(&sleepWatcher_);
}

KernelContext& KernelContext::current() {
    if (!current_) throw std::logic_error("firmware API called outside a kernel thread");
    return *current_;
}

void KernelContext::run() {
    current_ = this;
    state_ = State::Running;
    startedAt_ = now();
    // Firmware before kernel_main: the launch message, NoC and argument
    // base setup, the core's semaphores (paid with the kernel's first sync).
    advance(costs_.kernelStart + Tick(launch_.semaphores) * costs_.semaphoreInit);
    setWaypoint("RUN");
    launch_.entry();
    current_ = this;
    sync();
    state_ = State::Done;
    finishedAt_ = now();
    setWaypoint("DONE");
    for (const SpinLoopDetector::PollRecord& r : spin_.records())
        if (r.desc.kind == PollDesc::L1Word) core_.l1.unwatch(r.desc.addr, 4, this);
    spin_.clear();
    current_ = nullptr;
    if (launch_.onFinish) launch_.onFinish();
    core_.kernelFinished();
}

void KernelContext::beginSleep(const std::vector<std::uint32_t>& addrs, const std::string& desc) {
    for (std::uint32_t a : addrs) core_.l1.watch(a, 4, &sleepWatcher_);
    sleepDesc_ = desc;
}

void KernelContext::endSleep(const std::vector<std::uint32_t>& addrs) {
    for (std::uint32_t a : addrs) core_.l1.unwatch(a, 4, &sleepWatcher_);
    sleepDesc_.clear();
}

void KernelContext::blockUntilChange() {
    // Time is paid (sleepUntil synced): wait for the next write to a watched word.
    const std::uint64_t seen = epoch_;
    const State before = state_;
    state_ = State::Blocked;
    waitStarts();
    while (epoch_ == seen) Fiber::yield();
    waitEnds();
    current_ = this;
    state_ = before;
}

void KernelContext::sync() {
    if (!pending_) return;
    const Tick t = pending_;
    pending_ = 0;
    resumeAt(now() + t);
    Fiber::yield();
    current_ = this;
    waypoint_.set(waypointWord_);
}

bool KernelContext::quietThrough(Tick dt) const {
    return core_.eq().quietThrough(dt);
}

void KernelContext::syncForStore() {
    // Nothing can read or change this core's L1 before the kernel's local
    // time (no scheduled arrival, queued injection or deferred command, and
    // the owed time is below the lookahead): storing now is storing then.
    if (pending_ && !coreQuietThrough(pending_)) sync();
}

void KernelContext::wakeIfBlocked() {
    if (state_ != State::Blocked) return;
    resumeAt(now());
}

void KernelContext::resumeAt(Tick t) {
    if (resumeArmed_ <= t) return;  // an earlier (or the same) resumption stands
    resumeArmed_ = t;
    core_.eq().atKernel(t, lastServed_, *this, ++resumeGen_);
}

void KernelContext::onCalendar(std::uint64_t gen) {
    if (gen != resumeGen_) return;  // superseded by an earlier one
    resumeArmed_ = kNever;
    lastServed_ = core_.eq().nextServed();
    fiber_->resume();
}

void KernelContext::bump() {
    ++epoch_;
    spin_.noteNovelty();
    wakeIfBlocked();
}

void KernelContext::onWatchedWrite(std::uint32_t watchedAddr) {
    ++epoch_;
    // Every test of the written word must be read again.
    spin_.wordWritten(l1WordKey(watchedAddr));
    wakeIfBlocked();
}

void KernelContext::watchWord(std::uint32_t addr) {
    core_.l1.watch(addr, 4, this);
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
    turns_.sleeps(until);
    core_.kernelSleeps(*this);
    waitStarts();
    while (epoch_ == seen) Fiber::yield();
    waitEnds();
    turns_.wakes();
    current_ = this;
    state_ = before;
    // A turn the base firmware took meanwhile may still be running.
    const Tick resume = turns_.resumeAt(until);
    if (now() < resume)
        pending_ = resume - now();
    else
        waypoint_.set(waypointWord_);
    // Detecting the change takes one iteration of the spin loop.
    advance(costs_.pollIteration);
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
    for (std::size_t i = 0; i < slots_.size(); ++i) slots_[i].attach(tf, base + "." + launch_.traceSlots[i].name);
}

std::string KernelContext::describeWait() const {
    std::string out;
    if (!sleepDesc_.empty()) return "    sleeps on " + sleepDesc_ + "\n";
    for (const SpinLoopDetector::PollRecord& r : spin_.records()) {
        if (r.lastResult || spin_.polls() - r.lastSeq > kPollWindow) continue;  // only what it spins on now
        std::string line = fmt::format("    polls {}", r.desc.api);
        switch (r.desc.kind) {
            case PollDesc::L1Word:
                line += fmt::format(" on L1 word 0x{:x} (now {}, waiting for {})", r.desc.addr,
                                    core_.l1.readU32(r.desc.addr), r.desc.expect);
                break;
            case PollDesc::TxQueue:
                line += fmt::format(" on tx_cmd_q {} ({})", r.desc.addr, core_.describeQueue(r.desc.addr));
                break;
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
        out += fmt::format("    [debug] epoch {} novelty {} seq {}\n", epoch_, spin_.lastNovelty(), spin_.polls());
        for (const SpinLoopDetector::PollRecord& r : spin_.records())
            out += fmt::format("    [debug] {} 0x{:x} expect {} value {} last {} fresh {} seq {}\n", r.desc.api,
                               r.desc.addr, r.desc.expect,
                               r.desc.kind == PollDesc::L1Word ? core_.l1.readU32(r.desc.addr) : 0, r.lastResult,
                               r.readSinceChange, r.lastSeq);
    }
    return out;
}

}  // namespace cclsim
