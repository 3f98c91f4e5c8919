// Argument helpers every program factory uses.
#include "host/ccl/factory/FactoryContext.h"

#include "host/ccl/Collectives.h"
#include "models/pe/PeDma.h"

namespace cclsim::ccl {

std::uint32_t gatherRowPages(const CclSpec& s) {
    return collective(s.op).gatherDim && s.dim == 1 ? s.rowPages : 0;
}

UnitArgs unitArgs(const FactoryContext& c, unsigned pos, const ChunkSet& cs, bool ring, std::uint32_t staging,
                  MethodPlan::Range r) {
    UnitArgs u;
    u.page_bytes = c.spec.pageBytes;
    u.pages_per_chunk = c.plan.pagesPerChunk;
    u.block_pages = std::uint32_t(c.plan.shape.blockPages);
    u.range_first = r.first;
    u.range_pages = r.pages;
    u.chunk_first = cs.first;
    u.chunk_stride = cs.stride;
    u.ranks = c.plan.ranks;
    u.rank = pos;
    u.ring = ring ? 1 : 0;
    u.staging = staging;
    return u;
}

std::uint32_t allocateStaging(FactoryContext& c, unsigned chip, CoreCoord core, unsigned slots) {
    return c.rt.program(chip).allocateL1(core, slots * c.plan.pagesPerChunk * c.spec.pageBytes, 32);
}

KernelConfig fabricWorkerConfig(bool reader) {
    KernelConfig kc;
    kc.processor = reader ? "ncrisc" : "brisc";
    kc.noc = reader ? 0 : 1;
    kc.vc = unsigned(DmaVc::Comm);
    kc.waitTimeout = KernelConfig::WaitTimeout::Fabric;
    return kc;
}

void createWorkerKernel(FactoryContext& c, unsigned chip, CoreCoord core, const char* name, void (*entry)(),
                        std::vector<std::uint32_t> args, unsigned noc) {
    KernelConfig kc;
    kc.noc = noc;
    kc.vc = unsigned(DmaVc::Comm);  // CCL traffic rides the communication VC
    kc.waitTimeout =
        c.spec.impl == CclSpec::Impl::Edm ? KernelConfig::WaitTimeout::Edm : KernelConfig::WaitTimeout::Fabric;
    Program& p = c.rt.program(chip);
    const KernelHandle k = p.createKernel(name, entry, core, kc);
    p.setRuntimeArgs(k, std::move(args));
}

}  // namespace cclsim::ccl
