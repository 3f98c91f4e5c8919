#include "models/common/BandwidthServer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cclsim {

BandwidthServer::BandwidthServer(EventQueue& eq, std::string name, const BandwidthServerConfig& cfg,
                                 std::unique_ptr<SharePolicy> policy)
    : eq_(eq), name_(std::move(name)), cfg_(cfg), policy_(std::move(policy)), classes_(cfg.numClasses) {
    if (!(cfg_.bytesPerNs > 0)) throw std::invalid_argument(name_ + ": bandwidth must be > 0");
    if (!(cfg_.chunkBytes > 0)) throw std::invalid_argument(name_ + ": chunk size must be > 0");
    if (cfg_.numClasses == 0) throw std::invalid_argument(name_ + ": needs at least one class");
    bytesPerTick_ = cfg_.bytesPerNs / double(kTicksPerNs);
}

void BandwidthServer::reconfigure(double chunkBytes, std::unique_ptr<SharePolicy> policy) {
    if (!idle()) throw std::logic_error(name_ + ": reconfigured while it has work");
    if (!(chunkBytes > 0)) throw std::invalid_argument(name_ + ": chunk size must be > 0");
    if (!policy) throw std::invalid_argument(name_ + ": no share policy");
    cfg_.chunkBytes = chunkBytes;
    policy_ = std::move(policy);
}

std::size_t BandwidthServer::jobsBeyond(unsigned cls, double bytes, std::size_t units, double unitBytes) const {
    const std::deque<Job>& jobs = classes_.at(cls).jobs;
    double filled = 0;
    std::size_t counted = 0;
    for (std::size_t i = 1; i < jobs.size(); ++i) {
        filled += jobs[i].bytes;
        if (units) counted += std::max<std::size_t>(1, std::size_t(std::ceil(jobs[i].bytes / unitBytes - 1e-9)));
        if (filled > bytes && (units == 0 || counted > units)) return jobs.size() - i;
    }
    return 0;
}

double BandwidthServer::bytesQueued(unsigned cls) const {
    const Class& c = classes_.at(cls);
    double sum = 0;
    for (const Job& j : c.jobs) sum += j.bytes;
    if (c.joined && !c.jobs.empty()) {
        // Served so far, including the progress since the last event.
        const double sinceLast = c.rate * double(now() > last_ ? now() - last_ : 0);
        sum -= c.jobs.front().bytes - std::max(0.0, c.remaining - sinceLast);
    }
    return sum;
}

bool BandwidthServer::idle() const {
    for (const Class& c : classes_)
        if (!c.jobs.empty()) return false;
    return true;
}

Tick BandwidthServer::busyTicks() const {
    return busyAccum_ + (busySince_ != kNever ? now() - busySince_ : 0);
}

bool BandwidthServer::anyJoined() const {
    for (const Class& c : classes_)
        if (c.joined) return true;
    return false;
}

void BandwidthServer::advanceTo(Tick t) {
    if (t <= last_) {
        last_ = std::max(last_, t);
        return;
    }
    const double dt = double(t - last_);
    for (Class& c : classes_) {
        if (!c.joined) continue;
        const double moved = std::min(c.remaining, c.rate * dt);
        c.remaining -= moved;
        servedSinceBusy_ += moved;
        bytesServed_ += moved;
    }
    last_ = t;
}

void BandwidthServer::startHead(Class& c, std::vector<Callback>& deferred) {
    c.joined = true;
    c.joinAt = kNever;
    c.remaining = c.jobs.front().bytes;
    if (c.jobs.front().onStart) deferred.push_back(std::move(c.jobs.front().onStart));
}

std::vector<BandwidthServer::Callback>& BandwidthServer::deferredList() {
    if (deferred_.size() <= deferredDepth_) deferred_.emplace_back();
    std::vector<Callback>& list = deferred_[deferredDepth_++];
    list.clear();
    return list;
}

void BandwidthServer::runDeferred(std::vector<Callback>& list) {
    // Callbacks may re-enter submit(), which takes the next list.
    for (std::size_t i = 0; i < list.size(); ++i) list[i]();
    list.clear();
    --deferredDepth_;
}

void BandwidthServer::submit(unsigned cls, double bytes, Callback onStart, Callback onDone) {
    if (cls >= classes_.size()) throw std::out_of_range(name_ + ": no such class");
    const Tick t = now();
    advanceTo(t);
    Class& c = classes_[cls];
    c.jobs.push_back(Job{std::max(bytes, 1.0), std::move(onStart), std::move(onDone)});
    std::vector<Callback>& deferred = deferredList();
    if (c.jobs.size() == 1) {
        if (!anyJoined()) {
            // The pipe is free: start now and begin a new busy period.
            bool pendingJoin = false;
            for (const Class& o : classes_) pendingJoin |= o.joinAt != kNever;
            if (!pendingJoin) servedSinceBusy_ = 0;
            if (busySince_ == kNever) busySince_ = t;
            startHead(c, deferred);
        } else {
            // Join at the next chunk boundary of the stream being served.
            const double into = std::fmod(servedSinceBusy_, cfg_.chunkBytes);
            const double left = into < 1e-6 ? 0.0 : cfg_.chunkBytes - into;
            if (left <= 1e-6) {
                startHead(c, deferred);
            } else {
                c.joinAt = t + static_cast<Tick>(std::ceil(left / bytesPerTick_));
            }
        }
    }
    replan();
    if (onChange) onChange();
    runDeferred(deferred);
}

void BandwidthServer::pause() {
    if (paused_) return;
    advanceTo(now());
    paused_ = true;
    replan();
    if (onChange) onChange();
}

void BandwidthServer::resume() {
    if (!paused_) return;
    advanceTo(now());
    paused_ = false;
    replan();
    if (onChange) onChange();
}

void BandwidthServer::replan() {
    if (paused_) {
        // Nothing moves; chunk-boundary joins and completions wait for resume().
        for (Class& c : classes_) c.rate = 0;
        ++gen_;
        armedAt_ = kNever;
        return;
    }
    scratchActive_.clear();
    for (unsigned i = 0; i < classes_.size(); ++i)
        if (classes_[i].joined) scratchActive_.push_back(i);
    Tick next = kNever;
    if (!scratchActive_.empty()) {
        // A class alone gets the whole pipe (SharePolicy's contract): the
        // policy is asked only when classes compete.
        if (scratchActive_.size() == 1)
            scratchShares_.assign(1, 1.0);
        else
            policy_->shares(scratchActive_, scratchShares_);
        for (std::size_t k = 0; k < scratchActive_.size(); ++k) {
            Class& c = classes_[scratchActive_[k]];
            c.rate = bytesPerTick_ * scratchShares_[k];
            if (c.rate <= 0) continue;
            const Tick dt = static_cast<Tick>(std::ceil(c.remaining / c.rate - 1e-9));
            next = std::min(next, last_ + dt);
        }
    }
    for (const Class& c : classes_)
        if (c.joinAt != kNever) next = std::min(next, c.joinAt);
    ++gen_;
    armedAt_ = next;
    if (next == kNever) return;
    const std::uint64_t g = gen_;
    eq_.at(next, *this, g);
}

void BandwidthServer::onTimer(std::uint64_t gen) {
    if (gen != gen_) return;  // superseded by a re-plan
    const Tick t = now();
    advanceTo(t);
    std::vector<Callback>& deferred = deferredList();
    for (Class& c : classes_) {
        if (!c.joined) continue;
        // Anything below half a tick of service is rounding, not work left.
        if (c.remaining > std::max(1e-6, c.rate * 0.5)) continue;
        Job done = std::move(c.jobs.front());
        c.jobs.pop_front();
        c.remaining = 0;
        c.joined = false;
        if (done.onDone) deferred.push_back(std::move(done.onDone));
        // The class keeps its turn for its next queued job.
        if (!c.jobs.empty()) startHead(c, deferred);
    }
    const bool pipeFree = !anyJoined();
    for (Class& c : classes_) {
        if (c.joinAt == kNever) continue;
        if (c.joinAt <= t || pipeFree) startHead(c, deferred);
    }
    if (idle()) {
        servedSinceBusy_ = 0;
        if (busySince_ != kNever) {
            busyAccum_ += t - busySince_;
            busySince_ = kNever;
        }
    }
    replan();
    if (onChange) onChange();
    runDeferred(deferred);
}

}  // namespace cclsim
