// The bytes a transfer carries.
//
// In data mode (the default) a payload holds every byte it moves. In timing
// mode (--no-data) memories keep only their control words (semaphores,
// channel-sync words), so a payload carries just the fragments that overlap
// them: timing is identical, and gigabytes of payload cost nothing.
#pragma once

#include <tlm>

#include <cstdint>
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
        std::uint32_t offset;
        ByteBuffer bytes;
    };
    std::uint32_t size = 0;
    std::vector<Fragment> frags;

    bool hasAllBytes() const { return frags.size() == 1 && frags[0].offset == 0 && frags[0].bytes.size() == size; }
};

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
