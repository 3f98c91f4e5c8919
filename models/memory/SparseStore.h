// Byte storage that allocates pages on first write.
//
// A gigabyte address space costs only the pages that were written; reads of
// untouched bytes return zero. Small spaces (an L1) index pages in a vector,
// large ones (DRAM) in a hash map. Pages are carved from anonymous memory
// mappings the OS zero-fills on first touch, so a new page costs no memset
// and resident memory grows with the pages actually written.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

namespace cclsim {

class SparseStore {
public:
    SparseStore(std::uint64_t sizeBytes, std::uint32_t pageBytes);
    ~SparseStore();
    SparseStore(const SparseStore&) = delete;
    SparseStore& operator=(const SparseStore&) = delete;

    void read(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const;
    /// A 32-bit word that does not cross a page (the status reads of spin loops).
    std::uint32_t readWord(std::uint64_t addr) const {
        std::uint32_t v = 0;
        const std::uint64_t off = addr & (pageBytes_ - 1);
        if (useDense_ && off + 4 <= pageBytes_ && addr + 4 <= size_) {
            if (const std::uint8_t* p = dense_[addr >> pageShift_]) std::memcpy(&v, p + off, 4);
            return v;  // an untouched page reads as zero
        }
        read(addr, 4, reinterpret_cast<std::uint8_t*>(&v));
        return v;
    }
    void write(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in);

    std::uint64_t size() const { return size_; }
    std::uint32_t pageBytes() const { return pageBytes_; }
    /// The page holding `addr`, allocated now if need be (pages never move:
    /// a TLM target may hand it out as a DMI region).
    std::uint8_t* pageOf(std::uint64_t addr) { return page(addr >> pageShift_, true); }
    std::uint64_t bytesAllocated() const { return pagesAllocated_ * std::uint64_t(pageBytes_); }

private:
    std::uint8_t* page(std::uint64_t index, bool create) const;
    std::uint8_t* newPage() const;

    std::uint64_t size_;
    std::uint32_t pageBytes_;
    unsigned pageShift_;
    mutable std::vector<std::uint8_t*> dense_;
    mutable std::unordered_map<std::uint64_t, std::uint8_t*> sparse_;
    bool useDense_;
    mutable std::uint64_t pagesAllocated_ = 0;
    /// Anonymous mappings pages are carved from (released with the store).
    struct Slab {
        void* base;
        std::size_t bytes;
    };
    mutable std::vector<Slab> slabs_;
    mutable std::uint8_t* slabNext_ = nullptr;
    mutable std::uint8_t* slabEnd_ = nullptr;
};

}  // namespace cclsim
