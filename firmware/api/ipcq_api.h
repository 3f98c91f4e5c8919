// Kernel API of PE_IPCQ (docs/design/pe-ipcq.md#d4): send and receive tiles between
// worker cores ("PEs", ranks) by logical direction. The host installed the
// queue pairs (ipcq init); a kernel never sees the topology, only directions.
//
//   ipcq_send(E, src, n)         blocking until the peer's ring has a free slot
//                                (backpressure: poll or sleep, from ccl.yaml),
//                                then the write is handed to PE_DMA vc_comm and
//                                the call returns (the bytes are on their way)
//   ipcq_recv(W)                 blocking until a slot arrived; returns it in place
//                                (return_slot: zero-copy); ipcq_release gives it back
//   ipcq_recv_to(W, dst, n)      copy_to_dst: the slot is copied into dst (L1) and
//                                given back before the call returns
//   ipcq_recv_any()              round robin over the installed directions from the
//                                one after last_polled_dir (weak fairness)
//   ipcq_recv_async / ipcq_wait  start a recv, block on it later
//
// Giving a slot back emits its credit (the receiver's my_tail) to the sender:
// on the fast path (default) after the path's latency, which the receiver
// waits out; with credit_return_mode fabric as a real NoC / fabric atomic
// increment. (The design record, docs/design/pe-ipcq.md#d4, emits the credit
// inside recv also for return_slot; the sender could then overwrite the slot
// while the kernel still reads it, so here a returned slot is credited when
// the kernel releases it.)
//
// Like noc_async_write, a send reads its source when the DMA starts: keep
// the source unchanged until noc_async_writes_flushed() says it has left.
#pragma once

#include "firmware/api/dataflow_api.h"

#include <cstdint>
#include <vector>

namespace cclsim::fw {

enum class ipcq_dir : std::uint8_t { N = 0, S, E, W, parent, child_left, child_right };
const char* ipcq_dir_name(ipcq_dir d);

/// A received slot (return_slot mode).
struct ipcq_slot {
    ipcq_dir dir = ipcq_dir::E;
    std::uint64_t seq = 0;       ///< sender_seq of the slot
    bool in_l1 = false;          ///< the ring is this core's L1 (buffer_kind tcm)
    std::uint32_t l1_addr = 0;   ///< tcm: the slot in our L1
    std::uint64_t noc_addr = 0;  ///< the slot's NoC address (any buffer kind)
    std::uint32_t nbytes = 0;
};

struct ipcq_future {
    ipcq_dir dir = ipcq_dir::E;
};

/// The dtype/shape code strict validation compares (F2): dtype (a
/// fw::dtype_code) and the element count of the payload.
constexpr std::uint32_t ipcq_meta(std::uint32_t dtype, std::uint32_t elements) {
    return ((dtype + 1) << 28) | (elements & 0x0fffffffu);
}

/// This core's rank and whether a direction is installed.
std::uint32_t ipcq_rank();
bool ipcq_has(ipcq_dir dir);

/// Open the fabric connections of cross-chip directions (first use opens them too).
void ipcq_open();
/// Wait for outstanding writes to leave and close the fabric connections.
void ipcq_close();

/// Send `nbytes` (<= the peer's slot size) from L1. `meta` is the dtype/shape
/// code strict validation compares with the matching recv (0: none).
void ipcq_send(ipcq_dir dir, std::uint32_t src_l1, std::uint32_t nbytes, std::uint32_t meta = 0);

/// Receive the next slot of `dir` in place (return_slot); release it after use.
ipcq_slot ipcq_recv(ipcq_dir dir, std::uint32_t nbytes = 0, std::uint32_t meta = 0);
/// Receive from whichever direction has data, round robin (return_slot).
ipcq_slot ipcq_recv_any(std::uint32_t nbytes = 0, std::uint32_t meta = 0);
/// Give a received slot back: its credit is emitted before this returns.
void ipcq_release(const ipcq_slot& slot);
/// The slot's bytes in our L1: the slot itself (tcm), else copied into
/// `scratch_l1` (a DMA on vc_comm, waited for).
std::uint32_t ipcq_slot_to_l1(const ipcq_slot& slot, std::uint32_t scratch_l1);

/// copy_to_dst: receive the next slot of `dir` into `dst_l1` and release it.
void ipcq_recv_to(ipcq_dir dir, std::uint32_t dst_l1, std::uint32_t nbytes, std::uint32_t meta = 0);

/// Status reads (one poll each, never block): does `dir` have a slot to
/// receive / room in the peer's ring to send?
bool ipcq_can_recv(ipcq_dir dir);
bool ipcq_can_send(ipcq_dir dir);
/// Block (poll or sleep, per the group's backpressure mode) until one of
/// `rx` has a slot to receive or one of `tx` has room to send: the wait of a
/// kernel that drives several queues at once (a progress loop).
void ipcq_wait_any(const std::vector<ipcq_dir>& rx, const std::vector<ipcq_dir>& tx);

ipcq_future ipcq_recv_async(ipcq_dir dir);
/// Is the future's slot there? (A status read.)
bool ipcq_test(const ipcq_future& f);
ipcq_slot ipcq_wait(const ipcq_future& f, std::uint32_t nbytes = 0, std::uint32_t meta = 0);

}  // namespace cclsim::fw
