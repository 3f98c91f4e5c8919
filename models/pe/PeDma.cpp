#include "models/pe/PeDma.h"

namespace cclsim {

const char* dmaVcName(DmaVc vc) {
    return vc == DmaVc::Comm ? "vc_comm" : "vc_compute";
}

namespace {
NiuConfig niuConfig(const PeDmaConfig& c) {
    NiuConfig n;
    n.injectBytesPerNs = c.injectBytesPerNs;
    n.chunkBytes = c.chunkBytes;
    n.classNames = {"vc_compute", "vc_comm"};
    n.classWeights = {c.computeWeight, c.commWeight};
    n.responseWeight = c.responseWeight;
    return n;
}
}  // namespace

PeDma::PeDma(const sc_core::sc_module_name& name, EventQueue& eq, NocInterconnect& noc0, NocInterconnect& noc1,
             CoreCoord self, const PeDmaConfig& cfg)
    : sc_core::sc_module(name),
      cfg_(cfg),
      niu0_(std::make_unique<Niu>("noc0", eq, noc0, self, niuConfig(cfg))),
      niu1_(std::make_unique<Niu>("noc1", eq, noc1, self, niuConfig(cfg))) {}

void PeDma::setVcWeights(double compute, double comm, double chunkBytes) {
    cfg_.computeWeight = compute;
    cfg_.commWeight = comm;
    cfg_.chunkBytes = chunkBytes;
    niu0_->setClassWeights({compute, comm}, chunkBytes);
    niu1_->setClassWeights({compute, comm}, chunkBytes);
}

void PeDma::trace(TraceFile& tf) {
    niu0_->trace(tf);
    niu1_->trace(tf);
}

}  // namespace cclsim
