// The board top level: an event calendar, the chips of a cluster descriptor
// and the Ethernet links between them, bound in the constructor.
#pragma once

#include "models/chip/Chip.h"
#include "models/common/EventQueue.h"
#include "models/common/Trace.h"
#include "models/core/FastForward.h"
#include "models/eth/FaultPlan.h"
#include "platforms/ClusterDescriptor.h"
#include "platforms/FaultInjector.h"

#include <systemc>

#include <memory>
#include <vector>

namespace cclsim {

struct PlatformOptions {
    bool storePayload = true;  ///< false: --no-data
    bool traceAllCores = false;
    FaultPlan faults;  ///< Ethernet faults to inject (--faults)
    /// Leave out of every op the links that retrain while the device is
    /// initialised (a retrain fault at 0 us), as tt-metal's option to skip
    /// Ethernet cores with retrains does (--skip-links-with-retrain).
    bool skipLinksWithRetrain = false;
    /// Skip stretches of steady packet loops (--fast-forward, timing mode).
    bool fastForward = false;
};

class Platform : public sc_core::sc_module {
public:
    EventQueue eq;

    Platform(const sc_core::sc_module_name& name, const ClusterDescriptor& desc, const PlatformOptions& opts);
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;

    const ClusterDescriptor& descriptor() const { return desc_; }
    unsigned numChips() const { return unsigned(chips_.size()); }
    Chip& chip(unsigned id);
    const PlatformOptions& options() const { return opts_; }

    void trace(TraceFile& tf);
    /// Ethernet traffic of every link direction, summed.
    EthStats ethStats();
    /// The injected faults (nullptr: none planned).
    const FaultInjector* faults() const { return faults_.get(); }
    /// The fast-forward controller (nullptr: exact simulation throughout).
    FastForward* fastForward() { return fastForward_.get(); }
    const FastForward* fastForward() const { return fastForward_.get(); }
    /// Links the host left out of every op (skipLinksWithRetrain).
    std::vector<const LinkDesc*> excludedLinks() const;

private:
    ClusterDescriptor desc_;
    PlatformOptions opts_;
    std::vector<std::unique_ptr<Chip>> chips_;
    std::unique_ptr<FaultInjector> faults_;
    std::unique_ptr<FastForward> fastForward_;
};

}  // namespace cclsim
