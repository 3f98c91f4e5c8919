#include "models/memory/SparseStore.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <sys/mman.h>

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

SparseStore::~SparseStore() {
    for (const Slab& s : slabs_) munmap(s.base, s.bytes);
}

std::uint8_t* SparseStore::newPage() const {
    if (slabNext_ == slabEnd_) {
        // Up to 2 MiB at a time (less for a small space); untouched pages of
        // a mapping cost no memory.
        const std::uint64_t want =
            std::min<std::uint64_t>(std::uint64_t{2} << 20, (size_ + pageBytes_ - 1) / pageBytes_ * pageBytes_);
        const std::size_t bytes = std::size_t(std::max<std::uint64_t>(want, pageBytes_));
        void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) throw std::bad_alloc();
        slabs_.push_back(Slab{base, bytes});
        slabNext_ = static_cast<std::uint8_t*>(base);
        slabEnd_ = slabNext_ + bytes / pageBytes_ * pageBytes_;
    }
    std::uint8_t* p = slabNext_;
    slabNext_ += pageBytes_;
    ++pagesAllocated_;
    return p;
}

std::uint8_t* SparseStore::page(std::uint64_t index, bool create) const {
    if (useDense_) {
        std::uint8_t*& p = dense_[index];
        if (!p && create) p = newPage();  // zero-filled by the OS
        return p;
    }
    auto it = sparse_.find(index);
    if (it != sparse_.end()) return it->second;
    if (!create) return nullptr;
    std::uint8_t* p = newPage();
    sparse_.emplace(index, p);
    return p;
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
