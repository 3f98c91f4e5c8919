#include "models/core/FastForward.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

namespace cclsim {

FastForward::FastForward(FastForwardOptions opts) : opts_(opts), windowPoints_(opts.pointsPerLoop) {
    if (opts_.windows < 2) throw std::invalid_argument("FastForward: at least two windows are compared");
    if (opts_.pointsPerLoop == 0) throw std::invalid_argument("FastForward: pointsPerLoop must be > 0");
}

void FastForward::kernelReturned() {
    if (outside_ == 0) throw std::logic_error("FastForward: more kernels returned than were launched");
    --outside_;
}

FastForward::LoopId FastForward::enter(Tick t, std::uint64_t packets, std::uint64_t margin, std::uint32_t group,
                                       std::uint64_t quantum, bool stream) {
    if (quantum == 0) throw std::invalid_argument("FastForward: a steady loop's skip quantum must be > 0");
    if (outside_ == 0) throw std::logic_error("FastForward: a steady loop entered by a kernel not counted");
    --outside_;
    ++active_;
    Loop l;
    l.active = true;
    l.group = group;
    l.margin = margin;
    l.remaining = packets;
    l.quantum = quantum;
    l.stream = stream;
    // A window spans whole rounds of every loop's quantum: a sender over 3
    // buffer channels makes its points in a pattern that repeats every 3,
    // and windows of 32 points fell at three phases of it, 5.02, 5.23 and
    // 5.05 packets/us (raw Ethernet, 544 B packets), so a skip's rate
    // depended on which windows the history held (up to 2 % off).
    quanta_ = std::lcm(quanta_, quantum);
    windowPoints_ = (std::uint64_t(opts_.pointsPerLoop) + quanta_ - 1) / quanta_ * quanta_;
    if (packets > 0) ++packetLoops_;
    loops_.push_back(std::move(l));
    setChanged_ = true;
    updateSignal(t);
    return LoopId(loops_.size() - 1);
}

void FastForward::leave(LoopId id, Tick t) {
    Loop& l = loops_.at(id);
    if (!l.active) throw std::logic_error("FastForward: a steady loop left twice");
    l.active = false;
    if (l.ordered) {
        l.ordered = false;
        --pendingLoops_;
    }
    --active_;
    ++outside_;
    setChanged_ = true;
    updateSignal(t);
}

FastForward::Skip FastForward::point(LoopId id, Tick t, std::uint64_t remaining, std::uint64_t stepLeft) {
    Loop& l = loops_[id];
    clock_ = std::max(clock_, t);
    if (stepLeft) noteStep(l, t, stepLeft);
    ++l.points;
    l.remaining = remaining;
    Skip s;
    if (l.ordered) {
        l.ordered = false;
        --pendingLoops_;
        const std::uint64_t room = remaining > l.margin ? remaining - l.margin : 0;
        s.packets = std::min(l.pending, room / l.quantum * l.quantum);
        // A loop that can take fewer packets than ordered (it made points
        // since the order) pauses for the packets it skips (pauseAt()).
        s.pause =
            l.pending == 0 ? l.pendingPause : Tick(double(l.pendingPause) * double(s.packets) / double(l.pending));
        l.pending = 0;
        l.tookSkip = s.packets > 0;
        packetsSkipped_ += s.packets;
        // The stretch ends D after the last loop that paused at once took
        // its skip (a late one paused on a service and resumes with it).
        const Tick end = lateInStretch(t) ? t : t + skipLen_;
        signalOffAt_ = std::max(signalOffAt_ == kNever ? 0 : signalOffAt_, end);
        if (pendingLoops_ == 0) measureFrom_ = signalOffAt_;
        return s;
    }
    // A point that restarts the windows belongs to none (the others' points
    // of the same tick fall in the new one, as at every window's start).
    if (updateSignal(clock_) || pendingLoops_ > 0 || clock_ < measureFrom_) return s;
    ++winPoints_;
    if (winPoints_ >= windowPoints_ * std::max<std::uint32_t>(active_, 1)) closeWindow(clock_);
    return s;
}

void FastForward::noteStep(Loop& l, Tick t, std::uint64_t stepLeft) {
    // The previous point was the last of its step and walked, not skipped:
    // this one starts a step. The step that ends here is measured, its
    // packets over its time from boundary to boundary, if it began the same
    // way (so not the loop's first step, which starts at the loop's entry and
    // moves its own data at another rate) and no skip was ordered while it
    // ran: a step with a pause in it also holds the board's slow resume.
    if (l.stepLeft == 1 && !l.tookSkip) {
        if (l.boundaries > 0 && l.stepSkips == skips_ && t > l.stepFrom) {
            // One step of one loop is off its lane's long-run rate by up to
            // 5 % (T3000 reduce-scatter 86 MiB: 0.53-0.60 packets/us among
            // the loops of a lane at one time): the rate is that of the last
            // two measured.
            l.prevSize = l.lastSize;
            l.prevSpan = l.lastSpan;
            l.lastSize = l.stepSize;
            l.lastSpan = t - l.stepFrom;
        }
        ++l.boundaries;
        l.stepFrom = t;
        l.stepSize = stepLeft;
        l.stepSkips = skips_;
    } else if (l.tookSkip) {
        l.stepSkips = std::numeric_limits<std::uint64_t>::max();  // the step is not whole: never measured
    }
    l.tookSkip = false;
    l.stepLeft = stepLeft;
    l.longestStep = std::max(l.longestStep, stepLeft);
}

Tick FastForward::pauseAt(Tick t, Tick pause) const {
    // A loop that pauses only late in the stretch waited on a paused service
    // (at its point, or sending its owed increments), and so has waited the
    // stretch out already. Order, pauses and resumption are microseconds
    // apart and a skip hundreds, so half the stretch tells the cases apart.
    return lateInStretch(t) ? 0 : pause;
}

Tick FastForward::servicePoint(Tick t, std::uint64_t* seen) {
    if (*seen == skips_) return 0;
    *seen = skips_;
    return lateInStretch(t) ? 0 : skipLen_;
}

void FastForward::restartWindows(Tick t) {
    // After a skip: the board runs on in the same regime, so the history
    // stays; the window that held the pauses is dropped. On streams the
    // first window after them is dropped too (settling_): what was in
    // flight when the loops paused landed during the pause, and the stream
    // resumes off its steady rate for a while (raw Ethernet, 4 KB packets:
    // 1.3 % fast, the loops sending into drained queues; fabric_bandwidth
    // over 2 hops: 1-2.5 % slow, the pipeline refilling), which had put
    // every later skip's rate that far off and the runs 0.7 % fast and
    // 1.9 % slow. A collective's first window is kept: its rate dips at
    // every block step, which the few windows between skips rarely sample,
    // and the slow resume (0.97-0.99 of the history) stands in for them;
    // dropping it took the 256 MiB ring all-gather from +0.03 % to -1.1 %
    // and the reduce-scatter from -0.3 % to -1.8 % against exact runs. That
    // is a compensation for loops with long steps, which still skip across
    // boundaries at the windows' rate (short steps are measured whole,
    // decide()).
    settling_ = true;
    for (const Loop& l : loops_)
        if (l.active && !l.stream) settling_ = false;
    startWindow(t);
}

void FastForward::startWindow(Tick t) {
    winStart_ = t;
    winPoints_ = 0;
    for (Loop& l : loops_) l.atWinStart = l.points;
}

void FastForward::trimHistory(std::size_t keep) {
    if (spans_.size() > keep) spans_.erase(spans_.begin(), spans_.end() - std::ptrdiff_t(keep));
    for (Loop& l : loops_)
        if (l.counts.size() > keep) l.counts.erase(l.counts.begin(), l.counts.end() - std::ptrdiff_t(keep));
}

void FastForward::closeWindow(Tick t) {
    ++windowsClosed_;
    if (setChanged_) {
        // A loop entered or left: the regime changed, measure it anew (a
        // loop that entered during this window starts counting now).
        setChanged_ = false;
        settling_ = false;  // this window is dropped already
        spans_.clear();
        for (Loop& l : loops_) {
            l.counts.clear();
            l.atWinStart = l.points;
        }
        winStart_ = t;
        winPoints_ = 0;
        return;
    }
    if (settling_) {
        settling_ = false;
        startWindow(t);
        return;
    }
    spans_.push_back(t - winStart_);
    for (Loop& l : loops_) {
        if (!l.active) continue;
        l.counts.push_back(l.points - l.atWinStart);
        l.atWinStart = l.points;
    }
    trimHistory(opts_.maxHistoryWindows);
    winStart_ = t;
    winPoints_ = 0;
    decide(t);
}

void FastForward::decide(Tick t) {
    if (outside_ > 0 || active_ == 0 || pendingLoops_ > 0) return;
    ++windowsAllInLoops_;
    const std::size_t w = opts_.windows;
    const std::size_t h = spans_.size();
    if (h < w) return;
    // The board's total rate in each of the last w windows, and their mean.
    std::vector<double> total(w, 0.0);
    for (std::size_t i = 0; i < w; ++i) {
        const std::size_t j = h - w + i;
        if (spans_[j] == 0) return;
        for (const Loop& l : loops_)
            if (l.active) total[i] += double(l.counts[j]);
        total[i] /= double(spans_[j]);
    }
    double mean = 0;
    for (double r : total) mean += r;
    mean /= double(w);
    if (mean <= 0) return;
    for (double r : total)
        if (std::abs(r - mean) > opts_.totalTolerance * mean) {
            // Not steady: what came before the last windows is another regime.
            trimHistory(w - 1);
            return;
        }
    ++windowsSteady_;
    // Each group's rate over the whole history (the mean of its loops), and
    // the longest skip every loop can take within its remaining packets.
    Tick measured = 0;
    for (Tick s : spans_) measured += s;
    double len = double(measured) * opts_.maxSkipPerMeasured;
    std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> groups;  // points, loops
    std::vector<std::uint64_t> made(loops_.size(), 0);                        // points in the history
    for (std::size_t i = 0; i < loops_.size(); ++i) {
        const Loop& l = loops_[i];
        if (!l.active) continue;
        for (std::uint64_t c : l.counts) made[i] += c;
        if (made[i] == 0) continue;  // waiting throughout (e.g. for the last blocks): not part of the rate
        auto& g = groups[l.group];
        g.first += made[i];
        ++g.second;
    }
    // A loop takes part when it made points in the history (one that made
    // none waits on the others and makes none before they resume) and has
    // room for a worthwhile skip. One within a short skip of its end that
    // still made points in the last window would end inside the stretch:
    // the others' rates change when it does (a lane that ends leaves its
    // share of a link to the others; the T3000 ring all-reduce came out
    // 10 % slow when such loops finished during a skip), so nothing is
    // skipped until it has finished its packets. One that made none in the
    // last window has (it waits after its loop for the others' last
    // blocks): it is left out and does not cut the others' skip short.
    const double minLen = double(opts_.minSkipWindows) * double(measured) / double(h);
    std::vector<double> rate(loops_.size(), 0.0);
    std::vector<char> takesPart(loops_.size(), 0);
    for (std::size_t i = 0; i < loops_.size(); ++i) {
        const Loop& l = loops_[i];
        if (!l.active || made[i] == 0) continue;
        const auto& g = groups[l.group];
        rate[i] = double(g.first) / double(g.second) / double(measured);
        const std::uint64_t room = l.room();
        const double least = l.quantum > 1 ? std::max(rate[i] * minLen, double(l.quantum)) : rate[i] * minLen;
        if (double(room) < least) {
            if (l.counts.back() > 0) return;
            continue;
        }
        takesPart[i] = 1;
        len = std::min(len, double(room) / rate[i]);
    }
    // Loops that move block by block (their points give the packets left in
    // their step): the board's rate dips at every step boundary (~10 % for
    // a while, deeper and longer with fewer workers), which windows between
    // boundaries do not sample. A skip across boundaries runs at each
    // group's rate over its loops' last two whole steps, boundary to
    // boundary, dips included (noteStep()); until every loop taking part has
    // measured them, a skip stays inside every loop's first step, at the
    // windows' rate.
    auto shortSteps = [&](const Loop& l) { return l.stepLeft && l.longestStep < opts_.shortStepPackets; };
    bool wholeSteps = true, stepped = false;
    for (std::size_t i = 0; i < loops_.size(); ++i)
        if (takesPart[i] && shortSteps(loops_[i])) {
            stepped = true;
            if (loops_[i].stepRate() <= 0) wholeSteps = false;
        }
    if (stepped && wholeSteps) {
        std::map<std::uint32_t, std::pair<double, std::uint64_t>> stepGroups;  // rates, loops
        Tick span = 0;
        for (std::size_t i = 0; i < loops_.size(); ++i) {
            const Loop& l = loops_[i];
            if (!takesPart[i] || l.stepRate() <= 0) continue;
            auto& g = stepGroups[l.group];
            g.first += l.stepRate();
            ++g.second;
            span = std::max(span, l.lastSpan + l.prevSpan);
        }
        len = std::min(len, double(span) * opts_.maxSkipPerMeasured);
        for (std::size_t i = 0; i < loops_.size(); ++i) {
            if (!takesPart[i]) continue;
            // A group without a measured step (no short steps in it) keeps
            // the windows' rate.
            const auto g = stepGroups.find(loops_[i].group);
            if (g != stepGroups.end()) rate[i] = g->second.first / double(g->second.second);
            len = std::min(len, double(loops_[i].room()) / rate[i]);
        }
    } else if (stepped) {
        // Only inside every loop's first step (a skip in a later one would
        // keep that step from being measured), and its last two packets are
        // walked (the loop makes a point or two between this order and its
        // skip).
        for (std::size_t i = 0; i < loops_.size(); ++i) {
            const Loop& l = loops_[i];
            if (!takesPart[i] || !shortSteps(l)) continue;
            if (l.boundaries > 0) return;
            len = std::min(len, double(l.stepLeft > 2 ? l.stepLeft - 2 : 0) / rate[i]);
        }
    }
    if (!(len >= minLen)) return;
    for (std::size_t i = 0; i < loops_.size(); ++i)
        if (takesPart[i] && loops_[i].quantum > 1 && rate[i] * std::floor(len) < double(loops_[i].quantum))
            return;  // not one whole quantum
    skipLen_ = Tick(len);
    bool allQuanta = true;  // every loop taking part skips whole quanta of more than one packet
    Tick longest = 0;       // ... and the longest pause among them
    for (std::size_t i = 0; i < loops_.size(); ++i) {
        Loop& l = loops_[i];
        if (!takesPart[i]) continue;
        l.ordered = true;
        l.pending = std::uint64_t(std::floor(rate[i] * double(skipLen_)));
        l.pendingPause = skipLen_;
        if (l.quantum > 1) {
            // Whole quanta only, and the pause those packets take at the
            // group's rate (a loop of quantum 1 drops less than a packet
            // and pauses for the whole stretch).
            l.pending = l.pending / l.quantum * l.quantum;
            l.pendingPause = Tick(double(l.pending) / rate[i]);
        } else {
            allQuanta = false;
        }
        longest = std::max(longest, l.pendingPause);
        ++pendingLoops_;
    }
    // Loops that skip whole quanta pause less than D (up to a quantum's
    // time): the stretch, and the time reported skipped, is their longest
    // pause.
    if (allQuanta) skipLen_ = longest;
    ++skips_;
    decidedAt_ = t;
    timeSkipped_ += skipLen_;
    stretches_.push_back({t, skipLen_, kNever});
    signalOffAt_ = kNever;
    signal_.set(1);
}

bool FastForward::updateSignal(Tick t) {
    if (pendingLoops_ > 0 || signalOffAt_ == kNever || t < signalOffAt_) return false;
    signal_.set(0);  // first: the trace writes the windows up to now as skipped
    if (!stretches_.empty()) stretches_.back().end = t;
    signalOffAt_ = kNever;
    restartWindows(t);
    return true;
}

void FastForward::trace(TraceFile& tf, const std::string& hierName) {
    signal_.attach(tf, hierName);
    tf.setSkippedQuery([this](Tick start, Tick end) { return covers(start, end); });
}

bool FastForward::covers(Tick start, Tick end) const {
    // The last stretch ordered at or before `start`.
    auto it = std::upper_bound(stretches_.begin(), stretches_.end(), start,
                               [](Tick v, const Stretch& s) { return v < s.from; });
    if (it == stretches_.begin()) return false;
    --it;
    return end <= it->end;
}

std::string FastForward::whyNone() const {
    if (skips_ > 0) return "";
    if (packetLoops_ == 0)
        return "no kernel of this run marked a steady loop (the --impl fabric all-gather and reduce-scatter "
               "workers on a ring do, and the eth_bandwidth (credits on tx_cmd_q 1), edm_stream (one way, or its "
               "acks on tx_cmd_q 1) and fabric_bandwidth streams)";
    if (windowsAllInLoops_ == 0)
        return fmt::format("never were all kernels inside steady loops at once ({} measurement windows closed)",
                           windowsClosed_);
    if (windowsSteady_ == 0)
        return fmt::format("the packet rate never held steady for {} windows ({} windows with every kernel in a loop)",
                           opts_.windows, windowsAllInLoops_);
    return "steady stretches too short to skip (the loops were near their ends)";
}

}  // namespace cclsim
