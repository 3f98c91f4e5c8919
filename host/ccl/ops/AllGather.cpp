// all_gather: every rank's input block to every rank (GCL user guide 3.3).
// dim 0 concatenates the blocks in rank order; dim 1 interleaves rows of
// row_pages pages (the output's pages in order are then the gathered rows).
#include "host/ccl/CclOpError.h"
#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/EdmProgramFactory.h"
#include "host/ccl/factory/FabricProgramFactory.h"

namespace cclsim::ccl {

namespace {

CclShape shape(const CclSpec& s, unsigned n) {
    const std::uint64_t E = s.count;
    CclShape sh = blockShape(s, E, 1, n, E, n * E);
    if (s.dim == 1) {
        const std::uint64_t P = sh.in.pageElems();
        const std::uint64_t row = std::uint64_t(s.rowPages) * P;
        if (s.rowPages == 0 || E % row)
            throw CclOpError("row_pages", fmt::format("all_gather {}: the {} elements per rank do not split into rows "
                                                      "of {} pages ({} elements; {})",
                                                      specRef("dim", 1), E, s.rowPages, row, specRef("row_pages")));
        sh.out = BlockLayout{1, n * E, n * E, s.pageBytes, sh.in.elemBytes};  // rows interleave: pages in order
    }
    if (s.dim > 1) throw CclOpError("dim", fmt::format("{}: must be 0 or 1", specRef("dim", s.dim)));
    return sh;
}

void buildEdm(EdmProgramFactory& f, CclGroup& g) {
    f.gather(g, f.gatherPlan(g.topo));
}

void buildFabric(FabricProgramFactory& f, CclGroup& g) {
    f.ring(g, RingPhases{false, true});
}

}  // namespace

const CollectiveDef& allGatherCollective() {
    static const CollectiveDef def = [] {
        CollectiveDef d;
        d.op = golden::Op::AllGather;
        d.description = "all-gather over a ring or line of chips (EDM + worker kernels), data checked";
        d.gatherDim = true;
        d.sizeCountsOutput = true;
        d.ncclCount = [](std::uint64_t count, unsigned) { return count; };
        d.busFactor = [](unsigned n) { return double(n - 1) / n; };
        d.shape = shape;
        d.edmStreams = EdmStreamKind::Gather;
        d.buildEdm = buildEdm;
        d.buildFabric = buildFabric;
        return d;
    }();
    return def;
}

}  // namespace cclsim::ccl
