#include "models/core/ProgrammableCore.h"

#include "models/common/Report.h"

namespace cclsim {

ProgrammableCore::ProgrammableCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId,
                                   CoreCoord coord, const L1Config& l1Config, const FirmwareCosts& costs)
    : sc_core::sc_module(name), l1("l1", l1Config), eq_(eq), chipId_(chipId), coord_(coord), costs_(costs) {}

ProgrammableCore::~ProgrammableCore() {
    for (auto& w : tracedWords_) l1.unwatchAll(w.get());
}

KernelContext& ProgrammableCore::launch(KernelLaunch launch) {
    for (const auto& k : kernels_)
        if (k->launch().processor == launch.processor)
            CCLSIM_ERROR(name(), "processor '{}' already runs kernel '{}'; cannot also run '{}'", launch.processor,
                         k->launch().name, launch.name);
    kernels_.push_back(std::make_unique<KernelContext>(*this, std::move(launch), unsigned(kernels_.size())));
    return *kernels_.back();
}

void ProgrammableCore::notifyActivity() {
    for (auto& k : kernels_) k->bump();
}

void ProgrammableCore::traceWord(std::uint32_t addr, const std::string& label) {
    for (const auto& w : tracedWords_)
        if (w->addr == addr) return;
    auto w = std::make_unique<TracedWord>();
    w->l1 = &l1;
    w->addr = addr;
    w->label = label;
    l1.watch(addr, 4, w.get());
    tracedWords_.push_back(std::move(w));
}

void ProgrammableCore::trace(TraceFile& tf) {
    for (auto& w : tracedWords_) {
        w->sig.set(l1.readU32(w->addr));
        w->sig.attach(tf, std::string(name()) + "." + w->label);
    }
    for (auto& k : kernels_) k->trace(tf);
}

}  // namespace cclsim
