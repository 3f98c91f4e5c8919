// Runtime-argument layout of the NoC trace replay kernel, shared by the host
// (host/noctrace/NocTraceReplay.cpp) and the kernel (noc_trace_replay_kernel.cpp).
//
//   ReplayHeader (visit order)
//   op_count x ReplayOp words (kOpWords each)
//   end gap (cycles from the last op's reference time to the recorded zone end; 0 without one)
//   kArgsEndMarker
#pragma once

#include <cstdint>

namespace cclsim::fw::noctrace {

constexpr std::uint32_t kArgsEndMarker = 0x70CE;

struct ReplayHeader {
    std::uint32_t start_gap = 0;  ///< cycles from the chip's start to this kernel's recorded zone begin
    std::uint32_t op_count = 0;
    std::uint32_t staging = 0;  ///< L1 buffer: reads land here, writes leave from here
    std::uint32_t result = 0;   ///< L1: two words, the cycle of the kernel's last event (lo, hi)
    template <class F> void visit(F&& f) {
        f(start_gap);
        f(op_count);
        f(staging);
        f(result);
    }
};

/// Op kinds on the wire (NocTrace.h OpKind, in its order).
enum ReplayOpKind : std::uint32_t {
    kOpRead = 0,
    kOpWrite = 1,
    kOpReadBarrier = 2,
    kOpWriteBarrier = 3,
    kOpAtomicBarrier = 4,
    kOpFullBarrier = 5,
    kOpWriteFlush = 6,
};

/// Word 0 flags: the op's NoC in bits 8..15; kHasEnd marks a barrier whose
/// recorded end time is the reference of the next gap (else the issue time is).
constexpr std::uint32_t kNocShift = 8;
constexpr std::uint32_t kHasEnd = 1u << 16;

/// One op: {kind | noc << 8 | flags, gap cycles, remote x | y << 8, remote address, bytes}.
constexpr unsigned kOpWords = 5;

}  // namespace cclsim::fw::noctrace
