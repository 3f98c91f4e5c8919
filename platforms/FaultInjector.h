// The faults of a run on the board's Ethernet links (a FaultPlan), attached
// to the link directions they name, and what they did.
//
// ber and drop act on one direction's frames (models/eth/LinkFaults.h) and
// are named by one end of a link: both directions get them. retrain and down
// stop a link in both directions at their time:
//   retrain: both MACs pause and the frames in flight are held; after
//     `duration` the link has trained, but the retrain completes only when the
//     base firmware of both Ethernet cores has had its turn: the kernel on
//     each core must call run_routing() (or have returned); a kernel that
//     never yields stalls the link. Then the held frames are sent again
//     (Go-Back-N) before the queued ones. retrain_count counts it.
//   down: the MACs stop for good; what was in flight is lost, and queued
//     commands never leave.
// The diagnosis names every link that lost anything or stopped, with the
// bytes and messages it lost, for the run's report when an op cannot finish.
#pragma once

#include "models/eth/FaultPlan.h"
#include "models/eth/LinkFaults.h"

#include <memory>
#include <string>
#include <vector>

namespace cclsim {

class Platform;
class EthSubsystem;

struct LinkHealthRow {
    unsigned chip = 0, channel = 0;  ///< the sending end
    unsigned peerChip = 0, peerChannel = 0;
    const LinkHealth* health = nullptr;
};

class FaultInjector {
public:
    /// Validates the plan against the board (chips, channels, cabled links).
    FaultInjector(Platform& platform, const FaultPlan& plan);
    FaultInjector(const FaultInjector&) = delete;
    FaultInjector& operator=(const FaultInjector&) = delete;

    const FaultPlan& plan() const { return plan_; }
    /// Every direction that carries a fault, in (chip, channel) order.
    std::vector<LinkHealthRow> health() const;
    /// The link at this end retrains while the device is initialised (a
    /// retrain planned at 0 us): its retrain count is already non-zero when
    /// the host reads it before the op.
    bool retrainsAtInit(unsigned chip, unsigned channel) const;
    /// Anything lost, a link down, or a retrain not completed.
    bool lostAnything() const;
    /// What the faults did, one line per link direction that lost or stopped
    /// (empty if none did).
    std::string diagnosis() const;

private:
    struct Direction {
        unsigned chip, channel, peerChip, peerChannel;
        EthSubsystem* eth;
        std::unique_ptr<LinkFaults> faults;
    };
    struct Stop {
        FaultSpec spec;
        Direction* a;
        Direction* b;
        bool completed = false;
    };
    Direction& direction(unsigned chip, unsigned channel);
    void attach(const FaultSpec& f);
    void startStop(Stop& s);
    void retrainTrained(Stop& s);

    Platform& platform_;
    FaultPlan plan_;
    std::vector<std::unique_ptr<Direction>> dirs_;
    std::vector<std::unique_ptr<Stop>> stops_;
};

}  // namespace cclsim
