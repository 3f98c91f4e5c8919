// How a logical tensor (a packed array of elements, as the golden reference
// and the user's input files see it) lies in a device buffer of pages.
//
// A collective's tensors are `blocks` blocks of K elements each (a rank's
// contribution to an all-gather, a fracture of a reduce-scatter, a
// destination's share of an all-to-all); every block starts on a page and
// is padded with zeros to whole pages, so kernels move whole pages and any
// element count works. Element i of the logical tensor is element i % K of
// block i / K; the last block may hold fewer than K valid elements (a
// reduce-scatter's fractures of ceil(E / n) elements over E), the rest is
// zero padding.
#pragma once

#include "golden/Golden.h"

#include <cstdint>
#include <functional>

namespace cclsim::ccl {

struct BlockLayout {
    std::uint64_t blocks = 1;
    std::uint64_t blockElems = 0;  ///< K
    std::uint64_t validElems = 0;  ///< logical elements (<= blocks x K)
    std::uint32_t pageBytes = 2048;
    std::uint32_t elemBytes = 2;

    std::uint32_t pageElems() const { return pageBytes / elemBytes; }
    std::uint64_t blockPages() const { return (blockElems + pageElems() - 1) / pageElems(); }
    std::uint64_t pages() const { return blocks * blockPages(); }

    /// Every page image of `t` (validElems elements), padding zero: put(page, bytes).
    void toPages(const golden::Tensor& t, const std::function<void(std::uint64_t, const std::uint8_t*)>& put) const;
    /// The logical tensor from the page images: get(page, out).
    golden::Tensor fromPages(const std::function<void(std::uint64_t, std::uint8_t*)>& get) const;
    /// Whether the pages `get` reads hold `t` (what fromPages would return),
    /// one page at a time: no tensor is built.
    bool pagesEqual(const golden::Tensor& t, const std::function<void(std::uint64_t, std::uint8_t*)>& get) const;
};

}  // namespace cclsim::ccl
