// NoC interface unit: one per core and NoC.
//
// The initiator half turns a core's noc_async_* commands into NoC packets: the
// injection port is a BandwidthServer whose request classes are the core's
// DMA virtual channels (plus one class for responses to remote reads), then
// the packets reserve their path on the NoC (a NocInterconnect: the booking
// model or a user's replacement), and a calendar event delivers
// them to the destination NIU at the arrival tick. The target half writes
// and reads its endpoint's memory (an L1, a DRAM controller, the SRAM pool)
// through a TLM-2.0 initiator socket and returns acks.
//
// Two paths into that memory. cclsim's own memories answer b_transport at
// once with the completion as the annotated delay (the fast path: the call
// happens on the calendar). A foreign memory (a plug-in, setForeign) is
// reached through its ForeignTarget bridge, which calls it from a SystemC
// thread at the access's true time; the NIU continues from the bridge's
// completion exactly as from the fast path's return. Source reads of a
// core's own foreign L1 as a packet leaves are zero-time (transport_dbg):
// their time is the injection port's.
//
//   requester NIU                   NoC                    target NIU -> memory
//   write:  inject ---------------> path ---------------> b_transport(write)
//           flushed++ (left L1)                            ack ---------> acked++
//   read:   inject header --------> path ---------------> b_transport(read)
//           done++ <--------------- path <--------------- inject data (response class)
//   atomic: like a 4-byte write carrying an AtomicExtension (semaphore inc)
//   inline: a write whose 4 data bytes travel in the command (no source read)
//   fused:  a write whose landing also applies a semaphore increment, in the
//           same instant (the fabric's fused write + atomic increment; the
//           IPCQ head piggyback)
//
// Commands from one class are injected in order and follow the same path, so
// a write and a following semaphore increment on the same VC arrive in order.
//
// Back-pressure: a packet whose head is blocked in the NoC for longer than the
// routers behind it can buffer leaves its source late; the next packet of its
// class waits for it, and the packet counts against the issuing kernel's
// command queue (NocCounters::cmdInFlight) until it has left, so a kernel
// whose queue is full stalls at its next command (noc_cmd_buf_ready).
// A DRAM endpoint accepts one read request per NocConfig::requestInterval on
// each NoC; later requests wait at the endpoint.
#pragma once

#include "models/common/ActivityLog.h"
#include "models/common/BandwidthServer.h"
#include "models/common/EventQueue.h"
#include "models/common/Payload.h"
#include "models/common/Trace.h"
#include "models/noc/NocInterconnect.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim {

/// Outstanding-transaction counters of one kernel on one NoC (tt-metal keeps
/// them per RISC). The NIU updates them and calls `onChange`.
struct NocCounters {
    std::uint64_t writesIssued = 0;   ///< all writes (posted and non-posted)
    std::uint64_t writesFlushed = 0;  ///< writes whose data has left the source L1
    std::uint64_t nonpostedIssued = 0;
    std::uint64_t nonpostedAcked = 0;
    std::uint64_t readsIssued = 0;
    std::uint64_t readsDone = 0;
    std::uint64_t atomicsIssued = 0;
    std::uint64_t atomicsAcked = 0;
    /// Writes per transaction id (tt-metal's NoC trids): issued and flushed.
    static constexpr unsigned kTrids = 16;
    std::uint64_t tridIssued[kTrids] = {};
    std::uint64_t tridFlushed[kTrids] = {};
    /// Reads per transaction id: the id the read command buffer stamps on
    /// the next reads (noc_async_read_set_trid; 0xff: none), issued and landed.
    std::uint8_t readTrid = 0xff;
    std::uint64_t tridReadIssued[kTrids] = {};
    std::uint64_t tridReadDone[kTrids] = {};
    /// The kernel's NoC command buffer: packets accepted by the NIU that have
    /// not yet left the source (bounded by NocConfig::cmdQueueDepth), and the
    /// tick each command buffer is ready for its next command (noc_cmd_buf_ready).
    std::uint32_t cmdInFlight = 0;
    enum CmdBuf : unsigned { kWriteBuf, kReadBuf, kAtomicBuf, kInlineBuf, kCmdBufs };
    Tick cmdBufReadyAt[kCmdBufs] = {};
    std::function<void()> onChange;
    void changed() const {
        if (onChange) onChange();
    }
};

struct NiuConfig {
    double injectBytesPerNs = 32.0;
    double chunkBytes = 256.0;
    std::vector<std::string> classNames{"cmd"};
    std::vector<double> classWeights{1.0};
    double responseWeight = 1.0;
};

class ForeignTarget;

class Niu : public sc_core::sc_module, private CalendarTask {
public:
    tlm_utils::simple_initiator_socket<Niu> mem{"mem"};

    Niu(const sc_core::sc_module_name& name, EventQueue& eq, NocInterconnect& noc, CoreCoord self,
        const NiuConfig& cfg);
    Niu(const Niu&) = delete;
    Niu& operator=(const Niu&) = delete;

    /// The chip's endpoint table for this NoC, indexed y * gridX + x.
    void setEndpoints(const std::vector<Niu*>* endpoints) { endpoints_ = endpoints; }
    Niu* endpoint(CoreCoord c) const;

    /// Commands are submitted to the injection port at tick `at` (the
    /// issuing kernel's local time; default now). A command for a later tick
    /// waits on the calendar, registered in the core's activity log, so the
    /// kernel issues it without a context switch; commands of one NIU keep
    /// their issue order. The issue counters change at the call.
    /// `trid` (< NocCounters::kTrids, or kNoTrid) counts the write in the
    /// counters' per-transaction-id issued/flushed pairs.
    static constexpr unsigned kNoTrid = 0xff;
    void write(unsigned cls, std::uint32_t srcAddr, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t bytes,
               bool posted, NocCounters* counters, Tick at = 0, unsigned trid = kNoTrid);
    /// A 4-byte write of `value` carried in the command (noc_inline_dw_write).
    void writeInline(unsigned cls, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t value, bool posted,
                     NocCounters* counters, Tick at = 0);
    /// A write whose landing also adds `addend` to the 32-bit word at
    /// (`semDst`, `semAddr`) on this chip, in the same instant: the
    /// destination sees the data no later than the increment.
    void writeFused(unsigned cls, std::uint32_t srcAddr, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t bytes,
                    CoreCoord semDst, std::uint64_t semAddr, std::uint32_t addend, bool posted, NocCounters* counters,
                    Tick at = 0, unsigned trid = kNoTrid);
    void read(unsigned cls, CoreCoord src, std::uint64_t srcAddr, std::uint32_t dstAddr, std::uint32_t bytes,
              NocCounters* counters, Tick at = 0);
    void atomicInc(unsigned cls, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t addend, bool posted,
                   NocCounters* counters, Tick at = 0);

    CoreCoord coord() const { return self_; }
    /// The owning core's activity log (effects this NIU schedules on it).
    void setActivityLog(ActivityLog* log) {
        activity_ = log;
        if (log) log->addServer(&inject_);
    }
    /// The memory behind this endpoint is a foreign model reached through `f`.
    void setForeign(ForeignTarget* f) { foreign_ = f; }
    /// Size of the memory behind this endpoint (for address checks at issue).
    void setMemoryBytes(std::uint64_t n) { memoryBytes_ = n; }
    std::uint64_t memoryBytes() const { return memoryBytes_; }
    NocInterconnect& noc() { return noc_; }
    BandwidthServer& injection() { return inject_; }
    unsigned numRequestClasses() const { return unsigned(cfg_.classWeights.size()); }
    /// New weights of the request classes and interleave chunk (before traffic).
    void setClassWeights(const std::vector<double>& weights, double chunkBytes);
    const NiuConfig& config() const { return cfg_; }

    void trace(TraceFile& tf);

private:
    // 16-byte aligned: a calendar entry carries a transfer and its step in one word (Step).
    struct alignas(16) Transfer {
        enum Kind : std::uint8_t { Write, Read, Atomic } kind = Write;
        bool posted = false;
        std::uint8_t cls = 0;
        CoreCoord requester, remote;
        std::uint64_t remoteAddr = 0;
        std::uint32_t localAddr = 0;
        std::uint32_t bytes = 0;
        std::uint32_t addend = 0;
        bool inlineData = false;  ///< data carried in the command (no source read)
        bool fused = false;       ///< apply an increment at (fusedDst, fusedAddr) on landing
        std::uint8_t trid = kNoTrid;
        CoreCoord fusedDst;
        std::uint64_t fusedAddr = 0;
        std::uint32_t fusedAddend = 0;
        NocCounters* counters = nullptr;
        Tick injectStart = 0;        ///< start of the NoC packet being injected
        std::uint32_t packets = 0;   ///< NoC packets of the transfer
        std::uint32_t injected = 0;  ///< packets that have left the source
        Tick lastArrival = 0;        ///< arrival of the latest packet so far
        Tick packetTail = 0;         ///< when the packet being injected clears its path
        Tick serverStart = 0;        ///< when the injection port started the packet
        Tick holdExtra = 0;          ///< how much later than its last byte the packet leaves (blocked head)
        // Injection in progress (see injectPackets).
        std::uint8_t injectClass = 0;
        bool snapshot = false;  ///< read the source bytes as the first packet starts
        CoreCoord injectTo;
        void (Niu::*arrived)(Transfer*) = nullptr;
        Payload data;
    };

    Transfer* allocate();
    void release(Transfer* t);
    std::uint32_t packetCount(std::uint32_t bytes) const;
    std::uint32_t packetBytes(const Transfer* t, std::uint32_t k) const;
    /// Inject a transfer's payload packet by packet on class `cls`; each packet
    /// reserves its path as it leaves, and `arrived` runs at the last arrival.
    void injectPackets(unsigned cls, Transfer* t, CoreCoord to, void (Niu::*arrived)(Transfer*), bool snapshot);
    void packetStarts(Transfer* t);
    void packetLeft(Transfer* t);
    /// The head of a packet of class `cls` enters the NoC (no earlier than the
    /// class's previous packet has left the source); books its path and
    /// returns the tick its tail reaches `to`. `t` receives the hold.
    Tick enterNoc(Transfer* t, unsigned cls, CoreCoord to, std::uint32_t wireBytes);
    /// The NoC's unloaded latency from here to `to` (checked against the contract).
    Tick pathLatency(CoreCoord to) const;
    /// When the packet whose injection ends now really leaves the source.
    Tick leavesAt(const Transfer* t) const;
    /// A packet of class `cls` left the source at `gone`: none behind it enters earlier.
    void noteTailGone(unsigned cls, Tick gone);
    /// A packet of `t` has left the source: its command-queue slot frees.
    void packetGone(Transfer* t);
    void checkTarget(CoreCoord dst, const char* what) const;

    /// Submit now, or at `at` on the calendar (see write()).
    void issue(Transfer* t, Tick at);
    void start(Transfer* t);

    // Requester side.
    void writeLanded(Transfer* t);
    void writeAcked(Transfer* t);
    void readArrived(Transfer* t);
    // Target side.
    void acceptWrite(Transfer* t);
    /// The write (or atomic) of `t` that landed at `landed` is in the memory at tick `done`.
    void writeApplied(Transfer* t, Tick done, Tick landed);
    void serveRead(Transfer* t);
    void acceptRead(Transfer* t);
    void readServed(Transfer* t, Tick done);
    void readStored(Transfer* t);
    void responseLanded(Transfer* t);
    void memoryAccess(Transfer* t, tlm::tlm_command cmd, std::uint64_t addr, sc_core::sc_time& delay);
    /// Add `addend` to the word at `addr` of this endpoint's memory, now.
    void atomicNow(std::uint64_t addr, std::uint32_t addend, CoreCoord requester);
    Transfer* newWrite(unsigned cls, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t bytes, bool posted,
                       NocCounters* counters, unsigned trid);

    /// What the calendar does with a transfer at its tick: a NoC event runs
    /// as a calendar task of the NIU it concerns, with the transfer and the
    /// step in its argument (no std::function per event). Entries keep their
    /// place among the tick's callbacks: the calendar orders both kinds alike.
    enum class Step : std::uint64_t {
        Issue,        ///< a deferred command reaches its issue tick
        AcceptWrite,  ///< (target) a write's last packet lands
        WriteAcked,   ///< (requester) a non-posted write's ack arrives
        ServeRead,    ///< (target) a read request arrives
        AcceptRead,   ///< (target) the endpoint takes a queued read request
        Respond,      ///< (target) the read data is ready to leave
        ReadArrived,  ///< (requester) a read's last response packet lands
        RequestGone,  ///< a read request's packet has left the source
        PacketLeft,   ///< a packet has left the source late (+1: request class, +2: the transfer's last)
        Count = PacketLeft + 4,
    };
    static_assert(std::uint64_t(Step::Count) <= alignof(Transfer), "a step must fit below a transfer's alignment");
    /// Run `step` of `t` on `on` at tick `when` (EventQueue::at).
    void schedule(Tick when, Niu& on, Step step, Transfer* t) {
        eq_.at(when, on, reinterpret_cast<std::uintptr_t>(t) | std::uint64_t(step));
    }
    void onCalendar(std::uint64_t arg) override;

    EventQueue& eq_;
    NocInterconnect& noc_;
    CoreCoord self_;
    NiuConfig cfg_;
    BandwidthServer inject_;
    const std::vector<Niu*>* endpoints_ = nullptr;
    std::deque<std::unique_ptr<Transfer>> pool_;
    std::vector<Transfer*> free_;
    tlm::tlm_generic_payload gp_;
    std::vector<TraceSignal> queued_;
    std::uint64_t memoryBytes_ = 0;
    unsigned deferred_ = 0;          ///< commands waiting on the calendar for their issue tick
    std::vector<Tick> classFreeAt_;  ///< per injection class: when its last packet leaves the source
    struct LaneLast {
        CoreCoord dst{0xff, 0xff};
        Tick tail = 0;
    };
    std::vector<LaneLast> laneLast_;  ///< per injection class: its latest booking (ordering check)
    Tick nextAccept_ = 0;             ///< (target) when the endpoint accepts its next read request
    ActivityLog* activity_ = nullptr;
    ForeignTarget* foreign_ = nullptr;
    void retire(Tick t, ActivityLog::Kind k) {
        if (activity_) activity_->arrived(t, k);
    }
    void expect(Tick t, ActivityLog::Kind k) {
        if (activity_) activity_->expect(t, k);
    }
    void arrived(ActivityLog::Kind k) {
        if (activity_) activity_->arrived(now(), k);
    }
};

}  // namespace cclsim
