// Exchanges over the packet fabric (the broadcast method of
// GCL user guide 3.4.3, "the network latency cost is only paid once",
// and the fabric broadcast; all_to_all): a rank writes its input into block `pos`
// of every rank's destination tensor — a line multicast per direction
// (every router on the way writes the packet and passes it on), or one
// unicast per destination where the ranks' buffers differ — with no
// store-and-forward through worker kernels, and its own block over the NoC.
// all_to_all (a2a) sends input block q to rank q only, one unicast stream
// per destination, by kernels of one direction each. Several kernels may
// share a rank's pages (worker w: pages w, w + W, ...), each through its own
// fabric connection (a mux when a router has several clients). Each stream's
// last page is a fused write + increment of the destination's done semaphore
// (packets of one stream stay in order, so the increment lands after its
// pages); a kernel with `wait_count` then waits until every stream that
// reaches its rank has landed.
#include "firmware/api/dataflow_api.h"
#include "firmware/api/fabric_api.h"
#include "firmware/ccl/ccl_args.h"
#include "firmware/ccl/ccl_kernels.h"
#include "firmware/ccl/ccl_schedule.h"

namespace cclsim::fw::ccl {

using cclsim::ccl::FabricExchangeArgs;
using cclsim::ccl::gathered_page;
using cclsim::ccl::kArgsEndMarker;
using cclsim::fabric::PacketHeader;

void fabric_exchange_main() {
    const FabricExchangeArgs a = read_layout_args<FabricExchangeArgs>(kArgsEndMarker, "fabric_exchange arguments");
    WorkerToFabricEdmSender tx[2];
    for (unsigned d = 0; d < 2; ++d)
        if (a.send && a.has_conn[d]) {
            tx[d] = WorkerToFabricEdmSender(a.conn[d]);
            tx[d].open();
        }
    auto destPage = [&](std::uint32_t rank, std::uint32_t page) {
        TensorArgs t;
        t.base = a.scratch_base[rank];
        t.dram = a.scratch_dram;
        t.shard = a.scratch_shard;
        return tensor_page_addr(t, gathered_page(a.block, page, a.blocks, a.pages, a.row_pages), a.page_bytes);
    };
    auto doneSem = [&](std::uint32_t rank) {
        return get_noc_addr(a.done_xy[rank] >> 16, a.done_xy[rank] & 0xffff, a.done_addr[rank]);
    };
    auto unicastHeader = [&](std::uint32_t q) { return fabric_unicast_header(a.chip[a.pos], a.chip[q], a.hops[q]); };
    auto multicastHeader = [&](std::uint32_t range) { return fabric_line_multicast_header(a.chip[a.pos], range); };
    const bool mcast = a.mcast_range[0] + a.mcast_range[1] > 0;
    // One packet of page p (buf; size 0: the closing increment only) to every rank this kernel serves.
    auto sendPage = [&](std::uint32_t p, std::uint32_t buf, std::uint32_t size, bool last) {
        for (unsigned d = 0; mcast && d < 2; ++d) {
            if (!a.mcast_range[d]) continue;
            PacketHeader h = multicastHeader(a.mcast_range[d]);
            if (!size)
                h.to_noc_unicast_atomic_inc(doneSem(a.pos), 1);
            else if (last)
                h.to_noc_fused_unicast_write_atomic_inc(destPage(a.pos, p), doneSem(a.pos), 1, size);
            else
                h.to_noc_unicast_write(destPage(a.pos, p), size);
            tx[d].send_packet(h, buf, size);
        }
        for (std::uint32_t k = 1; k < a.ranks && !mcast; ++k) {
            const std::uint32_t q = (a.pos + k) % a.ranks;  // nearest first, every rank in turn
            if (!a.has_conn[a.dir[q]]) continue;
            PacketHeader h = unicastHeader(q);
            if (!size)
                h.to_noc_unicast_atomic_inc(doneSem(q), 1);
            else if (last)
                h.to_noc_fused_unicast_write_atomic_inc(destPage(q, p), doneSem(q), 1, size);
            else
                h.to_noc_unicast_write(destPage(q, p), size);
            tx[a.dir[q]].send_packet(h, buf, size);
        }
    };
    WAYPOINT("FXC");
    if (a.send && a.a2a) {
        // all_to_all (tt-metal all_to_all_async_generic): input block q goes to
        // rank q alone, one unicast stream per destination. A kernel serves one
        // direction (tt-metal: a forward and a backward sender core per link
        // on an even ring), its destinations farthest first on a ring (a2a 2;
        // on a line, a2a 1, nearest first), then (the first direction's
        // kernels) its share of the own block locally. On an even ring (a2a 3)
        // the diametric rank is every kernel's first destination: the forward kernels send the first half of their
        // pages of its block, the backward kernels the second half. Up to
        // `batch` (<= 2) pages per packet, as a scatter write (tt-metal: two
        // pages per scatter packet); a stream's last page is a fused write +
        // increment (an empty stream: the increment alone). Reads run one
        // packet ahead (a two-packet circular buffer, as the reader core
        // fills a CB), so a packet's reads overlap the previous packet's send.
        const std::uint32_t mine = a.worker < a.pages ? (a.pages - 1 - a.worker) / a.workers + 1 : 0;
        const std::uint32_t per = a.batch ? a.batch : 1;
        fw_assert(per <= 2, "fabric_exchange: all_to_all packs at most two pages (a scatter write) per packet");
        auto pageOf = [&](std::uint32_t i) { return a.worker + i * a.workers; };
        const unsigned mydir = a.has_conn[0] ? 0u : 1u;
        fw_assert(!(a.has_conn[0] && a.has_conn[1]), "fabric_exchange: an all_to_all kernel serves one direction");
        // tt-metal's start barrier (the writer's init semaphore): one
        // increment multicast each way to the chips that way (a line: all of
        // them; a ring: n/2 one way, the rest the other), at one core of
        // every chip. That core waits until every other chip has started,
        // then releases its chip's other sender kernels. Nothing is sent
        // into a chip before it has started the op.
        if (a.init_sem) {
            if (a.init_range[mydir]) {
                PacketHeader h = multicastHeader(a.init_range[mydir]);
                h.to_noc_unicast_atomic_inc(get_noc_addr(a.init_xy >> 16, a.init_xy & 0xffff, a.init_target), 1,
                                            /*flush=*/true);
                tx[mydir].send_packet(h, 0, 0);
            }
            WAYPOINT("FXB");
            noc_semaphore_wait_min(a.init_sem, a.init_count ? a.init_count : 1);
            noc_semaphore_set(a.init_sem, 0);
            for (std::uint32_t i = 0; i < a.releases; ++i)
                noc_semaphore_inc(get_noc_addr(a.release_xy[i] >> 16, a.release_xy[i] & 0xffff, a.release_addr[i]), 1);
        }
        // The destinations of this kernel in order (a ring: farthest first,
        // the diametric one of a split first), the own block last; and
        // which of this kernel's pages each gets ([lo, hi) of its share).
        std::uint32_t order[kMaxExchangeRanks + 1], lo[kMaxExchangeRanks + 1], hi[kMaxExchangeRanks + 1];
        std::uint32_t nq = 0;
        const bool ring = a.a2a >= 2, split = a.a2a == 3;
        const std::uint32_t diametric = split ? (a.pos + a.ranks / 2) % a.ranks : a.ranks;
        for (std::uint32_t k = a.ranks - 1; k >= 1 && a.has_conn[mydir]; --k) {
            // A ring: farthest first both ways (tt-metal). A line: nearest
            // first (tt-metal's one sender core per link takes the ranks in
            // index order; a kernel per direction here, whose farthest-first
            // order would load the middle links last: Known limits).
            const std::uint32_t step = ring ? k : a.ranks - k;
            const std::uint32_t q = mydir == 0 ? (a.pos + step) % a.ranks : (a.pos + a.ranks - step) % a.ranks;
            if (q == diametric) {
                order[nq] = q;
                lo[nq] = mydir == 0 ? 0 : mine / 2;
                hi[nq] = mydir == 0 ? mine / 2 : mine;
                ++nq;
            } else if (a.dir[q] == mydir) {
                order[nq] = q, lo[nq] = 0, hi[nq] = mine, ++nq;
            }
        }
        if (a.own_copy) order[nq] = a.pos, lo[nq] = 0, hi[nq] = mine, ++nq;
        // Packet (d, i0): pages [i0, min(i0 + per, hi[d])) of destination d.
        struct Pkt {
            std::uint32_t d, i0;
        };
        auto first = [&](std::uint32_t d, Pkt& p) {
            for (; d < nq; ++d)
                if (lo[d] < hi[d]) return p = Pkt{d, lo[d]}, true;
            return false;
        };
        auto following = [&](const Pkt& p, Pkt& next) {
            if (p.i0 + per < hi[p.d]) return next = Pkt{p.d, p.i0 + per}, true;
            return first(p.d + 1, next);
        };
        auto bufOf = [&](std::uint32_t j) { return a.staging + (j % 2) * per * a.page_bytes; };
        auto readPacket = [&](const Pkt& p, std::uint32_t j) {
            const std::uint32_t q = order[p.d];
            for (std::uint32_t i = p.i0; i < hi[p.d] && i < p.i0 + per; ++i)
                noc_async_read(tensor_page_addr(a.input, q * a.pages + pageOf(i), a.page_bytes),
                               bufOf(j) + (i - p.i0) * a.page_bytes, a.page_bytes);
        };
        // Streams without pages still close: the increment alone.
        for (std::uint32_t d = 0; d < nq; ++d) {
            const std::uint32_t q = order[d];
            if (q == a.pos || lo[d] < hi[d]) continue;
            PacketHeader h = unicastHeader(q);
            h.to_noc_unicast_atomic_inc(doneSem(q), 1, /*flush=*/false);  // as the all-to-all's fused last packets
            tx[mydir].send_packet(h, a.staging, 0);
        }
        Pkt cur{0, 0};
        bool have = first(0, cur);
        if (have) readPacket(cur, 0);
        for (std::uint32_t j = 0; have; ++j) {
            noc_async_read_barrier();  // packet j's pages are in its buffer
            Pkt next{0, 0};
            const bool more = following(cur, next);
            if (more) {
                noc_async_writes_flushed();  // the other buffer's packet has left L1
                readPacket(next, j + 1);
            }
            const std::uint32_t q = order[cur.d], i0 = cur.i0, buf = bufOf(j);
            const std::uint32_t n = std::min(per, hi[cur.d] - i0);
            if (q == a.pos) {
                for (std::uint32_t i = 0; i < n; ++i)
                    noc_async_write(buf + i * a.page_bytes, destPage(q, pageOf(i0 + i)), a.page_bytes);
            } else if (n == 2 && i0 + n < hi[cur.d]) {
                PacketHeader h = unicastHeader(q);
                h.to_noc_unicast_scatter_write(destPage(q, pageOf(i0)), destPage(q, pageOf(i0 + 1)), a.page_bytes,
                                               2 * a.page_bytes);
                tx[mydir].send_packet(h, buf, 2 * a.page_bytes);
            } else {
                // One page per packet (the stream's last packets: its final page carries the increment).
                const bool last = i0 + n == hi[cur.d];
                for (std::uint32_t i = 0; i < n; ++i) {
                    PacketHeader h = unicastHeader(q);
                    const std::uint32_t page = pageOf(i0 + i), at = buf + i * a.page_bytes;
                    if (last && i + 1 == n)  // tt-metal's all-to-all writer: flush = false
                        h.to_noc_fused_unicast_write_atomic_inc(destPage(q, page), doneSem(q), 1, a.page_bytes,
                                                                /*flush=*/false);
                    else
                        h.to_noc_unicast_write(destPage(q, page), a.page_bytes);
                    tx[mydir].send_packet(h, at, a.page_bytes);
                }
            }
            cur = next;
            have = more;
        }
    } else if (a.send) {
        // This kernel's pages in batches of `batch` (a circular buffer of two
        // batches, as a reader kernel fills a CB): the next batch's reads
        // overlap this batch's sends.
        const std::uint32_t mine = a.worker < a.pages ? (a.pages - 1 - a.worker) / a.workers + 1 : 0;
        const std::uint32_t batch = a.batch ? a.batch : 1;
        auto pageOf = [&](std::uint32_t i) { return a.worker + i * a.workers; };
        auto bufOf = [&](std::uint32_t i) { return a.staging + ((i / batch) % 2 * batch + i % batch) * a.page_bytes; };
        auto readBatch = [&](std::uint32_t first) {
            for (std::uint32_t i = first; i < mine && i < first + batch; ++i)
                noc_async_read(tensor_page_addr(a.input, pageOf(i), a.page_bytes), bufOf(i), a.page_bytes);
        };
        readBatch(0);
        for (std::uint32_t first = 0; first < mine; first += batch) {
            noc_async_read_barrier();
            if (first + batch < mine) {
                noc_async_writes_flushed();  // the other half's packets have left L1
                readBatch(first + batch);
            }
            for (std::uint32_t i = first; i < mine && i < first + batch; ++i) {
                sendPage(pageOf(i), bufOf(i), a.page_bytes, i + 1 == mine);
                if (a.own_copy) noc_async_write(bufOf(i), destPage(a.pos, pageOf(i)), a.page_bytes);
            }
        }
        if (!mine) sendPage(0, a.staging, 0, true);  // no pages: the stream still closes
    }
    if (a.own_copy) {
        // Pages this kernel did not send (another worker's share) are that worker's to copy.
        noc_async_write_barrier();
        noc_semaphore_inc(doneSem(a.pos), 1);
        noc_async_atomic_barrier();
    }
    for (unsigned d = 0; d < 2; ++d)
        if (tx[d].is_open()) tx[d].close();
    if (a.wait_count) {
        WAYPOINT("FXW");
        noc_semaphore_wait_min(a.done_addr[a.pos], a.wait_count);
    }
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ccl
