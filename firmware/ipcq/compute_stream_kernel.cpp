// vc_compute load for the ipcq_latency microbenchmark (docs/design/pe-ipcq.md#t5
// under load): back-to-back NoC writes from the initiator's core to DRAM on
// vc_compute, so the ping's vc_comm traffic meets PE_DMA's VC arbitration.
// It streams until the ping kernel sets the stop word, then drains its
// writes.
//
// Args (runtime):
//   0  src    L1 address of the bytes each write sends
//   1  bytes  bytes per write
//   2  stop   L1 word: nonzero ends the stream (the ping kernel sets it)
//   3  dst_hi NoC address of the DRAM destination, bits 63..32
//   4  dst_lo NoC address of the DRAM destination, bits 31..0
#include "firmware/api/dataflow_api.h"
#include "firmware/api/kernel_api.h"
#include "firmware/ipcq/ipcq_kernels.h"

namespace cclsim::fw::ipcq {

void compute_stream_main() {
    const std::uint32_t src = get_arg_val<std::uint32_t>(0), bytes = get_arg_val<std::uint32_t>(1);
    const std::uint32_t stop = get_arg_val<std::uint32_t>(2);
    const std::uint64_t dst = (std::uint64_t(get_arg_val<std::uint32_t>(3)) << 32) | get_arg_val<std::uint32_t>(4);
    WAYPOINT("CSTR");
    while (l1_read_u32(stop) == 0) {
        noc_async_write(src, dst, bytes);
        noc_async_writes_flushed();
    }
    noc_async_write_barrier();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ipcq
