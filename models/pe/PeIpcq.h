// PE_IPCQ: the inter-PE queue control plane of a worker core
// (docs/design/pe-ipcq.md: D1-D15).
//
// Every worker core has one, beside PE_DMA. It holds the core's queue pairs,
// one per logical direction (N, S, E, W, and parent / child_left /
// child_right for trees), installed by the host (IpcqInitMsg) when a process
// group is initialised. A queue pair has a tx side (sends go into the peer's
// rx ring) and an rx side (the peer's sends land in our ring):
//
//   rank A, direction E                         rank B, direction W (the peer)
//   my_head: slots A has sent                   rx ring: n_slots x slot_size
//   peer_tail_cache: slots B has consumed  <--- credit (fast path, or a fabric packet)
//   send: wait my_head - peer_tail_cache < n_slots
//         fused write slot + head increment ---> peer_head_cache (B's register)
//                                               recv: wait peer_head_cache > my_tail
//                                                     my_tail += 1, credit back
//
// PE_IPCQ never moves data: the firmware API (firmware/api/ipcq_api.h) turns a
// send into an IpcqDmaToken on PE_DMA's vc_comm (a NoC write on this chip, a
// fabric packet to another chip). The head travels piggybacked on the data:
// the write lands and the receiver's peer_head_cache register is incremented
// in the same simulated instant (a fused write + increment), after the
// transfer's bandwidth drain (I6, I7). The registers (peer_head_cache,
// peer_tail_cache per direction) are 32-bit words in the core's reserved L1
// region at `register_base`, reachable over the NoC like other MMIO blocks.
//
// The queue invariants are checked while the model runs (see IpcqEdge):
// a violation stops the run naming the invariant, the queue
// and the values.
#pragma once

#include "models/common/ActivityLog.h"
#include "models/common/EventQueue.h"
#include "models/common/Time.h"
#include "models/common/Trace.h"
#include "models/memory/L1Memory.h"
#include "models/noc/NocTypes.h"

#include <systemc>

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cclsim {

/// Logical directions of a queue pair (docs/design/pe-ipcq.md#d3; trees: parent and children).
enum class IpcqDir : std::uint8_t { N = 0, S, E, W, Parent, ChildLeft, ChildRight };
constexpr unsigned kIpcqDirs = 7;
const char* ipcqDirName(IpcqDir d);
/// "N", "S", "E", "W", "parent", "child_left", "child_right".
std::optional<IpcqDir> parseIpcqDir(const std::string& s);

/// Where a rank's IPCQ ring buffers live (docs/design/pe-ipcq.md#d6).
enum class BufferKind : std::uint8_t { Tcm, Hbm, Sram };
const char* bufferKindName(BufferKind k);
std::optional<BufferKind> parseBufferKind(const std::string& s);

struct PeIpcqConfig {
    static constexpr std::uint32_t kRegisterBytes = kIpcqDirs * 2 * 16;
    std::uint32_t registerBase = 0x18000;  ///< peer_head_cache / peer_tail_cache words
    Tick opCost = 12 * kTicksPerNs;        ///< control-plane work of one send or recv
    Tick wakeCost = 20 * kTicksPerNs;      ///< sleep-mode wake-up
};

/// A rank's rx ring as its senders see it (docs/design/pe-ipcq.md#d2-5 IpcqEndpoint).
struct IpcqEndpoint {
    unsigned rank = 0;
    unsigned chip = 0;
    CoreCoord core;  ///< the PE that owns the ring
    BufferKind buffer_kind = BufferKind::Tcm;
    CoreCoord memory;           ///< NoC endpoint of the memory holding it (the core itself for tcm)
    std::uint64_t rx_base = 0;  ///< local address of slot 0 in that memory
    std::uint32_t n_slots = 0;
    std::uint32_t slot_size = 0;
    std::uint64_t slotAddr(std::uint64_t seq) const { return rx_base + (seq % n_slots) * std::uint64_t(slot_size); }
    std::uint64_t slotNocAddr(std::uint64_t seq) const { return nocaddr::encode(memory.x, memory.y, slotAddr(seq)); }
};

class IpcqEdge;

/// How a process group's queues wait and return credits (ccl.yaml).
enum class Backpressure : std::uint8_t { Poll, Sleep };
enum class CreditMode : std::uint8_t { FastPath, Fabric };
struct IpcqPolicy {
    Backpressure backpressure = Backpressure::Sleep;
    CreditMode credit = CreditMode::FastPath;
    bool strict = false;         ///< strict_validation (F2)
    std::FILE* trace = nullptr;  ///< CCL trace: one line per send / recv
};

/// The fast-path credit wire to a sender (docs/design/pe-ipcq.md#d9: a dedicated channel outside
/// vc_comm contention): increments the sender's peer_tail_cache register.
struct IpcqCreditWire {
    EventQueue* eq = nullptr;
    L1Memory* l1 = nullptr;           ///< the sender core's L1
    ActivityLog* activity = nullptr;  ///< ... and its activity log (the write is scheduled)
    std::uint32_t reg = 0;            ///< its peer_tail_cache word
};

/// One direction of a rank (docs/design/pe-ipcq.md#d2 IpcqQueuePair).
struct IpcqQueuePair {
    IpcqDir direction = IpcqDir::E;
    bool canSend = true;            ///< false: receive-only (ring_1d_unidir's implied W)
    IpcqEndpoint peer;              ///< the peer's rx ring our sends land in
    IpcqEndpoint self;              ///< our rx ring
    std::uint64_t peerHeadReg = 0;  ///< NoC address of the peer's peer_head_cache for our sends
    std::uint64_t peerTailReg = 0;  ///< NoC address of the peer's peer_tail_cache our credits increment
    std::uint64_t my_head = 0;      ///< slots sent
    std::uint64_t my_tail = 0;      ///< slots received
    bool crossChip = false;         ///< sends (and fabric-mode credits) travel over the fabric
    /// Opaque words for the firmware API: fabric connection and header
    /// templates (route to the peer) for data and for credits.
    std::vector<std::uint32_t> txConnection, txHeader, creditConnection, creditHeader;
    Tick creditLatency = 0;     ///< fast-path credit: path latency to the peer
    IpcqCreditWire creditWire;  ///< fast-path credit channel to the peer
    IpcqEdge* tx = nullptr;     ///< checker of our sends (shared with the peer)
    IpcqEdge* rx = nullptr;     ///< checker of the peer's sends to us
};

/// What a kernel blocked in an IPCQ call waits for (deadlock diagnosis).
struct IpcqWait {
    enum Kind : std::uint8_t { None, Send, Recv, RecvAny, Fabric } kind = None;
    IpcqDir dir = IpcqDir::E;
};
/// Kind names, indexed by value (the traced pe_ipcq.wait signal).
inline constexpr const char* kIpcqWaitNames[] = {"NONE", "SEND", "RECV", "RECV_ANY", "FABRIC"};
static_assert(sizeof(kIpcqWaitNames) / sizeof(kIpcqWaitNames[0]) == IpcqWait::Fabric + 1, "a name per kind");
/// Value names of the pe_ipcq.wait and pe_ipcq.wait_dir trace signals.
const TraceEnum& ipcqWaitTraceEnum();
const TraceEnum& ipcqDirTraceEnum();

class PeIpcq : public sc_core::sc_module {
public:
    PeIpcq(const sc_core::sc_module_name& name, L1Memory& l1, unsigned chip, CoreCoord self, const PeIpcqConfig& cfg);
    PeIpcq(const PeIpcq&) = delete;
    PeIpcq& operator=(const PeIpcq&) = delete;
    ~PeIpcq() override;

    /// Install a queue pair (IpcqInitMsg); its registers start at zero.
    void install(unsigned rank, const IpcqQueuePair& q);
    bool installed() const { return rank_ >= 0; }
    unsigned rank() const { return unsigned(rank_); }
    bool has(IpcqDir d) const { return queues_[unsigned(d)] != nullptr; }
    /// The queue pair of `d`; IpcqInvalidDirection (an error naming the rank
    /// and direction) when it is not installed.
    IpcqQueuePair& queue(IpcqDir d, const char* api);
    std::vector<IpcqDir> directions() const;

    /// L1 addresses of this core's registers for direction `d`.
    std::uint32_t headReg(IpcqDir d) const { return cfg_.registerBase + unsigned(d) * 32; }
    std::uint32_t tailReg(IpcqDir d) const { return cfg_.registerBase + unsigned(d) * 32 + 16; }
    std::uint32_t peerHeadCache(IpcqDir d) const { return l1_.readU32(headReg(d)); }
    std::uint32_t peerTailCache(IpcqDir d) const { return l1_.readU32(tailReg(d)); }

    /// A send left (my_head += 1); `payloadHash` for the data invariant (0 in timing mode).
    void sent(IpcqQueuePair& q, std::uint64_t payloadHash, std::uint32_t nbytes, std::uint32_t meta);
    /// A recv consumed the oldest slot (my_tail += 1); returns its sequence number.
    std::uint64_t received(IpcqQueuePair& q, std::uint32_t nbytes, std::uint32_t meta);

    /// Deadlock diagnosis: what the kernel waits for now.
    void setWait(IpcqWait w) {
        wait_ = w;
        waitSig_.set(w.kind);
        if (w.kind != IpcqWait::None) waitDirSig_.set(unsigned(w.dir));
    }
    IpcqWait wait() const { return wait_; }
    /// Round-robin recv cursor (docs/design/pe-ipcq.md#d4 last_polled_dir).
    unsigned& lastPolledDir() { return lastPolled_; }

    void setPolicy(const IpcqPolicy& p) { policy_ = p; }
    const IpcqPolicy& policy() const { return policy_; }
    /// Fast path: the credit of queue `q` reaches the peer at tick `at`.
    void emitFastCredit(IpcqQueuePair& q, Tick at);

    const PeIpcqConfig& config() const { return cfg_; }
    L1Memory& l1() { return l1_; }
    unsigned chip() const { return chip_; }
    CoreCoord coord() const { return self_; }
    /// One line per queue: the four pointers (the pointer dump of docs/design/pe-ipcq.md#d14).
    std::string pointerDump() const;

    void trace(TraceFile& tf);

private:
    struct Watch final : MemoryWatcher {
        PeIpcq* owner = nullptr;
        void onWatchedWrite(std::uint32_t addr) override { owner->registerWritten(addr); }
    };
    struct Signals {
        TraceSignal myHead{32}, myTail{32}, peerHead{32}, peerTail{32};
    };
    void registerWritten(std::uint32_t addr);

    L1Memory& l1_;
    unsigned chip_;
    CoreCoord self_;
    PeIpcqConfig cfg_;
    int rank_ = -1;
    std::array<std::unique_ptr<IpcqQueuePair>, kIpcqDirs> queues_{};
    std::array<std::unique_ptr<Signals>, kIpcqDirs> signals_{};
    std::array<std::uint32_t, kIpcqDirs> lastHead_{}, lastTail_{};
    Watch watch_;
    IpcqWait wait_;
    TraceSignal waitSig_{3, TraceFormat::Decimal, &ipcqWaitTraceEnum()};
    TraceSignal waitDirSig_{3, TraceFormat::Decimal, &ipcqDirTraceEnum()};
    unsigned lastPolled_ = kIpcqDirs - 1;
    IpcqPolicy policy_;
};

}  // namespace cclsim
