// dram_bandwidth: a worker streams pages of an interleaved DRAM buffer into
// its L1 (read) or from its L1 (write), keeping `batch` pages in flight.
// Many workers together show the DRAM's aggregate bandwidth. Pages are
// first, first + stride, ...: stride 1 walks the banks round-robin
// (interleaved), stride = number of banks stays in one bank (a shard).
//
// Args (runtime):
//   0 buffer base   1 page bytes   2 first page   3 pages   4 mode (0 read, 1 write)
//   5 L1 staging buffer (batch pages)   6 batch   7 page stride   8 end marker
#include "firmware/microbench/microbench_kernels.h"

#include <algorithm>

namespace cclsim::fw::microbench {

void dram_bandwidth_kernel_main() {
    const InterleavedAddrGen<true> buf{get_arg_val<std::uint32_t>(0), get_arg_val<std::uint32_t>(1)};
    const std::uint32_t first = get_arg_val<std::uint32_t>(2);
    const std::uint32_t pages = get_arg_val<std::uint32_t>(3);
    const bool write = get_arg_val<std::uint32_t>(4) != 0;
    const std::uint32_t staging = get_arg_val<std::uint32_t>(5);
    const std::uint32_t batch = get_arg_val<std::uint32_t>(6);
    const std::uint32_t stride = get_arg_val<std::uint32_t>(7);
    check_end_marker(8);
    WAYPOINT(write ? "DRW" : "DRR");
    for (std::uint32_t done = 0; done < pages; done += batch) {
        const std::uint32_t n = std::min(batch, pages - done);
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t l1 = staging + i * buf.page_size;
            const std::uint32_t page = first + (done + i) * stride;
            if (write)
                noc_async_write(l1, get_noc_addr(page, buf), buf.page_size);
            else
                noc_async_read(get_noc_addr(page, buf), l1, buf.page_size);
        }
        if (write)
            noc_async_write_barrier();
        else
            noc_async_read_barrier();
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::microbench
