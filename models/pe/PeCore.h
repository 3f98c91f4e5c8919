// A worker (Tensix) core: L1, data-movement RISC-Vs hosting kernels, PE_DMA
// (the data plane) and PE_IPCQ (the inter-PE queue control plane).
#pragma once

#include "models/core/ProgrammableCore.h"
#include "models/pe/PeDma.h"
#include "models/pe/PeIpcq.h"

namespace cclsim {

struct PeCoreConfig {
    L1Config l1;
    PeDmaConfig dma;
    PeIpcqConfig ipcq;
    FirmwareCosts costs;
};

class PeCore : public ProgrammableCore {
public:
    PeDma dma;
    PeIpcq ipcq;

    PeCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId, CoreCoord coord, NocInterconnect& noc0,
           NocInterconnect& noc1, const PeCoreConfig& cfg);

    Niu& niu(unsigned noc) override { return dma.niu(noc); }
    unsigned nocClass(unsigned vc) const override { return vc; }
    std::string coreKind() const override { return "worker"; }
    void trace(TraceFile& tf) override;
};

}  // namespace cclsim
