// PTO communication ops for worker-core kernels (pto-isa's comm
// instructions: TPUT, TGET, TPUT_ASYNC, TGET_ASYNC, TNOTIFY, TWAIT, TTEST,
// TBROADCAST, TSCATTER, TGATHER, TREDUCE) on the packet fabric.
//
// Memory: GM is the chip's DRAM, UB the kernel core's L1. A GlobalTensor is a
// rows x cols row-major tensor in a rank's DRAM, one row per page of an
// interleaved buffer (so rows spread over the DRAM banks). A Tile is a
// staging buffer in the caller's L1 of rows x cols elements.
//
// Data flow (the spec's GM -> UB -> interconnect -> GM):
//   put     local GM --NoC read--> tile --fabric write packets--> remote GM
//   get     remote GM --fabric read requests, replies--> tile --NoC write--> local GM
// The remote chip's fabric router performs the NoC write or read: its
// receive buffer is the far side's staging. A peer on the caller's own chip
// (the caller's own rank) takes the NoC only.
//
// 2D sliding: a tensor larger than the tile moves in chunks of valid_row x
// valid_col elements, row-chunks outer, column-chunks inner. Static valid
// sizes must divide the tensor's rows / cols (else an error: use kDynamic);
// kDynamic takes min(tile, what is left), so ragged edges move exactly.
// Ping-pong: with two tiles, the NoC loads the next chunk into one while the
// other is sent (put) or stored (get); the tiles must not overlap.
//
// Completion: a synchronous put returns once its data is in the remote GM
// (a fabric read of the last written word comes back behind the writes on
// the same path); a get once its data is in local GM. The _ASYNC forms
// return an AsyncEvent instead: a put has handed every packet to the fabric
// and Wait() waits for that read-back; a get has requested its first chunk
// and Test()/Wait() move the rest through the tile (a progress engine).
//
// Signals are 32-bit words in a rank's kernel-core L1 (Wormhole's NoC atomics
// act on L1). TNOTIFY sets (inline write) or atomically adds to a remote
// signal; it travels behind earlier puts to the same rank, so a receiver
// that sees the signal sees the data. TWAIT / TTEST act on local signals
// only; with a signal tensor every element must satisfy the comparison.
//
// Collectives (TBROADCAST, TSCATTER, TGATHER, TREDUCE) are called by the
// group's root only; the other ranks keep their tensors valid until the root
// tells them (TNOTIFY) that it is done. Scatter splits the root's tensor
// along rows (rank r gets rows [r H, (r+1) H)); gather concatenates along
// rows. TREDUCE folds, per element, the root's tensor first and then the
// other ranks in rank order: out = fin(((g(x_root) (+) g(x_a)) (+) g(x_b)) ...).
//
// Misuse is an error that stops the run and names the kernel: a non-root
// rank calling a root-only op, a ParallelGroup that differs between ranks
// (every rank publishes a hash of its group; the first op that touches a
// peer reads the peer's hash over the fabric and compares), overlapping
// ping/pong tiles, static valid sizes that do not divide the tensor, a tile
// larger than L1 or smaller than its valid sizes, a destination tensor that
// is uninitialised (no buffer) or smaller than the data, a TWAIT on a
// remote signal.
#pragma once

#include "firmware/api/compute_api.h"
#include "firmware/fabric/fabric_types.h"

#include <cstdint>
#include <vector>

namespace cclsim::fw::pto {

enum class NotifyOp : std::uint32_t { Set = 0, AtomicAdd = 1 };
enum class WaitCmp : std::uint32_t { EQ = 0, NE, GT, GE, LT, LE };
/// TREDUCE operators: pto-isa's Sum / Max / Min, and the other GCL operators where the type allows.
enum class ReduceOp : std::uint32_t { Sum = 0, Mean, Mul, Min, Max, SquareAdd, LogicalAnd, LogicalOr };

constexpr std::uint32_t kMaxRanks = 32;
constexpr std::uint32_t kDynamic = 0;             ///< a tile's valid row / column count set per chunk
constexpr std::uint32_t kNoBuffer = 0xffffffffu;  ///< a GlobalTensor without a buffer

/// A rows x cols tensor in rank `rank`'s DRAM: row r is page r of an
/// interleaved buffer at `base` with `row_bytes` pages (kNoBuffer: none).
struct GlobalTensor {
    std::uint32_t rank = 0;
    std::uint32_t base = kNoBuffer;
    std::uint32_t row_bytes = 0;
    std::uint32_t rows = 0, cols = 0;
    dtype_code dtype = dtype_code::fp32;
};

/// A staging tile in the caller's L1: rows x cols elements at `addr`
/// (row pitch cols x element bytes); valid_row / valid_col: the chunk size
/// (kDynamic: as much as fits, ragged at the edges).
struct Tile {
    std::uint32_t addr = 0;
    std::uint32_t rows = 0, cols = 0;
    std::uint32_t valid_row = kDynamic, valid_col = kDynamic;
};

/// `count` consecutive 32-bit signals in rank `rank`'s kernel-core L1.
struct Signal {
    std::uint32_t rank = 0;
    std::uint32_t addr = 0;
    std::uint32_t count = 1;
};

/// The participants of a collective (pto-isa ParallelGroup): ranks 0..size-1,
/// the root, and every rank's tensor (same shape on every rank).
class ParallelGroup {
public:
    ParallelGroup() = default;
    ParallelGroup(std::uint32_t size, std::uint32_t root, const GlobalTensor* tensors);
    std::uint32_t GetSize() const { return size_; }
    std::uint32_t GetRootIdx() const { return root_; }
    const GlobalTensor& tensor(std::uint32_t rank) const { return tensors_[rank]; }
    /// Hash of the group (size, root, every tensor): equal on every rank of a consistent group.
    std::uint32_t hash() const;

private:
    std::uint32_t size_ = 0, root_ = 0;
    GlobalTensor tensors_[kMaxRanks] = {};
};

/// The fabric and identity of the calling rank (set once per kernel by pto_init).
struct PtoEndpoint {
    std::uint32_t rank = 0, ranks = 0;
    std::uint32_t peer_xy[kMaxRanks] = {};   ///< kernel core of every rank, (x << 16) | y
    std::uint32_t peer_dir[kMaxRanks] = {};  ///< fabric::Dir of the first hop to each rank
    std::uint32_t group_word = 0;            ///< L1 word holding this rank's group hash (same address on every rank)
    std::uint32_t reply_sem = 0;             ///< counts read replies landing here
    std::uint32_t fence = 0;  ///< 32 B: completion read-backs land in the first 16, group checks in the rest
    std::uint32_t max_payload = 0, read_max = 0;
    bool has_conn[2] = {false, false};  ///< E, W
    fabric::FabricConnectionArgs conn[2];
    fabric::PacketHeader header[kMaxRanks];  ///< routed to each rank (with the reply route)
};
/// Open the fabric connections; publish `group` as this rank's group.
void pto_init(const PtoEndpoint& ep, const ParallelGroup& group);
/// Close the connections (after every op's completion).
void pto_finish();

/// An asynchronous put or get in flight.
class AsyncEvent {
public:
    /// Make progress; true once the operation is complete.
    bool Test();
    /// Block until complete.
    void Wait();
    std::uint32_t id = 0;  ///< index into the kernel's in-flight operations
};

// ---- point to point ---------------------------------------------------------------------------

/// dst (remote GM) = src (local GM), through `tile`; AtomicAdd is not modelled (Wormhole has no
/// accumulating NoC write): an error.
void TPUT(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile);
void TPUT(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong);
AsyncEvent TPUT_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile);
AsyncEvent TPUT_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong);
/// dst (local GM) = src (remote GM), through `tile`.
void TGET(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile);
void TGET(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong);
AsyncEvent TGET_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile);
AsyncEvent TGET_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong);

// ---- signals ---------------------------------------------------------------------------------------

void TNOTIFY(const Signal& dst, std::int32_t value, NotifyOp op);
void TWAIT(const Signal& signal, std::int32_t cmp_value, WaitCmp cmp);
bool TTEST(const Signal& signal, std::int32_t cmp_value, WaitCmp cmp);

// ---- collectives (root only) -------------------------------------------------------------------

/// Every rank's group tensor = src (the root's).
void TBROADCAST(const ParallelGroup& g, const GlobalTensor& src, const Tile& tile);
void TBROADCAST(const ParallelGroup& g, const GlobalTensor& src, const Tile& ping, const Tile& pong);
/// Rank r's group tensor = rows [r H, (r+1) H) of src (H = src.rows / size).
void TSCATTER(const ParallelGroup& g, const GlobalTensor& src, const Tile& tile);
void TSCATTER(const ParallelGroup& g, const GlobalTensor& src, const Tile& ping, const Tile& pong);
/// Rows [r H, (r+1) H) of dst = rank r's group tensor.
void TGATHER(const ParallelGroup& g, const GlobalTensor& dst, const Tile& tile);
void TGATHER(const ParallelGroup& g, const GlobalTensor& dst, const Tile& ping, const Tile& pong);
/// dst = the reduction of every rank's group tensor (root first, then rank order).
void TREDUCE(const ParallelGroup& g, const GlobalTensor& dst, const Tile& acc, const Tile& recv, ReduceOp op);
void TREDUCE(const ParallelGroup& g, const GlobalTensor& dst, const Tile& acc, const Tile& ping, const Tile& pong,
             ReduceOp op);

}  // namespace cclsim::fw::pto
