// Byte storage that allocates pages on first write.
//
// A gigabyte address space costs only the pages that were written; reads of
// untouched bytes return zero. Small spaces (an L1) index pages in a vector,
// large ones (DRAM) in a hash map.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace cclsim {

class SparseStore {
public:
    SparseStore(std::uint64_t sizeBytes, std::uint32_t pageBytes);

    void read(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const;
    void write(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in);

    std::uint64_t size() const { return size_; }
    std::uint64_t bytesAllocated() const { return pagesAllocated_ * std::uint64_t(pageBytes_); }

private:
    std::uint8_t* page(std::uint64_t index, bool create) const;

    std::uint64_t size_;
    std::uint32_t pageBytes_;
    unsigned pageShift_;
    mutable std::vector<std::unique_ptr<std::uint8_t[]>> dense_;
    mutable std::unordered_map<std::uint64_t, std::unique_ptr<std::uint8_t[]>> sparse_;
    bool useDense_;
    mutable std::uint64_t pagesAllocated_ = 0;
};

}  // namespace cclsim
