// Fiber: stacks, the context switch and the sanitizer annotations (see Fiber.h).
#include "models/core/Fiber.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <sysc/kernel/sc_constants.h>
#include <unistd.h>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define CCLSIM_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CCLSIM_FIBER_ASAN 1
#endif
#endif

#ifdef CCLSIM_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

#if defined(__x86_64__) && !defined(CCLSIM_FIBER_UCONTEXT)
#define CCLSIM_FIBER_X86_64 1
#else
#include <ucontext.h>
#endif

#ifdef CCLSIM_FIBER_X86_64
// cclsim_fiber_switch(save, load): push the callee-saved registers and the
// floating-point control words on the current stack, store the stack pointer
// in *save, load `load` as the stack pointer and pop the same frame from it.
// cclsim_fiber_start is where a new fiber's first switch "returns" to: its
// frame (built by the constructor) holds the Fiber in r12 and the entry
// function in r13. `.cfi_undefined rip` ends backtraces there.
extern "C" void cclsim_fiber_switch(void** save, void* load);
extern "C" void cclsim_fiber_start();
asm(R"(
    .text
    .globl cclsim_fiber_switch
    .type cclsim_fiber_switch,@function
cclsim_fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size cclsim_fiber_switch, .-cclsim_fiber_switch

    .globl cclsim_fiber_start
    .type cclsim_fiber_start,@function
cclsim_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size cclsim_fiber_start, .-cclsim_fiber_start
)");
#endif

namespace cclsim {

thread_local Fiber* Fiber::current_ = nullptr;

namespace {

std::size_t pageBytes() {
    static const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
    return page;
}

#ifndef CCLSIM_FIBER_X86_64
struct UContexts {
    ucontext_t fiber;
    ucontext_t resumer;
};
#endif

}  // namespace

std::size_t Fiber::defaultStackBytes() {
    return std::size_t(sc_core::SC_DEFAULT_STACK_SIZE);
}

Fiber::Fiber(std::function<void()> body, std::size_t stackBytes) : body_(std::move(body)) {
    const std::size_t page = pageBytes();
    stackBytes_ = (std::max<std::size_t>(stackBytes, 4 * page) + page - 1) / page * page;
    mapBytes_ = stackBytes_ + page;
    map_ = mmap(nullptr, mapBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        throw std::bad_alloc();
    }
    // The lowest page is the guard: a stack overflow faults there.
    if (mprotect(map_, page, PROT_NONE) != 0) {
        munmap(map_, mapBytes_);
        throw std::runtime_error("Fiber: cannot protect the stack's guard page");
    }
    stackLo_ = static_cast<char*>(map_) + page;
#ifdef CCLSIM_FIBER_ASAN
    __lsan_register_root_region(stackLo_, stackBytes_);
#endif
#ifdef CCLSIM_FIBER_X86_64
    // The frame cclsim_fiber_switch pops, from the lowest address up:
    // MXCSR and x87 control word, r15, r14, r13, r12, rbx, rbp, return
    // address. After its `ret` the stack pointer is 16-byte aligned, as
    // cclsim_fiber_start's call needs.
    auto top = reinterpret_cast<std::uintptr_t>(stackLo_ + stackBytes_) & ~std::uintptr_t(15);
    auto* frame = reinterpret_cast<std::uint64_t*>(top - 16 - 8 * 8);
    const std::uint32_t mxcsr = 0x1F80;  // all exceptions masked, round to nearest
    const std::uint16_t fpucw = 0x037F;  // the same for x87
    std::memcpy(&frame[0], &mxcsr, 4);
    std::memcpy(reinterpret_cast<char*>(&frame[0]) + 4, &fpucw, 2);
    frame[1] = 0;                                               // r15
    frame[2] = 0;                                               // r14
    frame[3] = reinterpret_cast<std::uint64_t>(&Fiber::entry);  // r13
    frame[4] = reinterpret_cast<std::uint64_t>(this);           // r12
    frame[5] = 0;                                               // rbx
    frame[6] = 0;                                               // rbp
    frame[7] = reinterpret_cast<std::uint64_t>(&cclsim_fiber_start);
    fiberSp_ = frame;
#else
    auto* uc = new UContexts();
    ucontexts_ = uc;
    getcontext(&uc->fiber);
    uc->fiber.uc_stack.ss_sp = stackLo_;
    uc->fiber.uc_stack.ss_size = stackBytes_;
    uc->fiber.uc_link = nullptr;
    // makecontext passes int arguments: the Fiber* travels in two halves.
    const auto p = reinterpret_cast<std::uintptr_t>(this);
    makecontext(&uc->fiber, reinterpret_cast<void (*)()>(+[](unsigned lo, unsigned hi) {
        Fiber::entry(reinterpret_cast<Fiber*>((std::uintptr_t(hi) << 32) | lo));
    }),
                2, unsigned(p & 0xffffffffu), unsigned(p >> 32));
#endif
}

Fiber::~Fiber() {
#ifndef CCLSIM_FIBER_X86_64
    delete static_cast<UContexts*>(ucontexts_);
#endif
    if (!map_) return;
    if (started_ && !finished_) {
        // Suspended for good: objects on its stack were never destroyed and
        // may own heap blocks. Keep the stack (and its LeakSanitizer root) so
        // those blocks stay reachable; this happens once per process at most,
        // when a board with a persistent or deadlocked kernel is torn down.
        return;
    }
#ifdef CCLSIM_FIBER_ASAN
    __lsan_unregister_root_region(stackLo_, stackBytes_);
#endif
    munmap(map_, mapBytes_);
}

void Fiber::entry(Fiber* self) {
#ifdef CCLSIM_FIBER_ASAN
    // First arrival on this stack: finish the switch resume() started and
    // learn the resumer's stack (to announce it on every switch back).
    __sanitizer_finish_switch_fiber(nullptr, &self->resumerLo_, &self->resumerBytes_);
#endif
    try {
        self->body_();
    } catch (...) {
        self->error_ = std::current_exception();
    }
    self->finished_ = true;
    self->switchOut();  // never comes back
    __builtin_unreachable();
}

void Fiber::resume() {
    if (current_) throw std::logic_error("Fiber::resume called on a fiber");
    if (finished_) throw std::logic_error("Fiber::resume on a fiber whose body has returned");
    started_ = true;
    current_ = this;
    switchIn();
    current_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void Fiber::yield() {
    Fiber* f = current_;
    if (!f) throw std::logic_error("Fiber::yield called outside a fiber");
    f->switchOut();
}

void Fiber::switchIn() {
#ifdef CCLSIM_FIBER_ASAN
    __sanitizer_start_switch_fiber(&resumerFake_, stackLo_, stackBytes_);
#endif
#ifdef CCLSIM_FIBER_X86_64
    cclsim_fiber_switch(&resumerSp_, fiberSp_);
#else
    auto* uc = static_cast<UContexts*>(ucontexts_);
    swapcontext(&uc->resumer, &uc->fiber);
#endif
#ifdef CCLSIM_FIBER_ASAN
    __sanitizer_finish_switch_fiber(resumerFake_, nullptr, nullptr);
#endif
}

void Fiber::switchOut() {
#ifdef CCLSIM_FIBER_ASAN
    // A finished fiber's fake stack is released (nullptr: no return).
    __sanitizer_start_switch_fiber(finished_ ? nullptr : &fakeStack_, resumerLo_, resumerBytes_);
#endif
#ifdef CCLSIM_FIBER_X86_64
    cclsim_fiber_switch(&fiberSp_, resumerSp_);
#else
    auto* uc = static_cast<UContexts*>(ucontexts_);
    swapcontext(&uc->fiber, &uc->resumer);
#endif
#ifdef CCLSIM_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fakeStack_, &resumerLo_, &resumerBytes_);
#endif
}

}  // namespace cclsim
