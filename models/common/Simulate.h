// sc_start for the model: runs the simulation, then (in AddressSanitizer
// builds) tells the sanitizer again which stack the calling thread is on.
//
// Why: SystemC 2.3.4 annotates its coroutine switches for ASan
// (__sanitizer_start/finish_switch_fiber, weak references in libsystemc),
// but not every switch. Yielding to the main coroutine announces a stack of
// size 0 (the main coroutine has no stack of its own), and a thread that
// ends (returns, or an exception leaves it) switches away without any
// annotation, so ASan keeps the dead thread's stack as the current one.
// Back in sc_main, ASan then believes the main thread runs on some other
// stack. When a C++ exception is thrown there, __asan_handle_no_return
// cannot clear the poison of the frames the exception unwinds ("ASan is
// ignoring requested __asan_handle_no_return ... False positive error
// reports may follow"), and the next call that reuses those addresses
// trips a false "stack-buffer-overflow" or "-underflow". An exception a
// kernel throws reaches the caller exactly that way: SystemC catches it on
// the thread, ends the thread and throws it again from sc_start.
//
// simulate() fixes both halves when sc_start returns or throws: it
// announces the calling thread's real stack to ASan (a switch from the
// current "fiber" to itself), and clears the stale poison below the
// current frame, where only dead frames can be. Exceptions thrown on a
// SystemC thread itself are handled by SystemC's own annotations. Without
// ASan, simulate() is sc_start.
//
// The same wrong idea holds while the simulation runs code on the main
// stack: SC_METHODs, of which the calendar (EventQueue::drain) runs every
// timing model's callbacks. A model error thrown there (a NoC model that
// breaks its contract, say) unwinds frames ASan cannot clear; the next
// exception then trips over them inside ASan's own handler. drain()
// therefore announces the main stack to ASan first (announceThreadStack,
// two calls into the sanitizer: cheap enough for every drain).
#pragma once

#include <systemc>

#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define CCLSIM_ASAN_STACKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CCLSIM_ASAN_STACKS 1
#endif
#endif

namespace cclsim {

#ifdef CCLSIM_ASAN_STACKS
/// Tell AddressSanitizer which stack the calling thread runs on (its own;
/// nothing if the caller is on a coroutine's stack).
void announceThreadStack();
/// announceThreadStack(), then clear the poison below the caller's frame
/// (dead frames an exception unwound while ASan looked at another stack).
void reclaimThreadStack();
#else
inline void announceThreadStack() {}
inline void reclaimThreadStack() {}
#endif

/// sc_core::sc_start(args...), then reclaimThreadStack(), also when it throws.
template <class... Args> void simulate(Args&&... args) {
    try {
        sc_core::sc_start(std::forward<Args>(args)...);
    } catch (...) {
        reclaimThreadStack();
        throw;
    }
    reclaimThreadStack();
}

}  // namespace cclsim
