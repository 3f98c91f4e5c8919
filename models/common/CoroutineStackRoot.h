// Makes the stack of a SystemC thread visible to LeakSanitizer (sanitize
// builds only; a no-op otherwise).
//
// SystemC runs every SC_THREAD / sc_spawn'ed process on a coroutine whose
// stack it maps itself (QuickThreads, mmap). LeakSanitizer scans the stacks of
// real threads, globals and the reachable heap for pointers, but not such
// hand-made stacks. A thread still blocked when the process exits (a
// persistent fabric router or mux; a kernel of a run that deadlocked or hit
// --max-sim-us) holds its locals' heap blocks only from its coroutine stack,
// so LeakSanitizer would report them as leaked though they are reachable. The
// boards keep their platform (and so these threads) until the process ends on
// purpose (cli/RunSession.cpp, keepUntilExit).
//
// Constructed first thing in a thread's body, a CoroutineStackRoot registers
// that thread's stack as a root region (__lsan_register_root_region) for as
// long as it lives, so blocks the stack points to are reachable and blocks
// nothing points to are still reported. The region runs from the constructor's
// own frame down one stack size (the default SystemC stack size unless told);
// LeakSanitizer scans only the readable mapped part of a region, so the guard
// page and anything below the mapping are skipped.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define CCLSIM_LSAN_ROOTS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CCLSIM_LSAN_ROOTS 1
#endif
#endif

#ifdef CCLSIM_LSAN_ROOTS
#include <sanitizer/lsan_interface.h>
#include <sysc/kernel/sc_constants.h>
#endif

namespace cclsim {

class CoroutineStackRoot {
public:
#ifdef CCLSIM_LSAN_ROOTS
    explicit CoroutineStackRoot(std::size_t stackBytes = std::size_t(sc_core::SC_DEFAULT_STACK_SIZE)) {
        // The stack grows down from (a little above) this frame.
        const auto top = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
        base_ = reinterpret_cast<const void*>(top > stackBytes ? top - stackBytes : 0);
        size_ = top - reinterpret_cast<std::uintptr_t>(base_);
        __lsan_register_root_region(base_, size_);
    }
    ~CoroutineStackRoot() {
        __lsan_unregister_root_region(base_, size_);
    }
#else
    explicit CoroutineStackRoot(std::size_t = 0) {}
#endif
    CoroutineStackRoot(const CoroutineStackRoot&) = delete;
    CoroutineStackRoot& operator=(const CoroutineStackRoot&) = delete;

    /// True when this build registers roots (ASan/LSan builds).
    static constexpr bool active() {
#ifdef CCLSIM_LSAN_ROOTS
        return true;
#else
        return false;
#endif
    }

private:
#ifdef CCLSIM_LSAN_ROOTS
    const void* base_ = nullptr;
    std::size_t size_ = 0;
#endif
};

}  // namespace cclsim
