// The `pto` workload's kernel: one per rank, on a worker core of its chip.
// The root (the initiator of point-to-point ops) runs the op and tells the
// other ranks it is done with TNOTIFY; they TWAIT for that (their tensors
// stay valid until then, as the PTO constraints require). Timestamps go to
// L1 for the host: start, issued (async ops: when the call returned), done,
// and (on the peer) when the peer saw the notification.
#include "firmware/pto/pto_kernels.h"

#include "firmware/api/dataflow_api.h"
#include "firmware/api/pto_api.h"
#include "firmware/pto/pto_args.h"

#include <vector>

namespace cclsim::fw::pto {

using cclsim::pto::PtoKernelArgs;
using cclsim::pto::PtoMisuse;
using cclsim::pto::PtoOp;

namespace {

void stamp(const PtoKernelArgs& a, unsigned i) {
    const std::uint64_t t = get_timestamp();
    l1_write_u32(a.stamps + 8 * i, std::uint32_t(t));
    l1_write_u32(a.stamps + 8 * i + 4, std::uint32_t(t >> 32));
}

PtoEndpoint endpoint(const PtoKernelArgs& a) {
    PtoEndpoint ep;
    ep.rank = a.rank;
    ep.ranks = a.ranks;
    for (std::uint32_t r = 0; r < kMaxRanks; ++r) {
        ep.peer_xy[r] = a.peer_xy[r];
        ep.peer_dir[r] = a.peer_dir[r];
        for (unsigned w = 0; w < fabric::hdr::kWords; ++w) ep.header[r].words[w] = a.header[r][w];
    }
    ep.group_word = a.group_word;
    ep.reply_sem = a.reply_sem;
    ep.fence = a.fence;
    ep.max_payload = a.max_payload;
    ep.read_max = a.read_max;
    for (unsigned d = 0; d < 2; ++d) {
        ep.has_conn[d] = a.has_conn[d] != 0;
        ep.conn[d] = a.conn[d];
    }
    return ep;
}

}  // namespace

void pto_bench_main() {
    const PtoKernelArgs a = read_layout_args<PtoKernelArgs>(cclsim::pto::kPtoArgsEnd, "pto kernel arguments");
    const PtoOp op = PtoOp(a.op);
    const PtoMisuse misuse = PtoMisuse(a.misuse);
    const dtype_code t = dtype_code(a.dtype);

    // The group: every rank's exposed tensor.
    GlobalTensor tensors[kMaxRanks];
    for (std::uint32_t r = 0; r < a.ranks; ++r)
        tensors[r] = GlobalTensor{r, a.group_base[r], a.group_row_bytes, a.group_rows, a.group_cols, t};
    // Misuse that every rank agrees on (the group stays consistent).
    if (misuse == PtoMisuse::NoDst) tensors[a.peer].base = kNoBuffer;
    // A destination too small: the peer's tensor for the ops that write to
    // the peer (put, broadcast, scatter); the root's own for those that
    // write locally (get, gather, reduce), below.
    const bool dstIsLocal = op == PtoOp::Get || op == PtoOp::GetAsync || op == PtoOp::Gather || op == PtoOp::Reduce;
    if (misuse == PtoMisuse::SmallDst && !dstIsLocal) tensors[a.peer].rows = a.group_rows / 2;
    std::uint32_t root = a.root;
    if (misuse == PtoMisuse::Group && a.rank == a.peer) root = (a.root + 1) % a.ranks;  // this rank disagrees
    const ParallelGroup group(a.ranks, root, tensors);
    pto_init(endpoint(a), group);
    GlobalTensor local{a.rank, a.local_base, a.local_row_bytes, a.local_rows, a.local_cols, t};
    if (misuse == PtoMisuse::SmallDst && dstIsLocal && a.rank == a.root) local.rows = a.local_rows / 2;

    Tile ping{a.tile[0], a.tile_rows, a.tile_cols, a.valid_row, a.valid_col};
    Tile pong{a.tile[1], a.tile_rows, a.tile_cols, a.valid_row, a.valid_col};
    Tile recv2{a.tile[2], a.tile_rows, a.tile_cols, a.valid_row, a.valid_col};
    if (misuse == PtoMisuse::Overlap) pong.addr = ping.addr + 32;
    const bool pp = a.ping_pong != 0;
    const Signal mine{a.rank, a.signal, 1};
    auto signalOf = [&](std::uint32_t r) { return Signal{r, a.signal, 1}; };

    const bool initiator = a.rank == a.root || (misuse == PtoMisuse::NonRoot && a.rank == a.peer);
    const bool rootOnly = op == PtoOp::Broadcast || op == PtoOp::Scatter || op == PtoOp::Gather || op == PtoOp::Reduce;
    const bool p2pPeer = !rootOnly && a.rank == a.peer;

    if (misuse == PtoMisuse::RemoteWait && a.rank == a.root) TWAIT(signalOf(a.peer), 1, WaitCmp::GE);

    if (initiator) {
        WAYPOINT("PTO");
        stamp(a, 0);
        for (std::uint32_t i = 0; i < a.repeat; ++i) {
            const GlobalTensor remote = tensors[a.peer];
            switch (op) {
                case PtoOp::Put: pp ? TPUT(remote, local, ping, pong) : TPUT(remote, local, ping); break;
                case PtoOp::Get: {
                    pp ? TGET(local, remote, ping, pong) : TGET(local, remote, ping);
                    break;
                }
                case PtoOp::PutAsync: {
                    AsyncEvent ev = pp ? TPUT_ASYNC(remote, local, ping, pong) : TPUT_ASYNC(remote, local, ping);
                    if (i == 0) stamp(a, 1);
                    ev.Wait();
                    break;
                }
                case PtoOp::GetAsync: {
                    AsyncEvent ev = pp ? TGET_ASYNC(local, remote, ping, pong) : TGET_ASYNC(local, remote, ping);
                    if (i == 0) stamp(a, 1);
                    while (!ev.Test()) spin_cycles(50);  // poll: other work could go here
                    break;
                }
                case PtoOp::Notify:
                    // Round trip: set the peer's signal, wait for its atomic add back.
                    TNOTIFY(signalOf(a.peer), std::int32_t(i + 1), NotifyOp::Set);
                    TWAIT(mine, std::int32_t(i + 1), WaitCmp::GE);
                    break;
                case PtoOp::Broadcast:
                    pp ? TBROADCAST(group, local, ping, pong) : TBROADCAST(group, local, ping);
                    break;
                case PtoOp::Scatter: pp ? TSCATTER(group, local, ping, pong) : TSCATTER(group, local, ping); break;
                case PtoOp::Gather: pp ? TGATHER(group, local, ping, pong) : TGATHER(group, local, ping); break;
                case PtoOp::Reduce:
                    pp ? TREDUCE(group, local, ping, pong, recv2, ReduceOp(a.redop))
                       : TREDUCE(group, local, ping, pong, ReduceOp(a.redop));
                    break;
            }
        }
        stamp(a, 2);
        // Release the other ranks (they keep their tensors until now).
        if (op != PtoOp::Notify)
            for (std::uint32_t r = 0; r < a.ranks; ++r)
                if (r != a.rank && (rootOnly || r == a.peer)) TNOTIFY(signalOf(r), 1, NotifyOp::AtomicAdd);
    } else if (op == PtoOp::Notify && p2pPeer) {
        for (std::uint32_t i = 0; i < a.repeat; ++i) {
            TWAIT(mine, std::int32_t(i + 1), WaitCmp::EQ);
            if (i == 0) stamp(a, 3);
            TNOTIFY(signalOf(a.root), 1, NotifyOp::AtomicAdd);
        }
    } else if (rootOnly || p2pPeer) {
        WAYPOINT("PTOW");
        TWAIT(mine, 1, WaitCmp::GE);  // the root is done with this rank's tensors
        stamp(a, 3);
    }
    pto_finish();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::pto
