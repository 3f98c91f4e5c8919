#include "models/pe/PeCore.h"

namespace cclsim {

PeCore::PeCore(const sc_core::sc_module_name& name, EventQueue& eq, unsigned chipId, CoreCoord coord,
               NocInterconnect& noc0, NocInterconnect& noc1, const PeCoreConfig& cfg)
    : ProgrammableCore(name, eq, chipId, coord, cfg.l1, cfg.costs),
      dma("pe_dma", eq, noc0, noc1, coord, cfg.dma),
      ipcq("pe_ipcq", l1, chipId, coord, cfg.ipcq) {
    dma.niu(0).mem.bind(l1.socket);
    dma.niu(1).mem.bind(l1.socket);
    dma.niu(0).setActivityLog(&activity());
    dma.niu(1).setActivityLog(&activity());
    dma.niu(0).setMemoryBytes(l1.size());
    dma.niu(1).setMemoryBytes(l1.size());
}

void PeCore::trace(TraceFile& tf) {
    ProgrammableCore::trace(tf);
    dma.trace(tf);
    ipcq.trace(tf);
}

}  // namespace cclsim
