// all_to_all: block q of rank r's input becomes block r of rank q's output
// (GCL user guide 3.3); the input's first dimension is the replicas, so E
// must split into n equal blocks.
#include "host/ccl/CclOpError.h"
#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/EdmProgramFactory.h"
#include "host/ccl/factory/FabricProgramFactory.h"

namespace cclsim::ccl {

namespace {

CclShape shape(const CclSpec& s, unsigned n) {
    const std::uint64_t E = s.count;
    if (E % n)
        throw CclOpError("count", fmt::format("all_to_all: the input's first dimension must equal the {} replicas: {} "
                                              "elements do not split into {} equal blocks",
                                              n, E, n));
    const std::uint64_t K = E / n;
    return blockShape(s, K, n, n, n * K, n * K);
}

void buildEdm(EdmProgramFactory& f, CclGroup& g) {
    f.allToAll(g);
}

void buildFabric(FabricProgramFactory& f, CclGroup& g) {
    f.allToAll(g);
}

}  // namespace

const CollectiveDef& allToAllCollective() {
    static const CollectiveDef def = [] {
        CollectiveDef d;
        d.op = golden::Op::AllToAll;
        d.description = "all-to-all over a ring or line of chips (relayed), data checked";
        d.ncclCount = [](std::uint64_t count, unsigned n) { return count / n; };
        d.busFactor = [](unsigned n) { return double(n - 1) / n; };
        d.shape = shape;
        d.edmStreams = EdmStreamKind::AllToAll;
        d.buildEdm = buildEdm;
        d.buildFabric = buildFabric;
        return d;
    }();
    return def;
}

}  // namespace cclsim::ccl
