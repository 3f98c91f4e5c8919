#include "golden/PtoGolden.h"

#include <stdexcept>

namespace cclsim::golden {

PtoTensor ptoScatterPart(const PtoTensor& root, unsigned rank, std::uint64_t rowsPerRank, std::uint64_t cols, DType t) {
    const std::uint64_t bytes = rowsPerRank * cols * elementBytes(t);
    if ((rank + 1) * bytes > root.size()) throw std::invalid_argument("ptoScatterPart: the root tensor is too small");
    return PtoTensor(root.begin() + std::ptrdiff_t(rank * bytes), root.begin() + std::ptrdiff_t((rank + 1) * bytes));
}

PtoTensor ptoGather(const std::vector<PtoTensor>& ranks) {
    PtoTensor out;
    for (const PtoTensor& r : ranks) out.insert(out.end(), r.begin(), r.end());
    return out;
}

PtoTensor ptoReduce(const std::vector<PtoTensor>& ranks, unsigned root, RedOp op, DType t) {
    if (root >= ranks.size()) throw std::invalid_argument("ptoReduce: root out of range");
    if (!supports(op, t)) throw std::invalid_argument("ptoReduce: operator does not support the type");
    const std::size_t n = ranks[root].size() / elementBytes(t);
    PtoTensor acc(ranks[root].size()), g(ranks[root].size());
    prepare(op, t, ranks[root].data(), acc.data(), n);
    for (unsigned r = 0; r < ranks.size(); ++r) {
        if (r == root) continue;
        if (ranks[r].size() != acc.size()) throw std::invalid_argument("ptoReduce: tensors differ in size");
        prepare(op, t, ranks[r].data(), g.data(), n);
        combine(op, t, acc.data(), g.data(), acc.data(), n);
    }
    finalize(op, t, acc.data(), n, unsigned(ranks.size()));
    return acc;
}

}  // namespace cclsim::golden
