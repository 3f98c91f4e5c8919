#include "models/memory/SparseStore.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace cclsim {

SparseStore::SparseStore(std::uint64_t sizeBytes, std::uint32_t pageBytes)
    : size_(sizeBytes), pageBytes_(pageBytes), pageShift_(0) {
    if (pageBytes == 0 || (pageBytes & (pageBytes - 1)))
        throw std::invalid_argument("SparseStore: page size must be a power of two");
    while ((1u << pageShift_) != pageBytes) ++pageShift_;
    const std::uint64_t pages = (sizeBytes + pageBytes - 1) >> pageShift_;
    useDense_ = pages <= (1u << 16);
    if (useDense_) dense_.resize(pages);
}

std::uint8_t* SparseStore::page(std::uint64_t index, bool create) const {
    if (useDense_) {
        auto& p = dense_[index];
        if (!p && create) {
            p = std::make_unique<std::uint8_t[]>(pageBytes_);  // zero-initialised
            ++pagesAllocated_;
        }
        return p.get();
    }
    auto it = sparse_.find(index);
    if (it != sparse_.end()) return it->second.get();
    if (!create) return nullptr;
    auto& p = sparse_[index];
    p = std::make_unique<std::uint8_t[]>(pageBytes_);
    ++pagesAllocated_;
    return p.get();
}

void SparseStore::read(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const {
    if (addr + n > size_) throw std::out_of_range("SparseStore::read beyond end");
    while (n) {
        const std::uint64_t idx = addr >> pageShift_;
        const std::uint64_t off = addr & (pageBytes_ - 1);
        const std::uint64_t k = std::min<std::uint64_t>(n, pageBytes_ - off);
        if (const std::uint8_t* p = page(idx, false))
            std::memcpy(out, p + off, k);
        else
            std::memset(out, 0, k);
        addr += k;
        out += k;
        n -= k;
    }
}

void SparseStore::write(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in) {
    if (addr + n > size_) throw std::out_of_range("SparseStore::write beyond end");
    while (n) {
        const std::uint64_t idx = addr >> pageShift_;
        const std::uint64_t off = addr & (pageBytes_ - 1);
        const std::uint64_t k = std::min<std::uint64_t>(n, pageBytes_ - off);
        std::memcpy(page(idx, true) + off, in, k);
        addr += k;
        in += k;
        n -= k;
    }
}

}  // namespace cclsim
