// all_reduce = reduce_scatter then all_gather (GCL user guide 3.3): every
// rank ends with the whole element-wise reduction. On the EDM each rank's
// reduce movers store its fracture and signal the gather senders that
// spread it; on the fabric the ring runs both phases.
#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/EdmProgramFactory.h"
#include "host/ccl/factory/FabricProgramFactory.h"

namespace cclsim::ccl {

namespace {

CclShape shape(const CclSpec& s, unsigned n) {
    const std::uint64_t E = s.count, K = (E + n - 1) / n;
    CclShape sh = blockShape(s, K, n, n, E, E);
    if (s.method == golden::Method::Broadcast) wholeInputShape(sh, s, true);
    return sh;
}

void buildEdm(EdmProgramFactory& f, CclGroup& g) {
    GatherOptions o;
    o.ownFromOutput = true;
    const GatherSenders senders = f.gather(g, f.gatherPlan(g.topo), o);
    f.reduce(g, true, senders);
}

void buildFabric(FabricProgramFactory& f, CclGroup& g) {
    f.ring(g, RingPhases{true, true});
}

}  // namespace

const CollectiveDef& allReduceCollective() {
    static const CollectiveDef def = [] {
        CollectiveDef d;
        d.op = golden::Op::AllReduce;
        d.description = "all-reduce = reduce-scatter then all-gather (GCL operators and types), data checked";
        d.reduces = true;
        d.ncclCount = [](std::uint64_t count, unsigned) { return count; };
        d.busFactor = [](unsigned n) { return 2.0 * (n - 1) / n; };
        d.shape = shape;
        d.edmStreams = EdmStreamKind::ReduceThenGather;
        d.buildEdm = buildEdm;
        d.buildFabric = buildFabric;
        return d;
    }();
    return def;
}

}  // namespace cclsim::ccl
