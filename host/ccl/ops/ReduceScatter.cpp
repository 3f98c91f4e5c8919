// reduce_scatter: the element-wise reduction of every rank's input, split
// into n fractures of ceil(E / n) elements; rank r keeps fracture r (GCL
// user guide 3.3). Runs every method, the broadcast method included.
#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/EdmProgramFactory.h"
#include "host/ccl/factory/FabricProgramFactory.h"

namespace cclsim::ccl {

namespace {

CclShape shape(const CclSpec& s, unsigned n) {
    const std::uint64_t E = s.count, K = (E + n - 1) / n;
    CclShape sh = blockShape(s, K, n, 1, E, K);
    if (s.method == golden::Method::Broadcast) wholeInputShape(sh, s, false);
    return sh;
}

void buildEdm(EdmProgramFactory& f, CclGroup& g) {
    f.reduce(g, false, {});
}

void buildFabric(FabricProgramFactory& f, CclGroup& g) {
    f.ring(g, RingPhases{true, false});
}

}  // namespace

const CollectiveDef& reduceScatterCollective() {
    static const CollectiveDef def = [] {
        CollectiveDef d;
        d.op = golden::Op::ReduceScatter;
        d.description = "reduce-scatter (GCL operators and types) over a ring or line, data checked";
        d.reduces = true;
        d.ncclCount = [](std::uint64_t count, unsigned) { return count; };
        d.busFactor = [](unsigned n) { return double(n - 1) / n; };
        d.shape = shape;
        d.edmStreams = EdmStreamKind::Reduce;
        d.buildEdm = buildEdm;
        d.buildFabric = buildFabric;
        return d;
    }();
    return def;
}

}  // namespace cclsim::ccl
