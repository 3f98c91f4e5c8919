#include "golden/AllReduceGolden.h"

#include <stdexcept>

namespace cclsim::golden {

std::vector<std::uint8_t> rankTensor(std::uint64_t seed, unsigned rank, DType t, std::uint64_t bytes) {
    if (bytes % elementBytes(t)) throw std::invalid_argument("rankTensor: bytes must be whole elements");
    std::vector<std::uint8_t> out(bytes);
    fillInput(seed, rank, t, RedOp::Add, 0, bytes / elementBytes(t), out.data());
    return out;
}

namespace {

/// acc over [off, off + len) = sum of x[order[0]], x[order[1]], ... left to right.
void sumRange(const Tensors& x, const std::vector<unsigned>& order, std::size_t off, std::size_t len, DType t,
              std::vector<std::uint8_t>& out) {
    std::vector<std::uint8_t> acc(x.at(order.front()).begin() + off, x.at(order.front()).begin() + off + len);
    for (std::size_t k = 1; k < order.size(); ++k)
        combine(RedOp::Add, t, acc.data(), x.at(order[k]).data() + off, acc.data(), len / elementBytes(t));
    std::copy(acc.begin(), acc.end(), out.begin() + off);
}

}  // namespace

std::vector<std::uint8_t> ringAllReduce(const Tensors& x, const std::vector<unsigned>& ring, bool bidir, DType t) {
    const std::size_t n = ring.size();
    const std::size_t bytes = x.at(ring.front()).size();
    const std::size_t e = elementBytes(t);
    if (n == 0 || bytes % (n * e * (bidir ? 2 : 1)))
        throw std::invalid_argument("ringAllReduce: the tensor does not split into whole-element chunks");
    const std::size_t chunk = bytes / n;
    std::vector<std::uint8_t> out(bytes);
    for (std::size_t f = 0; f < n; ++f) {
        std::vector<unsigned> east, west;
        for (std::size_t k = 1; k <= n; ++k) {
            east.push_back(ring[(f + k) % n]);
            west.push_back(ring[(f + n * k - k) % n]);
        }
        if (!bidir) {
            sumRange(x, east, f * chunk, chunk, t, out);
        } else {
            sumRange(x, east, f * chunk, chunk / 2, t, out);
            sumRange(x, west, f * chunk + chunk / 2, chunk / 2, t, out);
        }
    }
    return out;
}

std::vector<std::uint8_t> meshAllReduce(const Tensors& x, unsigned rows, unsigned cols, DType t) {
    if (std::size_t(rows) * cols != x.size()) throw std::invalid_argument("meshAllReduce: rows x cols != ranks");
    Tensors rowSums;
    std::vector<unsigned> rowRing(cols), colRing(rows);
    for (unsigned r = 0; r < rows; ++r) {
        for (unsigned c = 0; c < cols; ++c) rowRing[c] = r * cols + c;
        rowSums.push_back(ringAllReduce(x, rowRing, false, t));
    }
    for (unsigned r = 0; r < rows; ++r) colRing[r] = r;
    return ringAllReduce(rowSums, colRing, false, t);
}

namespace {
std::vector<std::uint8_t> subtree(const Tensors& x, std::size_t r, DType t) {
    std::vector<std::uint8_t> acc = x[r];
    for (std::size_t c : {2 * r + 1, 2 * r + 2}) {
        if (c >= x.size()) continue;
        const std::vector<std::uint8_t> s = subtree(x, c, t);
        combine(RedOp::Add, t, acc.data(), s.data(), acc.data(), acc.size() / elementBytes(t));
    }
    return acc;
}
}  // namespace

std::vector<std::uint8_t> treeAllReduce(const Tensors& x, DType t) {
    return subtree(x, 0, t);
}

}  // namespace cclsim::golden
