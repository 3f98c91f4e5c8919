// Fast-forward (--fast-forward): skip stretches of a long steady collective.
//
// A kernel marks its packet loop as a steady loop (fw::SteadyLoop) and calls
// a point at the top of every packet. This controller counts the points of
// every steady loop on the board in measurement windows (a window closes
// after `pointsPerLoop` points per loop). When every kernel that has not
// returned (service kernels aside) is inside a steady loop, and the board's
// total packet rate in each of the last `windows` windows is within
// `totalTolerance` of their mean, it orders a skip of length D:
//
//   - each loop skips rate x D packets at its next point, where rate is its
//     group's mean over the history (the windows since the rate last broke
//     the tolerance or a loop entered or left, skips excluded). A group is a
//     chain of producers and consumers (one lane's workers on every chip),
//     which moves at one rate: all its loops skip the same count, so no
//     consumer finds packets its producer never made, or the reverse;
//   - it skips only the protocol of those packets (its counters, and the
//     semaphore increments its partners wait for, sent at once), not their
//     transfers, and then pauses for D;
//   - service kernels (routers, muxes: fw::SteadyService) pause for D at
//     their next round, so what waits in their buffers waits out the
//     stretch as on a board that ran through it. Without that, the packets
//     in flight drain into a stretch whose time the skip already counts (the
//     T3000 ring all-gather came out 0.8-1.4 % fast);
//   - a kernel that gets to its pause only late in the stretch was held by
//     a paused service and has waited the stretch out: it does not pause.
//
// D is the longest time every loop can skip within its remaining packets,
// less a margin that keeps every loop's end exact, and at most
// `maxSkipPerMeasured` times the measured history.
//
// Loops that move block by block (a collective's workers) give the packets
// left in their step at every point. Their rate dips at step boundaries,
// which the windows between boundaries miss, so where steps are short
// (`shortStepPackets`) a skip across boundaries runs at the rate of whole
// steps, boundary to boundary (each loop's last two, neither its first step
// nor one with a skip in it); before every loop taking part has measured
// them, a skip stays inside every loop's first step.
//
// Why by rate and not by exact period: the workers of a collective share
// links through muxes and routers, so the gaps between one worker's packets
// are not periodic (0.2 to 8.8 us within one step of the T3000 16 MiB ring
// all-gather, a 1.7 us mean), while the board's total rate over a few dozen
// packets per worker holds to a few percent.
//
// What a skip leaves out: the skipped packets' bytes (fast-forward is a
// timing-mode feature), and their counts in the Ethernet and NoC counters,
// which count the simulated traffic only; `packetsSkipped()` says how many.
// The `fast_forward` trace signal is 1 from a skip's order until the stretch
// has ended; over that time the trace's utilisation samplers hold their
// average of the windows before (covers()).
#pragma once

#include "models/common/Time.h"
#include "models/common/Trace.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace cclsim {

struct FastForwardOptions {
    /// A window closes once the loops made this many points per active
    /// loop. Loops of no packets (kernels that only wait: receivers, EDMs)
    /// count as active but make no points, so beside them a window spans
    /// more of each sender's points (edm_stream with one channel: 4x).
    /// (32: fitted against exact runs of the T3000 16 MiB ring all-gather and
    /// reduce-scatter and the 2-chip line all-gather, which skipped then; 16
    /// put two of them 2.7 % off, 48 skipped nothing at 16 MiB.)
    std::uint32_t pointsPerLoop = 32;
    /// Windows compared (the last this many must all agree).
    std::uint32_t windows = 3;
    /// The board's total packet rate of each compared window must be within
    /// this fraction of their mean.
    double totalTolerance = 0.03;
    /// A skip shorter than this many windows is not worth ordering.
    std::uint32_t minSkipWindows = 2;
    /// A skip is at most this many times the time its rates were measured
    /// over (the windows since the rate last changed, skips excluded), so
    /// each skip's rates rest on a measurement a fixed fraction of its length.
    double maxSkipPerMeasured = 8.0;
    /// The history keeps at most this many windows.
    std::uint32_t maxHistoryWindows = 64;
    /// Loops whose steps are shorter than this many packets skip across step
    /// boundaries only at the rate of whole measured steps (decide()); longer
    /// steps make their boundary dips a small share, and they skip at the
    /// windows' rate. (512: the T3000 256 MiB ring all-gather, a first step of
    /// 2048 packets per loop, comes out +0.03 % at the windows' rate and
    /// -1.07 % by whole steps, which wait for two measured steps and skip a
    /// third of the run; two reduce-scatters of the seeded random campaign
    /// that missed by more than 1 % at the windows' rate have first steps of
    /// 128 and 376 packets: 16 MiB with 2 workers, 94 MiB with 4 KB pages.)
    std::uint64_t shortStepPackets = 512;
};

class FastForward {
public:
    using LoopId = std::uint32_t;
    struct Skip {
        std::uint64_t packets = 0;  ///< packets to skip, starting with this one
        Tick pause = 0;             ///< the time they take
    };

    explicit FastForward(FastForwardOptions opts = {});

    /// Kernels that count: non-persistent kernels launched / returned.
    void addKernels(std::uint32_t n) { outside_ += n; }
    void kernelReturned();

    /// A kernel enters a steady loop of `packets` packets; `margin` packets
    /// at its end are never skipped. Loops of one `group` feed each other
    /// and skip the same number of packets (their group's mean rate). A
    /// loop skips a multiple of `quantum` packets (e.g. the buffer channels
    /// a sender uses round-robin, so that its next channel stays the one its
    /// receiver watches), and pauses for the time of the packets it skips.
    /// A `stream` repeats one transfer for its whole length (a bandwidth
    /// benchmark), unlike a collective's worker whose rate dips at every
    /// block step: after a skip the first window is a transient of the pause
    /// and is dropped when every active loop is a stream (restartWindows()).
    LoopId enter(Tick t, std::uint64_t packets, std::uint64_t margin, std::uint32_t group, std::uint64_t quantum = 1,
                 bool stream = false);
    /// ... and leaves it.
    void leave(LoopId id, Tick t);
    /// The top of a packet of loop `id` at time `t` with `remaining` packets
    /// left (this one included). Usually {0, 0}. A loop that moves block by
    /// block gives `stepLeft`, the packets left in its current step (this one
    /// included; 0: the loop has no steps, a stream). See decide() for what
    /// the steps change.
    Skip point(LoopId id, Tick t, std::uint64_t remaining, std::uint64_t stepLeft = 0);

    /// A loop that took a skip with `pause` pauses at `t`, after its
    /// bookkeeping: how long.
    Tick pauseAt(Tick t, Tick pause) const;
    /// The main loop of a service kernel (a router, a mux) at time `t`, which
    /// has seen skips up to `*seen`: the pause it owes the current skip (0
    /// if none). Services pause with the loops, so the packets in their
    /// buffers wait out the skip as the whole board would, instead of
    /// draining into a stretch that the skip already counts.
    Tick servicePoint(Tick t, std::uint64_t* seen);

    // --- what was skipped -------------------------------------------------------
    std::uint64_t skips() const { return skips_; }
    std::uint64_t packetsSkipped() const { return packetsSkipped_; }
    Tick timeSkipped() const { return timeSkipped_; }
    /// Loops with packets that ever entered (0: the workload has no steady
    /// loop; the loops of no packets of kernels that only wait are not counted).
    std::uint64_t loopsSeen() const { return packetLoops_; }
    /// A skip: ordered at `from`, for `length`; its signal went off at `end`
    /// (its last pause ended; kNever while it runs).
    struct Stretch {
        Tick from = 0;
        Tick length = 0;
        Tick end = kNever;
    };
    /// The skips in order.
    const std::vector<Stretch>& stretches() const { return stretches_; }
    /// Why no skip happened (empty when one did).
    std::string whyNone() const;

    /// The `fast_forward` signal, and the trace's skipped-window query
    /// (utilisation signals hold their pre-stretch average over a stretch).
    void trace(TraceFile& tf, const std::string& hierName);
    /// Does [start, end) lie inside one stretch (from its order until its
    /// last pause ended; a stretch still running counts as open-ended)?
    bool covers(Tick start, Tick end) const;

private:
    struct Loop {
        bool active = false;
        std::uint32_t group = 0;
        std::uint64_t margin = 0;
        std::uint64_t points = 0;      ///< points made so far
        std::uint64_t remaining = 0;   ///< packets left at the last point
        bool ordered = false;          ///< a skip is ordered and not yet taken
        std::uint64_t pending = 0;     ///< ... of this many packets
        Tick pendingPause = 0;         ///< ... taking this long
        std::uint64_t quantum = 1;     ///< skips are multiples of this
        bool stream = false;           ///< one transfer repeated (enter())
        std::uint64_t atWinStart = 0;  ///< points when the current window started
        // Steps (point()'s stepLeft, noteStep()): the rate of the last two whole steps.
        std::uint64_t stepLeft = 0;     ///< at the last point (0: no steps)
        bool tookSkip = false;          ///< the last point took a skip
        std::uint64_t boundaries = 0;   ///< step boundaries seen (0: in its first step)
        std::uint64_t longestStep = 0;  ///< packets of its longest step (the largest stepLeft seen)
        Tick stepFrom = 0;              ///< the current step's first point's time
        std::uint64_t stepSize = 0;     ///< its packets
        std::uint64_t stepSkips = 0;    ///< skips ordered before it
        std::uint64_t lastSize = 0;     ///< packets of the last whole step measured
        Tick lastSpan = 0;              ///< ... and its duration
        std::uint64_t prevSize = 0;     ///< the same of the one measured before it
        Tick prevSpan = 0;
        /// Packets per tick over the last two whole steps measured (0: fewer).
        double stepRate() const { return prevSpan ? double(lastSize + prevSize) / double(lastSpan + prevSpan) : 0; }
        /// Packets left after this loop's margin (the most it can skip, its next packet walked).
        std::uint64_t room() const { return remaining > margin + 1 ? remaining - margin - 1 : 0; }
        std::vector<std::uint64_t> counts;  ///< points per window since the rate last changed
    };
    void closeWindow(Tick t);
    void decide(Tick t);
    /// End the stretch (signal off, windows restart) once `t` is past it;
    /// true if it ended now.
    bool updateSignal(Tick t);
    void restartWindows(Tick t);
    /// A new window starts at `t` (no points in it yet).
    void startWindow(Tick t);
    /// Past the middle of the current skip's stretch.
    bool lateInStretch(Tick t) const { return t >= decidedAt_ + skipLen_ / 2; }
    /// Forget the measured history but its last `keep` windows.
    void trimHistory(std::size_t keep);
    /// Step bookkeeping of a point with `stepLeft` packets left in its step.
    void noteStep(Loop& l, Tick t, std::uint64_t stepLeft);

    FastForwardOptions opts_;
    std::uint64_t packetLoops_ = 0;  ///< loops entered with packets (loopsSeen())
    std::vector<Loop> loops_;
    std::uint32_t active_ = 0;   ///< loops inside their range
    std::uint32_t outside_ = 0;  ///< counted kernels running, not inside a loop
    Tick clock_ = 0;             ///< latest point time seen (kernels' local times interleave)
    Tick measureFrom_ = 0;       ///< points before this (a skip's pauses) are not measured
    Tick winStart_ = 0;
    std::uint64_t winPoints_ = 0;
    std::vector<Tick> spans_;  ///< durations of the windows since the rate last changed
    Tick skipLen_ = 0;         ///< D of the ordered skip
    Tick decidedAt_ = 0;       ///< when it was ordered
    std::uint32_t pendingLoops_ = 0;
    bool setChanged_ = false;         ///< a loop entered or left since the window started
    std::uint64_t quanta_ = 1;        ///< least common multiple of the loops' quanta
    std::uint64_t windowPoints_ = 0;  ///< points per loop per window: pointsPerLoop, in whole quanta (enter())
    bool settling_ = false;           ///< the next window is the first after a skip (restartWindows())
    Tick signalOffAt_ = kNever;       ///< when the last pause of the current skip ends
    std::uint64_t skips_ = 0;
    std::uint64_t packetsSkipped_ = 0;
    Tick timeSkipped_ = 0;
    std::vector<Stretch> stretches_;
    // Why nothing was skipped, for the report.
    std::uint64_t windowsClosed_ = 0, windowsAllInLoops_ = 0, windowsSteady_ = 0;
    TraceSignal signal_{1};
};

}  // namespace cclsim
