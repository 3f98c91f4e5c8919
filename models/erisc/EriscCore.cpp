#include "models/erisc/EriscCore.h"

#include <fmt/format.h>

namespace cclsim {

namespace {
std::vector<AddressRange> sendable(const EriscConfig& c) {
    return {AddressRange{c.syncInfoBase, c.syncInfoBase + 16 * c.maxConcurrentTransactions},
            AddressRange{c.unreservedBase, c.kernelRegionEnd()}};
}
NiuConfig niuConfig(const EriscConfig& c) {
    NiuConfig n;
    n.injectBytesPerNs = c.injectBytesPerNs;
    n.chunkBytes = c.niuChunkBytes;
    n.classNames = {"cmd"};
    n.classWeights = {1.0};
    n.responseWeight = 1.0;
    return n;
}
}  // namespace

EriscCore::EriscCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId, unsigned channel,
                     CoreCoord coord, NocInterconnect& noc0, NocInterconnect& noc1, const EriscConfig& cfg)
    : ProgrammableCore(name, eq, chipId, coord, cfg.l1, cfg.costs),
      eth("eth", eq, cfg.eth, sendable(cfg)),
      cfg_(cfg),
      channel_(channel),
      niu0_(std::make_unique<Niu>("noc0", eq, noc0, coord, niuConfig(cfg))),
      niu1_(std::make_unique<Niu>("noc1", eq, noc1, coord, niuConfig(cfg))) {
    niu0_->mem.bind(l1.socket);
    niu1_->mem.bind(l1.socket);
    eth.l1.bind(l1.socket);
    niu0_->setActivityLog(&activity());
    niu1_->setActivityLog(&activity());
    eth.setActivityLog(&activity());
    niu0_->setMemoryBytes(l1.size());
    niu1_->setMemoryBytes(l1.size());
    eth.onTxqChange = [this] { notifyActivity(); };
    // Control words survive --no-data: the erisc_info channel-sync words and
    // the handshake scratch word.
    l1.markControl(cfg.syncInfoBase, 16 * cfg.maxConcurrentTransactions);
    l1.markControl(cfg.unreservedBase, 16);
}

std::string EriscCore::describeQueue(unsigned q) const {
    EthSubsystem& e = const_cast<EthSubsystem&>(eth);
    return fmt::format("{} commands queued, {} not taken by the MAC (registers {}, FIFO {} B, accept ahead {}), MAC {}",
                       eth.depth(q), eth.notTaken(q), eth.config().txQueueDepth, eth.config().txFifoBytes,
                       eth.acceptAhead(q), e.mac().idle() ? "idle" : "busy");
}

void EriscCore::trace(TraceFile& tf) {
    ProgrammableCore::trace(tf);
    eth.trace(tf);
}

bool EriscCore::kernelRunning() const {
    for (const auto& k : kernels())
        if (k->state() != KernelContext::State::Done && k->state() != KernelContext::State::Pending) return true;
    return false;
}

void EriscCore::atNextRoutingTurn(std::function<void(Tick)> cb) {
    if (!kernelRunning()) {
        cb(now());
        return;
    }
    routingWaiters_.push_back(std::move(cb));
    for (const auto& k : kernels())
        if (k->asleep()) armIdleTurn(*k);
}

void EriscCore::kernelSleeps(KernelContext& k) {
    if (!routingWaiters_.empty()) armIdleTurn(k);
}

void EriscCore::armIdleTurn(KernelContext& k) {
    const Tick at = k.idleTurnAt();
    if (at == kNever || armedSleep_ == k.sleepId()) return;
    armedSleep_ = k.sleepId();
    const std::uint64_t sleep = k.sleepId();
    KernelContext* kp = &k;
    eq().at(std::max(at, now()), [this, kp, sleep] {
        armedSleep_ = ~std::uint64_t{0};
        // Woken meanwhile: the loop did something and its count restarted.
        if (!kp->asleep() || kp->sleepId() != sleep || routingWaiters_.empty()) return;
        // The loop reached its interval while idle and called run_routing().
        const Tick end = now() + costs().runRouting;
        kp->tookTurnAsleep(now(), costs().runRouting);
        routingTurn(end);
        // More waiters later in the same sleep: the next turn, one interval on.
        if (!routingWaiters_.empty()) armIdleTurn(*kp);
    });
}

void EriscCore::routingTurn(Tick at) {
    std::vector<std::function<void(Tick)>> waiting;
    waiting.swap(routingWaiters_);
    for (auto& cb : waiting) cb(at);
}

}  // namespace cclsim
