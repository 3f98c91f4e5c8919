// What a run session tells whoever watches it, in the order it happens: the
// links it leaves out, progress while it simulates, the end of simulation,
// the links' health. The session decides nothing about printing; an observer
// (TerminalReport) does.
#pragma once

#include "models/common/Time.h"
#include "platforms/ClusterDescriptor.h"
#include "platforms/FaultInjector.h"

#include <functional>
#include <vector>

namespace cclsim {

class RunObserver {
public:
    virtual ~RunObserver() = default;

    /// The platform is elaborated without these links (--skip-links-with-retrain).
    virtual void linksSkipped(const std::vector<const LinkDesc*>& /*links*/) {}
    /// Simulation starts (the programs are built and launched, the trace is open).
    virtual void simulationStarts() {}
    /// Between simulation slices: simulated time so far, and how to ask the
    /// workload for the share of its work done (< 0: unknown; ask only when needed).
    virtual void progress(Tick /*simNow*/, const std::function<double()>& /*fractionDone*/) {}
    /// Simulation is over (before the trace file is closed).
    virtual void simulationEnds() {}
    /// The link health counters at the end of a run with a fault plan.
    virtual void linkHealth(const std::vector<LinkHealthRow>& /*rows*/) {}
};

}  // namespace cclsim
