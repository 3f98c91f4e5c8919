// noc_trace_replay: one processor (BRISC or NCRISC) of one core re-issues the
// NoC commands a tt-metal profiler trace recorded for it, in order.
//
// Timing. The trace gives, per processor, the cycle of every command issue and
// of every barrier's start and end. What lies between two issues on hardware
// is kernel software (address generation, loop control, the profiler's own
// record) plus any stall; the replay keeps the recorded gap as the minimum
// time between two events and lets the model add what it adds:
//
//     ref = kernel start (chip start + recorded zone-begin offset)
//     for each op:
//         issue at max(ref + gap, now)        gap = recorded op time - recorded reference time
//         read / write: ref = issue time      (the command's own cost and any
//                                              command-buffer stall run inside the gap)
//         barrier with start/end events:      ref = when the barrier returned,
//                                              the next gap counts from the recorded end
//         single-event barrier / flush:       ref = issue time (the next op waits
//                                              for the barrier anyway)
//     zone end (when recorded) at max(ref + gap, now)
//
//   time ->   ref        ref+gap
//   kernel ----|-----------|read|-----------|read|---|barrier......|---...
//   NoC                         \__request->source, data->L1__/   ^ all landed
//
// So the replay is never faster than the trace's software, and it is slower
// exactly where the model's NoC, DRAM and barriers take longer than the
// hardware's did. The kernel writes the cycle of its last event to `result`.
//
// Args (runtime): ReplayHeader (noc_trace_args.h), op_count ReplayOp words,
// end gap, end marker.
#include "firmware/api/dataflow_api.h"
#include "firmware/noctrace/noc_trace_args.h"
#include "firmware/noctrace/noc_trace_kernels.h"

namespace cclsim::fw::noctrace {

namespace {

/// Spin until cycle `t` (no-op when already there).
void wait_until_cycle(std::uint64_t t) {
    const std::uint64_t now = testbench_cycles();
    if (t > now) spin_cycles(std::uint32_t(t - now));
}

}  // namespace

void noc_trace_replay_kernel_main() {
    ReplayHeader h;
    int arg = 0;
    h.visit([&arg](std::uint32_t& f) { f = get_arg_val<std::uint32_t>(arg++); });
    const int ops = arg;
    const int end_gap_arg = ops + int(h.op_count * kOpWords);
    fw_assert(get_arg_count() == std::uint32_t(end_gap_arg + 2), "noc_trace_replay: argument count");
    fw_assert_equal(get_arg_val<std::uint32_t>(end_gap_arg + 1), kArgsEndMarker, "noc_trace_replay: end marker");

    WAYPOINT("NTRS");
    std::uint64_t ref = testbench_cycles() + h.start_gap;
    wait_until_cycle(ref);
    WAYPOINT("NTRR");
    for (std::uint32_t i = 0; i < h.op_count; ++i) {
        const int a = ops + int(i * kOpWords);
        const std::uint32_t w0 = get_arg_val<std::uint32_t>(a);
        const std::uint32_t kind = w0 & 0xff;
        const std::uint8_t noc = std::uint8_t((w0 >> kNocShift) & 0xff);
        const std::uint32_t xy = get_arg_val<std::uint32_t>(a + 2);
        const std::uint64_t remote = get_noc_addr(xy & 0xff, (xy >> 8) & 0xff, get_arg_val<std::uint32_t>(a + 3));
        const std::uint32_t bytes = get_arg_val<std::uint32_t>(a + 4);
        wait_until_cycle(ref + get_arg_val<std::uint32_t>(a + 1));
        ref = testbench_cycles();
        switch (kind) {
            case kOpRead: noc_async_read(remote, h.staging, bytes, noc); break;
            case kOpWrite: noc_async_write(h.staging, remote, bytes, noc); break;
            case kOpReadBarrier: noc_async_read_barrier(noc); break;
            case kOpWriteBarrier: noc_async_write_barrier(noc); break;
            case kOpAtomicBarrier: noc_async_atomic_barrier(noc); break;
            case kOpFullBarrier:  // noc_async_full_barrier: everything this processor issued on the NoC
                noc_async_read_barrier(noc);
                noc_async_write_barrier(noc);
                noc_async_atomic_barrier(noc);
                break;
            case kOpWriteFlush: noc_async_writes_flushed(noc); break;
            default: fw_assert_equal(kind, kOpRead, "noc_trace_replay: op kind");
        }
        if (w0 & kHasEnd) ref = testbench_cycles();
    }
    wait_until_cycle(ref + get_arg_val<std::uint32_t>(end_gap_arg));
    const std::uint64_t last = testbench_cycles();
    l1_write_u32(h.result, std::uint32_t(last));
    l1_write_u32(h.result + 4, std::uint32_t(last >> 32));
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::noctrace
