#include "platforms/Platform.h"

#include "models/common/Report.h"

namespace cclsim {

Platform::Platform(const sc_core::sc_module_name& name, const ClusterDescriptor& desc, const PlatformOptions& opts)
    : sc_core::sc_module(name), eq("eq"), desc_(desc), opts_(opts) {
    ChipOptions co;
    co.storePayload = opts.storePayload;
    if (opts.fastForward) fastForward_ = std::make_unique<FastForward>();
    for (const ChipDesc& c : desc_.chips) {
        const std::string nm = "chip" + std::to_string(c.id);
        chips_.push_back(std::make_unique<Chip>(nm.c_str(), eq, c.id, desc_.arch, co));
    }
    for (const LinkDesc& l : desc_.links) {
        EthSubsystem& a = chips_[l.a.chip]->erisc(l.a.chan).eth;
        EthSubsystem& b = chips_[l.b.chip]->erisc(l.b.chan).eth;
        a.connect(b, EthLinkInfo{true, l.dispatch, l.b.chip, l.b.chan});
        b.connect(a, EthLinkInfo{true, l.dispatch, l.a.chip, l.a.chan});
    }
    if (!opts_.faults.empty()) faults_ = std::make_unique<FaultInjector>(*this, opts_.faults);
    if (opts_.skipLinksWithRetrain && faults_)
        for (LinkDesc& l : desc_.links) l.excluded = !l.dispatch && faults_->retrainsAtInit(l.a.chip, l.a.chan);
}

std::vector<const LinkDesc*> Platform::excludedLinks() const {
    std::vector<const LinkDesc*> out;
    for (const LinkDesc& l : desc_.links)
        if (l.excluded) out.push_back(&l);
    return out;
}

Chip& Platform::chip(unsigned id) {
    if (id >= chips_.size()) CCLSIM_ERROR(name(), "chip {} does not exist (the board has {})", id, chips_.size());
    return *chips_[id];
}

EthStats Platform::ethStats() {
    EthStats total;
    for (auto& c : chips_)
        for (unsigned ch = 0; ch < c->numEthChannels(); ++ch) {
            const EthStats& s = c->erisc(ch).eth.stats();
            total.commands += s.commands;
            total.frames += s.frames;
            total.payloadBytes += s.payloadBytes;
            total.wireBytes += s.wireBytes;
        }
    return total;
}

void Platform::trace(TraceFile& tf) {
    for (auto& c : chips_) c->trace(tf, opts_.traceAllCores);
    if (fastForward_) fastForward_->trace(tf, std::string(name()) + ".fast_forward");
}

}  // namespace cclsim
