// Kernel-side basics: arguments, identity, timers, waypoints.
//
// Firmware in cclsim is written like tt-metal device code: each kernel is a
// free function `kernel_main()` that calls these snake_case functions. The
// differences from the real headers are deliberate and small:
//   * L1 addresses are uint32_t offsets, not volatile pointers; use
//     l1_read_u32 / l1_write_u32 (or the semaphore calls) to touch L1 words;
//   * NoC coordinates are physical (NoC0) coordinates on both NoCs;
//   * every call charges modelled time to the calling kernel.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace cclsim::fw {

/// Runtime argument `idx` (set by the host with set_runtime_args).
template <typename T = std::uint32_t> T get_arg_val(int idx);
/// Compile-time argument `idx` (a runtime lookup in the model).
std::uint32_t get_compile_time_arg_val(int idx);
/// Number of runtime arguments (for builders' end-of-arguments marker checks).
std::uint32_t get_arg_count();

/// This core's NoC coordinates.
std::uint32_t my_x();
std::uint32_t my_y();
/// The kernel's NoC (noc_index in tt-metal).
std::uint8_t noc_index();

/// Wall-clock timer in AICLK cycles; reading it costs modelled time.
std::uint64_t get_timestamp();

/// Mark progress for the VCD waypoint signal (up to 4 characters).
void WAYPOINT(const char* code);
/// Set a kernel-owned trace value declared by the host (e.g. EDM channel state).
void trace_value(std::uint32_t slot, std::uint32_t value);

/// Local L1 word access (a firmware load/store).
std::uint32_t l1_read_u32(std::uint32_t addr);
void l1_write_u32(std::uint32_t addr, std::uint32_t value);

/// Spin-loop status reads of a local L1 word. Use these (not l1_read_u32) as
/// the condition of `while (!...) {}` loops: when the same test is repeated
/// with nothing changed, the model sleeps until the word is written instead
/// of spinning, and a kernel stuck here is reported with the word's value.
bool l1_word_is(std::uint32_t addr, std::uint32_t value);
bool l1_word_is_not(std::uint32_t addr, std::uint32_t value);
bool l1_word_at_least(std::uint32_t addr, std::uint32_t value);

/// Firmware assertion: a false condition stops the simulation with an error
/// naming the kernel, its core and the simulated time.
void fw_assert(bool condition, const char* what);
/// Firmware assertion on a value: the error also names both values.
void fw_assert_equal(std::uint32_t actual, std::uint32_t expected, const char* what);

/// Diagnostics only: the L1 word at `addr` now, at no simulated cost (for
/// trace output; firmware logic must use l1_read_u32).
std::uint32_t debug_peek_u32(std::uint32_t addr);

/// Charge `cycles` of computation to the kernel.
void spin_cycles(std::uint32_t cycles);

// --- Testbench hooks (zero simulated time) -----------------------------------
// Stand in for data that a real op would load from DRAM and for the host-side
// comparison of outputs: fill an L1 range with the reference byte stream
// `stream` starting at byte `offset`, or compare an L1 range with it.
void testbench_fill(std::uint32_t addr, std::uint32_t bytes, std::uint32_t stream, std::uint64_t offset);
void testbench_check(std::uint32_t addr, std::uint32_t bytes, std::uint32_t stream, std::uint64_t offset);
/// False in timing-only runs (--no-data), where payload bytes are not kept.
bool testbench_stores_data();
/// The kernel's simulated time in AICLK cycles, read at no cost (testbench timing
/// control, e.g. a trace replay issuing at recorded times; firmware uses get_timestamp).
std::uint64_t testbench_cycles();

// --- Fast-forward (--fast-forward) -------------------------------------------
// A packet loop whose packets all do the same work marks itself steady so
// the model may skip stretches of it once the whole board runs at a steady
// rate (models/core/FastForward.h). At the top of every packet the kernel
// asks `skip(remaining)`; a non-zero answer n means: this packet and the
// n - 1 after it are skipped. The kernel then walks those packets doing only
// their protocol bookkeeping (its counters, the semaphore increments its
// partners wait for, which it sends at once) and no transfer, then calls
// `pause()`, which charges the time the packets would have taken. Without
// --fast-forward `skip` is always 0 and costs nothing.
class SteadyLoop {
public:
    /// A loop of `packets` packets; the last `margin` are never skipped (keep
    /// enough for the loop's end to be simulated: its final handshakes).
    /// Loops of one `group` feed each other (a chain of producers and
    /// consumers, e.g. one lane's workers on every chip of a ring) and so
    /// move at one rate: they skip the same number of packets. A loop that
    /// is not `steady` counts as code outside a steady loop: while it runs,
    /// the whole board stays exact. Skips are whole multiples of `quantum`
    /// packets (a sender that walks C buffer channels round-robin skips
    /// multiples of C, so its next channel is still the one its receiver
    /// watches). A kernel that only waits on steady loops' progress (a
    /// receiver counting arrivals) marks its wait as a loop of 0 packets:
    /// it never skips, and it does not keep the board exact.
    /// A `stream` repeats one transfer for its whole length (a bandwidth
    /// benchmark), where a collective's worker moves block by block.
    SteadyLoop(std::uint64_t packets, std::uint64_t margin, std::uint32_t group, bool steady = true,
               std::uint64_t quantum = 1, bool stream = false);
    ~SteadyLoop();
    SteadyLoop(const SteadyLoop&) = delete;
    SteadyLoop& operator=(const SteadyLoop&) = delete;
    /// The top of a packet, `remaining` packets left (this one included). A
    /// loop that moves block by block passes `step_left`, the packets left in
    /// its current step (this one included): a collective's rate dips at every
    /// step boundary, and the model measures whole steps before it skips
    /// across one. 0: the loop has no steps (a stream).
    std::uint64_t skip(std::uint64_t remaining, std::uint64_t step_left = 0);
    /// After the bookkeeping of a skip: charge the skipped packets' time.
    void pause();
    /// Skips the board has ordered so far (0 without --fast-forward): a
    /// receiver that learns of its sender's skips from a word the sender
    /// writes reads that word only while an order is not accounted for.
    std::uint64_t skips_ordered() const;
    /// Leave the loop before the kernel's code after it (a final wait), so
    /// the model does not count that code as part of the loop. The
    /// destructor leaves too.
    void end();

private:
    void* ff_ = nullptr;  ///< the board's FastForward (nullptr: off)
    std::uint32_t id_ = 0;
    std::uint64_t pause_ = 0;
};

/// The main loop of a service kernel (a fabric router, a mux) that runs
/// beside steady loops: call at the top of every round. When the model
/// skips, the service pauses with the loops, so what waits in its buffers
/// keeps waiting (as it would on a board running through the skipped
/// stretch). Without --fast-forward it costs nothing.
class SteadyService {
public:
    void point();
    /// Skips the board has ordered so far (0 without --fast-forward), for a
    /// service that passes skipped counts along (an EDM channel learns of
    /// its worker's skips from a word the worker writes, and reads it only
    /// while an order is not accounted for).
    std::uint64_t skips_ordered() const;
    /// Is --fast-forward on? (A service may then skip its point() calls and
    /// skip checks altogether when it is off.)
    bool enabled() const;

private:
    std::uint64_t seen_ = 0;
};

/// The reading end of a skipped-packet count that rides in a word of the
/// next real packet (or beside a channel semaphore): `take` reads it only
/// while the board has ordered a skip (`ordered`, from skips_ordered()) that
/// this reader has not seen a count of yet, so a stream that skips nothing
/// pays no extra read (on a 1 KB raw Ethernet stream one more L1 read per
/// packet cost 1.6 %). `read` returns the word (and may clear it).
class SkipReport {
public:
    template <class Read> std::uint32_t take(std::uint64_t ordered, Read&& read) {
        if (ordered <= seen_) return 0;
        const std::uint32_t n = read();
        seen_ += n != 0;
        return n;
    }

private:
    std::uint64_t seen_ = 0;  ///< ordered skips whose count was taken
};

template <> std::uint32_t get_arg_val<std::uint32_t>(int idx);
template <> std::int32_t get_arg_val<std::int32_t>(int idx);

/// Read runtime arguments in the field order of layout A (its `visit`) and
/// check that `end_marker` follows them (host and kernel cannot drift apart):
/// `what` names the layout in the assertion.
template <class A> A read_layout_args(std::uint32_t end_marker, const char* what) {
    A a;
    int i = 0;
    auto get = [&i](std::uint32_t& f) { f = get_arg_val<std::uint32_t>(i++); };
    a.visit(get);
    if (get_arg_count() <= std::uint32_t(i) || get_arg_val<std::uint32_t>(i) != end_marker)
        fw_assert_equal(get_arg_count() > std::uint32_t(i) ? get_arg_val<std::uint32_t>(i) : 0, end_marker, what);
    return a;
}

/// Host side of read_layout_args: the fields of layout A in its `visit`
/// order, then `end_marker`.
template <class A> std::vector<std::uint32_t> pack_layout_args(A a, std::uint32_t end_marker) {
    std::vector<std::uint32_t> out;
    auto push = [&out](std::uint32_t& f) { out.push_back(f); };
    a.visit(push);
    out.push_back(end_marker);
    return out;
}

}  // namespace cclsim::fw
