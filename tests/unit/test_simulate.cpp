// simulate() (models/common/Simulate.h): sc_start, after which
// AddressSanitizer knows the main thread's stack again.
//
// The regression it guards: SystemC's coroutine switches leave ASan with a
// wrong idea of the main thread's stack once a simulation ran (the switch to
// the main coroutine announces no stack; a thread that ends switches away
// unannounced). A C++ exception thrown on the main thread then left the
// poison of the frames it unwound, and the next deeper call tripped a false
// "stack-buffer-overflow/-underflow": the nine error-path cases whose kernel
// throws (BadInput.NocWriteOutsideTargetL1, PeIpcq misuse, ...) failed so
// under the sanitize preset. Both cases here failed that way with
// sc_core::sc_start in place of simulate(); in other builds they check
// that simulate() is sc_start.
#include "models/common/EventQueue.h"
#include "models/common/Simulate.h"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace cclsim {
namespace {

// Frames with addressable locals (so with redzones ASan poisons): an
// exception unwinding them leaves that poison behind unless ASan clears it.
__attribute__((noinline)) void throwFromDepth(int depth, const std::string& what) {
    char frame[64];
    std::memset(frame, depth, sizeof frame);
    asm volatile("" ::"r"(frame) : "memory");
    if (depth == 0) throw std::runtime_error(what);
    throwFromDepth(depth - 1, what);
    asm volatile("" ::"r"(frame) : "memory");
}

// Writes a 512-byte local in each of `depth` frames, over the addresses the
// unwound frames used; returns the sum of what it wrote.
__attribute__((noinline)) unsigned long fillFrames(int depth) {
    unsigned char frame[512];
    std::memset(frame, 1, sizeof frame);
    asm volatile("" ::"r"(frame) : "memory");
    unsigned long sum = 0;
    for (unsigned char b : frame) sum += b;
    return sum + (depth > 0 ? fillFrames(depth - 1) : 0);
}

// sc_start below a frame with locals, as Runtime::run is.
__attribute__((noinline)) void runBelowLocals() {
    std::string local(100, 'x');
    asm volatile("" ::"r"(local.data()) : "memory");
    simulate();
}

TEST(Simulate, MainStackIsCleanAfterAThreadsException) {
    // A thread whose exception SystemC catches, ends the thread with, and
    // throws again from sc_start on the main thread (what a kernel's
    // ConfigError does).
    sc_core::sc_spawn([] {
        sc_core::wait(1, sc_core::SC_NS);
        throwFromDepth(16, "the thread's own error");
    });
    std::string msg;
    try {
        runBelowLocals();
    } catch (const std::exception& e) {
        msg = e.what();
    }
    EXPECT_NE(msg.find("the thread's own error"), std::string::npos) << msg;
    EXPECT_EQ(fillFrames(24), 25u * 512u);
}

TEST(Simulate, MainStackIsCleanAfterARun) {
    sc_core::sc_spawn([] { sc_core::wait(1, sc_core::SC_NS); });
    runBelowLocals();
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_NS));
    // An exception thrown and caught on the main thread after the run (a
    // data check's error, say), then deeper calls over the unwound frames.
    std::string msg;
    try {
        throwFromDepth(16, "after the run");
    } catch (const std::exception& e) {
        msg = e.what();
    }
    EXPECT_EQ(msg, "after the run");
    EXPECT_EQ(fillFrames(24), 25u * 512u);
}

// During the run: the calendar's callbacks run on the main stack (an
// SC_METHOD) after SystemC has switched to a thread and back. Each throws
// and catches on the main stack, then calls deeper. Without
// EventQueue::drain announcing the main stack, the first exception left its
// frames' poison and the second tripped over it inside ASan's handler
// (NocInterconnect.AModelThatReordersALaneStopsTheRun failed so).
TEST(Simulate, CalendarCallbacksThrowAndCatchOnTheMainStack) {
    EventQueue eq("eq");
    sc_core::sc_spawn([] { sc_core::wait(1, sc_core::SC_NS); });
    std::vector<unsigned long> sums;
    auto throwCatchAndFill = [&sums] {
        try {
            throwFromDepth(16, "in a callback");
        } catch (const std::exception&) {
        }
        sums.push_back(fillFrames(24));
    };
    eq.at(nsToTicks(2), throwCatchAndFill);
    eq.at(nsToTicks(3), throwCatchAndFill);
    simulate();
    EXPECT_EQ(sums, (std::vector<unsigned long>{25u * 512u, 25u * 512u}));
}

}  // namespace
}  // namespace cclsim
