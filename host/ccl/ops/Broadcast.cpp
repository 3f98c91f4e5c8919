// broadcast: the root rank's input to every rank (GCL user guide 3.3); root
// is a position in the group's order.
#include "host/ccl/CclOpError.h"
#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/EdmProgramFactory.h"
#include "host/ccl/factory/FabricProgramFactory.h"

namespace cclsim::ccl {

namespace {

CclShape shape(const CclSpec& s, unsigned n) {
    const std::uint64_t E = s.count;
    CclShape sh = blockShape(s, E, 1, 1, E, E);
    if (s.root >= n)
        throw CclOpError("root", fmt::format("{}: the collective has ranks 0..{}", specRef("root", s.root), n - 1));
    return sh;
}

void buildEdm(EdmProgramFactory& f, CclGroup& g) {
    f.gather(g, f.gatherPlan(g.topo, std::int32_t(f.spec().root)));
}

void buildFabric(FabricProgramFactory& f, CclGroup& g) {
    f.gather(g, int(f.spec().root));
}

}  // namespace

const CollectiveDef& broadcastCollective() {
    static const CollectiveDef def = [] {
        CollectiveDef d;
        d.op = golden::Op::Broadcast;
        d.description = "broadcast from a root rank over a ring or line of chips, data checked";
        d.rooted = true;
        d.ncclCount = [](std::uint64_t count, unsigned) { return count; };
        d.busFactor = [](unsigned) { return 1.0; };
        d.shape = shape;
        d.edmStreams = EdmStreamKind::Gather;
        d.buildEdm = buildEdm;
        d.buildFabric = buildFabric;
        return d;
    }();
    return def;
}

}  // namespace cclsim::ccl
