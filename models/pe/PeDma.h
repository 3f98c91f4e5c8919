// PE_DMA: the worker core's DMA engine with two virtual channels.
//
// Every noc_async_* command of a worker kernel is a DMA job on one of two
// virtual channels (docs/design/pe-ipcq.md#d8):
//   vc_compute - tile loads/stores of compute kernels (default for noc_async_*)
//   vc_comm    - communication traffic (CCL workers, IPCQ sends)
// Each VC is its own FIFO; both share the core's NoC injection bandwidth by
// chunk-level interleave (default 256 B chunks) and weighted round-robin
// (default 50/50). A long transfer on one VC therefore delays the other by
// at most one chunk and then only halves its bandwidth: no head-of-line
// blocking. There is one injection port per NoC, each arbitrated this way.
#pragma once

#include "models/common/EventQueue.h"
#include "models/common/Trace.h"
#include "models/noc/Niu.h"

#include <systemc>

#include <memory>

namespace cclsim {

enum class DmaVc : unsigned { Compute = 0, Comm = 1 };
const char* dmaVcName(DmaVc vc);

struct PeDmaConfig {
    double chunkBytes = 256;
    double computeWeight = 50;
    double commWeight = 50;
    double responseWeight = 50;    ///< serving remote reads of this core's L1
    double injectBytesPerNs = 32;  ///< per NoC injection port
};

class PeDma : public sc_core::sc_module {
public:
    PeDma(const sc_core::sc_module_name& name, EventQueue& eq, NocInterconnect& noc0, NocInterconnect& noc1,
          CoreCoord self, const PeDmaConfig& cfg);
    PeDma(const PeDma&) = delete;
    PeDma& operator=(const PeDma&) = delete;

    Niu& niu(unsigned noc) { return noc ? *niu1_ : *niu0_; }
    const PeDmaConfig& config() const { return cfg_; }
    /// Weighted round-robin weights of vc_compute and vc_comm and the chunk
    /// size, on both NoC ports (a process group's ccl.yaml; before traffic).
    void setVcWeights(double compute, double comm, double chunkBytes);
    void trace(TraceFile& tf);

private:
    PeDmaConfig cfg_;
    std::unique_ptr<Niu> niu0_;
    std::unique_ptr<Niu> niu1_;
};

}  // namespace cclsim
