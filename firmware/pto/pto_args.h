// Runtime-argument layout of the `pto` workload's kernel (one per rank),
// shared by host/pto/PtoProgram.cpp (host) and pto_kernels.cpp (kernel).
#pragma once

#include "firmware/api/pto_api.h"

#include <cstdint>
#include <vector>

namespace cclsim::pto {

using fw::pto::kMaxRanks;

/// What the kernel does (PtoWorkload's --op).
enum class PtoOp : std::uint32_t { Put, Get, PutAsync, GetAsync, Notify, Broadcast, Scatter, Gather, Reduce };

/// Deliberate API misuse (--misuse), each caught by the API as an error.
enum class PtoMisuse : std::uint32_t { None, NonRoot, Group, Overlap, SmallDst, NoDst, RemoteWait };

constexpr std::uint32_t kPtoArgsEnd = 0x9707;

struct PtoKernelArgs {
    std::uint32_t op = 0;      ///< PtoOp
    std::uint32_t misuse = 0;  ///< PtoMisuse
    std::uint32_t rank = 0, ranks = 0, root = 0;
    std::uint32_t peer = 0;   ///< put/get/notify: the initiator (root) talks to this rank
    std::uint32_t dtype = 0;  ///< fw::dtype_code
    std::uint32_t redop = 0;  ///< fw::pto::ReduceOp
    std::uint32_t ping_pong = 0;
    std::uint32_t tile_rows = 0, tile_cols = 0, valid_row = 0, valid_col = 0;
    std::uint32_t tile[3] = {};  ///< L1: ping (or acc), pong / recv, second recv
    std::uint32_t signal = 0;    ///< this rank's signal word (the same address on every rank)
    std::uint32_t stamps = 0;    ///< L1: 4 timestamps (start, issued, done, seen), 8 B each
    std::uint32_t repeat = 1;    ///< operations back to back (bandwidth runs)
    /// Every rank's tensors: the one it exposes to the group (puts land in
    /// it, gets read it) and its local one (source of puts, destination of gets).
    std::uint32_t group_base[kMaxRanks] = {};
    std::uint32_t group_rows = 0, group_cols = 0, group_row_bytes = 0;
    std::uint32_t local_base = 0, local_rows = 0, local_cols = 0, local_row_bytes = 0;
    // The fabric endpoint.
    std::uint32_t peer_xy[kMaxRanks] = {};
    std::uint32_t peer_dir[kMaxRanks] = {};
    std::uint32_t group_word = 0, reply_sem = 0, fence = 0, max_payload = 0, read_max = 0;
    std::uint32_t has_conn[2] = {};
    fabric::FabricConnectionArgs conn[2];
    std::uint32_t header[kMaxRanks][fabric::hdr::kWords] = {};

    template <class V> void visit(V& v) {
        v(op), v(misuse), v(rank), v(ranks), v(root), v(peer), v(dtype), v(redop), v(ping_pong);
        v(tile_rows), v(tile_cols), v(valid_row), v(valid_col);
        for (auto& t : tile) v(t);
        v(signal), v(stamps), v(repeat);
        for (auto& b : group_base) v(b);
        v(group_rows), v(group_cols), v(group_row_bytes);
        v(local_base), v(local_rows), v(local_cols), v(local_row_bytes);
        for (auto& x : peer_xy) v(x);
        for (auto& d : peer_dir) v(d);
        v(group_word), v(reply_sem), v(fence), v(max_payload), v(read_max);
        for (auto& h : has_conn) v(h);
        for (auto& c : conn) c.visit(v);
        for (auto& h : header)
            for (auto& w : h) v(w);
    }
};

}  // namespace cclsim::pto
