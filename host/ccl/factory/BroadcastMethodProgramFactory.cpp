// The broadcast method: exchange whole inputs, then reduce locally on every rank.
#include "host/ccl/factory/BroadcastMethodProgramFactory.h"

#include "firmware/ccl/ccl_kernels.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/FabricExchange.h"
#include "host/common/DataCodes.h"

#include <algorithm>

namespace cclsim::ccl {

BroadcastMethodProgramFactory::BroadcastMethodProgramFactory(FactoryContext& ctx, EdmFabric& edm)
    : ctx_(ctx), edm_(ctx, edm) {}

void BroadcastMethodProgramFactory::build(CclGroup& g) {
    const CclTopology& t = g.topo;
    const CclSpec& s = ctx_.spec;
    const unsigned n = ctx_.plan.ranks;
    const std::uint32_t segment = std::uint32_t(ctx_.plan.shape.blockPages);  // a whole input
    std::vector<Buffer> scratch;
    DoneSignals done;
    std::vector<CoreCoord> reducer;
    for (unsigned pos = 0; pos < n; ++pos) {
        const unsigned chip = t.order[pos];
        Program& p = ctx_.rt.program(chip);
        scratch.push_back(p.createBuffer(std::uint64_t(n) * segment, s.pageBytes, !s.l1Buffers));
        reducer.push_back(ctx_.takeCore(chip));
        done.sem.push_back(
            RemoteSem{reducer.back().x, reducer.back().y, p.createSemaphore(reducer.back(), 0, "done_sem")});
        done.count.push_back(0);
    }
    const MethodPlan::Range whole{0, segment};
    ExchangePlan x;
    x.dst = &scratch;
    x.kernelPerDirection = false;  // one kernel per rank multicasts both ways
    x.external = &done;            // the reducers wait
    if (!FabricExchange(ctx_, g, x).build().empty()) {
        // Pages larger than a fabric packet: the ring all-gather's streams instead.
        GatherOptions o;
        o.into = &scratch;
        o.done = &done;
        o.range = &whole;
        edm_.gather(g, edm_.gatherPlan(t), o);
    }
    // The own fracture of all_reduce's whole output stays; reduce_scatter extracts its fracture.
    const bool extract = s.op != golden::Op::AllReduce;
    const std::uint64_t F = g.golden.fracture();
    for (unsigned pos = 0; pos < n; ++pos) {
        const unsigned chip = t.order[pos];
        LocalReduceArgs a;
        a.unit = unitArgs(ctx_, pos, TensorSlicer(segment, ctx_.plan.pagesPerChunk, 1).unit(0), t.ring(),
                          allocateStaging(ctx_, chip, reducer[pos], n + 1), whole);
        a.redop = std::uint32_t(reduceCode(s.redop));
        a.dtype = std::uint32_t(dtypeCode(s.dtype));
        a.group_size = n;
        a.gathered = tensorArgs(scratch[pos]);
        a.output = tensorArgs(g.ranks[pos].output);
        a.segment_pages = segment;
        a.done_sem = done.sem[pos].addr;
        a.done_count = done.count[pos];  // every gather kernel of the rank
        a.extract = extract ? 1 : 0;
        a.elem_bytes = std::uint32_t(golden::elementBytes(s.dtype));
        a.frac_first = std::uint32_t(std::min<std::uint64_t>(pos * F, g.golden.count));
        a.frac_elems = std::uint32_t(std::min<std::uint64_t>(F, g.golden.count - a.frac_first));
        createWorkerKernel(ctx_, chip, reducer[pos], "local_reduce", fw::ccl::local_reduce_main, pack_args(a), 0);
    }
}

}  // namespace cclsim::ccl
