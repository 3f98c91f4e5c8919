// A stackful coroutine for one firmware kernel, resumed by the model's
// calendar (EventQueue) instead of SystemC's scheduler.
//
// Why not an SC_THREAD: a kernel waits tens of times per packet (paying its
// local time, sleeping in a modelled spin loop), and each SystemC wait costs
// a timed-notification heap insert, a time step of the simulation kernel and
// two coroutine switches through SystemC's scheduler (~1,000 instructions).
// A fiber resumed by a calendar entry costs the calendar entry and one
// switch each way (~20 instructions for the switch). SystemC stays the
// simulation kernel of record: the calendar is an SC_METHOD, its ticks are
// SystemC time, and the fibers run inside that method.
//
// The switch is a few lines of x86-64 assembly (callee-saved registers, the
// stack pointer, MXCSR and the x87 control word); other targets use
// ucontext. Stacks are mapped with a guard page below them, so an overflow
// faults instead of corrupting a neighbour. AddressSanitizer is told about
// every switch (__sanitizer_start/finish_switch_fiber), and in sanitizer
// builds a live fiber's stack is a LeakSanitizer root: a kernel suspended
// for good (a persistent router, a deadlocked kernel) holds its locals only
// from there.
//
// An exception that leaves the fiber's body ends the fiber and is thrown
// again from resume(), on the resumer's stack.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>

namespace cclsim {

class Fiber {
public:
    /// A fiber that will run `body` on its own stack of `stackBytes` (rounded
    /// up to whole pages) when first resumed.
    Fiber(std::function<void()> body, std::size_t stackBytes);
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    /// Run the fiber until it yields or its body returns. Called from outside
    /// any fiber (fibers do not resume each other). Throws what the body threw.
    void resume();
    /// On a fiber: give control back to the resume() that ran it.
    static void yield();
    /// The fiber running now (nullptr outside fibers).
    static Fiber* current() { return current_; }

    bool started() const { return started_; }
    bool finished() const { return finished_; }
    std::size_t stackBytes() const { return stackBytes_; }

    /// The default stack size: SystemC's default for its threads, which the
    /// kernels ran on before.
    static std::size_t defaultStackBytes();

private:
    static void entry(Fiber* self);
    void switchIn();
    void switchOut();

    std::function<void()> body_;
    void* map_ = nullptr;  ///< the whole mapping (guard page + stack)
    std::size_t mapBytes_ = 0;
    char* stackLo_ = nullptr;  ///< lowest usable stack byte (above the guard page)
    std::size_t stackBytes_ = 0;
    void* fiberSp_ = nullptr;    ///< saved stack pointer of the suspended fiber
    void* resumerSp_ = nullptr;  ///< saved stack pointer of resume()'s caller
    void* ucontexts_ = nullptr;  ///< non-x86-64 targets: the two ucontext_t
    // AddressSanitizer's view of the stacks (unused in other builds).
    void* fakeStack_ = nullptr;    ///< the fiber's fake stack while suspended
    void* resumerFake_ = nullptr;  ///< the resumer's fake stack while the fiber runs
    const void* resumerLo_ = nullptr;
    std::size_t resumerBytes_ = 0;
    std::exception_ptr error_;
    bool started_ = false;
    bool finished_ = false;

    static thread_local Fiber* current_;
};

}  // namespace cclsim
