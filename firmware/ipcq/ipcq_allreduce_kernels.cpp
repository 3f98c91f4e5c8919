// PE_IPCQ all-reduce kernels (one per rank, on its worker core). They see
// only directions (ipcq_send / ipcq_recv); the host's neighbour tables decide
// where a direction leads (docs/design/pe-ipcq.md#d3).
//
// Ring (ring_allreduce): reduce-scatter then all-gather around a ring of n
// ranks, the tensor in n chunks, each chunk streamed in pieces of one slot.
// Pieces are processed one after the other through both phases (piece-major)
// so a rank never has more than one piece in flight per direction beyond
// what it received: the ring cannot deadlock even with one slot per queue.
// A kernel that drives two rings (bidirectional) never blocks on one while
// the other could move: a progress loop runs whichever operation is ready.
// For piece p, at ring position q (chunk c ends on position c):
//
//   reduce-scatter  u0: send chunk q-1
//                   u1..u(n-2): recv, add into chunk q-1-s, send it on
//                   u(n-1): recv, add into chunk q (now fully reduced)
//   all-gather      v0: send chunk q
//                   v1..v(n-2): recv into chunk q-s, send it on
//                   v(n-1): recv into chunk q+1
//
// The partial that reaches a rank is added first (partial + local), so
// chunk c is ((x[c+1] + x[c+2]) + ...) + x[c], as golden/AllReduceGolden.h
// defines. Bidirectional: the first half of every chunk goes round E, the
// second half W (positions mirrored); the two rings advance unit by unit.
//
// Mesh (mesh_allreduce): the ring algorithm along every row (E), then along
// every column (S) on the row results.
//
// Tree (tree_allreduce): reduce up the binary tree, then broadcast down,
// piece by piece: s(r) = (x[r] + s(left)) + s(right).
#include "firmware/api/compute_api.h"
#include "firmware/api/ipcq_api.h"
#include "firmware/ipcq/ipcq_args.h"
#include "firmware/ipcq/ipcq_kernels.h"

#include <algorithm>

namespace cclsim::fw::ipcq {

using namespace cclsim::ipcq;

namespace {

template <class A> A read_ipcq_args() {
    return read_layout_args<A>(kIpcqArgsEndMarker,
                               "IPCQ kernel arguments end with the end marker 0x1C0E "
                               "(host/kernel layout mismatch)");
}

std::uint32_t elem_bytes(const TensorArgs& t) {
    return dtype_bytes(dtype_code(t.dtype));
}
std::uint32_t meta_of(const TensorArgs& t, std::uint32_t bytes) {
    return ipcq_meta(t.dtype, bytes / elem_bytes(t));
}

/// Receive a partial and add it into `dst` (dst = partial + dst).
void recv_add(const TensorArgs& t, ipcq_dir from, std::uint32_t dst, std::uint32_t bytes) {
    const ipcq_slot s = ipcq_recv(from, bytes, meta_of(t, bytes));
    const std::uint32_t partial = ipcq_slot_to_l1(s, t.scratch);
    eltwise_add(dst, partial, dst, bytes, dtype_code(t.dtype));
    ipcq_release(s);
}

/// One ring (a direction pair) over a sub-range of every chunk, as a
/// sequence of receive and send operations the kernel's progress loop runs
/// when they can proceed.
class RingPhase {
public:
    enum class Op { Recv, Send, Done };

    RingPhase(const TensorArgs& t, ipcq_dir tx, ipcq_dir rx, std::uint32_t position, std::uint32_t n, bool mirrored,
              std::uint32_t lo, std::uint32_t len, bool flushBeforeReduce)
        : t_(t), tx_(tx), rx_(rx), n_(n), mirrored_(mirrored), lo_(lo), len_(len), flush_(flushBeforeReduce) {
        q_ = mirrored ? (n - position) % n : position;
        pieces_ = (len + t.piece - 1) / t.piece;
        settle();
    }
    ipcq_dir tx() const { return tx_; }
    ipcq_dir rx() const { return rx_; }
    Op next() const { return piece_ >= pieces_ ? Op::Done : recvDone_ ? Op::Send : Op::Recv; }
    bool done() const { return next() == Op::Done; }
    /// Can the next operation proceed without blocking? (One status read.)
    bool ready() const {
        switch (next()) {
            case Op::Recv: return ipcq_can_recv(rx_);
            case Op::Send: return ipcq_can_send(tx_);
            case Op::Done: break;
        }
        return false;
    }

    /// Run the next operation of the current unit.
    void advance() {
        const std::uint32_t off = piece_ * t_.piece;
        const std::uint32_t bytes = std::min(t_.piece, len_ - off);
        const std::uint32_t n = n_, u = unit_;
        if (next() == Op::Recv) {
            if (u < n) {  // reduce-scatter: the partial of chunk q-1-u (q at u = n-1)
                if (flush_) noc_async_writes_flushed();
                recv_add(t_, rx_, at(q_ + n - (u + 1) % n, off), bytes);
            } else {  // all-gather: chunk q-v; the location was sent from earlier, so it must have left L1
                noc_async_writes_flushed();
                ipcq_recv_to(rx_, at(q_ + n - (u - n), off), bytes, meta_of(t_, bytes));
            }
            recvDone_ = true;
        } else {
            // Send what this unit has: own chunk q-1 (u0), the partial just
            // reduced, own reduced chunk q (v0), or the chunk just received.
            const std::uint32_t c = u == 0 ? q_ + n - 1 : u < n ? q_ + n - 1 - u : q_ + n - (u - n);
            ipcq_send(tx_, at(c, off), bytes, meta_of(t_, bytes));
            nextUnit();
        }
        settle();
    }

private:
    bool unitReceives(std::uint32_t u) const { return u != 0 && u != n_; }
    bool unitSends(std::uint32_t u) const { return u != n_ - 1 && u != 2 * n_ - 1; }
    void nextUnit() {
        recvDone_ = false;
        if (++unit_ == 2 * n_) {
            unit_ = 0;
            ++piece_;
        }
    }
    /// Skip the parts of units that have nothing to do.
    void settle() {
        for (;;) {
            if (piece_ >= pieces_) return;
            if (!recvDone_ && !unitReceives(unit_)) recvDone_ = true;
            if (recvDone_ && !unitSends(unit_)) {
                nextUnit();
                continue;
            }
            return;
        }
    }
    /// L1 address of logical chunk `c` (mod n), byte `off` of this ring's range.
    std::uint32_t at(std::uint32_t c, std::uint32_t off) const {
        c %= n_;
        const std::uint32_t phys = mirrored_ ? (n_ - c) % n_ : c;
        return t_.tensor + phys * (t_.bytes / n_) + lo_ + off;
    }

    TensorArgs t_;
    ipcq_dir tx_, rx_;
    std::uint32_t n_, q_ = 0;
    bool mirrored_;
    std::uint32_t lo_, len_;
    bool flush_;
    std::uint32_t pieces_ = 0, piece_ = 0, unit_ = 0;
    bool recvDone_ = false;
};

/// The progress loop: one ready operation per ring per pass; when no ring
/// can move, wait until one of their queues can.
void run_rings(std::initializer_list<RingPhase*> rings) {
    for (;;) {
        bool allDone = true, moved = false;
        for (RingPhase* r : rings) {
            if (r->done()) continue;
            if (r->ready()) {
                r->advance();
                moved = true;
            }
            allDone &= r->done();
        }
        if (allDone) return;
        if (moved) continue;
        std::vector<ipcq_dir> rx, tx;
        for (RingPhase* r : rings) {
            if (r->next() == RingPhase::Op::Recv) rx.push_back(r->rx());
            if (r->next() == RingPhase::Op::Send) tx.push_back(r->tx());
        }
        ipcq_wait_any(rx, tx);
    }
}

}  // namespace

void ring_allreduce_main() {
    const RingArgs a = read_ipcq_args<RingArgs>();
    WAYPOINT("RING");
    ipcq_open();
    const std::uint32_t chunk = a.t.bytes / a.ranks;
    if (!a.bidir) {
        RingPhase e(a.t, ipcq_dir::E, ipcq_dir::W, a.position, a.ranks, false, 0, chunk, false);
        run_rings({&e});
    } else {
        RingPhase e(a.t, ipcq_dir::E, ipcq_dir::W, a.position, a.ranks, false, 0, chunk / 2, false);
        RingPhase w(a.t, ipcq_dir::W, ipcq_dir::E, a.position, a.ranks, true, chunk / 2, chunk / 2, false);
        run_rings({&e, &w});
    }
    ipcq_close();
    WAYPOINT("DONE");
}

void mesh_allreduce_main() {
    const MeshArgs a = read_ipcq_args<MeshArgs>();
    WAYPOINT("MESH");
    ipcq_open();
    RingPhase row(a.t, ipcq_dir::E, ipcq_dir::W, a.col, a.cols, false, 0, a.t.bytes / a.cols, false);
    run_rings({&row});
    WAYPOINT("MCOL");
    RingPhase col(a.t, ipcq_dir::S, ipcq_dir::N, a.row, a.rows, false, 0, a.t.bytes / a.rows, true);
    run_rings({&col});
    ipcq_close();
    WAYPOINT("DONE");
}

void tree_allreduce_main() {
    const TreeArgs a = read_ipcq_args<TreeArgs>();
    const TensorArgs& t = a.t;
    WAYPOINT("TREE");
    ipcq_open();
    const bool up = ipcq_has(ipcq_dir::parent);
    const bool left = ipcq_has(ipcq_dir::child_left), right = ipcq_has(ipcq_dir::child_right);
    const std::uint32_t pieces = (t.bytes + t.piece - 1) / t.piece;
    // Reduce: (x + s(left)) + s(right), then up to the parent.
    for (std::uint32_t p = 0; p < pieces; ++p) {
        const std::uint32_t at = t.tensor + p * t.piece, bytes = std::min(t.piece, t.bytes - p * t.piece);
        for (const auto& [has, dir] :
             {std::pair{left, ipcq_dir::child_left}, std::pair{right, ipcq_dir::child_right}}) {
            if (!has) continue;
            const ipcq_slot s = ipcq_recv(dir, bytes, meta_of(t, bytes));
            eltwise_add(at, at, ipcq_slot_to_l1(s, t.scratch), bytes, dtype_code(t.dtype));
            ipcq_release(s);
        }
        if (up) ipcq_send(ipcq_dir::parent, at, bytes, meta_of(t, bytes));
    }
    WAYPOINT("TBCS");
    // Broadcast the root's result down.
    for (std::uint32_t p = 0; p < pieces; ++p) {
        const std::uint32_t at = t.tensor + p * t.piece, bytes = std::min(t.piece, t.bytes - p * t.piece);
        if (up) {
            noc_async_writes_flushed();
            ipcq_recv_to(ipcq_dir::parent, at, bytes, meta_of(t, bytes));
        }
        if (left) ipcq_send(ipcq_dir::child_left, at, bytes, meta_of(t, bytes));
        if (right) ipcq_send(ipcq_dir::child_right, at, bytes, meta_of(t, bytes));
    }
    ipcq_close();
    WAYPOINT("DONE");
}

}  // namespace cclsim::fw::ipcq
