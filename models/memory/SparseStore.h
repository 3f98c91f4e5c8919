// Byte storage that allocates pages on first write, and shares them.
//
// A gigabyte address space costs only the pages that were written; reads of
// untouched bytes return zero. Small spaces (an L1) index pages in a vector,
// large ones (DRAM) in a hash map. Pages come from the process-wide PagePool
// (4 KiB, reference counted): a store can hand its pages out by reference
// (shareOut, for a payload read in data mode) and adopt a page it is given
// (a whole-page payload write). A write into a page someone else still holds
// copies the page first, so sharing never changes what anyone reads. Once a
// page has been handed out as a DMI pointer the store stops sharing: DMI
// writes bypass the copy-on-write check.
#pragma once

#include "models/common/PagePool.h"
#include "models/common/Payload.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace cclsim {

class SparseStore {
public:
    static constexpr std::uint32_t kPageBytes = PagePool::kPageBytes;

    explicit SparseStore(std::uint64_t sizeBytes);
    ~SparseStore();
    SparseStore(const SparseStore&) = delete;
    SparseStore& operator=(const SparseStore&) = delete;

    void read(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const;
    /// A 32-bit word that does not cross a page (the status reads of spin loops).
    std::uint32_t readWord(std::uint64_t addr) const {
        std::uint32_t v = 0;
        const std::uint64_t off = addr & (kPageBytes - 1);
        if (useDense_ && off + 4 <= kPageBytes && addr + 4 <= size_) {
            if (const std::uint8_t* p = dense_[addr >> kPageShift]) std::memcpy(&v, p + off, 4);
            return v;  // an untouched page reads as zero
        }
        read(addr, 4, reinterpret_cast<std::uint8_t*>(&v));
        return v;
    }
    void write(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in);

    /// Append to `out` fragments that refer to [addr, addr+n) by reference,
    /// the first at payload offset `at` (an untouched page is the pool's zero
    /// page). Only while sharing().
    void shareOut(std::uint64_t addr, std::uint64_t n, Payload& out, std::uint32_t at) const;
    /// Take `page` as the page at the page-aligned `addr` (by reference, no
    /// copy). False when the store does not share (the caller copies).
    bool adopt(std::uint64_t addr, const SharedPage& page);
    /// Land a fragment that refers to a shared page at `addr`: a whole page is
    /// adopted; a part is copied, and once parts of one source page, each at
    /// its own offset, have rebuilt a whole page, the store adopts the source
    /// page and frees its copy. Returns the bytes copied.
    std::uint32_t landShared(std::uint64_t addr, const Payload::Fragment& f);
    bool sharing() const { return sharing_; }

    std::uint64_t size() const { return size_; }
    std::uint32_t pageBytes() const { return kPageBytes; }
    /// The page holding `addr`, allocated now if need be, for a DMI pointer:
    /// the page is made private and the store stops sharing from now on.
    std::uint8_t* pageOf(std::uint64_t addr);
    /// Bytes of the pages this store holds (shared pages count in full).
    std::uint64_t bytesAllocated() const { return pagesHeld_ * std::uint64_t(kPageBytes); }

private:
    static constexpr unsigned kPageShift = 12;
    static_assert((1u << kPageShift) == kPageBytes);

    std::uint8_t* page(std::uint64_t index) const;
    std::uint8_t*& slot(std::uint64_t index);
    /// The page at `index`, allocated or made private (copy-on-write) as needed.
    std::uint8_t* writablePage(std::uint64_t index);

    std::uint64_t size_;
    bool useDense_;
    bool sharing_ = true;
    std::vector<std::uint8_t*> dense_;
    std::unordered_map<std::uint64_t, std::uint8_t*> sparse_;
    /// Pages being rebuilt from slices of one source page (landShared): the
    /// source and which 64-byte chunks already equal it.
    struct Assembly {
        SharedPage source;
        std::uint64_t chunks = 0;
    };
    std::unordered_map<std::uint64_t, Assembly> assembling_;
    std::uint64_t pagesHeld_ = 0;
};

}  // namespace cclsim
