#include "host/ccl/TensorLayout.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace cclsim::ccl {

void BlockLayout::toPages(const golden::Tensor& t,
                          const std::function<void(std::uint64_t, const std::uint8_t*)>& put) const {
    if (t.size() != validElems * elemBytes) throw std::invalid_argument("BlockLayout: tensor size mismatch");
    const std::uint64_t P = pageElems(), B = blockPages();
    std::vector<std::uint8_t> page(pageBytes);
    for (std::uint64_t b = 0; b < blocks; ++b)
        for (std::uint64_t q = 0; q < B; ++q) {
            std::fill(page.begin(), page.end(), 0);
            const std::uint64_t lo = b * blockElems + q * P;
            const std::uint64_t hi = std::min({b * blockElems + std::min(blockElems, (q + 1) * P), validElems});
            if (hi > lo) std::memcpy(page.data(), t.data() + lo * elemBytes, (hi - lo) * elemBytes);
            put(b * B + q, page.data());
        }
}

golden::Tensor BlockLayout::fromPages(const std::function<void(std::uint64_t, std::uint8_t*)>& get) const {
    golden::Tensor t(validElems * elemBytes);
    const std::uint64_t P = pageElems(), B = blockPages();
    std::vector<std::uint8_t> page(pageBytes);
    for (std::uint64_t b = 0; b < blocks; ++b)
        for (std::uint64_t q = 0; q < B; ++q) {
            const std::uint64_t lo = b * blockElems + q * P;
            const std::uint64_t hi = std::min({b * blockElems + std::min(blockElems, (q + 1) * P), validElems});
            if (hi <= lo) continue;
            get(b * B + q, page.data());
            std::memcpy(t.data() + lo * elemBytes, page.data(), (hi - lo) * elemBytes);
        }
    return t;
}

bool BlockLayout::pagesEqual(const golden::Tensor& t,
                             const std::function<void(std::uint64_t, std::uint8_t*)>& get) const {
    if (t.size() != validElems * elemBytes) return false;
    const std::uint64_t P = pageElems(), B = blockPages();
    std::vector<std::uint8_t> page(pageBytes);
    for (std::uint64_t b = 0; b < blocks; ++b)
        for (std::uint64_t q = 0; q < B; ++q) {
            const std::uint64_t lo = b * blockElems + q * P;
            const std::uint64_t hi = std::min({b * blockElems + std::min(blockElems, (q + 1) * P), validElems});
            if (hi <= lo) continue;
            get(b * B + q, page.data());
            if (std::memcmp(t.data() + lo * elemBytes, page.data(), (hi - lo) * elemBytes) != 0) return false;
        }
    return true;
}

}  // namespace cclsim::ccl
