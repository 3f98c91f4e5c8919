#include "models/pe/PeIpcq.h"

#include "models/common/Report.h"
#include "models/pe/IpcqEdge.h"

#include <fmt/format.h>

namespace cclsim {

namespace {
constexpr const char* kDirNames[kIpcqDirs] = {"N", "S", "E", "W", "parent", "child_left", "child_right"};
}

const char* ipcqDirName(IpcqDir d) {
    return kDirNames[unsigned(d)];
}

const TraceEnum& ipcqWaitTraceEnum() {
    static const TraceEnum e{"ipcq_wait",
                             std::vector<std::string>(std::begin(kIpcqWaitNames), std::end(kIpcqWaitNames))};
    return e;
}

const TraceEnum& ipcqDirTraceEnum() {
    static const TraceEnum e{"ipcq_dir", std::vector<std::string>(std::begin(kDirNames), std::end(kDirNames))};
    return e;
}

std::optional<IpcqDir> parseIpcqDir(const std::string& s) {
    for (unsigned d = 0; d < kIpcqDirs; ++d)
        if (s == kDirNames[d]) return IpcqDir(d);
    return std::nullopt;
}

const char* bufferKindName(BufferKind k) {
    switch (k) {
        case BufferKind::Tcm: return "tcm";
        case BufferKind::Hbm: return "hbm";
        case BufferKind::Sram: return "sram";
    }
    return "?";
}

std::optional<BufferKind> parseBufferKind(const std::string& s) {
    if (s == "tcm") return BufferKind::Tcm;
    if (s == "hbm") return BufferKind::Hbm;
    if (s == "sram") return BufferKind::Sram;
    return std::nullopt;
}

PeIpcq::PeIpcq(const sc_core::sc_module_name& name, L1Memory& l1, unsigned chip, CoreCoord self,
               const PeIpcqConfig& cfg)
    : sc_core::sc_module(name), l1_(l1), chip_(chip), self_(self), cfg_(cfg) {
    watch_.owner = this;
}

PeIpcq::~PeIpcq() {
    l1_.unwatchAll(&watch_);
}

void PeIpcq::install(unsigned rank, const IpcqQueuePair& q) {
    if (rank_ >= 0 && unsigned(rank_) != rank)
        CCLSIM_ERROR(name(), "PE_IPCQ already serves rank {}; cannot also install rank {}", rank_, rank);
    rank_ = int(rank);
    const unsigned d = unsigned(q.direction);
    if (queues_[d]) CCLSIM_ERROR(name(), "rank {}: direction {} installed twice", rank, ipcqDirName(q.direction));
    queues_[d] = std::make_unique<IpcqQueuePair>(q);
    signals_[d] = std::make_unique<Signals>();
    for (std::uint32_t reg : {headReg(q.direction), tailReg(q.direction)}) {
        l1_.markControl(reg, 4);
        l1_.writeU32(reg, 0);
        l1_.watch(reg, 4, &watch_);
    }
    lastHead_[d] = lastTail_[d] = 0;
}

IpcqQueuePair& PeIpcq::queue(IpcqDir d, const char* api) {
    IpcqQueuePair* q = queues_[unsigned(d)].get();
    if (!q) {
        std::string have;
        for (IpcqDir x : directions()) have += std::string(have.empty() ? "" : ", ") + ipcqDirName(x);
        CCLSIM_ERROR(name(),
                     "IpcqInvalidDirection: {} on rank {} in direction {}, which is not installed (installed: {})", api,
                     rank_, ipcqDirName(d), have.empty() ? "none" : have);
    }
    return *q;
}

std::vector<IpcqDir> PeIpcq::directions() const {
    std::vector<IpcqDir> out;
    for (unsigned d = 0; d < kIpcqDirs; ++d)
        if (queues_[d]) out.push_back(IpcqDir(d));
    return out;
}

void PeIpcq::sent(IpcqQueuePair& q, std::uint64_t payloadHash, std::uint32_t nbytes, std::uint32_t meta) {
    const std::uint64_t seq = q.my_head++;
    signals_[unsigned(q.direction)]->myHead.set(q.my_head);
    if (q.tx) q.tx->onSend(seq, payloadHash, nbytes, meta);
}

std::uint64_t PeIpcq::received(IpcqQueuePair& q, std::uint32_t nbytes, std::uint32_t meta) {
    const std::uint64_t seq = q.my_tail;
    if (peerHeadCache(q.direction) <= seq)
        CCLSIM_ERROR(name(), "IPCQ invariant I7 violated: rank {} {} consumed slot {} but peer_head_cache is {}", rank_,
                     ipcqDirName(q.direction), seq, peerHeadCache(q.direction));
    ++q.my_tail;
    signals_[unsigned(q.direction)]->myTail.set(q.my_tail);
    if (q.rx) q.rx->onRecv(seq, nbytes, meta, policy_.strict);
    return seq;
}

void PeIpcq::emitFastCredit(IpcqQueuePair& q, Tick at) {
    const IpcqCreditWire w = q.creditWire;
    if (!w.eq || !w.l1)
        CCLSIM_ERROR(name(), "rank {} {}: no fast-path credit wire installed", rank_, ipcqDirName(q.direction));
    if (w.activity) w.activity->expect(at, ActivityLog::L1Write);
    w.eq->at(at, [w] {
        if (w.activity) w.activity->arrived(now(), ActivityLog::L1Write);
        w.l1->atomicAdd(w.reg, 1);
    });
}

void PeIpcq::registerWritten(std::uint32_t addr) {
    const unsigned d = (addr - cfg_.registerBase) / 32;
    if (d >= kIpcqDirs || !queues_[d]) return;
    IpcqQueuePair& q = *queues_[d];
    const std::uint32_t v = l1_.readU32(addr);
    if (addr == headReg(q.direction)) {
        if (v == lastHead_[d]) return;
        lastHead_[d] = v;
        signals_[d]->peerHead.set(v);
        if (q.rx) q.rx->onHeadArrival(v);
    } else {
        if (v == lastTail_[d]) return;
        lastTail_[d] = v;
        signals_[d]->peerTail.set(v);
        if (q.tx) q.tx->onCredit(v);
    }
}

std::string PeIpcq::pointerDump() const {
    std::string out;
    for (unsigned d = 0; d < kIpcqDirs; ++d) {
        if (!queues_[d]) continue;
        const IpcqQueuePair& q = *queues_[d];
        out += fmt::format(
            "    rank {:3} {:<11} my_head {:6} my_tail {:6} peer_head_cache {:6} peer_tail_cache {:6}  "
            "(peer rank {}, {} slots, {})\n",
            rank_, ipcqDirName(q.direction), q.my_head, q.my_tail, peerHeadCache(q.direction),
            peerTailCache(q.direction), q.peer.rank, q.peer.n_slots, bufferKindName(q.self.buffer_kind));
    }
    return out;
}

void PeIpcq::trace(TraceFile& tf) {
    const std::string base = name();
    bool any = false;
    for (const auto& sig : signals_) any = any || sig;
    if (any) {
        // What a kernel blocked in an IPCQ call waits for, and on which queue
        // (wait_dir keeps the last direction waited on).
        waitSig_.attach(tf, base + ".wait");
        waitDirSig_.attach(tf, base + ".wait_dir");
    }
    for (unsigned d = 0; d < kIpcqDirs; ++d) {
        if (!signals_[d]) continue;
        const std::string p = base + "." + kDirNames[d] + ".";
        signals_[d]->myHead.attach(tf, p + "my_head");
        signals_[d]->myTail.attach(tf, p + "my_tail");
        signals_[d]->peerHead.attach(tf, p + "peer_head_cache");
        signals_[d]->peerTail.attach(tf, p + "peer_tail_cache");
    }
}

}  // namespace cclsim
