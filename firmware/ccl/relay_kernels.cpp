// The relay worker of a relayed hop (a communication group whose consecutive
// members have no link between them): on each chip along the path, every
// message of the stream is pulled from the inbound EDM channel into L1 and
// pushed into the outbound one, alternating two staging buffers so a pull
// overlaps the previous push leaving L1.
#include "firmware/api/dataflow_api.h"
#include "firmware/ccl/ccl_args.h"
#include "firmware/ccl/ccl_kernels.h"

namespace cclsim::fw::ccl {

using cclsim::ccl::EdmRelayArgs;
using cclsim::ccl::kArgsEndMarker;

void edm_relay_main() {
    const EdmRelayArgs a = read_layout_args<EdmRelayArgs>(kArgsEndMarker, "edm_relay arguments");
    WAYPOINT("RLY");
    for (std::uint32_t i = 0; i < a.messages; ++i) {
        const std::uint32_t buf = a.staging + (i % 2) * a.bytes;
        if (i >= 2) noc_async_writes_flushed();  // this buffer's previous push has left L1
        edm_pull(a.in, buf, a.bytes);
        edm_push(a.out, buf, a.bytes);
    }
    noc_async_write_barrier();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
