// A worker (Tensix) core: L1, data-movement RISC-Vs hosting kernels, PE_DMA.
#pragma once

#include "models/core/ProgrammableCore.h"
#include "models/pe/PeDma.h"

namespace cclsim {

struct PeCoreConfig {
    L1Config l1;
    PeDmaConfig dma;
    FirmwareCosts costs;
};

class PeCore : public ProgrammableCore {
public:
    PeDma dma;

    PeCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId, CoreCoord coord, Noc& noc0,
           Noc& noc1, const PeCoreConfig& cfg);

    Niu& niu(unsigned noc) override { return dma.niu(noc); }
    unsigned nocClass(unsigned vc) const override { return vc; }
    std::string coreKind() const override { return "worker"; }
    void trace(TraceFile& tf) override;
};

}  // namespace cclsim
