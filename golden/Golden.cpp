#include "golden/Golden.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace cclsim::golden {

const char* opName(Op op) {
    switch (op) {
        case Op::AllGather: return "all_gather";
        case Op::ReduceScatter: return "reduce_scatter";
        case Op::AllReduce: return "all_reduce";
        case Op::AllToAll: return "all_to_all";
        case Op::Broadcast: return "broadcast";
    }
    return "?";
}

const char* methodName(Method m) {
    switch (m) {
        case Method::Clockwise: return "clockwise_ring";
        case Method::Anticlockwise: return "anticlockwise_ring";
        case Method::BidirPair: return "bidirectional_ring_pair";
        case Method::MeetInMiddle: return "meet_in_middle_ring";
        case Method::Line: return "line";
        case Method::Broadcast: return "broadcast";
        case Method::Direct: return "direct";
    }
    return "?";
}

Method parseMethod(const std::string& s) {
    for (Method m : {Method::Clockwise, Method::Anticlockwise, Method::BidirPair, Method::MeetInMiddle, Method::Line,
                     Method::Broadcast})
        if (s == methodName(m)) return m;
    throw std::invalid_argument("unknown collective method '" + s + "'");
}

std::uint64_t Collective::outputCount() const {
    switch (op) {
        case Op::AllGather: return count * ranks;
        case Op::ReduceScatter: return fracture();
        default: return count;
    }
}

Recipe recipe(const Collective& c, unsigned f, std::uint64_t k) {
    const unsigned n = c.ranks;
    auto at = [n](long p) { return unsigned(((p % long(n)) + long(n)) % long(n)); };
    Recipe r;
    r.own = f;
    Method m = c.method;
    if (m == Method::BidirPair) {
        const std::uint64_t pages = (c.fracture() + c.pageElements - 1) / c.pageElements;
        const std::uint64_t page = k / c.pageElements;
        if (c.pairWorkers == 0) {
            m = page < (pages + 1) / 2 ? Method::Clockwise : Method::Anticlockwise;
        } else {
            // Which range holds the page, then whose turn covers it.
            const std::uint64_t W = c.pairWorkers, G = std::max<std::uint32_t>(1, c.pairChunkPages);
            std::uint64_t w = 0;
            while ((w + 1) * pages / W <= page) ++w;
            const std::uint64_t lo = w * pages / W, hi = (w + 1) * pages / W;
            std::uint64_t at = lo;
            bool clockwise = true;
            for (;;) {
                const std::uint64_t rest = hi - at;
                const std::uint64_t take = clockwise ? std::min(rest / 2, G) : std::min(rest, G);
                if (page < at + take) break;
                at += take;
                clockwise = !clockwise;
            }
            m = clockwise ? Method::Clockwise : Method::Anticlockwise;
        }
    }
    switch (m) {
        case Method::Clockwise:
            for (unsigned j = 1; j < n; ++j) r.left.push_back(at(long(f) + j));
            break;
        case Method::Anticlockwise:
            for (unsigned j = 1; j < n; ++j) r.right.push_back(at(long(f) - j));
            break;
        case Method::MeetInMiddle: {
            const unsigned h = n / 2;  // ceil((n - 1) / 2)
            for (unsigned j = h; j >= 1; --j) r.left.push_back(at(long(f) - j));
            for (unsigned j = n - 1 - h; j >= 1; --j) r.right.push_back(at(long(f) + j));
            break;
        }
        case Method::Line:
            for (unsigned j = 0; j < f; ++j) r.left.push_back(j);
            for (unsigned j = n - 1; j > f; --j) r.right.push_back(j);
            break;
        case Method::Broadcast:
            r.left.clear();
            for (unsigned j = 0; j + 1 < n; ++j) r.left.push_back(j);
            r.own = n - 1;
            break;
        case Method::Direct:
            for (unsigned j = 0; j < n; ++j)
                if (j != f) r.left.push_back(j);
            break;
        case Method::BidirPair: break;
    }
    return r;
}

namespace {

/// Reduce elements [off, off + len) of the inputs by `rc` into out[off...].
void reduceRange(const Collective& c, const std::vector<Tensor>& x, const Recipe& rc, std::uint64_t off,
                 std::size_t len, std::uint8_t* out) {
    const std::size_t e = elementBytes(c.dtype);
    Tensor g(len * e), acc(len * e), side(len * e);
    auto fold = [&](const std::vector<unsigned>& ranks, Tensor& into) {
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            prepare(c.redop, c.dtype, x[ranks[i]].data() + off * e, g.data(), len);
            if (i == 0)
                into = g;
            else
                combine(c.redop, c.dtype, into.data(), g.data(), into.data(), len);
        }
    };
    prepare(c.redop, c.dtype, x[rc.own].data() + off * e, acc.data(), len);
    if (!rc.left.empty()) {
        fold(rc.left, side);
        combine(c.redop, c.dtype, side.data(), acc.data(), acc.data(), len);  // L (+) g(x_own)
    }
    if (!rc.right.empty()) {
        fold(rc.right, side);
        combine(c.redop, c.dtype, acc.data(), side.data(), acc.data(), len);  // (...) (+) R
    }
    finalize(c.redop, c.dtype, acc.data(), len, c.ranks);
    std::memcpy(out, acc.data(), len * e);
}

/// The reduction of every element (count elements).
Tensor reduceAll(const Collective& c, const std::vector<Tensor>& x) {
    const std::size_t e = elementBytes(c.dtype);
    const std::uint64_t F = c.fracture();
    Tensor out(c.count * e);
    for (unsigned f = 0; f < c.ranks; ++f) {
        const std::uint64_t lo = std::uint64_t(f) * F, hi = std::min<std::uint64_t>(c.count, lo + F);
        std::uint64_t k = lo;
        while (k < hi) {
            // A run of elements with one recipe (the pair method switches once, at a page).
            std::uint64_t end = hi;
            if (c.method == Method::BidirPair && c.pairWorkers) {
                end = std::min(hi, lo + ((k - lo) / c.pageElements + 1) * c.pageElements);  // a page at a time
            } else if (c.method == Method::BidirPair) {
                const std::uint64_t pages = (F + c.pageElements - 1) / c.pageElements;
                const std::uint64_t split = lo + (pages + 1) / 2 * c.pageElements;
                if (k < split) end = std::min(hi, split);
            }
            reduceRange(c, x, recipe(c, f, k - lo), k, std::size_t(end - k), out.data() + k * e);
            k = end;
        }
    }
    return out;
}

}  // namespace

Tensor makeInput(const Collective& c, std::uint64_t seed, unsigned id) {
    Tensor t(c.count * elementBytes(c.dtype));
    fillInput(seed, id, c.dtype, c.redop, 0, c.count, t.data());
    return t;
}

void forEachExpectedOutput(const Collective& c, const std::vector<Tensor>& x,
                           const std::function<void(unsigned, const Tensor&)>& f) {
    const unsigned n = c.ranks;
    const std::size_t e = elementBytes(c.dtype);
    if (n == 0 || x.size() != n) throw std::invalid_argument("expectedOutputs: one input per rank");
    for (const Tensor& t : x)
        if (t.size() != c.count * e) throw std::invalid_argument("expectedOutputs: every input holds count elements");
    const bool reduces = c.op == Op::ReduceScatter || c.op == Op::AllReduce;
    if (reduces && !supports(c.redop, c.dtype))
        throw std::invalid_argument(std::string(redOpName(c.redop)) + " does not support " + dtypeName(c.dtype));
    // At most one output tensor is alive at a time (a 256 MiB all-gather on
    // eight chips would otherwise hold eight identical 256 MiB tensors).
    switch (c.op) {
        case Op::AllGather: {
            // Every rank gathers the same tensor.
            Tensor out(n * c.count * e);
            for (unsigned r = 0; r < n; ++r) {
                if (c.gatherDim == 0) {
                    std::memcpy(out.data() + r * c.count * e, x[r].data(), c.count * e);
                    continue;
                }
                // dim 1: output row i = the ranks' rows i side by side.
                const std::uint64_t R = c.rowElements;
                if (R == 0 || c.count % R) throw std::invalid_argument("all_gather dim 1: count is not whole rows");
                for (std::uint64_t row = 0; row < c.count / R; ++row)
                    std::memcpy(out.data() + (row * n * R + r * R) * e, x[r].data() + row * R * e, R * e);
            }
            for (unsigned d = 0; d < n; ++d) f(d, out);
            return;
        }
        case Op::Broadcast:
            for (unsigned d = 0; d < n; ++d) f(d, x.at(c.root));
            return;
        case Op::AllToAll: {
            if (c.count % n) throw std::invalid_argument("all_to_all: the input's first dimension must be the ranks");
            const std::uint64_t K = c.count / n;
            Tensor out(c.count * e);
            for (unsigned d = 0; d < n; ++d) {
                for (unsigned s = 0; s < n; ++s) std::memcpy(out.data() + s * K * e, x[s].data() + d * K * e, K * e);
                f(d, out);
            }
            return;
        }
        case Op::ReduceScatter: {
            const Tensor all = reduceAll(c, x);
            const std::uint64_t F = c.fracture();
            Tensor out;
            for (unsigned d = 0; d < n; ++d) {
                out.assign(F * e, 0);
                const std::uint64_t lo = d * F, hi = std::min<std::uint64_t>(c.count, lo + F);
                if (hi > lo) std::memcpy(out.data(), all.data() + lo * e, (hi - lo) * e);
                f(d, out);
            }
            return;
        }
        case Op::AllReduce: {
            const Tensor all = reduceAll(c, x);
            for (unsigned d = 0; d < n; ++d) f(d, all);
            return;
        }
    }
}

std::vector<Tensor> expectedOutputs(const Collective& c, const std::vector<Tensor>& x) {
    std::vector<Tensor> out(c.ranks);
    forEachExpectedOutput(c, x, [&](unsigned d, const Tensor& t) { out[d] = t; });
    return out;
}

}  // namespace cclsim::golden
