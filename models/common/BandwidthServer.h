// A shared-bandwidth resource served at transfer granularity.
//
// Models one physical pipe (a core's NoC injection port, an Ethernet MAC and
// its link direction, a DRAM channel) that several request classes (PE_DMA
// virtual channels, tx command queues, ...) compete for:
//
//  * within a class jobs are served in FIFO order, one at a time;
//  * among backlogged classes the bandwidth is split by a SharePolicy
//    (weighted round-robin => weighted fair shares);
//  * the hardware interleaves classes at chunk granularity, so a class that
//    becomes backlogged while another is mid-chunk starts at the next chunk
//    boundary: a long transfer delays a newcomer by at most one chunk, never
//    by the whole transfer (no head-of-line blocking across classes).
//
// The server computes completion times analytically and re-plans only when
// the set of active jobs changes, so a job costs O(1) calendar events no
// matter how many chunks it spans.
#pragma once

#include "models/common/EventQueue.h"
#include "models/common/SharePolicy.h"
#include "models/common/Time.h"

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim {

struct BandwidthServerConfig {
    double bytesPerNs = 32.0;   ///< == GB/s
    double chunkBytes = 256.0;  ///< interleave granularity between classes
    unsigned numClasses = 1;
};

class BandwidthServer : private CalendarTask {
public:
    using Callback = std::function<void()>;

    BandwidthServer(EventQueue& eq, std::string name, const BandwidthServerConfig& cfg,
                    std::unique_ptr<SharePolicy> policy);
    BandwidthServer(const BandwidthServer&) = delete;
    BandwidthServer& operator=(const BandwidthServer&) = delete;

    /// Queue `bytes` on class `cls`. `onStart` runs when the job reaches the
    /// head of its class and starts moving; `onDone` when its last byte left.
    void submit(unsigned cls, double bytes, Callback onStart, Callback onDone);

    std::size_t jobsQueued(unsigned cls) const { return classes_.at(cls).jobs.size(); }
    /// Jobs of `cls` behind its head that do not fit in a buffer of `bytes`
    /// filled in FIFO order (the head job is the one being sent).
    std::size_t jobsBeyond(unsigned cls, double bytes) const { return jobsBeyond(cls, bytes, 0, 0); }
    /// The same, where a job also fits while the jobs behind the head up to
    /// and including it count at most `units` units of `unitBytes` (each job
    /// at least one): a buffer that accepts a number of packets as well as
    /// bytes (a MAC accepting frames ahead of the wire).
    std::size_t jobsBeyond(unsigned cls, double bytes, std::size_t units, double unitBytes) const;
    double bytesQueued(unsigned cls) const;
    bool idle() const;
    unsigned numClasses() const { return unsigned(classes_.size()); }
    const std::string& name() const { return name_; }
    double bytesPerNs() const { return cfg_.bytesPerNs; }

    /// Change the interleave chunk and the share policy of an idle server
    /// (configuration before traffic, e.g. a process group's VC weights).
    void reconfigure(double chunkBytes, std::unique_ptr<SharePolicy> policy);
    const SharePolicy& policy() const { return *policy_; }
    double chunkBytes() const { return cfg_.chunkBytes; }

    /// Stop serving from now until resume() (a link that retrains or went
    /// down): jobs keep their place and progress; nothing moves meanwhile.
    void pause();
    void resume();
    bool paused() const { return paused_; }

    /// When the server next completes or re-arbitrates (kNever when idle).
    Tick nextEventTick() const { return armedAt_; }

    /// Total bytes served and time spent busy (for utilisation reports).
    double bytesServed() const { return bytesServed_; }
    Tick busyTicks() const;

    /// Called after every change of queue contents (tracing hooks).
    std::function<void()> onChange;

private:
    struct Job {
        double bytes;
        Callback onStart;
        Callback onDone;
    };
    struct Class {
        std::deque<Job> jobs;
        double remaining = 0;  ///< bytes left of the head job while joined
        double rate = 0;       ///< bytes per tick while joined
        bool joined = false;   ///< head job is being served
        Tick joinAt = kNever;  ///< pending chunk-boundary join
    };

    void advanceTo(Tick t);
    void replan();
    void onTimer(std::uint64_t gen);
    void onCalendar(std::uint64_t gen) override { onTimer(gen); }
    void startHead(Class& c, std::vector<Callback>& deferred);
    /// A cleared callback list for this (possibly re-entered) call; reused
    /// across calls so steady-state traffic does not allocate.
    std::vector<Callback>& deferredList();
    void runDeferred(std::vector<Callback>& list);
    bool anyJoined() const;

    EventQueue& eq_;
    std::string name_;
    BandwidthServerConfig cfg_;
    std::unique_ptr<SharePolicy> policy_;
    std::vector<Class> classes_;
    double bytesPerTick_;

    bool paused_ = false;
    Tick last_ = 0;
    double servedSinceBusy_ = 0;  ///< for chunk boundaries
    double bytesServed_ = 0;
    Tick busySince_ = kNever;
    Tick busyAccum_ = 0;
    std::uint64_t gen_ = 0;
    Tick armedAt_ = kNever;

    std::deque<std::vector<Callback>> deferred_;
    unsigned deferredDepth_ = 0;
    std::vector<unsigned> scratchActive_;
    std::vector<double> scratchShares_;
};

}  // namespace cclsim
