#include "firmware/api/dataflow_api.h"

#include "firmware/api/api_internal.h"
#include "models/noc/NocTypes.h"

#include <algorithm>

namespace cclsim::fw {

using detail::ctx;

namespace {

enum CounterKind : unsigned { WritesAcked = 1, WritesFlushed = 2, ReadsDone = 3, AtomicsAcked = 4, CmdBufReady = 5 };

Niu& checkRemote(KernelContext& k, unsigned noc, const char* api, std::uint64_t nocAddr, std::uint64_t size) {
    const CoreCoord c = nocaddr::coord(nocAddr);
    Niu* target = k.core().niu(noc).endpoint(c);
    if (!target)
        CCLSIM_ERROR(k.name(), "{}: NoC address 0x{:x} names core {} which does not exist on this chip", api, nocAddr,
                     c.str());
    const std::uint64_t local = nocaddr::local(nocAddr);
    if (local + size > target->memoryBytes())
        CCLSIM_ERROR(k.name(), "{}: range 0x{:x} + {} B is outside the memory of core {} (0x{:x} B)", api, local, size,
                     c.str(), target->memoryBytes());
    return *target;
}

template <class Done> void waitCounter(KernelContext& k, unsigned noc, unsigned kind, const char* api, Done&& done) {
    const PollDesc d{PollDesc::NocCounter, api, noc, 0};
    while (!k.poll(detail::nocKey(noc, kind), d, done)) {
    }
}

/// Wait for the kernel's NoC command buffer `buf` (noc_cmd_buf_ready) and
/// program a command into it; `alsoBuf` names a second buffer a two-command
/// call programs right after (a fused write's atomic increment). A buffer is
/// not ready while the NIU's request queue is full (packets that have not left
/// the core: a congested NoC back-pressures the core here) nor, after a
/// command, for the NIU's busy time. tt-metal gives writes, reads, atomics
/// and inline writes separate buffers, so only commands of one kind pace each
/// other. Call acceptCommand once the command is handed to the NIU.
void awaitCmdBuf(KernelContext& k, unsigned noc, const char* api, unsigned buf, int alsoBuf = -1) {
    NocCounters& c = k.counters(noc);
    const NocConfig& nc = k.core().niu(noc).noc().config();
    if (nc.cmdQueueDepth > 0 && c.cmdInFlight >= nc.cmdQueueDepth) {
        k.setWaypoint("NCBW");
        waitCounter(k, noc, CmdBufReady, api, [&] { return c.cmdInFlight < nc.cmdQueueDepth; });
        k.setWaypoint("NCBD");
    }
    Tick ready = c.cmdBufReadyAt[buf];
    if (alsoBuf >= 0) ready = std::max(ready, c.cmdBufReadyAt[alsoBuf]);
    if (ready > k.localTime()) k.advance(ready - k.localTime());
    k.advance((alsoBuf >= 0 ? 2 : 1) * k.core().costs().nocCmdIssue);
}

void acceptCommand(KernelContext& k, unsigned noc, unsigned buf, int alsoBuf = -1) {
    NocCounters& c = k.counters(noc);
    const Tick ready = k.localTime() + k.core().niu(noc).noc().config().cmdBufBusy;
    c.cmdBufReadyAt[buf] = ready;
    if (alsoBuf >= 0) c.cmdBufReadyAt[alsoBuf] = ready;
}

void issueWrite(std::uint32_t src, std::uint64_t dst, std::uint32_t size, std::uint8_t nocSel, bool posted,
                const char* api) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    detail::checkLocal(k, api, src, size);
    checkRemote(k, noc, api, dst, size);
    if (size == 0) return;
    awaitCmdBuf(k, noc, api, NocCounters::kWriteBuf);
    // Submitted at the kernel's local time without a context switch (Niu::write).
    k.core().niu(noc).write(k.core().nocClass(k.dmaVc()), src, nocaddr::coord(dst), nocaddr::local(dst), size, posted,
                            &k.counters(noc), k.localTime());
    acceptCommand(k, noc, NocCounters::kWriteBuf);
    k.acted();
}

}  // namespace

std::uint64_t get_noc_addr(std::uint32_t x, std::uint32_t y, std::uint32_t addr) {
    return nocaddr::encode(x, y, addr);
}

std::uint64_t get_noc_addr(std::uint32_t addr) {
    const CoreCoord c = ctx().core().coord();
    return nocaddr::encode(c.x, c.y, addr);
}

std::uint64_t get_noc_addr(std::uint32_t id, const InterleavedAddrGen<true>& s, std::uint32_t offset) {
    KernelContext& k = ctx();
    const BankMap& b = k.core().banks();
    if (b.dramEndpoint.empty()) CCLSIM_ERROR(k.name(), "get_noc_addr: this chip has no DRAM banks");
    const std::size_t n = b.dramEndpoint.size();
    const CoreCoord c = b.dramEndpoint[id % n];
    const std::uint64_t local =
        b.dramOffset[id % n] + s.bank_base_address + std::uint64_t(id / n) * s.page_size + offset;
    return nocaddr::encode(c.x, c.y, local);
}

std::uint64_t get_noc_addr(std::uint32_t id, const InterleavedAddrGen<false>& s, std::uint32_t offset) {
    KernelContext& k = ctx();
    const BankMap& b = k.core().banks();
    const std::size_t n = b.l1Cores.size();
    const CoreCoord c = b.l1Cores[id % n];
    return nocaddr::encode(c.x, c.y, s.bank_base_address + std::uint64_t(id / n) * s.page_size + offset);
}

template <> std::uint64_t get_noc_addr_from_bank_id<true>(std::uint32_t bank_id, std::uint64_t bank_address_offset) {
    KernelContext& k = ctx();
    const BankMap& b = k.core().banks();
    if (bank_id >= b.dramEndpoint.size())
        CCLSIM_ERROR(k.name(), "get_noc_addr_from_bank_id: DRAM bank {} does not exist (the chip has {})", bank_id,
                     b.dramEndpoint.size());
    const CoreCoord c = b.dramEndpoint[bank_id];
    return nocaddr::encode(c.x, c.y, b.dramOffset[bank_id] + bank_address_offset);
}

template <> std::uint64_t get_noc_addr_from_bank_id<false>(std::uint32_t bank_id, std::uint64_t bank_address_offset) {
    KernelContext& k = ctx();
    const BankMap& b = k.core().banks();
    if (bank_id >= b.l1Cores.size())
        CCLSIM_ERROR(k.name(), "get_noc_addr_from_bank_id: L1 bank {} does not exist (the chip has {} worker cores)",
                     bank_id, b.l1Cores.size());
    const CoreCoord c = b.l1Cores[bank_id];
    return nocaddr::encode(c.x, c.y, bank_address_offset);
}

void noc_async_write(std::uint32_t src, std::uint64_t dst, std::uint32_t size, std::uint8_t noc) {
    issueWrite(src, dst, size, noc, false, "noc_async_write");
}

void noc_async_write_posted(std::uint32_t src, std::uint64_t dst, std::uint32_t size, std::uint8_t noc) {
    issueWrite(src, dst, size, noc, true, "noc_async_write_posted");
}

void noc_async_read(std::uint64_t src, std::uint32_t dst, std::uint32_t size, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    detail::checkLocal(k, "noc_async_read", dst, size);
    checkRemote(k, noc, "noc_async_read", src, size);
    if (size == 0) return;
    awaitCmdBuf(k, noc, "noc_async_read", NocCounters::kReadBuf);
    k.core().niu(noc).read(k.core().nocClass(k.dmaVc()), nocaddr::coord(src), nocaddr::local(src), dst, size,
                           &k.counters(noc), k.localTime());
    acceptCommand(k, noc, NocCounters::kReadBuf);
    k.acted();
}

void noc_async_write_barrier(std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    const NocCounters& c = k.counters(noc);
    k.setWaypoint("NWBW");
    waitCounter(k, noc, WritesAcked, "noc_async_write_barrier", [&] { return c.nonpostedAcked == c.nonpostedIssued; });
    k.setWaypoint("NWBD");
}

void noc_async_writes_flushed(std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    const NocCounters& c = k.counters(noc);
    k.setWaypoint("NWFW");
    waitCounter(k, noc, WritesFlushed, "noc_async_writes_flushed", [&] { return c.writesFlushed == c.writesIssued; });
    k.setWaypoint("NWFD");
}

void noc_async_read_barrier(std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    const NocCounters& c = k.counters(noc);
    k.setWaypoint("NRBW");
    waitCounter(k, noc, ReadsDone, "noc_async_read_barrier", [&] { return c.readsDone == c.readsIssued; });
    k.setWaypoint("NRBD");
}

void noc_async_atomic_barrier(std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    const NocCounters& c = k.counters(noc);
    k.setWaypoint("NABW");
    waitCounter(k, noc, AtomicsAcked, "noc_async_atomic_barrier", [&] { return c.atomicsAcked == c.atomicsIssued; });
    k.setWaypoint("NABD");
}

void noc_semaphore_inc(std::uint64_t addr, std::uint32_t incr, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    checkRemote(k, noc, "noc_semaphore_inc", addr, 4);
    if (addr % 4) CCLSIM_ERROR(k.name(), "noc_semaphore_inc: address 0x{:x} is not 4 B aligned", addr);
    awaitCmdBuf(k, noc, "noc_semaphore_inc", NocCounters::kAtomicBuf);
    k.core().niu(noc).atomicInc(k.core().nocClass(k.dmaVc()), nocaddr::coord(addr), nocaddr::local(addr), incr, false,
                                &k.counters(noc), k.localTime());
    acceptCommand(k, noc, NocCounters::kAtomicBuf);
    k.acted();
}

void noc_semaphore_set(std::uint32_t sem_addr, std::uint32_t val) {
    l1_write_u32(sem_addr, val);
}

void noc_inline_dw_write(std::uint64_t addr, std::uint32_t val, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    checkRemote(k, noc, "noc_inline_dw_write", addr, 4);
    if (addr % 4) CCLSIM_ERROR(k.name(), "noc_inline_dw_write: address 0x{:x} is not 4 B aligned", addr);
    awaitCmdBuf(k, noc, "noc_inline_dw_write", NocCounters::kInlineBuf);
    k.core().niu(noc).writeInline(k.core().nocClass(k.dmaVc()), nocaddr::coord(addr), nocaddr::local(addr), val, false,
                                  &k.counters(noc), k.localTime());
    acceptCommand(k, noc, NocCounters::kInlineBuf);
    k.acted();
}

namespace {
unsigned checkTrid(KernelContext& k, std::uint32_t trid, const char* api) {
    if (trid >= NocCounters::kTrids)
        CCLSIM_ERROR(k.name(), "{}: transaction id {} does not exist (0..{})", api, trid, NocCounters::kTrids - 1);
    return trid;
}
}  // namespace

void noc_async_write_one_packet_with_trid(std::uint32_t src, std::uint64_t dst, std::uint32_t size, std::uint32_t trid,
                                          std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    const char* api = "noc_async_write_one_packet_with_trid";
    checkTrid(k, trid, api);
    detail::checkLocal(k, api, src, size);
    checkRemote(k, noc, api, dst, size);
    if (size == 0) return;
    awaitCmdBuf(k, noc, api, NocCounters::kWriteBuf);
    k.core().niu(noc).write(k.core().nocClass(k.dmaVc()), src, nocaddr::coord(dst), nocaddr::local(dst), size, false,
                            &k.counters(noc), k.localTime(), trid);
    acceptCommand(k, noc, NocCounters::kWriteBuf);
    k.acted();
}

void noc_async_read_set_trid(std::uint32_t trid, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    k.counters(noc).readTrid = std::uint8_t(checkTrid(k, trid, "noc_async_read_set_trid"));
}

void noc_async_read_barrier_with_trid(std::uint32_t trid, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    checkTrid(k, trid, "noc_async_read_barrier_with_trid");
    const NocCounters& c = k.counters(noc);
    k.setWaypoint("NRTW");
    while (!k.poll(detail::nocKey(noc, 32 + trid),
                   PollDesc{PollDesc::NocCounter, "noc_async_read_barrier_with_trid", noc, trid},
                   [&] { return c.tridReadDone[trid] == c.tridReadIssued[trid]; })) {
    }
    k.setWaypoint("NRTD");
}

bool noc_async_write_trid_flushed(std::uint32_t trid, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    checkTrid(k, trid, "noc_async_write_trid_flushed");
    const NocCounters& c = k.counters(noc);
    return k.poll(detail::nocKey(noc, 16 + trid),
                  PollDesc{PollDesc::NocCounter, "noc_async_write_trid_flushed", noc, trid},
                  [&] { return c.tridFlushed[trid] == c.tridIssued[trid]; });
}

void noc_async_write_barrier_with_trid(std::uint32_t trid, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    k.setWaypoint("NWTW");
    while (!noc_async_write_trid_flushed(trid, nocSel)) {
    }
    k.setWaypoint("NWTD");
}

void noc_async_write_fused_atomic_inc(std::uint32_t src, std::uint64_t dst, std::uint32_t size, std::uint64_t sem,
                                      std::uint32_t incr, std::uint32_t trid, std::uint8_t nocSel) {
    KernelContext& k = ctx();
    const unsigned noc = detail::resolveNoc(k, nocSel);
    const char* api = "noc_async_write_fused_atomic_inc";
    if (trid != 0xff) checkTrid(k, trid, api);
    detail::checkLocal(k, api, src, size);
    checkRemote(k, noc, api, dst, size);
    checkRemote(k, noc, api, sem, 4);
    if (sem % 4) CCLSIM_ERROR(k.name(), "{}: semaphore address 0x{:x} is not 4 B aligned", api, sem);
    // Two commands on hardware (the write, then the increment behind it).
    awaitCmdBuf(k, noc, api, NocCounters::kWriteBuf, NocCounters::kAtomicBuf);
    k.core().niu(noc).writeFused(k.core().nocClass(k.dmaVc()), src, nocaddr::coord(dst), nocaddr::local(dst), size,
                                 nocaddr::coord(sem), nocaddr::local(sem), incr, false, &k.counters(noc), k.localTime(),
                                 trid == 0xff ? Niu::kNoTrid : trid);
    acceptCommand(k, noc, NocCounters::kWriteBuf, NocCounters::kAtomicBuf);
    k.acted();
}

void noc_semaphore_set_remote(std::uint32_t src, std::uint64_t dst, std::uint8_t noc) {
    issueWrite(src, dst, 4, noc, false, "noc_semaphore_set_remote");
}

void noc_semaphore_wait(std::uint32_t sem_addr, std::uint32_t val) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "noc_semaphore_wait", sem_addr, 4);
    k.setWaypoint("NSW");
    L1Memory& l1 = k.core().l1;
    detail::waitL1(k, "noc_semaphore_wait", sem_addr, val, [&] { return l1.readU32(sem_addr) == val; });
    k.setWaypoint("NSD");
}

void noc_semaphore_wait_min(std::uint32_t sem_addr, std::uint32_t val) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "noc_semaphore_wait_min", sem_addr, 4);
    k.setWaypoint("NSMW");
    L1Memory& l1 = k.core().l1;
    detail::waitL1(k, "noc_semaphore_wait_min", sem_addr, val, [&] { return l1.readU32(sem_addr) >= val; });
    k.setWaypoint("NSMD");
}

void noc_set_dma_vc(std::uint32_t vc) {
    KernelContext& k = ctx();
    if (vc > 1) CCLSIM_ERROR(k.name(), "noc_set_dma_vc({}): PE_DMA has virtual channels 0 and 1", vc);
    if (!k.core().isEthernet()) k.setDmaVc(vc);
}

}  // namespace cclsim::fw

static_assert(cclsim::fw::NOC_MAX_TRANSACTION_ID_COUNT == cclsim::NocCounters::kTrids,
              "firmware and NIU agree on the number of NoC transaction ids");
