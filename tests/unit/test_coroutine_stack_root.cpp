// CoroutineStackRoot: LeakSanitizer does not scan the stacks SystemC maps for
// its threads, so a thread still blocked when the process exits seems to leak
// what its locals own. A thread that registers its stack keeps those blocks
// reachable. In builds without the sanitizers the class is a no-op (checked
// here too).
//
// The regression it guards: every board run whose kernels are still blocked
// at exit (a fabric router or mux: `t3000 all_gather --impl fabric`) failed
// under the sanitize preset with "LeakSanitizer: detected memory leaks" from
// the kernels' stack locals (KernelContext::run registers the kernel's stack).
#include "models/common/CoroutineStackRoot.h"
#include "models/common/Simulate.h"

#include <gtest/gtest.h>
#include <systemc>

#include <cstdint>
#include <vector>

namespace cclsim {
namespace {

// The block a blocked thread owns, its address hidden from LeakSanitizer
// (stored inverted) so that only the thread's stack can point to it.
std::uintptr_t hiddenBlock = 0;

// Spawns a thread that allocates a vector, optionally registers its stack,
// and waits forever on an event nobody notifies; runs until it blocks.
void runBlockedThread(bool registerStack) {
    static sc_core::sc_event never("never");
    sc_core::sc_spawn(
        [registerStack] {
            auto body = [] {
                std::vector<std::uint32_t> local(64, 7u);
                hiddenBlock = ~reinterpret_cast<std::uintptr_t>(local.data());
                sc_core::wait(never);
            };
            if (registerStack) {
                const CoroutineStackRoot root;
                body();
            } else {
                body();
            }
        },
        "blocked");
    cclsim::simulate(sc_core::sc_time(1, sc_core::SC_NS));
    ASSERT_NE(hiddenBlock, 0u) << "the thread did not run";
}

#ifdef CCLSIM_LSAN_ROOTS

TEST(CoroutineStackRoot, ABlockedThreadsLocalsAreReachableThroughItsStack) {
    EXPECT_TRUE(CoroutineStackRoot::active());
    runBlockedThread(true);
    // The process exits with the thread still blocked on its vector: the
    // LeakSanitizer check at exit fails the case (non-zero exit) if the
    // stack is not scanned, as it did before every kernel registered its stack.
}

#else

TEST(CoroutineStackRoot, IsANoOpWithoutTheSanitizers) {
    EXPECT_FALSE(CoroutineStackRoot::active());
    runBlockedThread(true);  // constructs and holds one on a SystemC thread
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_NS));
}

#endif

}  // namespace
}  // namespace cclsim
