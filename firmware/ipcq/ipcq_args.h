// Runtime-argument layouts of the PE_IPCQ algorithm kernels (host packs
// with pack_ipcq_args, kernel reads with read_ipcq_args; same field order by
// construction, and an end marker the kernel checks).
#pragma once

#include <cstdint>
#include <vector>

namespace cclsim::ipcq {

constexpr std::uint32_t kIpcqArgsEndMarker = 0x1C0E;

/// The rank's tensor and buffers (every algorithm).
struct TensorArgs {
    std::uint32_t tensor = 0;  ///< L1: the rank's tensor, reduced in place
    std::uint32_t bytes = 0;
    std::uint32_t dtype = 0;    ///< fw::dtype_code (bf16 0, fp32 2)
    std::uint32_t piece = 0;    ///< bytes per send (<= slot_size)
    std::uint32_t scratch = 0;  ///< L1: one slot, for slots outside L1 (hbm, sram)
    template <class V> void visit(V& v) { v(tensor), v(bytes), v(dtype), v(piece), v(scratch); }
};

/// ring_allreduce: the rank's position along E and the ring size.
struct RingArgs {
    TensorArgs t;
    std::uint32_t position = 0;
    std::uint32_t ranks = 0;
    std::uint32_t bidir = 0;  ///< 1: half of every chunk travels W (needs ring_1d)
    template <class V> void visit(V& v) {
        t.visit(v);
        v(position), v(ranks), v(bidir);
    }
};

/// mesh_allreduce: row ring (E) then column ring (S).
struct MeshArgs {
    TensorArgs t;
    std::uint32_t rows = 0, cols = 0, row = 0, col = 0;
    template <class V> void visit(V& v) {
        t.visit(v);
        v(rows), v(cols), v(row), v(col);
    }
};

/// tree_allreduce: the directions installed say where the rank sits.
struct TreeArgs {
    TensorArgs t;
    template <class V> void visit(V& v) { t.visit(v); }
};

/// ipcq_pingpong (the T5 latency microbenchmark).
struct PingArgs {
    std::uint32_t role = 0;  ///< 0 initiator (sends E), 1 responder (sends W)
    std::uint32_t samples = 0;
    std::uint32_t bytes = 0;
    std::uint32_t buffer = 0;              ///< L1: the payload
    std::uint32_t results = 0;             ///< L1 (initiator): cycle sums, see ipcq_pingpong_main
    std::uint32_t raw_sem = 0;             ///< L1: raw-mode arrival counter
    std::uint32_t raw_rx = 0;              ///< L1: raw-mode landing buffer
    std::uint32_t peer_x = 0, peer_y = 0;  ///< the peer core (raw mode, same chip)
    std::uint32_t cross_chip = 0;          ///< raw mode goes over the fabric
    std::uint32_t header_words = 0;
    std::uint32_t stop = 0;  ///< L1 word set to 1 at the end (stops a load kernel on the core; 0: none)
    template <class V> void visit(V& v) {
        v(role), v(samples), v(bytes), v(buffer), v(results), v(raw_sem), v(raw_rx), v(peer_x), v(peer_y),
            v(cross_chip), v(header_words), v(stop);
    }
};

template <class A> std::vector<std::uint32_t> pack_ipcq_args(A a, const std::vector<std::uint32_t>& extra = {}) {
    std::vector<std::uint32_t> out;
    auto put = [&out](std::uint32_t& f) { out.push_back(f); };
    a.visit(put);
    out.insert(out.end(), extra.begin(), extra.end());
    out.push_back(kIpcqArgsEndMarker);
    return out;
}

}  // namespace cclsim::ipcq
