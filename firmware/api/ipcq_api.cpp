#include "firmware/api/ipcq_api.h"

#include "firmware/api/api_internal.h"
#include "firmware/api/fabric_api.h"
#include "models/pe/IpcqEdge.h"
#include "models/pe/PeCore.h"

#include <map>
#include <optional>
#include <vector>

namespace cclsim::fw {

namespace {

constexpr unsigned kVcComm = 1;

/// The fabric connections a kernel holds for its cross-chip directions.
struct Session {
    std::map<unsigned, WorkerToFabricEdmSender> tx, credit;
};
std::map<const KernelContext*, Session>& sessions() {
    static std::map<const KernelContext*, Session> s;
    return s;
}

PeIpcq& ipcqOf(KernelContext& k, const char* api) {
    if (k.core().isEthernet())
        CCLSIM_ERROR(k.name(), "{}: PE_IPCQ is a worker-core block; this kernel runs on an Ethernet core", api);
    PeIpcq& p = static_cast<PeCore&>(k.core()).ipcq;
    if (!p.installed())
        CCLSIM_ERROR(k.name(), "{}: no IPCQ queues are installed on this core (no process group includes it)", api);
    return p;
}

IpcqDir toDir(ipcq_dir d) {
    return IpcqDir(unsigned(d));
}
ipcq_dir fromDir(IpcqDir d) {
    return ipcq_dir(unsigned(d));
}

fabric::FabricConnectionArgs unpackConnection(const std::vector<std::uint32_t>& words) {
    fabric::FabricConnectionArgs a;
    std::size_t i = 0;
    auto get = [&](std::uint32_t& f) { f = i < words.size() ? words[i++] : 0; };
    a.visit(get);
    return a;
}

fabric::PacketHeader unpackHeader(const std::vector<std::uint32_t>& words) {
    fabric::PacketHeader h;
    for (std::size_t i = 0; i < words.size() && i < fabric::hdr::kWords; ++i) h.words[i] = words[i];
    return h;
}

/// The connection of a cross-chip direction (opened on first use).
WorkerToFabricEdmSender& connection(std::map<unsigned, WorkerToFabricEdmSender>& m, IpcqDir d,
                                    const std::vector<std::uint32_t>& args) {
    auto it = m.find(unsigned(d));
    if (it == m.end()) it = m.emplace(unsigned(d), WorkerToFabricEdmSender(unpackConnection(args))).first;
    if (!it->second.is_open()) it->second.open();
    return it->second;
}

/// Issue the NoC commands of one transfer on PE_DMA's vc_comm (the
/// IpcqDmaToken of docs/design/pe-ipcq.md#d12): the kernel's VC is restored afterwards.
template <class F> void onVcComm(KernelContext& k, F&& issue) {
    const unsigned saved = k.dmaVc();
    k.setDmaVc(kVcComm);
    issue();
    k.setDmaVc(saved);
}

void trace(PeIpcq& p, KernelContext& k, const char* op, IpcqDir d, std::uint32_t nbytes, std::uint64_t seq) {
    if (!p.policy().trace) return;
    std::fprintf(p.policy().trace, "ccl_trace rank=%u t=%.3f dir=%s op=%s nbytes=%u seq=%llu\n", p.rank(),
                 ticksToNs(k.localTime()), ipcqDirName(d), op, nbytes, static_cast<unsigned long long>(seq));
}

/// Wait (poll or sleep, per the policy) until register `reg` >= `value`.
void waitRegister(KernelContext& k, PeIpcq& p, std::uint32_t reg, std::uint32_t value, IpcqWait w, const char* api) {
    if (l1_word_at_least(reg, value)) return;  // one status read of the cached pointer
    p.setWait(w);
    if (p.policy().backpressure == Backpressure::Poll) {
        while (!l1_word_at_least(reg, value)) {
        }
    } else {
        L1Memory& l1 = p.l1();
        const std::string desc = fmt::format("{} (IPCQ rank {} {}: register 0x{:x} is {}, waiting for {})", api,
                                             p.rank(), ipcqDirName(w.dir), reg, l1.readU32(reg), value);
        k.sleepUntil({reg}, desc, p.config().wakeCost, [&] { return l1.readU32(reg) >= value; });
    }
    p.setWait(IpcqWait{});
}

/// Emit the credit of one consumed slot of `q` (returns when it is emitted).
void emitCredit(KernelContext& k, PeIpcq& p, IpcqQueuePair& q) {
    if (p.policy().credit == CreditMode::FastPath) {
        // The credit travels the path's latency; the receiver waits it out (docs/design/pe-ipcq.md#d9).
        k.advance(q.creditLatency);
        p.emitFastCredit(q, k.localTime());
        k.acted();
        return;
    }
    // A real atomic increment of the sender's peer_tail_cache, contending for bandwidth.
    onVcComm(k, [&] {
        if (!q.crossChip) {
            noc_semaphore_inc(q.peerTailReg, 1);
        } else {
            p.setWait(IpcqWait{IpcqWait::Fabric, q.direction});
            fabric::PacketHeader h = unpackHeader(q.creditHeader);
            h.to_noc_unicast_atomic_inc(q.peerTailReg, 1, /*flush=*/false);  // a credit: no data before it
            h.set_stream(fabric::hdr::stream_of(q.creditHeader[0]));         // the group's tag (concurrent runs)
            connection(sessions()[&k].credit, q.direction, q.creditConnection).send_packet(h, 0, 0);
            p.setWait(IpcqWait{});
        }
    });
}

ipcq_slot slotOf(PeIpcq& p, const IpcqQueuePair& q, std::uint64_t seq, std::uint32_t nbytes) {
    ipcq_slot s;
    s.dir = fromDir(q.direction);
    s.seq = seq;
    s.in_l1 = q.self.buffer_kind == BufferKind::Tcm;
    s.l1_addr = s.in_l1 ? std::uint32_t(q.self.slotAddr(seq)) : 0;
    s.noc_addr = q.self.slotNocAddr(seq);
    s.nbytes = nbytes ? nbytes : q.self.slot_size;
    (void)p;
    return s;
}

/// Consume the next slot of `q` (its head update is visible).
ipcq_slot consume(KernelContext& k, PeIpcq& p, IpcqQueuePair& q, std::uint32_t nbytes, std::uint32_t meta,
                  const char* api) {
    if (nbytes > q.self.slot_size)
        CCLSIM_ERROR(k.name(), "{}: rank {} {} expects {} B but the slots hold {} B", api, p.rank(),
                     ipcqDirName(q.direction), nbytes, q.self.slot_size);
    const std::uint64_t seq = p.received(q, nbytes, meta);
    trace(p, k, "recv", q.direction, nbytes ? nbytes : q.self.slot_size, seq);
    return slotOf(p, q, seq, nbytes);
}

}  // namespace

const char* ipcq_dir_name(ipcq_dir d) {
    return ipcqDirName(toDir(d));
}

std::uint32_t ipcq_rank() {
    KernelContext& k = detail::ctx();
    return ipcqOf(k, "ipcq_rank").rank();
}

bool ipcq_has(ipcq_dir dir) {
    KernelContext& k = detail::ctx();
    return ipcqOf(k, "ipcq_has").has(toDir(dir));
}

void ipcq_open() {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_open");
    for (IpcqDir d : p.directions()) {
        IpcqQueuePair& q = p.queue(d, "ipcq_open");
        if (!q.crossChip) continue;
        if (q.canSend) connection(sessions()[&k].tx, d, q.txConnection);
        // Credits leave only from directions that receive (a ring of ours).
        if (p.policy().credit == CreditMode::Fabric && !q.creditConnection.empty())
            connection(sessions()[&k].credit, d, q.creditConnection);
    }
}

void ipcq_close() {
    KernelContext& k = detail::ctx();
    ipcqOf(k, "ipcq_close");
    k.setWaypoint("IQCL");
    onVcComm(k, [&] {
        noc_async_writes_flushed();
        noc_async_atomic_barrier();
    });
    auto it = sessions().find(&k);
    if (it != sessions().end()) {
        for (auto* m : {&it->second.tx, &it->second.credit})
            for (auto& [d, c] : *m)
                if (c.is_open()) c.close();
        sessions().erase(it);
    }
}

void ipcq_send(ipcq_dir dir, std::uint32_t src, std::uint32_t nbytes, std::uint32_t meta) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_send");
    IpcqQueuePair& q = p.queue(toDir(dir), "ipcq_send");
    if (!q.canSend)
        CCLSIM_ERROR(k.name(),
                     "IpcqInvalidDirection: ipcq_send on rank {} in direction {}, which only receives "
                     "(a unidirectional topology)",
                     p.rank(), ipcqDirName(q.direction));
    if (nbytes == 0 || nbytes > q.peer.slot_size)
        CCLSIM_ERROR(k.name(), "ipcq_send: {} B on rank {} {}: a send carries 1..{} B (the peer's slot size)", nbytes,
                     p.rank(), ipcqDirName(q.direction), q.peer.slot_size);
    detail::checkLocal(k, "ipcq_send", src, nbytes);
    k.setWaypoint("IQSW");
    k.advance(p.config().opCost);
    // The send condition (docs/design/pe-ipcq.md#d5): my_head - peer_tail_cache <
    // peer.n_slots; waiting for it is the backpressure of #d7.
    if (q.my_head + 1 > q.peer.n_slots)
        waitRegister(k, p, p.tailReg(q.direction), std::uint32_t(q.my_head + 1 - q.peer.n_slots),
                     IpcqWait{IpcqWait::Send, q.direction}, "ipcq_send");
    std::uint64_t hash = 0;
    if (q.tx && p.l1().storesPayload()) {  // the I6 checker compares it with the landed slot
        static thread_local std::vector<std::uint8_t> bytes;
        bytes.resize(nbytes);
        p.l1().readBytes(src, nbytes, bytes.data());
        hash = IpcqEdge::hash(bytes.data(), nbytes);
    }
    const std::uint64_t dst = q.peer.slotNocAddr(q.my_head);
    onVcComm(k, [&] {
        if (!q.crossChip) {
            // One write into the peer's slot; the head increment lands with it.
            noc_async_write_fused_atomic_inc(src, dst, nbytes, q.peerHeadReg, 1);
        } else {
            p.setWait(IpcqWait{IpcqWait::Fabric, q.direction});
            fabric::PacketHeader h = unpackHeader(q.txHeader);
            // No flush: the head update follows its data at once (PE_IPCQ has
            // no tt-metal counterpart whose flag it could follow).
            h.to_noc_fused_unicast_write_atomic_inc(dst, q.peerHeadReg, 1, nbytes, /*flush=*/false);
            h.set_stream(fabric::hdr::stream_of(q.txHeader[0]));  // the group's tag (concurrent runs)
            connection(sessions()[&k].tx, q.direction, q.txConnection).send_packet(h, src, nbytes);
            p.setWait(IpcqWait{});
        }
    });
    trace(p, k, "send", q.direction, nbytes, q.my_head);
    p.sent(q, hash, nbytes, meta);
    k.setWaypoint("IQSD");
}

ipcq_slot ipcq_recv(ipcq_dir dir, std::uint32_t nbytes, std::uint32_t meta) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_recv");
    IpcqQueuePair& q = p.queue(toDir(dir), "ipcq_recv");
    k.setWaypoint("IQRW");
    k.advance(p.config().opCost);
    waitRegister(k, p, p.headReg(q.direction), std::uint32_t(q.my_tail + 1), IpcqWait{IpcqWait::Recv, q.direction},
                 "ipcq_recv");
    const ipcq_slot s = consume(k, p, q, nbytes, meta, "ipcq_recv");
    k.setWaypoint("IQRD");
    return s;
}

ipcq_slot ipcq_recv_any(std::uint32_t nbytes, std::uint32_t meta) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_recv_any");
    const std::vector<IpcqDir> dirs = p.directions();
    k.setWaypoint("IQRA");
    k.advance(p.config().opCost);
    // Rotate from the direction after the last one served (weak fairness).
    auto ready = [&](IpcqDir d) {
        const IpcqQueuePair& q = p.queue(d, "ipcq_recv_any");
        return p.l1().readU32(p.headReg(d)) > q.my_tail;
    };
    for (;;) {
        for (unsigned i = 1; i <= kIpcqDirs; ++i) {
            const unsigned d = (p.lastPolledDir() + i) % kIpcqDirs;
            if (!p.has(IpcqDir(d))) continue;
            IpcqQueuePair& q = p.queue(IpcqDir(d), "ipcq_recv_any");
            if (!l1_word_at_least(p.headReg(q.direction), std::uint32_t(q.my_tail + 1))) continue;
            p.lastPolledDir() = d;
            const ipcq_slot s = consume(k, p, q, nbytes, meta, "ipcq_recv_any");
            k.setWaypoint("IQRD");
            return s;
        }
        // Nothing in any direction: poll again, or sleep until a head moves.
        if (p.policy().backpressure == Backpressure::Sleep) {
            std::vector<std::uint32_t> regs;
            regs.reserve(dirs.size());
            for (IpcqDir d : dirs) regs.push_back(p.headReg(d));
            p.setWait(IpcqWait{IpcqWait::RecvAny, dirs.front()});
            k.sleepUntil(regs, fmt::format("ipcq_recv_any (IPCQ rank {}: no direction has data)", p.rank()),
                         p.config().wakeCost, [&] {
                             for (IpcqDir d : dirs)
                                 if (ready(d)) return true;
                             return false;
                         });
            p.setWait(IpcqWait{});
        } else {
            p.setWait(IpcqWait{IpcqWait::RecvAny, dirs.front()});
        }
    }
}

void ipcq_release(const ipcq_slot& slot) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_release");
    IpcqQueuePair& q = p.queue(toDir(slot.dir), "ipcq_release");
    k.setWaypoint("IQCR");
    emitCredit(k, p, q);
    k.setWaypoint("IQCD");
}

std::uint32_t ipcq_slot_to_l1(const ipcq_slot& slot, std::uint32_t scratch) {
    if (slot.in_l1) return slot.l1_addr;
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "ipcq_slot_to_l1", scratch, slot.nbytes);
    onVcComm(k, [&] {
        noc_async_read(slot.noc_addr, scratch, slot.nbytes);
        noc_async_read_barrier();
    });
    return scratch;
}

void ipcq_recv_to(ipcq_dir dir, std::uint32_t dst, std::uint32_t nbytes, std::uint32_t meta) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "ipcq_recv_to", dst, nbytes);
    const ipcq_slot s = ipcq_recv(dir, nbytes, meta);
    // copy_to_dst: PE_IPCQ has PE_DMA copy the slot into dst (vc_comm).
    onVcComm(k, [&] {
        if (s.in_l1)
            noc_async_write(s.l1_addr, get_noc_addr(dst), s.nbytes);
        else
            noc_async_read(s.noc_addr, dst, s.nbytes);
        noc_async_write_barrier();
        noc_async_read_barrier();
    });
    ipcq_release(s);
}

namespace {
/// The register test of "can receive" / "can send" on `q`.
std::pair<std::uint32_t, std::uint32_t> recvCondition(PeIpcq& p, const IpcqQueuePair& q) {
    return {p.headReg(q.direction), std::uint32_t(q.my_tail + 1)};
}
std::pair<std::uint32_t, std::uint32_t> sendCondition(PeIpcq& p, const IpcqQueuePair& q) {
    const std::uint64_t need = q.my_head + 1 > q.peer.n_slots ? q.my_head + 1 - q.peer.n_slots : 0;
    return {p.tailReg(q.direction), std::uint32_t(need)};
}
}  // namespace

bool ipcq_can_recv(ipcq_dir dir) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_can_recv");
    const auto [reg, value] = recvCondition(p, p.queue(toDir(dir), "ipcq_can_recv"));
    return l1_word_at_least(reg, value);
}

bool ipcq_can_send(ipcq_dir dir) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_can_send");
    IpcqQueuePair& q = p.queue(toDir(dir), "ipcq_can_send");
    if (!q.canSend)
        CCLSIM_ERROR(k.name(), "IpcqInvalidDirection: ipcq_can_send on rank {} in direction {}, which only receives",
                     p.rank(), ipcqDirName(q.direction));
    const auto [reg, value] = sendCondition(p, q);
    return value == 0 || l1_word_at_least(reg, value);
}

void ipcq_wait_any(const std::vector<ipcq_dir>& rx, const std::vector<ipcq_dir>& tx) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_wait_any");
    std::vector<std::pair<std::uint32_t, std::uint32_t>> conds;
    conds.reserve(rx.size() + tx.size());
    for (ipcq_dir d : rx) conds.push_back(recvCondition(p, p.queue(toDir(d), "ipcq_wait_any")));
    for (ipcq_dir d : tx) conds.push_back(sendCondition(p, p.queue(toDir(d), "ipcq_wait_any")));
    if (conds.empty()) CCLSIM_ERROR(k.name(), "ipcq_wait_any: no direction to wait for");
    auto anyReady = [&] {
        for (const auto& [reg, value] : conds)
            if (l1_word_at_least(reg, value)) return true;
        return false;
    };
    if (anyReady()) return;
    p.setWait(IpcqWait{rx.empty() ? IpcqWait::Send : IpcqWait::RecvAny, toDir(rx.empty() ? tx.front() : rx.front())});
    if (p.policy().backpressure == Backpressure::Poll) {
        while (!anyReady()) {
        }
    } else {
        std::vector<std::uint32_t> regs;
        regs.reserve(conds.size());
        for (const auto& c : conds) regs.push_back(c.first);
        L1Memory& l1 = p.l1();
        k.sleepUntil(regs, fmt::format("ipcq_wait_any (IPCQ rank {}: no queue can receive or send)", p.rank()),
                     p.config().wakeCost, [&] {
                         for (const auto& [reg, value] : conds)
                             if (l1.readU32(reg) >= value) return true;
                         return false;
                     });
    }
    p.setWait(IpcqWait{});
}

ipcq_future ipcq_recv_async(ipcq_dir dir) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_recv_async");
    p.queue(toDir(dir), "ipcq_recv_async");
    return ipcq_future{dir};
}

bool ipcq_test(const ipcq_future& f) {
    KernelContext& k = detail::ctx();
    PeIpcq& p = ipcqOf(k, "ipcq_test");
    IpcqQueuePair& q = p.queue(toDir(f.dir), "ipcq_test");
    return l1_word_at_least(p.headReg(q.direction), std::uint32_t(q.my_tail + 1));
}

ipcq_slot ipcq_wait(const ipcq_future& f, std::uint32_t nbytes, std::uint32_t meta) {
    return ipcq_recv(f.dir, nbytes, meta);
}

}  // namespace cclsim::fw
