// An Ethernet core (ERISC): 256 KB L1, one RISC-V running one kernel, its
// NoC interfaces and the Ethernet subsystem of its channel.
//
// L1 map (Wormhole, from the arch YAML):
//   [0, syncInfoBase)                         base firmware, routing tables (reserved)
//   [syncInfoBase, +16*maxConcurrentTransactions) erisc_info channels: eth_channel_sync_t
//   [unreservedBase, l1.sizeBytes - barrier)  kernel region (~150 KB); the first
//                                             16 B are the handshake scratch word
#pragma once

#include "models/core/ProgrammableCore.h"
#include "models/eth/EthSubsystem.h"

#include <memory>

namespace cclsim {

struct EriscConfig {
    L1Config l1{std::uint64_t(256) * 1024, true};
    std::uint32_t syncInfoBase = 0x18030;
    std::uint32_t maxConcurrentTransactions = 8;
    std::uint32_t unreservedBase = 0x1A800;
    std::uint32_t barrierBytes = 32;
    EthConfig eth;
    FirmwareCosts costs;
    double injectBytesPerNs = 32;
    double niuChunkBytes = 0;  ///< traffic-class interleave of the core's NIUs (arch YAML eth.niu_chunk_bytes)
    /// Main-loop rounds in a row that did nothing before an EDM or fabric
    /// router kernel calls run_routing() (arch YAML eth.context_switch:
    /// interval x iterations_per_pass).
    std::uint32_t contextSwitchIdleRounds = 10000 * 32;

    std::uint32_t kernelRegionEnd() const { return std::uint32_t(l1.sizeBytes) - barrierBytes; }
    std::uint32_t channelSyncAddr(std::uint32_t ch) const { return syncInfoBase + 16 * ch; }
};

class EriscCore : public ProgrammableCore {
public:
    EthSubsystem eth;

    EriscCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId, unsigned channel, CoreCoord coord,
              NocInterconnect& noc0, NocInterconnect& noc1, const EriscConfig& cfg);

    Niu& niu(unsigned noc) override { return noc ? *niu1_ : *niu0_; }
    bool isEthernet() const override { return true; }
    std::string coreKind() const override { return "erisc"; }
    unsigned channel() const { return channel_; }
    std::string describeQueue(unsigned q) const override;
    const EriscConfig& config() const { return cfg_; }
    void trace(TraceFile& tf) override;

    /// The base firmware's turn: the running kernel called run_routing()
    /// (explicitly, or because its main loop was idle for its context-switch
    /// interval: KernelContext::idleRound), or no kernel of this core is
    /// running (the base firmware loops freely). `cb(tick)` runs at the next
    /// turn (now, if no kernel is running).
    void atNextRoutingTurn(std::function<void(Tick)> cb);
    /// run_routing() was called (firmware API) by a kernel at local time `at`.
    void routingTurn(Tick at);
    bool kernelRunning() const;
    /// The last kernel returned: the base firmware runs again.
    void kernelFinished() override {
        if (!kernelRunning()) routingTurn(now());
    }
    void kernelSleeps(KernelContext& k) override;

private:
    /// A kernel asleep in an idle main loop that counts rounds reaches its
    /// turn at a time known now: schedule it (once per sleep).
    void armIdleTurn(KernelContext& k);

    std::vector<std::function<void(Tick)>> routingWaiters_;
    std::uint64_t armedSleep_ = ~std::uint64_t{0};
    EriscConfig cfg_;
    unsigned channel_;
    std::unique_ptr<Niu> niu0_;
    std::unique_ptr<Niu> niu1_;
};

}  // namespace cclsim
