// The broadcast method's exchange (gcl-collectives.md 3.4.3: "broadcasts the
// tensor to all participating replicas ... the network latency cost is only
// paid once"): every rank writes its whole input into its segment of every
// rank's gathered scratch over the packet fabric — a line multicast per
// direction (every router on the way writes the packet and passes it on),
// or one unicast per destination where the ranks' buffers differ — with no
// store-and-forward through worker kernels, and its own segment over the NoC. Each destination's last page is a fused write +
// increment of that rank's done semaphore (fabric packets to one destination
// stay in order, so the increment lands after every page). The reducers
// (local_reduce_main) wait for all ranks' increments.
#include "firmware/api/dataflow_api.h"
#include "firmware/api/fabric_api.h"
#include "firmware/ccl/ccl_args.h"
#include "firmware/ccl/ccl_kernels.h"

namespace cclsim::fw::ccl {

using cclsim::ccl::FabricExchangeArgs;
using cclsim::ccl::kArgsEndMarker;
using cclsim::fabric::PacketHeader;

void fabric_exchange_main() {
    const FabricExchangeArgs a = read_layout_args<FabricExchangeArgs>(kArgsEndMarker, "fabric_exchange arguments");
    WorkerToFabricEdmSender tx[2];
    for (unsigned d = 0; d < 2; ++d)
        if (a.has_conn[d]) {
            tx[d] = WorkerToFabricEdmSender(a.conn[d]);
            tx[d].open();
        }
    const TensorArgs scratch_of = TensorArgs{0, a.scratch_dram};
    auto scratchPage = [&](std::uint32_t rank, std::uint32_t page) {
        TensorArgs s = scratch_of;
        s.base = a.scratch_base[rank];
        return tensor_page_addr(s, a.pos * a.pages + page, a.page_bytes);
    };
    WAYPOINT("FXC");
    // Page p: read it (the next one's read overlaps this one's sends), then
    // write it to every rank.
    if (a.pages) noc_async_read(tensor_page_addr(a.input, 0, a.page_bytes), a.staging, a.page_bytes);
    for (std::uint32_t p = 0; p < a.pages; ++p) {
        const std::uint32_t buf = a.staging + (p % 2) * a.page_bytes;
        noc_async_read_barrier();
        if (p + 1 < a.pages) {
            noc_async_writes_flushed();  // the other buffer's packets have left L1
            noc_async_read(tensor_page_addr(a.input, p + 1, a.page_bytes), a.staging + ((p + 1) % 2) * a.page_bytes,
                           a.page_bytes);
        }
        const bool mcast = a.mcast_range[0] + a.mcast_range[1] > 0;
        for (unsigned d = 0; mcast && d < 2; ++d) {
            if (!a.mcast_range[d]) continue;
            // One packet per direction: every chip on the way writes it (the
            // scratch and semaphore sit at the same addresses on every rank).
            PacketHeader h;
            h.set_route_1d_multicast(1, a.mcast_range[d]);
            h.set_chips(a.chip[a.pos], a.chip[a.pos]);
            const std::uint64_t dst = scratchPage(a.pos, p);
            if (p + 1 == a.pages) {
                const std::uint64_t sem = get_noc_addr(a.done_xy[a.pos] >> 16, a.done_xy[a.pos] & 0xffff, a.done_addr[a.pos]);
                h.to_noc_fused_unicast_write_atomic_inc(dst, sem, 1, a.page_bytes);
            } else {
                h.to_noc_unicast_write(dst, a.page_bytes);
            }
            tx[d].send_packet(h, buf, a.page_bytes);
        }
        for (std::uint32_t k = 1; k < a.ranks && !mcast; ++k) {
            const std::uint32_t q = (a.pos + k) % a.ranks;  // nearest first, every rank in turn
            PacketHeader h;  // 1D unicast route (tt-metal: fabric_set_unicast_route)
            h.set_route_1d(a.hops[q]);
            h.set_chips(a.chip[a.pos], a.chip[q]);
            const std::uint64_t dst = scratchPage(q, p);
            if (p + 1 == a.pages) {
                const std::uint64_t sem = get_noc_addr(a.done_xy[q] >> 16, a.done_xy[q] & 0xffff, a.done_addr[q]);
                h.to_noc_fused_unicast_write_atomic_inc(dst, sem, 1, a.page_bytes);
            } else {
                h.to_noc_unicast_write(dst, a.page_bytes);
            }
            tx[a.dir[q]].send_packet(h, buf, a.page_bytes);
        }
        noc_async_write(buf, scratchPage(a.pos, p), a.page_bytes);  // own segment
    }
    noc_async_write_barrier();
    noc_semaphore_inc(get_noc_addr(a.done_xy[a.pos] >> 16, a.done_xy[a.pos] & 0xffff, a.done_addr[a.pos]), 1);
    noc_async_atomic_barrier();
    for (unsigned d = 0; d < 2; ++d)
        if (tx[d].is_open()) tx[d].close();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
