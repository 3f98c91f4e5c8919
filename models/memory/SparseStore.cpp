#include "models/memory/SparseStore.h"

#include <algorithm>
#include <stdexcept>

namespace cclsim {

SparseStore::SparseStore(std::uint64_t sizeBytes) : size_(sizeBytes) {
    const std::uint64_t pages = (sizeBytes + kPageBytes - 1) >> kPageShift;
    useDense_ = pages <= (1u << 16);
    if (useDense_) dense_.resize(pages);
}

SparseStore::~SparseStore() {
    for (std::uint8_t* p : dense_)
        if (p) PagePool::unref(p);
    for (const auto& [index, p] : sparse_) PagePool::unref(p);
}

std::uint8_t* SparseStore::page(std::uint64_t index) const {
    if (useDense_) return dense_[index];
    auto it = sparse_.find(index);
    return it == sparse_.end() ? nullptr : it->second;
}

std::uint8_t*& SparseStore::slot(std::uint64_t index) {
    return useDense_ ? dense_[index] : sparse_[index];
}

std::uint8_t* SparseStore::writablePage(std::uint64_t index) {
    std::uint8_t*& p = slot(index);
    if (!p) {
        p = PagePool::allocate();  // zero-filled
        ++pagesHeld_;
    } else if (PagePool::refs(p) > 1) {
        // Someone else (a payload in flight, another store) still sees this
        // page as it is: write into a private copy.
        std::uint8_t* copy = PagePool::allocate();
        std::memcpy(copy, p, kPageBytes);
        PagePool::unref(p);
        p = copy;
    }
    return p;
}

void SparseStore::read(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const {
    if (addr + n > size_) throw std::out_of_range("SparseStore::read beyond end");
    while (n) {
        const std::uint64_t idx = addr >> kPageShift;
        const std::uint64_t off = addr & (kPageBytes - 1);
        const std::uint64_t k = std::min<std::uint64_t>(n, kPageBytes - off);
        if (const std::uint8_t* p = page(idx))
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
        const std::uint64_t idx = addr >> kPageShift;
        if (!assembling_.empty()) assembling_.erase(idx);
        const std::uint64_t off = addr & (kPageBytes - 1);
        const std::uint64_t k = std::min<std::uint64_t>(n, kPageBytes - off);
        std::memcpy(writablePage(idx) + off, in, k);
        addr += k;
        in += k;
        n -= k;
    }
}

void SparseStore::shareOut(std::uint64_t addr, std::uint64_t n, Payload& out, std::uint32_t at) const {
    if (addr + n > size_) throw std::out_of_range("SparseStore::shareOut beyond end");
    if (!sharing_) throw std::logic_error("SparseStore::shareOut on a store that no longer shares");
    while (n) {
        const std::uint64_t idx = addr >> kPageShift;
        const std::uint32_t off = std::uint32_t(addr & (kPageBytes - 1));
        const std::uint32_t k = std::uint32_t(std::min<std::uint64_t>(n, kPageBytes - off));
        std::uint8_t* p = page(idx);
        out.frags.emplace_back();
        out.frags.back().share(at, SharedPage(p ? p : PagePool::zeroPage()), off, k);
        addr += k;
        at += k;
        n -= k;
    }
}

bool SparseStore::adopt(std::uint64_t addr, const SharedPage& given) {
    if (!sharing_) return false;
    if ((addr & (kPageBytes - 1)) || addr + kPageBytes > size_)
        throw std::logic_error("SparseStore::adopt needs a whole page at a page boundary");
    if (!assembling_.empty()) assembling_.erase(addr >> kPageShift);
    std::uint8_t*& p = slot(addr >> kPageShift);
    if (p == given.get()) return true;
    PagePool::ref(given.get());
    if (p)
        PagePool::unref(p);
    else
        ++pagesHeld_;
    p = given.get();
    payloadStats().adopted += kPageBytes;
    return true;
}

std::uint32_t SparseStore::landShared(std::uint64_t addr, const Payload::Fragment& f) {
    constexpr std::uint32_t kChunk = kPageBytes / 64;
    const std::uint32_t off = std::uint32_t(addr & (kPageBytes - 1));
    const std::uint32_t n = f.pageLen;
    if (sharing_ && off == f.pageOffset) {
        if (n == kPageBytes) {
            adopt(addr, f.page);
            return 0;
        }
        if (off % kChunk == 0 && n % kChunk == 0 && addr + n <= size_) {
            // A part of the source page at its own offset: copy it, and note
            // which chunks of this page now equal the source.
            const std::uint64_t idx = addr >> kPageShift;
            std::memcpy(writablePage(idx) + off, f.data(), n);
            Assembly& a = assembling_[idx];
            if (a.source.get() != f.page.get()) a = Assembly{f.page, 0};
            const std::uint32_t first = off / kChunk, count = n / kChunk;
            a.chunks |= ((std::uint64_t{1} << count) - 1) << first;  // count < 64: a whole page was adopted above
            if (a.chunks == ~std::uint64_t{0}) {
                const SharedPage source = std::move(a.source);
                assembling_.erase(idx);
                adopt(addr - off, source);  // frees the copy
            }
            return n;
        }
    }
    write(addr, n, f.data());
    return n;
}

std::uint8_t* SparseStore::pageOf(std::uint64_t addr) {
    sharing_ = false;  // the caller writes through the pointer, unseen
    assembling_.clear();
    return writablePage(addr >> kPageShift);
}

}  // namespace cclsim
