// The registry of collectives (one line each) and the helpers the definitions share.
#include "host/ccl/Collectives.h"

#include "host/ccl/CclOpError.h"
#include "host/ccl/CclSpec.h"

#include <algorithm>
#include <stdexcept>

namespace cclsim::ccl {

// Every collective, in the order the command line lists them: one line per
// collective, naming the function its file under ops/ defines
// (`const CollectiveDef& <name>Collective()`).
#define CCLSIM_COLLECTIVES(X) \
    X(allGather)              \
    X(reduceScatter)          \
    X(allReduce)              \
    X(allToAll)               \
    X(broadcast)

#define CCLSIM_DECLARE_COLLECTIVE(name) const CollectiveDef& name##Collective();
CCLSIM_COLLECTIVES(CCLSIM_DECLARE_COLLECTIVE)
#undef CCLSIM_DECLARE_COLLECTIVE

const std::vector<const CollectiveDef*>& collectives() {
#define CCLSIM_LIST_COLLECTIVE(name) &name##Collective(),
    static const std::vector<const CollectiveDef*> all{CCLSIM_COLLECTIVES(CCLSIM_LIST_COLLECTIVE)};
#undef CCLSIM_LIST_COLLECTIVE
    return all;
}

const CollectiveDef& collective(golden::Op op) {
    for (const CollectiveDef* d : collectives())
        if (d->op == op) return *d;
    throw std::logic_error(fmt::format("collective {} is not registered", golden::opName(op)));
}

const CollectiveDef* findCollective(std::string_view name) {
    for (const CollectiveDef* d : collectives())
        if (d->name() == name) return d;
    return nullptr;
}

double busFactor(golden::Op op, unsigned n) {
    return collective(op).busFactor(n);
}

std::uint64_t sizeBytesOf(golden::Op op, std::uint64_t count, unsigned n, golden::DType t) {
    const std::uint64_t e = golden::elementBytes(t);
    return collective(op).sizeCountsOutput ? count * n * e : count * e;
}

CclShape blockShape(const CclSpec& s, std::uint64_t K, std::uint64_t inBlocks, std::uint64_t outBlocks,
                    std::uint64_t inValid, std::uint64_t outValid) {
    const std::uint32_t e = std::uint32_t(golden::elementBytes(s.dtype));
    const std::uint32_t P = s.pageBytes / e;
    CclShape sh;
    sh.blockPages = (K + P - 1) / P;
    if (sh.blockPages * std::max(inBlocks, outBlocks) > 0xffffffffull)
        throw CclOpError("count", fmt::format("{} elements is too large", s.count));
    sh.in = BlockLayout{inBlocks, K, inValid, s.pageBytes, e};
    sh.out = BlockLayout{outBlocks, K, outValid, s.pageBytes, e};
    return sh;
}

void wholeInputShape(CclShape& sh, const CclSpec& s, bool wholeOutput) {
    const std::uint32_t e = std::uint32_t(golden::elementBytes(s.dtype));
    const std::uint64_t E = s.count, P = s.pageBytes / e;
    sh.blockPages = (E + P - 1) / P;
    sh.in = BlockLayout{1, E, E, s.pageBytes, e};
    if (wholeOutput) sh.out = BlockLayout{1, E, E, s.pageBytes, e};
    if (E > 0xffffffffull) throw CclOpError("count", fmt::format("{} elements is too large", E));
}

}  // namespace cclsim::ccl
