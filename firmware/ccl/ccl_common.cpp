// Device-side helpers shared by the collectives' worker kernels.
#include "firmware/api/api_internal.h"
#include "firmware/ccl/ccl_kernels.h"
#include "firmware/edm/edm_types.h"

namespace cclsim::fw::ccl {

std::uint64_t tensor_page_addr(const TensorArgs& t, std::uint32_t page, std::uint32_t page_bytes) {
    if (t.shard.sharded()) {
        const ShardPlace at = shardPlace(t.shard, page);
        const std::uint64_t offset = t.base + at.page * page_bytes;
        const std::uint32_t bank = t.shard.bankOf(at.shard);
        return t.in_dram() ? get_noc_addr_from_bank_id<true>(bank, offset)
                           : get_noc_addr_from_bank_id<false>(bank, offset);
    }
    if (t.in_dram()) return get_noc_addr(page, InterleavedAddrGen<true>{t.base, page_bytes});
    return get_noc_addr(page, InterleavedAddrGen<false>{t.base, page_bytes});
}

namespace {

/// The channel slot the worker uses now; moves the port on to the next one.
std::uint32_t take_slot(const EdmPort& ch) {
    fw_assert(ch.slots >= 1 && ch.next_slot < ch.slots, "EDM port: bad slot count (host/kernel mismatch)");
    const std::uint32_t addr = ch.buffer + ch.next_slot * ch.stride;
    ch.next_slot = ch.next_slot + 1 == ch.slots ? 0 : ch.next_slot + 1;
    return addr;
}

}  // namespace

void edm_push(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes) {
    noc_semaphore_wait(ch.local_sem, 1);
    // Reset before the write: the EDM's next "slot free" must not be lost.
    noc_semaphore_set(ch.local_sem, 0);
    noc_async_write(l1, get_noc_addr(ch.x, ch.y, take_slot(ch)), bytes);
    // Same VC as the payload: the increment lands after it.
    noc_semaphore_inc(get_noc_addr(ch.x, ch.y, ch.semaphore), cclsim::edm::worker_signal::kNextMessage);
}

void edm_pull(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes) {
    noc_semaphore_wait(ch.local_sem, 1);
    noc_semaphore_set(ch.local_sem, 0);
    noc_async_read(get_noc_addr(ch.x, ch.y, take_slot(ch)), l1, bytes);
    noc_async_read_barrier();
    noc_semaphore_inc(get_noc_addr(ch.x, ch.y, ch.semaphore), cclsim::edm::worker_signal::kNextMessage);
}

void semaphore_inc(const RemoteSem& s, std::uint32_t incr) {
    noc_semaphore_inc(get_noc_addr(s.x, s.y, s.addr), incr);
}

void signal_done(const RemoteSem& done) {
    if (done.addr == 0) return;
    noc_async_write_barrier();
    semaphore_inc(done);
}

}  // namespace cclsim::fw::ccl
