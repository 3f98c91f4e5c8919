// The Ethernet subsystem of one Ethernet core: two tx command queues, the
// MAC/PHY that frames and serialises their commands, and the receive path
// that writes arriving payloads into the core's L1.
//
//   eth_send_packet(q, src, dst, n)                 peer subsystem
//     -> tx_cmd_q[q]: `depth` command registers       rx socket
//        -> the MAC's tx FIFO (`mac_fifo_bytes`)        |
//     -> MAC: frames of <= 1500 B + 50 B overhead      |  +latency (460 ns)
//        at 12.5 GB/s; the two queues share the       v
//        wire frame by frame (no ordering across     write to L1
//        queues)                                     (b_transport)
//
// A queue is busy (eth_txq_is_busy) while its registers hold `depth`
// commands the MAC has not taken; the MAC takes a command once it starts on
// the wire or, in queue order, once it fits in the FIFO behind the command
// being sent. A command reads its source bytes from L1 when its
// serialisation starts, not when the FIFO takes it (so firmware that reuses
// a source buffer too early sees the race the Ethernet guide warns about)
// and lands in the remote L1 all at once when its last frame arrives. Sends
// are checked: 16 B alignment of addresses and size, source and destination
// inside the sendable L1 regions, a connected link that is not reserved for
// dispatch.
#pragma once

#include "models/common/ActivityLog.h"
#include "models/common/BandwidthServer.h"
#include "models/common/EventQueue.h"
#include "models/common/Payload.h"
#include "models/common/Trace.h"
#include "models/eth/EthConfig.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim {

struct AddressRange {
    std::uint32_t lo, hi;  ///< [lo, hi)
    bool contains(std::uint64_t a, std::uint64_t n) const { return a >= lo && a + n <= hi; }
};

struct EthLinkInfo {
    bool connected = false;
    bool dispatch = false;  ///< reserved for the dispatcher's datapath
    unsigned peerChip = 0;
    unsigned peerChannel = 0;
};

struct EthStats {
    std::uint64_t commands = 0;  ///< eth_send_packet commands sent
    std::uint64_t frames = 0;    ///< Ethernet packets on the wire (<= max_bytes payload each)
    double payloadBytes = 0;
    double wireBytes = 0;
};

/// What one traffic stream (an op of a concurrent run) sent over this link
/// direction. Stream 0 is untagged traffic (a single op, shared control such
/// as fabric credits). `wireTicks` is the time its commands held the wire
/// (wire bytes at line rate): its share of the link's time.
struct EthStreamStats {
    std::uint64_t commands = 0;
    double payloadBytes = 0;
    double wireBytes = 0;
    Tick wireTicks = 0;
};

class ForeignTarget;
class LinkFaults;

class EthSubsystem : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket_optional<EthSubsystem> tx{"tx"};  ///< to the peer's rx
    tlm_utils::simple_target_socket_optional<EthSubsystem> rx{"rx"};     ///< from the peer's tx
    tlm_utils::simple_initiator_socket<EthSubsystem> l1{"l1"};           ///< this core's L1

    EthSubsystem(const sc_core::sc_module_name& name, EventQueue& eq, const EthConfig& cfg,
                 std::vector<AddressRange> sendable);
    EthSubsystem(const EthSubsystem&) = delete;
    EthSubsystem& operator=(const EthSubsystem&) = delete;

    /// Connect this side to `peer` (one direction of the link; call on both).
    void connect(EthSubsystem& peer, const EthLinkInfo& info);
    const EthLinkInfo& link() const { return link_; }

    /// Queue a send. The caller has checked !busy(q); a full queue is an error.
    /// `stream` tags the command with the traffic stream (op) that sent it
    /// (0: untagged; then a region declared with tagRegion may name it).
    void send(unsigned q, std::uint32_t srcAddr, std::uint32_t dstAddr, std::uint32_t bytes, unsigned stream = 0);
    /// Queue a remote register write: on arrival `addend` is added to the
    /// 32-bit word at `dstAddr` of the remote core (stream registers
    /// increment on write). One minimum-size packet on the wire.
    void sendRegAdd(unsigned q, std::uint32_t dstAddr, std::uint32_t addend, unsigned stream = 0);

    /// Per-stream accounting (concurrent ops): streams 1..`streams` get their
    /// own counters and, once traced, their own signals. Call before trace().
    void declareStreams(unsigned streams);
    /// Untagged commands to the remote L1 range [lo, hi) belong to `stream`
    /// (a host builder that gives an op its own buffers on this link, e.g.
    /// an EDM channel's slots and sync words, declares them here).
    void tagRegion(std::uint32_t lo, std::uint32_t hi, unsigned stream);
    /// Counters of stream 0 (untagged) .. declared streams (empty if none declared).
    const std::vector<EthStreamStats>& streamStats() const { return streamStats_; }
    bool busy(unsigned q) const { return q >= cfg_.txQueues || (busyMask_ >> q & 1) != 0; }
    /// ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD of queue `q`: the MAC also takes a
    /// command while the commands it took ahead of the wire hold at most
    /// `packets` Ethernet packets (0: the FIFO alone, the model's power-on
    /// state). Firmware writes it (tt-metal's fabric router: 32).
    void setAcceptAhead(unsigned q, std::uint32_t packets);
    std::uint32_t acceptAhead(unsigned q) const { return acceptAhead_.at(q); }
    /// Commands of queue `q` the MAC has not taken.
    std::size_t notTaken(unsigned q) const;
    std::size_t depth(unsigned q) const { return mac_.jobsQueued(q); }
    /// Validate a send without queueing it (reports the error).
    void check(unsigned q, std::uint32_t srcAddr, std::uint32_t dstAddr, std::uint32_t bytes) const;

    const EthConfig& config() const { return cfg_; }
    const EthStats& stats() const { return stats_; }
    BandwidthServer& mac() { return mac_; }

    /// The owning core's activity log (arrivals and tx queue changes).
    void setActivityLog(ActivityLog* log) {
        activity_ = log;
        if (log) log->addServer(&mac_);
    }

    /// This core's L1 keeps its bytes in a foreign model reached through `f`
    /// (see Niu::setForeign: sends read it in zero time, arrivals are timed writes).
    void setForeign(ForeignTarget* f) { foreign_ = f; }

    /// Faults of this direction (tx to the peer): bit errors, drops, stops.
    void setFaults(LinkFaults* f) { faults_ = f; }
    LinkFaults* faults() const { return faults_; }
    /// The link stops (a retrain begins, or it goes down): the MAC pauses;
    /// commands in flight are held for replay, or lost if the link is down.
    void stopLink();
    /// The retrain is over: held commands are sent again first; returns when
    /// the MAC takes queued commands again.
    Tick resumeLink();

    /// Called whenever a tx queue changes (the ERISC wakes its kernels).
    std::function<void()> onTxqChange;

    void trace(TraceFile& tf);

private:
    struct Command {
        std::uint32_t src, dst, bytes;
        double wire;
        bool regAdd = false;  ///< a remote register increment, not a data copy
        std::uint32_t addend = 0;
        unsigned stream = 0;  ///< traffic stream (op) that sent it
        Payload data;
    };
    unsigned streamOf(unsigned tagged, std::uint32_t dst) const;
    void streamBusy(unsigned stream, int delta);

    ForeignTarget* foreign_ = nullptr;
    LinkFaults* faults_ = nullptr;
    std::vector<Command*> held_;

    void transmit(Command* c, Tick at);
    void rxTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    void startCommand(Command* c);
    void finishCommand(Command* c);
    struct RxEntry {
        std::uint32_t dst = 0;
        bool regAdd = false;
        std::uint32_t addend = 0;
        Payload data;
    };
    void deliver(RxEntry* e);
    Command* allocate();
    void release(Command* c);

    EventQueue& eq_;
    EthConfig cfg_;
    std::vector<AddressRange> sendable_;
    std::vector<AddressRange> peerSendable_;
    EthLinkInfo link_;
    BandwidthServer mac_;
    std::vector<std::uint32_t> acceptAhead_;  ///< per queue, packets (0: FIFO bytes only)
    void updateBusy();
    EthStats stats_;
    Tick lastDelivery_ = 0;  ///< when the previous command reached the remote L1
    ActivityLog* activity_ = nullptr;
    std::deque<std::unique_ptr<Command>> pool_;
    std::vector<Command*> free_;
    tlm::tlm_generic_payload gp_;
    tlm::tlm_generic_payload rxGp_;
    std::deque<std::unique_ptr<RxEntry>> rxPool_;
    std::vector<RxEntry*> rxFree_;

    TraceSignal busySig_{1};
    TraceSignal inflightSig_{32};
    std::vector<TraceSignal> depthSig_;
    TraceSignal utilSig_{7};  ///< tx_util_pct, 0..100
    /// link_health.* (a direction with faults attached): tt-metal's counters,
    /// sampled at the end of every trace window.
    std::vector<TraceSignal> healthSigs_;
    bool txBusy_ = false;  ///< serialising (kept only while traced)
    /// busy(q) of every queue, as of the MAC's last change: the head command
    /// is being sent, those behind it wait in the MAC's FIFO while they fit,
    /// the rest in the queue's command registers (full: busy).
    std::uint64_t busyMask_ = 0;
    Tick busySince_ = 0;          ///< when txBusy_ last changed
    Tick busyTicks_ = 0;          ///< serialising time before busySince_
    Tick busyAtWindowStart_ = 0;  ///< busy time at the current window's start
    // The last windows' busy time and length, for a fast-forward stretch.
    static constexpr std::size_t kRecentWindows = 64;
    std::array<Tick, kRecentWindows> recentBusy_{}, recentLen_{};
    std::size_t recentNext_ = 0, recentCount_ = 0;
    bool holding_ = false;  ///< inside a stretch: utilSig_ holds heldPct_
    std::uint64_t heldPct_ = 0;

    struct TaggedRegion {
        std::uint32_t lo, hi;
        unsigned stream;
    };
    std::vector<TaggedRegion> regions_;
    std::vector<EthStreamStats> streamStats_;
    std::vector<unsigned> streamInflight_;  ///< commands of each stream being serialised
    std::vector<TraceSignal> streamBusySig_, streamBytesSig_;
};

}  // namespace cclsim
