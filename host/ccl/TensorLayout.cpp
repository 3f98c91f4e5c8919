#include "host/ccl/TensorLayout.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace cclsim::ccl {

namespace {

/// Every page of the layout in order, with the tensor elements [lo, hi) it
/// holds (hi <= lo for a page of padding only): f(page, lo, hi), which
/// returns false to stop.
template <class F> void forEachPage(const BlockLayout& l, F&& f) {
    const std::uint64_t P = l.pageElems(), B = l.blockPages();
    for (std::uint64_t b = 0; b < l.blocks; ++b)
        for (std::uint64_t q = 0; q < B; ++q) {
            const std::uint64_t lo = b * l.blockElems + q * P;
            const std::uint64_t hi = std::min({b * l.blockElems + std::min(l.blockElems, (q + 1) * P), l.validElems});
            if (!f(b * B + q, lo, hi)) return;
        }
}

}  // namespace

void BlockLayout::toPages(const golden::Tensor& t,
                          const std::function<void(std::uint64_t, const std::uint8_t*)>& put) const {
    if (t.size() != validElems * elemBytes) throw std::invalid_argument("BlockLayout: tensor size mismatch");
    std::vector<std::uint8_t> page(pageBytes);
    forEachPage(*this, [&](std::uint64_t index, std::uint64_t lo, std::uint64_t hi) {
        std::fill(page.begin(), page.end(), 0);
        if (hi > lo) std::memcpy(page.data(), t.data() + lo * elemBytes, (hi - lo) * elemBytes);
        put(index, page.data());
        return true;
    });
}

golden::Tensor BlockLayout::fromPages(const std::function<void(std::uint64_t, std::uint8_t*)>& get) const {
    golden::Tensor t(validElems * elemBytes);
    std::vector<std::uint8_t> page(pageBytes);
    forEachPage(*this, [&](std::uint64_t index, std::uint64_t lo, std::uint64_t hi) {
        if (hi <= lo) return true;
        get(index, page.data());
        std::memcpy(t.data() + lo * elemBytes, page.data(), (hi - lo) * elemBytes);
        return true;
    });
    return t;
}

bool BlockLayout::pagesEqual(const golden::Tensor& t,
                             const std::function<void(std::uint64_t, std::uint8_t*)>& get) const {
    if (t.size() != validElems * elemBytes) return false;
    std::vector<std::uint8_t> page(pageBytes);
    bool equal = true;
    forEachPage(*this, [&](std::uint64_t index, std::uint64_t lo, std::uint64_t hi) {
        if (hi <= lo) return true;
        get(index, page.data());
        equal = std::memcmp(t.data() + lo * elemBytes, page.data(), (hi - lo) * elemBytes) == 0;
        return equal;
    });
    return equal;
}

}  // namespace cclsim::ccl
