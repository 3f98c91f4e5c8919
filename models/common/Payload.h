// The bytes a transfer carries.
//
// In data mode (the default) a payload carries every byte it moves, as
// fragments: a fragment either owns its bytes or refers to a slice of a
// shared store page (models/common/PagePool.h). A DRAM read hands out its
// pages by reference, an L1 remembers which of its ranges still equal the
// page slices that landed there, and a DRAM write of a whole page adopts the
// page, so bulk data crosses a chain of hops with at most one copy each
// (PayloadStats counts them). In timing mode (--no-data) memories keep only
// their control words (semaphores, channel-sync words), so a payload carries
// just the fragments that overlap them: timing is identical, and gigabytes of
// payload cost nothing.
#pragma once

#include "models/common/PagePool.h"

#include <tlm>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cclsim {

/// An allocator that leaves new elements uninitialised: payload buffers are
/// pooled and resized to each transfer's size, then filled in full, so
/// zero-filling them on growth would be wasted work.
template <class T> struct DefaultInitAllocator : std::allocator<T> {
    template <class U> struct rebind { using other = DefaultInitAllocator<U>; };
    using std::allocator<T>::allocator;
    template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

using ByteBuffer = std::vector<std::uint8_t, DefaultInitAllocator<std::uint8_t>>;

struct Payload {
    struct Fragment {
        std::uint32_t offset = 0;  ///< within the payload
        ByteBuffer bytes;          ///< the bytes, when the fragment owns them
        SharedPage page;           ///< else a slice of this page
        std::uint32_t pageOffset = 0, pageLen = 0;

        const std::uint8_t* data() const { return page ? page.get() + pageOffset : bytes.data(); }
        std::uint32_t length() const { return page ? pageLen : std::uint32_t(bytes.size()); }
        bool shared() const { return bool(page); }
        /// Make this an owned fragment of `n` bytes at `at` (contents left to the caller).
        std::uint8_t* own(std::uint32_t at, std::uint32_t n) {
            offset = at;
            page.reset();
            bytes.resize(n);
            return bytes.data();
        }
        void share(std::uint32_t at, SharedPage p, std::uint32_t off, std::uint32_t n) {
            offset = at;
            page = std::move(p);
            pageOffset = off;
            pageLen = n;
        }
    };
    std::uint32_t size = 0;
    std::vector<Fragment> frags;

    /// One owned fragment for all `n` bytes (contents left to the caller).
    std::uint8_t* ownAll(std::uint32_t n) {
        size = n;
        frags.resize(1);
        return frags[0].own(0, n);
    }
    bool hasAllBytes() const {
        return frags.size() == 1 && frags[0].offset == 0 && frags[0].length() == size && !frags[0].shared();
    }
    /// Copy the payload's bytes (fragments in place, the gaps left as they
    /// are) into `out`, which holds `size` bytes.
    void copyTo(std::uint8_t* out) const {
        for (const Fragment& f : frags) std::memcpy(out + f.offset, f.data(), f.length());
    }
};

/// Payload bytes copied and landed in data mode, for the whole process (one
/// simulation runs per process): `copied / landed` is the number of copies a
/// payload byte costs per hop (results.copies_per_hop).
struct PayloadStats {
    std::uint64_t landed = 0;   ///< payload bytes written into a destination memory
    std::uint64_t copied = 0;   ///< payload bytes memcpy'd on the way (reads and writes)
    std::uint64_t adopted = 0;  ///< bytes of whole pages a store took over by reference
    double copiesPerHop() const { return landed ? double(copied) / double(landed) : 0.0; }
};
PayloadStats& payloadStats();

/// TLM extension that carries a Payload (fragments) instead of a flat buffer.
/// Targets fall back to the generic payload's data pointer when it is absent,
/// so foreign TLM-2.0 initiators work unchanged.
class PayloadExtension : public tlm::tlm_extension<PayloadExtension> {
public:
    Payload* payload = nullptr;
    tlm::tlm_extension_base* clone() const override { return new PayloadExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        payload = static_cast<const PayloadExtension&>(other).payload;
    }
};

/// TLM extension for atomic read-modify-write (the NoC's semaphore increment).
class AtomicExtension : public tlm::tlm_extension<AtomicExtension> {
public:
    std::uint32_t addend = 0;
    std::uint32_t previous = 0;  ///< filled by the target
    tlm::tlm_extension_base* clone() const override { return new AtomicExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        const auto& o = static_cast<const AtomicExtension&>(other);
        addend = o.addend;
        previous = o.previous;
    }
};

}  // namespace cclsim
