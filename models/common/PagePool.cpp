#include "models/common/PagePool.h"

#include <cstring>
#include <new>
#include <sys/mman.h>
#include <vector>

namespace cclsim {

namespace {

constexpr std::uintptr_t kSlabBytes = std::uintptr_t{2} << 20;
constexpr std::uint32_t kPagesPerSlab = std::uint32_t(kSlabBytes / PagePool::kPageBytes);
static_assert(kPagesPerSlab * sizeof(std::uint32_t) <= PagePool::kPageBytes,
              "a slab's reference counts fit in its first page");

struct Pool {
    std::uint8_t* next = nullptr;  ///< next never-used page of the newest slab
    std::uint8_t* end = nullptr;
    std::vector<std::uint8_t*> free;  ///< released pages (dirty: zeroed on reuse)
    std::uint8_t* zero = nullptr;

    void newSlab() {
        // Map twice the size and keep the aligned middle: a page's slab (and
        // its counts) is then its address rounded down to 2 MiB.
        void* raw = mmap(nullptr, 2 * kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) throw std::bad_alloc();
        const auto lo = reinterpret_cast<std::uintptr_t>(raw);
        const std::uintptr_t base = (lo + kSlabBytes - 1) & ~(kSlabBytes - 1);
        if (base > lo) munmap(raw, base - lo);
        const std::uintptr_t tail = base + kSlabBytes;
        if (lo + 2 * kSlabBytes > tail) munmap(reinterpret_cast<void*>(tail), lo + 2 * kSlabBytes - tail);
        next = reinterpret_cast<std::uint8_t*>(base) + PagePool::kPageBytes;  // page 0 holds the counts
        end = reinterpret_cast<std::uint8_t*>(base + kSlabBytes);
    }
};

Pool& pool() {
    // Never destroyed: stores released during static destruction (SystemC's
    // context goes last) still return their pages here.
    static Pool* p = new Pool;
    return *p;
}

}  // namespace

std::uint32_t& PagePool::count(const std::uint8_t* page) {
    const auto a = reinterpret_cast<std::uintptr_t>(page);
    auto* counts = reinterpret_cast<std::uint32_t*>(a & ~(kSlabBytes - 1));
    return counts[(a & (kSlabBytes - 1)) / kPageBytes];
}

std::uint8_t* PagePool::allocate() {
    Pool& p = pool();
    std::uint8_t* page;
    if (!p.free.empty()) {
        page = p.free.back();
        p.free.pop_back();
        std::memset(page, 0, kPageBytes);
    } else {
        if (p.next == p.end) p.newSlab();
        page = p.next;  // zero-filled by the OS on first touch
        p.next += kPageBytes;
    }
    count(page) = 1;
    return page;
}

void PagePool::unref(std::uint8_t* page) {
    if (--count(page) == 0) pool().free.push_back(page);
}

std::uint8_t* PagePool::zeroPage() {
    Pool& p = pool();
    if (!p.zero) p.zero = allocate();  // the pool's own reference keeps it alive and shared
    return p.zero;
}

}  // namespace cclsim
