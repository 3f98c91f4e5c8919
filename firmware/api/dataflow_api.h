// NoC data-movement API for worker and Ethernet cores (tt-metal dataflow_api).
//
// Writes, reads and semaphore increments are asynchronous: they are queued on
// the core's DMA (a worker's PE_DMA virtual channel, an ERISC's NIU) and
// complete later. A write followed by a noc_semaphore_inc to the same core on
// the same VC arrives in order. Barriers wait for completion:
//   noc_async_writes_flushed  - data has left this core's L1 (source reusable)
//   noc_async_write_barrier   - every non-posted write has been acked
//   noc_async_read_barrier    - every read has landed in local L1
//   noc_async_atomic_barrier  - every semaphore increment has been acked
#pragma once

#include "firmware/api/kernel_api.h"

#include <cstdint>

namespace cclsim::fw {

constexpr std::uint8_t kUseKernelNoc = 0xff;

/// Encode (x, y, local address) as a 64-bit NoC address.
std::uint64_t get_noc_addr(std::uint32_t x, std::uint32_t y, std::uint32_t addr);
/// NoC address of `addr` in this core's L1.
std::uint64_t get_noc_addr(std::uint32_t addr);

void noc_async_write(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr, std::uint32_t size,
                     std::uint8_t noc = kUseKernelNoc);
/// A write that is not acked (not covered by noc_async_write_barrier).
void noc_async_write_posted(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr, std::uint32_t size,
                            std::uint8_t noc = kUseKernelNoc);
void noc_async_read(std::uint64_t src_noc_addr, std::uint32_t dst_local_l1_addr, std::uint32_t size,
                    std::uint8_t noc = kUseKernelNoc);
void noc_async_write_barrier(std::uint8_t noc = kUseKernelNoc);
void noc_async_writes_flushed(std::uint8_t noc = kUseKernelNoc);
void noc_async_read_barrier(std::uint8_t noc = kUseKernelNoc);
void noc_async_atomic_barrier(std::uint8_t noc = kUseKernelNoc);

/// Write the 32-bit `val` (carried in the command: no source buffer) to `addr`.
void noc_inline_dw_write(std::uint64_t addr, std::uint32_t val, std::uint8_t noc = kUseKernelNoc);

/// NoC transaction ids per RISC (tt-metal: NOC_MAX_TRANSACTION_ID + 1).
constexpr std::uint32_t NOC_MAX_TRANSACTION_ID_COUNT = 16;

/// Stamp the kernel's following reads on this NoC with transaction id `trid`
/// (0..15, tt-metal's noc_async_read_set_trid), so a barrier can wait for
/// them alone: a reader keeps the next block's reads in flight while it waits
/// for the previous block's.
void noc_async_read_set_trid(std::uint32_t trid, std::uint8_t noc = kUseKernelNoc);
/// Wait until every read issued with transaction id `trid` has landed.
void noc_async_read_barrier_with_trid(std::uint32_t trid, std::uint8_t noc = kUseKernelNoc);
/// A write counted under transaction id `trid` (0..15), so firmware can tell
/// when the writes of one buffer have left L1 without waiting for all writes.
void noc_async_write_one_packet_with_trid(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr,
                                          std::uint32_t size, std::uint32_t trid, std::uint8_t noc = kUseKernelNoc);
/// True once every write issued with `trid` has left this core's L1.
bool noc_async_write_trid_flushed(std::uint32_t trid, std::uint8_t noc = kUseKernelNoc);
/// Wait until every write issued with `trid` has left this core's L1.
void noc_async_write_barrier_with_trid(std::uint32_t trid, std::uint8_t noc = kUseKernelNoc);

/// A write whose landing also adds `incr` to the semaphore at `sem_noc_addr`
/// (same chip) in the same instant: whoever waits on the semaphore sees the
/// data. (Hardware issues the increment right behind the write on the same
/// VC; the model makes both visible together.) Counted as a non-posted write;
/// `trid` as for noc_async_write_one_packet_with_trid (0xff: none).
void noc_async_write_fused_atomic_inc(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr, std::uint32_t size,
                                      std::uint64_t sem_noc_addr, std::uint32_t incr, std::uint32_t trid = 0xff,
                                      std::uint8_t noc = kUseKernelNoc);

/// Atomically add `incr` to the 32-bit word at `addr` (any core on the chip).
void noc_semaphore_inc(std::uint64_t addr, std::uint32_t incr, std::uint8_t noc = kUseKernelNoc);
/// Set a local semaphore word.
void noc_semaphore_set(std::uint32_t sem_addr, std::uint32_t val);
/// Write the local word at `src_local_l1_addr` into a remote semaphore.
void noc_semaphore_set_remote(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr,
                              std::uint8_t noc = kUseKernelNoc);
/// Wait until the local semaphore equals `val`.
void noc_semaphore_wait(std::uint32_t sem_addr, std::uint32_t val);
/// Wait until the local semaphore is at least `val`.
void noc_semaphore_wait_min(std::uint32_t sem_addr, std::uint32_t val);

/// Pages of an interleaved buffer (tt-metal's InterleavedAddrGen): page i is
/// in bank i % banks at bank_base_address + (i / banks) * page_size, in DRAM
/// (DRAM = true) or in the L1 of the worker cores.
template <bool DRAM> struct InterleavedAddrGen {
    std::uint32_t bank_base_address;
    std::uint32_t page_size;
};
std::uint64_t get_noc_addr(std::uint32_t id, const InterleavedAddrGen<true>& s, std::uint32_t offset = 0);
std::uint64_t get_noc_addr(std::uint32_t id, const InterleavedAddrGen<false>& s, std::uint32_t offset = 0);

/// The NoC address of `bank_address_offset` in bank `bank_id` (tt-metal's
/// get_noc_addr_from_bank_id): DRAM bank (DRAM = true: its endpoint, at the
/// bank's offset in its channel) or L1 bank (the bank_id-th worker core).
/// Sharded buffers place shard s in bank s.
template <bool DRAM> std::uint64_t get_noc_addr_from_bank_id(std::uint32_t bank_id, std::uint64_t bank_address_offset);
template <> std::uint64_t get_noc_addr_from_bank_id<true>(std::uint32_t bank_id, std::uint64_t bank_address_offset);
template <> std::uint64_t get_noc_addr_from_bank_id<false>(std::uint32_t bank_id, std::uint64_t bank_address_offset);

/// Select the PE_DMA virtual channel for this kernel's following noc_async_*
/// commands (0 = vc_compute, 1 = vc_comm). No effect on Ethernet cores.
void noc_set_dma_vc(std::uint32_t vc);

}  // namespace cclsim::fw
