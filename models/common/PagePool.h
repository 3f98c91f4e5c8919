// Reference-counted 4 KiB pages shared by every store of the process.
//
// In data mode a payload moves by reference: a DRAM read hands out its pages
// instead of copying them, and a DRAM write of a whole page adopts the page
// it was given. A page therefore outlives the store it was written in and can
// sit in several stores at once; whoever writes into a page that another
// holder still sees first takes a private copy (copy-on-write).
//
// Pages are carved from 2 MiB-aligned anonymous mappings the OS zero-fills on
// first touch; the first page of each mapping holds the reference counts of
// the others, so finding a page's count is a mask and an index. A page whose
// last reference goes is kept on a free list and zeroed when it is reused.
// One simulation runs per process and it is single-threaded, so the pool is
// a process-wide singleton without locks.
#pragma once

#include <cstdint>
#include <utility>

namespace cclsim {

class PagePool {
public:
    static constexpr std::uint32_t kPageBytes = 4096;

    /// A zero-filled page holding one reference (the caller's).
    static std::uint8_t* allocate();
    static void ref(std::uint8_t* page) { ++count(page); }
    static void unref(std::uint8_t* page);
    static std::uint32_t refs(const std::uint8_t* page) { return count(page); }
    /// A page of zeros that is never freed (untouched memory, read by reference).
    static std::uint8_t* zeroPage();

private:
    static std::uint32_t& count(const std::uint8_t* page);
};

/// One reference to a pool page (copying takes another, destruction drops it).
class SharedPage {
public:
    SharedPage() = default;
    explicit SharedPage(std::uint8_t* page) : p_(page) {
        if (p_) PagePool::ref(p_);
    }
    SharedPage(const SharedPage& o) : SharedPage(o.p_) {}
    SharedPage(SharedPage&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    SharedPage& operator=(SharedPage o) noexcept {
        std::swap(p_, o.p_);
        return *this;
    }
    ~SharedPage() {
        if (p_) PagePool::unref(p_);
    }
    void reset() { *this = SharedPage(); }
    std::uint8_t* get() const { return p_; }
    explicit operator bool() const { return p_ != nullptr; }

private:
    std::uint8_t* p_ = nullptr;
};

}  // namespace cclsim
