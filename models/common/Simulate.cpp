#include "models/common/Simulate.h"

#ifdef CCLSIM_ASAN_STACKS
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace cclsim {

#ifdef CCLSIM_ASAN_STACKS

namespace {

struct StackBounds {
    char* bottom = nullptr;  ///< lowest address
    std::size_t size = 0;
};

/// The calling thread's stack as the C library knows it (for the main
/// thread: its mapping, up to the stack size limit).
StackBounds threadStack() {
    StackBounds s;
    pthread_attr_t attr;
    void* addr = nullptr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0 || pthread_attr_getstack(&attr, &addr, &s.size) != 0) {
        std::fprintf(stderr, "cclsim: cannot read the bounds of this thread's stack (pthread_getattr_np)\n");
        std::abort();
    }
    pthread_attr_destroy(&attr);
    s.bottom = static_cast<char*>(addr);
    return s;
}

const StackBounds& ownStack() {
    static thread_local const StackBounds stack = threadStack();
    return stack;
}

bool onOwnStack(const StackBounds& s, const char* p) {
    return p > s.bottom && p < s.bottom + s.size;
}

void announce(const StackBounds& s) {
    // A switch from whatever ASan believes to the thread's own stack, keeping
    // the fake stack (detect_stack_use_after_return) of the current one.
    void* fakeStack = nullptr;
    __sanitizer_start_switch_fiber(&fakeStack, s.bottom, s.size);
    __sanitizer_finish_switch_fiber(fakeStack, nullptr, nullptr);
}

}  // namespace

void announceThreadStack() {
    const StackBounds& s = ownStack();
    if (onOwnStack(s, static_cast<const char*>(__builtin_frame_address(0)))) announce(s);
}

// Not inlined: its frame is below the caller's, so everything below
// __builtin_frame_address(0) is dead once the caller has control.
__attribute__((noinline)) void reclaimThreadStack() {
    const StackBounds& s = ownStack();
    char* const here = static_cast<char*>(__builtin_frame_address(0));
    if (!onOwnStack(s, here)) return;  // on a coroutine's stack: SystemC announced it
    announce(s);
    // The frames an exception unwound while ASan looked at the wrong stack
    // kept their redzones' poison. Below this frame nothing is live.
    __asan_unpoison_memory_region(s.bottom, std::size_t(here - s.bottom));
}

#endif

}  // namespace cclsim
