#include "models/eth/EthSubsystem.h"

#include "models/common/Report.h"
#include "models/eth/LinkFaults.h"
#include "models/plugin/ForeignTarget.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cclsim {

EthSubsystem::EthSubsystem(const sc_core::sc_module_name& name, EventQueue& eq, const EthConfig& cfg,
                           std::vector<AddressRange> sendable)
    : sc_core::sc_module(name),
      eq_(eq),
      cfg_(cfg),
      sendable_(std::move(sendable)),
      mac_(
          eq, std::string(this->name()) + ".mac",
          BandwidthServerConfig{cfg.lineBytesPerNs, double(cfg.maxPacketBytes + cfg.packetOverheadBytes), cfg.txQueues},
          std::make_unique<WeightedRoundRobin>(std::vector<double>(cfg.txQueues, 1.0))) {
    rx.register_b_transport(this, &EthSubsystem::rxTransport);
    acceptAhead_.assign(cfg_.txQueues, 0);
    for (unsigned q = 0; q < cfg_.txQueues; ++q) depthSig_.emplace_back(8);
    mac_.onChange = [this] {
        const bool busy = !mac_.idle();
        busySig_.set(busy ? 1 : 0);  // first: writes the windows that ended before now
        if (busy != txBusy_ && utilSig_.attached()) {
            const Tick t = now();
            if (txBusy_) busyTicks_ += t - busySince_;
            busySince_ = t;
            txBusy_ = busy;
        }
        for (unsigned q = 0; q < depthSig_.size(); ++q) depthSig_[q].set(mac_.jobsQueued(q));
        updateBusy();
        if (onTxqChange) onTxqChange();
    };
}

std::size_t EthSubsystem::notTaken(unsigned q) const {
    return mac_.jobsBeyond(q, cfg_.txFifoBytes, acceptAhead_[q],
                           double(cfg_.maxPacketBytes + cfg_.packetOverheadBytes));
}

void EthSubsystem::updateBusy() {
    // Kernels poll busy() far more often than the queues change.
    busyMask_ = 0;
    for (unsigned q = 0; q < cfg_.txQueues; ++q)
        if (notTaken(q) >= cfg_.txQueueDepth) busyMask_ |= std::uint64_t{1} << q;
}

void EthSubsystem::setAcceptAhead(unsigned q, std::uint32_t packets) {
    acceptAhead_.at(q) = packets;
    updateBusy();
    if (onTxqChange) onTxqChange();
}

void EthSubsystem::trace(TraceFile& tf) {
    const std::string n = name();
    busySig_.attach(tf, n + ".tx_busy");
    inflightSig_.attach(tf, n + ".tx_inflight_bytes");
    for (unsigned q = 0; q < depthSig_.size(); ++q)
        depthSig_[q].attach(tf, n + ".tx_cmd_q" + std::to_string(q) + "_depth");
    // Utilisation: the share of each trace window the link direction spent
    // serialising (tx_busy high), rounded to a whole percent. Computed when
    // the trace writes the window, from the busy time accumulated above, so
    // it adds no simulation event.
    utilSig_.attach(tf, n + ".tx_util_pct");
    // Concurrent ops: per stream, high while one of its commands serialises,
    // and the payload bytes it has sent so far (stream 0: untagged traffic).
    for (std::size_t k = 0; k < streamBusySig_.size(); ++k) {
        streamBusySig_[k].attach(tf, fmt::format("{}.stream{}_tx_busy", n, k));
        streamBytesSig_[k].attach(tf, fmt::format("{}.stream{}_tx_bytes", n, k));
    }
    // Over a fast-forward stretch (no traffic simulated) it holds the
    // average of the kRecentWindows windows before the stretch.
    tf.addSampler([this, &tf](Tick start, Tick end) {
        const Tick busy = busyTicks_ + (txBusy_ ? end - busySince_ : 0);
        const Tick inWindow = busy - busyAtWindowStart_;
        busyAtWindowStart_ = busy;
        const Tick len = end - start;
        if (tf.skipped(start, end)) {
            if (!holding_) {
                holding_ = true;
                Tick b = 0, l = 0;
                for (std::size_t i = 0; i < recentCount_; ++i) b += recentBusy_[i], l += recentLen_[i];
                heldPct_ = l ? (b * 100 + l / 2) / l : 0;
            }
            utilSig_.set(heldPct_);
            return;
        }
        holding_ = false;
        recentBusy_[recentNext_] = inWindow;
        recentLen_[recentNext_] = len;
        recentNext_ = (recentNext_ + 1) % kRecentWindows;
        recentCount_ = std::min(recentCount_ + 1, kRecentWindows);
        utilSig_.set((inWindow * 100 + len / 2) / len);
    });
    if (!faults_) return;
    // The link health counters of a direction that has faults, under
    // <eth>.link_health (the save file groups them per link direction).
    static const char* const kCounters[] = {"retrain_count",         "crc_errors",           "corrected_codewords",
                                            "uncorrected_codewords", "retransmitted_frames", "lost_packets"};
    healthSigs_.assign(std::size(kCounters), TraceSignal(32));
    for (std::size_t i = 0; i < healthSigs_.size(); ++i) healthSigs_[i].attach(tf, n + ".link_health." + kCounters[i]);
    tf.addSampler([this](Tick, Tick) {
        const LinkHealth& h = faults_->health;
        const std::uint64_t v[] = {h.retrainCount,         h.crcErrors,           h.correctedCodewords,
                                   h.uncorrectedCodewords, h.retransmittedFrames, h.lostFrames};
        for (std::size_t i = 0; i < healthSigs_.size(); ++i) healthSigs_[i].set(v[i]);
    });
}

void EthSubsystem::declareStreams(unsigned streams) {
    if (streams + 1 <= streamStats_.size()) return;
    streamStats_.resize(streams + 1);
    streamInflight_.resize(streams + 1, 0);
    streamBusySig_.resize(streams + 1, TraceSignal(1));
    streamBytesSig_.resize(streams + 1, TraceSignal(48));
}

void EthSubsystem::tagRegion(std::uint32_t lo, std::uint32_t hi, unsigned stream) {
    if (stream >= streamStats_.size())
        CCLSIM_ERROR(name(), "tagRegion: stream {} was not declared ({} streams)", stream, streamStats_.size() - 1);
    regions_.push_back(TaggedRegion{lo, hi, stream});
}

unsigned EthSubsystem::streamOf(unsigned tagged, std::uint32_t dst) const {
    if (streamStats_.empty()) return 0;
    if (tagged >= streamStats_.size())
        CCLSIM_ERROR(name(), "eth send tagged with stream {} but {} streams were declared", tagged,
                     streamStats_.size() - 1);
    if (tagged) return tagged;
    for (const TaggedRegion& r : regions_)
        if (dst >= r.lo && dst < r.hi) return r.stream;
    return 0;
}

void EthSubsystem::streamBusy(unsigned stream, int delta) {
    if (streamInflight_.empty()) return;
    streamInflight_[stream] = unsigned(int(streamInflight_[stream]) + delta);
    streamBusySig_[stream].set(streamInflight_[stream] ? 1 : 0);
}

void EthSubsystem::connect(EthSubsystem& peer, const EthLinkInfo& info) {
    link_ = info;
    link_.connected = true;
    peerSendable_ = peer.sendable_;
    tx.bind(peer.rx);
}

void EthSubsystem::check(unsigned q, std::uint32_t srcAddr, std::uint32_t dstAddr, std::uint32_t bytes) const {
    const auto desc = [&] { return fmt::format("(q={} src=0x{:x} dst=0x{:x} size={} B)", q, srcAddr, dstAddr, bytes); };
    if (q >= cfg_.txQueues)
        CCLSIM_ERROR(name(), "eth send on tx_cmd_q {} but the core has {} queues {}", q, cfg_.txQueues, desc());
    if (!link_.connected) CCLSIM_ERROR(name(), "eth send on a channel with no Ethernet link {}", desc());
    if (link_.dispatch)
        CCLSIM_ERROR(name(), "eth send on the link to chip {} channel {}, which is reserved for dispatch {}",
                     link_.peerChip, link_.peerChannel, desc());
    const std::uint32_t w = cfg_.wordBytes;
    if (srcAddr % w || dstAddr % w || bytes % w)
        CCLSIM_ERROR(name(), "eth send addresses and size must be {} B aligned {}", w, desc());
    if (bytes < cfg_.minPacketBytes)
        CCLSIM_ERROR(name(), "eth send of {} B is below the minimum packet of {} B {}", bytes, cfg_.minPacketBytes,
                     desc());
    auto inside = [](const std::vector<AddressRange>& rs, std::uint32_t a, std::uint32_t n) {
        for (const AddressRange& r : rs)
            if (r.contains(a, n)) return true;
        return false;
    };
    if (!inside(sendable_, srcAddr, bytes))
        CCLSIM_ERROR(name(), "eth send source is outside the kernel-usable L1 regions {}", desc());
    if (!inside(peerSendable_, dstAddr, bytes))
        CCLSIM_ERROR(name(), "eth send destination is outside the remote core's kernel-usable L1 regions {}", desc());
}

EthSubsystem::Command* EthSubsystem::allocate() {
    if (free_.empty()) {
        pool_.push_back(std::make_unique<Command>());
        return pool_.back().get();
    }
    Command* c = free_.back();
    free_.pop_back();
    return c;
}

void EthSubsystem::release(Command* c) {
    free_.push_back(c);  // keeps its payload buffers for reuse
}

void EthSubsystem::send(unsigned q, std::uint32_t srcAddr, std::uint32_t dstAddr, std::uint32_t bytes,
                        unsigned stream) {
    check(q, srcAddr, dstAddr, bytes);
    if (busy(q)) CCLSIM_ERROR(name(), "eth send on tx_cmd_q {} while it is busy ({} commands queued)", q, depth(q));
    Command* c = allocate();
    c->src = srcAddr;
    c->dst = dstAddr;
    c->bytes = bytes;
    c->wire = cfg_.wireBytes(bytes);
    if (faults_) c->wire += faults_->replayWireBytes(bytes);  // Go-Back-N replays of CRC failures
    c->regAdd = false;
    c->stream = streamOf(stream, dstAddr);
    mac_.submit(
        q, c->wire, [this, c] { startCommand(c); }, [this, c] { finishCommand(c); });
}

void EthSubsystem::sendRegAdd(unsigned q, std::uint32_t dstAddr, std::uint32_t addend, unsigned stream) {
    const auto desc = [&] { return fmt::format("(q={} reg=0x{:x} value={})", q, dstAddr, addend); };
    if (q >= cfg_.txQueues)
        CCLSIM_ERROR(name(), "eth register write on tx_cmd_q {} but the core has {} queues {}", q, cfg_.txQueues,
                     desc());
    if (!link_.connected) CCLSIM_ERROR(name(), "eth register write on a channel with no Ethernet link {}", desc());
    if (link_.dispatch)
        CCLSIM_ERROR(name(), "eth register write on the link to chip {} channel {}, which is reserved for dispatch {}",
                     link_.peerChip, link_.peerChannel, desc());
    if (dstAddr % 4) CCLSIM_ERROR(name(), "eth register write: register 0x{:x} is not 4 B aligned {}", dstAddr, desc());
    bool inside = false;
    for (const AddressRange& r : peerSendable_) inside |= r.contains(dstAddr, 4);
    if (!inside)
        CCLSIM_ERROR(name(), "eth register write: 0x{:x} is outside the remote core's registers/L1 {}", dstAddr,
                     desc());
    if (busy(q))
        CCLSIM_ERROR(name(), "eth register write on tx_cmd_q {} while it is busy ({} commands queued)", q, depth(q));
    Command* c = allocate();
    c->src = 0;
    c->dst = dstAddr;
    c->bytes = cfg_.minPacketBytes;
    c->wire = cfg_.wireBytes(c->bytes);
    if (faults_) c->wire += faults_->replayWireBytes(c->bytes);
    c->regAdd = true;
    c->addend = addend;
    c->stream = streamOf(stream, dstAddr);
    mac_.submit(
        q, c->wire, [this, c] { startCommand(c); }, [this, c] { finishCommand(c); });
}

void EthSubsystem::startCommand(Command* c) {
    streamBusy(c->stream, +1);
    if (c->regAdd) {
        if (inflightSig_.attached()) inflightSig_.add(std::int64_t(std::llround(c->wire)));
        return;
    }
    if (foreign_) {
        foreign_->debugRead(c->src, c->bytes, c->data);
        if (inflightSig_.attached()) inflightSig_.add(std::int64_t(std::llround(c->wire)));
        return;
    }
    PayloadExtension ext;
    ext.payload = &c->data;
    gp_.set_command(tlm::TLM_READ_COMMAND);
    gp_.set_address(c->src);
    gp_.set_data_ptr(nullptr);
    gp_.set_data_length(c->bytes);
    gp_.set_streaming_width(c->bytes);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp_.set_extension(&ext);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    l1->b_transport(gp_, d);
    gp_.clear_extension(&ext);
    if (gp_.is_response_error()) CCLSIM_ERROR(name(), "eth send could not read L1 at 0x{:x}", c->src);
    if (inflightSig_.attached()) inflightSig_.add(std::int64_t(std::llround(c->wire)));
}

void EthSubsystem::finishCommand(Command* c) {
    ++stats_.commands;
    stats_.frames += cfg_.frames(c->bytes);
    stats_.payloadBytes += c->bytes;
    stats_.wireBytes += c->wire;
    if (!streamStats_.empty()) {
        EthStreamStats& st = streamStats_[c->stream];
        ++st.commands;
        st.payloadBytes += c->bytes;
        st.wireBytes += c->wire;
        st.wireTicks += transferTicks(c->wire, cfg_.lineBytesPerNs);
        streamBytesSig_[c->stream].set(std::uint64_t(st.payloadBytes));
        streamBusy(c->stream, -1);
    }
    // The last frame left; it reaches the remote L1 after the link latency
    // (plus the store-and-forward of the first and last frame).
    // Frames arrive in the order they left: the receive side writes a
    // command's last frame no earlier than one frame time after the previous one.
    const Tick at = std::max(now() + cfg_.deliveryLatency(c->bytes), lastDelivery_ + cfg_.lastFrameTicks(c->bytes));
    if (faults_) {
        if (faults_->downAt(now())) {
            faults_->lose(c->bytes);
            release(c);
            return;
        }
        if (faults_->dropsCommand(c->bytes, now())) {
            release(c);
            return;
        }
        // In flight when the link stops (retrain or down): replayed after
        // the retrain (resumeLink), or lost with the link (stopLink). Frames
        // keep their order: behind a held command everything is held, even
        // a short one that would have landed before the stop.
        const Tick stop = faults_->nextStop(now());
        if (stop < at || !held_.empty()) {
            held_.push_back(c);
            return;
        }
    }
    transmit(c, at);
}

void EthSubsystem::transmit(Command* c, Tick at) {
    PayloadExtension ext;
    ext.payload = &c->data;
    AtomicExtension atomic;
    atomic.addend = c->addend;
    gp_.set_command(tlm::TLM_WRITE_COMMAND);
    gp_.set_address(c->dst);
    gp_.set_data_ptr(nullptr);
    gp_.set_data_length(c->regAdd ? 4 : c->bytes);
    gp_.set_streaming_width(c->regAdd ? 4 : c->bytes);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp_.set_extension(&ext);
    if (c->regAdd) gp_.set_extension(&atomic);
    lastDelivery_ = at;
    const Tick lat = at - now();
    sc_core::sc_time delay = toScTime(lat);
    tx->b_transport(gp_, delay);
    gp_.clear_extension(&ext);
    if (c->regAdd) gp_.clear_extension(&atomic);
    if (inflightSig_.attached()) {
        const auto wire = std::int64_t(std::llround(c->wire));
        eq_.after(lat, [this, wire] { inflightSig_.add(-wire); });
    }
    release(c);
}

void EthSubsystem::stopLink() {
    mac_.pause();
    if (!faults_ || !faults_->downAt(now())) return;
    // Gone with the link: what was in flight.
    for (Command* c : held_) {
        faults_->lose(c->bytes);
        release(c);
    }
    held_.clear();
}

Tick EthSubsystem::resumeLink() {
    // Go-Back-N from the first frame the peer did not get: the held commands
    // go out again, in order, before anything queued behind them.
    Tick t = now();
    for (Command* c : held_) {
        t += transferTicks(c->wire, cfg_.lineBytesPerNs);
        if (faults_) faults_->health.retransmittedFrames += cfg_.frames(c->bytes);
        transmit(c, std::max(t + cfg_.deliveryLatency(c->bytes), lastDelivery_ + cfg_.lastFrameTicks(c->bytes)));
    }
    held_.clear();
    if (t == now())
        mac_.resume();
    else
        eq_.at(t, [this] { mac_.resume(); });
    return t;
}

void EthSubsystem::rxTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    RxEntry* e;
    if (rxFree_.empty()) {
        rxPool_.push_back(std::make_unique<RxEntry>());
        e = rxPool_.back().get();
    } else {
        e = rxFree_.back();
        rxFree_.pop_back();
    }
    auto* ext = gp.get_extension<PayloadExtension>();
    auto* atomic = gp.get_extension<AtomicExtension>();
    e->regAdd = atomic != nullptr;
    e->addend = atomic ? atomic->addend : 0;
    if (atomic) {
        e->data.size = 4;
    } else if (ext && ext->payload) {
        std::swap(e->data, *ext->payload);  // the two pools trade buffers: no copy, no allocation
    } else {
        const std::uint32_t n = gp.get_data_length();
        std::memcpy(e->data.ownAll(n), gp.get_data_ptr(), n);
    }
    e->dst = std::uint32_t(gp.get_address());
    if (activity_) activity_->expect(now() + delay.value(), ActivityLog::L1Write);
    eq_.after(delay.value(), [this, e] { deliver(e); });
    delay = sc_core::SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void EthSubsystem::deliver(RxEntry* e) {
    if (foreign_) {
        // Timed write into the foreign L1: the arrival stays a pending write
        // of the core until the model answers.
        const Tick at = now();
        auto done = [this, e, at](Tick) {
            if (activity_) activity_->arrived(at, ActivityLog::L1Write);
            rxFree_.push_back(e);
        };
        if (e->regAdd)
            foreign_->atomicAdd(at, e->dst, e->addend, done);
        else
            foreign_->write(at, e->dst, e->data, done);
        return;
    }
    if (activity_) activity_->arrived(now(), ActivityLog::L1Write);
    PayloadExtension ext;
    ext.payload = &e->data;
    AtomicExtension atomic;
    atomic.addend = e->addend;
    rxGp_.set_command(tlm::TLM_WRITE_COMMAND);
    rxGp_.set_address(e->dst);
    rxGp_.set_data_ptr(nullptr);
    rxGp_.set_data_length(e->data.size);
    rxGp_.set_streaming_width(e->data.size);
    rxGp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    rxGp_.set_extension(&ext);
    if (e->regAdd) rxGp_.set_extension(&atomic);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    l1->b_transport(rxGp_, d);
    rxGp_.clear_extension(&ext);
    if (e->regAdd) rxGp_.clear_extension(&atomic);
    if (rxGp_.is_response_error()) CCLSIM_ERROR(name(), "eth receive could not write L1 at 0x{:x}", e->dst);
    rxFree_.push_back(e);
}

}  // namespace cclsim
