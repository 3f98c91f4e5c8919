// data_movement: one worker core moves N transactions of S bytes between
// its L1 and one DRAM bank or another core's L1, back to back, then waits
// for them (tt-metal's data movement tests, tests/tt_metal/tt_metal/
// data_movement: dram_unary and one_from_one / one_to_one "Packet Sizes"),
// and stores the cycles from the first issue to the barrier's end.
//
// Args (runtime):
//   0 target (0: a core's L1, 1: a DRAM bank)   1 core x or bank id   2 core y
//   3 remote base address   4 local L1 address   5 transaction bytes
//   6 transactions   7 direction (0 read into L1, 1 write from L1)
//   8 result address (two words: cycles low, high)   9 end marker
#include "firmware/microbench/microbench_kernels.h"

namespace cclsim::fw::microbench {

void data_movement_kernel_main() {
    const bool dram = get_arg_val<std::uint32_t>(0) != 0;
    const std::uint32_t x = get_arg_val<std::uint32_t>(1), y = get_arg_val<std::uint32_t>(2);
    const std::uint32_t remote = get_arg_val<std::uint32_t>(3);
    const std::uint32_t local = get_arg_val<std::uint32_t>(4);
    const std::uint32_t bytes = get_arg_val<std::uint32_t>(5);
    const std::uint32_t n = get_arg_val<std::uint32_t>(6);
    const bool write = get_arg_val<std::uint32_t>(7) != 0;
    const std::uint32_t result = get_arg_val<std::uint32_t>(8);
    check_end_marker(9);
    // Consecutive transactions walk the remote range; the local side is one buffer (as tt-metal's tests).
    auto remoteAddr = [&](std::uint32_t i) {
        return dram ? get_noc_addr_from_bank_id<true>(x, std::uint64_t(remote) + std::uint64_t(i) * bytes)
                    : get_noc_addr(x, y, remote + i * bytes);
    };
    WAYPOINT(write ? "DMW" : "DMR");
    const std::uint64_t t0 = get_timestamp();
    for (std::uint32_t i = 0; i < n; ++i) {
        if (write)
            noc_async_write(local, remoteAddr(i), bytes);
        else
            noc_async_read(remoteAddr(i), local, bytes);
    }
    if (write)
        noc_async_write_barrier();
    else
        noc_async_read_barrier();
    const std::uint64_t cycles = get_timestamp() - t0;
    l1_write_u32(result, std::uint32_t(cycles));
    l1_write_u32(result + 4, std::uint32_t(cycles >> 32));
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
