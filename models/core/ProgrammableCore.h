// Base of every core that runs firmware: a worker (Tensix) core or an
// Ethernet core. Owns the L1, hosts kernel threads, and gives the firmware
// API its view of the core's NoC interfaces.
#pragma once

#include "models/common/ActivityLog.h"
#include "models/common/EventQueue.h"
#include "models/common/Trace.h"
#include "models/core/BankMap.h"
#include "models/core/FirmwareCosts.h"
#include "models/core/KernelContext.h"
#include "models/memory/L1Memory.h"
#include "models/noc/Niu.h"

#include <systemc>

#include <memory>
#include <string>
#include <vector>

namespace cclsim {

class ProgrammableCore : public sc_core::sc_module {
public:
    L1Memory l1;

    ProgrammableCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId, CoreCoord coord,
                     const L1Config& l1Config, const FirmwareCosts& costs);
    ProgrammableCore(const ProgrammableCore&) = delete;
    ProgrammableCore& operator=(const ProgrammableCore&) = delete;
    ~ProgrammableCore() override;

    virtual Niu& niu(unsigned noc) = 0;
    /// NIU request class used for a DMA virtual channel (0 on cores without VCs).
    virtual unsigned nocClass(unsigned /*vc*/) const { return 0; }
    virtual bool isEthernet() const { return false; }
    virtual std::string coreKind() const = 0;
    /// State of a queue the core's kernels poll (for blocked-kernel reports).
    virtual std::string describeQueue(unsigned /*q*/) const { return {}; }

    /// Create a kernel thread that starts at `launch.startAt`.
    KernelContext& launch(KernelLaunch launch);
    const std::vector<std::unique_ptr<KernelContext>>& kernels() const { return kernels_; }

    /// A queue or counter that kernels may poll changed: wake them.
    void notifyActivity();
    /// One of the core's kernels returned (after its state became Done).
    virtual void kernelFinished() {}
    /// A kernel of this core went to sleep in a modelled spin loop.
    virtual void kernelSleeps(KernelContext& /*k*/) {}

    /// Show the 32-bit word at `addr` in the VCD as `<core>.<label>`.
    void traceWord(std::uint32_t addr, const std::string& label);

    /// Scheduled effects on this core's state (see ActivityLog).
    ActivityLog& activity() { return activity_; }
    /// Shortest latency from another process's action to an effect on this core.
    Tick lookahead() const { return lookahead_; }
    /// The same, for a kernel that reads it at every poll (set before the run).
    const Tick& lookaheadRef() const { return lookahead_; }
    void setLookahead(Tick t) { lookahead_ = t; }

    /// The chip's interleaved-buffer banks (set by the chip).
    const BankMap& banks() const { return *banks_; }
    void setBanks(const BankMap* b) { banks_ = b; }

    EventQueue& eq() { return eq_; }
    const FirmwareCosts& costs() const { return costs_; }
    unsigned chipId() const { return chipId_; }
    CoreCoord coord() const { return coord_; }

    virtual void trace(TraceFile& tf);

private:
    struct TracedWord final : MemoryWatcher {
        L1Memory* l1 = nullptr;
        std::uint32_t addr = 0;
        std::string label;
        TraceSignal sig{32};
        void onWatchedWrite(std::uint32_t /*watchedAddr*/) override { sig.set(l1->readU32(addr)); }
    };

    EventQueue& eq_;
    unsigned chipId_;
    CoreCoord coord_;
    FirmwareCosts costs_;
    std::vector<std::unique_ptr<KernelContext>> kernels_;
    std::vector<std::unique_ptr<TracedWord>> tracedWords_;
    ActivityLog activity_;
    const BankMap* banks_ = nullptr;
    Tick lookahead_ = 0;
};

}  // namespace cclsim
