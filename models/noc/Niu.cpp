#include "models/noc/Niu.h"

#include "models/common/Report.h"
#include "models/plugin/ForeignTarget.h"

#include <cmath>
#include <cstring>

namespace cclsim {

namespace {
std::unique_ptr<SharePolicy> makePolicy(const NiuConfig& cfg) {
    std::vector<double> w = cfg.classWeights;
    w.push_back(cfg.responseWeight);
    return std::make_unique<WeightedRoundRobin>(std::move(w));
}
}  // namespace

Niu::Niu(const sc_core::sc_module_name& name, EventQueue& eq, NocInterconnect& noc, CoreCoord self,
         const NiuConfig& cfg)
    : sc_core::sc_module(name),
      eq_(eq),
      noc_(noc),
      self_(self),
      cfg_(cfg),
      inject_(eq, std::string(this->name()) + ".inject",
              BandwidthServerConfig{cfg.injectBytesPerNs, cfg.chunkBytes, unsigned(cfg.classWeights.size() + 1)},
              makePolicy(cfg)),
      classFreeAt_(cfg.classWeights.size() + 1, 0),
      laneLast_(cfg.classWeights.size() + 1) {
    if (cfg_.classNames.size() != cfg_.classWeights.size())
        throw std::invalid_argument(std::string(this->name()) + ": class names and weights differ in length");
}

void Niu::setClassWeights(const std::vector<double>& weights, double chunkBytes) {
    if (weights.size() != cfg_.classWeights.size())
        throw std::invalid_argument(std::string(name()) + ": expected one weight per request class");
    for (double w : weights)
        if (!(w > 0)) throw std::invalid_argument(std::string(name()) + ": class weights must be > 0");
    cfg_.classWeights = weights;
    cfg_.chunkBytes = chunkBytes;
    inject_.reconfigure(chunkBytes, makePolicy(cfg_));
}

void Niu::trace(TraceFile& tf) {
    queued_.clear();
    for (std::size_t c = 0; c <= cfg_.classNames.size(); ++c) queued_.emplace_back(32);
    // "<core>.pe_dma.noc0_vc_comm_bytes": bytes queued per class on this NoC.
    const std::string full = name();
    const std::string base = full.substr(0, full.rfind('.')) + "." + basename();
    for (std::size_t c = 0; c < cfg_.classNames.size(); ++c)
        queued_[c].attach(tf, base + "_" + cfg_.classNames[c] + "_bytes");
    queued_.back().attach(tf, base + "_resp_bytes");
    inject_.onChange = [this] {
        for (unsigned c = 0; c < queued_.size(); ++c)
            queued_[c].set(std::uint64_t(std::llround(inject_.bytesQueued(c))));
    };
}

Niu* Niu::endpoint(CoreCoord c) const {
    const NocConfig& nc = noc_.config();
    if (!endpoints_ || c.x >= nc.gridX || c.y >= nc.gridY) return nullptr;
    return (*endpoints_)[std::size_t(c.y) * nc.gridX + c.x];
}

void Niu::checkTarget(CoreCoord dst, const char* what) const {
    if (!endpoint(dst))
        CCLSIM_ERROR(name(), "{} targets NoC coordinate {} which has no endpoint on this chip", what, dst.str());
}

Niu::Transfer* Niu::allocate() {
    if (free_.empty()) {
        pool_.push_back(std::make_unique<Transfer>());
        return pool_.back().get();
    }
    Transfer* t = free_.back();
    free_.pop_back();
    return t;
}

void Niu::release(Transfer* t) {
    free_.push_back(t);  // keeps its payload buffers for reuse
}

std::uint32_t Niu::packetCount(std::uint32_t bytes) const {
    const std::uint32_t maxP = noc_.config().maxPacketBytes;
    return std::max<std::uint32_t>(1, (bytes + maxP - 1) / maxP);
}

std::uint32_t Niu::packetBytes(const Transfer* t, std::uint32_t k) const {
    const std::uint32_t maxP = noc_.config().maxPacketBytes;
    return std::min(maxP, t->bytes - std::min(t->bytes, k * maxP));
}

void Niu::injectPackets(unsigned cls, Transfer* t, CoreCoord to, void (Niu::*arrived)(Transfer*), bool snapshot) {
    t->packets = packetCount(t->bytes);
    t->injected = 0;
    t->lastArrival = 0;
    // Kept in the transfer so the callbacks capture two pointers (no allocation).
    t->injectClass = std::uint8_t(cls);
    t->injectTo = to;
    t->snapshot = snapshot;
    t->arrived = arrived;
    const double header = noc_.config().headerBytes;
    for (std::uint32_t k = 0; k < t->packets; ++k) {
        // Packets of one class leave in order, so the packet that starts is
        // always the next one and the one that finishes the oldest.
        inject_.submit(
            cls, double(packetBytes(t, k)) + header, [this, t] { packetStarts(t); }, [this, t] { packetLeft(t); });
    }
}

void Niu::packetStarts(Transfer* t) {
    if (t->snapshot && t->injected == 0) {
        // The source bytes are read as the transfer starts leaving L1.
        if (foreign_) {
            foreign_->debugRead(t->localAddr, t->bytes, t->data);
        } else {
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            memoryAccess(t, tlm::TLM_READ_COMMAND, t->localAddr, d);
        }
    }
    // The packet's head enters the NoC now: it books its links in the order
    // packets really reach them.
    const std::uint32_t wire = packetBytes(t, t->injected) + noc_.config().headerBytes;
    t->packetTail = enterNoc(t, t->injectClass, t->injectTo, wire);
}

Tick Niu::enterNoc(Transfer* t, unsigned cls, CoreCoord to, std::uint32_t wireBytes) {
    // The head follows the class's previous packet out of the source: a
    // packet held by a blocked head holds the ones behind it.
    const Tick n = now();
    const Tick head = std::max(n, classFreeAt_[cls]);
    Tick free = head;
    const Tick tail = noc_.reservePacket(self_, to, wireBytes, head, head, cls, &free);
    // The interconnect contract (NocInterconnect.h): a lane's packets to one
    // destination are absorbed in order, and none leaves before it entered.
    LaneLast& last = laneLast_[cls];
    if ((last.dst == to && tail < last.tail) || free < head)
        CCLSIM_ERROR(name(),
                     "the interconnect of NoC {} broke its contract: a packet of class {} to {} {} (see "
                     "models/noc/NocInterconnect.h)",
                     noc_.id(), cls, to.str(),
                     free < head ? fmt::format("left the source at {} ps, before it entered at {} ps", free, head)
                                 : fmt::format("arrives at {} ps, before the class's previous packet to it ({} ps)",
                                               tail, last.tail));
    last = LaneLast{to, tail};
    t->serverStart = n;
    t->injectStart = head;
    t->holdExtra = free - head;
    classFreeAt_[cls] =
        head > n || t->holdExtra > 0 ? head + transferTicks(wireBytes, cfg_.injectBytesPerNs) + t->holdExtra : 0;
    return tail;
}

Tick Niu::pathLatency(CoreCoord to) const {
    const Tick l = noc_.unloadedLatency(self_, to);
    // Kernels run ahead of SystemC time by less than the startup latency:
    // nothing may cross the NoC faster (NocInterconnect.h).
    if (l < noc_.config().startupLatency)
        CCLSIM_ERROR(name(),
                     "the interconnect of NoC {} broke its contract: its unloaded latency to {} is {} ps, below the "
                     "NoC's startup latency of {} ps (see models/noc/NocInterconnect.h)",
                     noc_.id(), to.str(), l, noc_.config().startupLatency);
    return l;
}

Tick Niu::leavesAt(const Transfer* t) const {
    return now() + (t->injectStart - t->serverStart) + t->holdExtra;
}

void Niu::noteTailGone(unsigned cls, Tick gone) {
    // The class's next packet enters the NoC behind this one's tail. The
    // injection server's share of the port can finish a packet before a
    // head held by a busy link lets its tail out; without this the next
    // packet (a semaphore increment after its data) could start at the
    // server's finish, reach the same destination first and overtake it.
    classFreeAt_[cls] = std::max(classFreeAt_[cls], gone);
}

void Niu::packetGone(Transfer* t) {
    if (!t->counters) return;
    --t->counters->cmdInFlight;
    t->counters->changed();
}

void Niu::packetLeft(Transfer* t) {
    // A packet injected slowly (shared port) arrives no earlier than its last
    // byte plus the path latency; a blocked one leaves the source late.
    const Tick gone = leavesAt(t);
    noteTailGone(t->injectClass, gone);
    const Tick arrival = std::max(t->packetTail, gone + pathLatency(t->injectTo));
    t->lastArrival = std::max(t->lastArrival, arrival);
    const bool last = ++t->injected == t->packets;
    const bool request = t->injectClass < numRequestClasses();
    if (gone <= now()) {
        if (request) packetGone(t);
        if (last) (this->*(t->arrived))(t);
        return;
    }
    expect(gone, ActivityLog::Other);
    schedule(gone, *this, Step(std::uint64_t(Step::PacketLeft) + (request ? 1 : 0) + (last ? 2 : 0)), t);
}

void Niu::onCalendar(std::uint64_t arg) {
    Transfer* t = reinterpret_cast<Transfer*>(std::uintptr_t(arg & ~std::uint64_t(alignof(Transfer) - 1)));
    const auto step = arg & (alignof(Transfer) - 1);
    switch (Step(step)) {
        case Step::Issue:
            --deferred_;
            arrived(ActivityLog::Other);
            start(t);
            return;
        case Step::AcceptWrite: acceptWrite(t); return;
        case Step::WriteAcked: writeAcked(t); return;
        case Step::ServeRead: serveRead(t); return;
        case Step::AcceptRead:
            arrived(ActivityLog::Other);
            acceptRead(t);
            return;
        case Step::Respond: injectPackets(numRequestClasses(), t, t->requester, &Niu::responseLanded, false); return;
        case Step::ReadArrived: readArrived(t); return;
        case Step::RequestGone:
            arrived(ActivityLog::Other);
            packetGone(t);
            return;
        default: break;
    }
    // Step::PacketLeft and its flags.
    const std::uint64_t flags = step - std::uint64_t(Step::PacketLeft);
    arrived(ActivityLog::Other);
    if (flags & 1) packetGone(t);
    if (flags & 2) (this->*(t->arrived))(t);
}

void Niu::memoryAccess(Transfer* t, tlm::tlm_command cmd, std::uint64_t addr, sc_core::sc_time& delay) {
    PayloadExtension ext;
    ext.payload = &t->data;
    gp_.set_command(cmd);
    gp_.set_address(addr);
    gp_.set_data_ptr(nullptr);
    gp_.set_data_length(t->bytes);
    gp_.set_streaming_width(t->bytes);
    gp_.set_byte_enable_ptr(nullptr);
    gp_.set_dmi_allowed(false);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp_.set_extension(&ext);
    AtomicExtension atomic;
    if (t->kind == Transfer::Atomic) {
        atomic.addend = t->addend;
        gp_.set_extension(&atomic);
    }
    mem->b_transport(gp_, delay);
    gp_.clear_extension(&ext);
    if (t->kind == Transfer::Atomic) gp_.clear_extension(&atomic);
    if (gp_.is_response_error())
        CCLSIM_ERROR(name(), "{} of {} bytes at 0x{:x} from core {} failed: {}",
                     cmd == tlm::TLM_READ_COMMAND ? "NoC read" : "NoC write", t->bytes, addr, t->requester.str(),
                     gp_.get_response_string());
}

void Niu::atomicNow(std::uint64_t addr, std::uint32_t addend, CoreCoord requester) {
    if (foreign_) {
        // The increment lands when the model answers; until then the core
        // has a pending write.
        const Tick at = now();
        expect(at, ActivityLog::L1Write);
        foreign_->atomicAdd(at, addr, addend, [this, at](Tick) { retire(at, ActivityLog::L1Write); });
        return;
    }
    AtomicExtension atomic;
    atomic.addend = addend;
    tlm::tlm_generic_payload gp;
    std::uint32_t scratch = 0;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&scratch));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    {
        // The payload deletes the extensions it still holds when it dies: a
        // target that throws must not leave it holding this stack object.
        struct Clear {
            tlm::tlm_generic_payload& gp;
            AtomicExtension* ext;
            ~Clear() { gp.clear_extension(ext); }
        } clear{gp, &atomic};
        gp.set_extension(&atomic);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        mem->b_transport(gp, d);
    }
    if (gp.is_response_error())
        CCLSIM_ERROR(name(), "fused semaphore increment at 0x{:x} from core {} failed: {}", addr, requester.str(),
                     gp.get_response_string());
}

// ---- writes and atomics ----------------------------------------------------

void Niu::issue(Transfer* t, Tick at) {
    if (at <= now() && deferred_ == 0) {
        start(t);
        return;
    }
    // Later commands of this NIU queue behind earlier deferred ones (the
    // calendar runs same-tick callbacks in order), so issue order is kept.
    ++deferred_;
    const Tick when = std::max(at, now());
    expect(when, ActivityLog::Other);
    schedule(when, *this, Step::Issue, t);
}

void Niu::start(Transfer* t) {
    switch (t->kind) {
        case Transfer::Write:
        case Transfer::Atomic:
            injectPackets(t->cls, t, t->remote, &Niu::writeLanded, t->kind == Transfer::Write && !t->inlineData);
            break;
        case Transfer::Read: {
            // The request is one header-only packet.
            const double header = noc_.config().headerBytes;
            inject_.submit(
                t->cls, header,
                [this, t] { t->packetTail = enterNoc(t, t->cls, t->remote, noc_.config().headerBytes); },
                [this, t] {
                    const Tick gone = leavesAt(t);
                    noteTailGone(t->cls, gone);
                    const Tick arrival = std::max(t->packetTail, gone + pathLatency(t->remote));
                    Niu* target = endpoint(t->remote);
                    target->expect(arrival, ActivityLog::Other);  // reads its memory
                    schedule(arrival, *target, Step::ServeRead, t);
                    if (gone <= now()) {
                        packetGone(t);
                    } else {
                        expect(gone, ActivityLog::Other);
                        schedule(gone, *this, Step::RequestGone, t);
                    }
                });
            break;
        }
    }
}

Niu::Transfer* Niu::newWrite(unsigned cls, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t bytes, bool posted,
                             NocCounters* counters, unsigned trid) {
    Transfer* t = allocate();
    t->kind = Transfer::Write;
    t->posted = posted;
    t->cls = std::uint8_t(cls);
    t->requester = self_;
    t->remote = dst;
    t->remoteAddr = dstAddr;
    t->bytes = bytes;
    t->counters = counters;
    t->inlineData = false;
    t->fused = false;
    t->trid = std::uint8_t(trid);
    ++counters->writesIssued;
    counters->cmdInFlight += packetCount(bytes);
    if (!posted) ++counters->nonpostedIssued;
    if (trid != kNoTrid) {
        if (trid >= NocCounters::kTrids)
            CCLSIM_ERROR(name(), "NoC transaction id {} does not exist (0..{})", trid, NocCounters::kTrids - 1);
        ++counters->tridIssued[trid];
    }
    return t;
}

void Niu::write(unsigned cls, std::uint32_t srcAddr, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t bytes,
                bool posted, NocCounters* counters, Tick at, unsigned trid) {
    checkTarget(dst, "noc write");
    Transfer* t = newWrite(cls, dst, dstAddr, bytes, posted, counters, trid);
    t->localAddr = srcAddr;
    issue(t, at);
}

void Niu::writeInline(unsigned cls, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t value, bool posted,
                      NocCounters* counters, Tick at) {
    checkTarget(dst, "noc inline write");
    Transfer* t = newWrite(cls, dst, dstAddr, 4, posted, counters, kNoTrid);
    t->inlineData = true;
    t->localAddr = 0;
    std::memcpy(t->data.ownAll(4), &value, 4);
    issue(t, at);
}

void Niu::writeFused(unsigned cls, std::uint32_t srcAddr, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t bytes,
                     CoreCoord semDst, std::uint64_t semAddr, std::uint32_t addend, bool posted, NocCounters* counters,
                     Tick at, unsigned trid) {
    checkTarget(dst, "noc fused write");
    checkTarget(semDst, "noc fused write's semaphore increment");
    Transfer* t = newWrite(cls, dst, dstAddr, bytes, posted, counters, trid);
    t->localAddr = srcAddr;
    t->fused = true;
    t->fusedDst = semDst;
    t->fusedAddr = semAddr;
    t->fusedAddend = addend;
    issue(t, at);
}

void Niu::atomicInc(unsigned cls, CoreCoord dst, std::uint64_t dstAddr, std::uint32_t addend, bool posted,
                    NocCounters* counters, Tick at) {
    checkTarget(dst, "noc atomic increment");
    Transfer* t = allocate();
    t->kind = Transfer::Atomic;
    t->posted = posted;
    t->cls = std::uint8_t(cls);
    t->requester = self_;
    t->remote = dst;
    t->remoteAddr = dstAddr;
    t->bytes = 4;
    t->addend = addend;
    t->counters = counters;
    t->inlineData = false;
    t->fused = false;
    t->trid = kNoTrid;
    ++counters->atomicsIssued;
    ++counters->cmdInFlight;
    issue(t, at);
}

void Niu::writeLanded(Transfer* t) {
    // Every packet has left this core; the target applies the write when the last arrives.
    if (t->kind == Transfer::Write) {
        ++t->counters->writesFlushed;
        if (t->trid != kNoTrid) ++t->counters->tridFlushed[t->trid];
        t->counters->changed();
    }
    Niu* target = endpoint(t->remote);
    target->expect(t->lastArrival, ActivityLog::L1Write);
    if (t->fused) endpoint(t->fusedDst)->expect(t->lastArrival, ActivityLog::L1Write);
    schedule(t->lastArrival, *target, Step::AcceptWrite, t);
}

void Niu::acceptWrite(Transfer* t) {
    if (foreign_) {
        // The write is in the memory when the model answers: its landing
        // (expected by writeLanded) stays a pending write of this core until then.
        const Tick at = now();
        auto done = [this, t, at](Tick d) {
            retire(at, ActivityLog::L1Write);
            writeApplied(t, d, at);
        };
        if (t->kind == Transfer::Atomic)
            foreign_->atomicAdd(at, t->remoteAddr, t->addend, done);
        else
            foreign_->write(at, t->remoteAddr, t->data, done);
        return;
    }
    arrived(ActivityLog::L1Write);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    memoryAccess(t, tlm::TLM_WRITE_COMMAND, t->remoteAddr, d);
    writeApplied(t, now() + d.value(), now());
}

void Niu::writeApplied(Transfer* t, Tick done, Tick landed) {
    const sc_core::sc_time d = toScTime(done - now());
    if (t->fused) {
        // The increment becomes visible in the same instant as the data: as
        // the write lands, or (a DRAM or foreign target) when the memory has
        // absorbed it.
        Niu* sem = endpoint(t->fusedDst);
        sem->retire(landed, ActivityLog::L1Write);  // expected at the landing (writeLanded)
        if (d == sc_core::SC_ZERO_TIME) {
            sem->atomicNow(t->fusedAddr, t->fusedAddend, t->requester);
        } else {
            const Tick at = now() + d.value();
            sem->expect(at, ActivityLog::L1Write);
            const std::uint64_t addr = t->fusedAddr;
            const std::uint32_t addend = t->fusedAddend;
            const CoreCoord req = t->requester;
            eq_.at(at, [sem, addr, addend, req] {
                sem->arrived(ActivityLog::L1Write);
                sem->atomicNow(addr, addend, req);
            });
        }
    }
    Niu* requester = endpoint(t->requester);
    if (t->posted) {
        requester->release(t);
        return;
    }
    const Tick ackAt = now() + d.value() + pathLatency(t->requester);
    requester->expect(ackAt, ActivityLog::Other);
    schedule(ackAt, *requester, Step::WriteAcked, t);
}

void Niu::writeAcked(Transfer* t) {
    arrived(ActivityLog::Other);
    if (t->kind == Transfer::Atomic)
        ++t->counters->atomicsAcked;
    else
        ++t->counters->nonpostedAcked;
    t->counters->changed();
    release(t);
}

// ---- reads -------------------------------------------------------------------

void Niu::read(unsigned cls, CoreCoord src, std::uint64_t srcAddr, std::uint32_t dstAddr, std::uint32_t bytes,
               NocCounters* counters, Tick at) {
    checkTarget(src, "noc read");
    Transfer* t = allocate();
    t->kind = Transfer::Read;
    t->cls = std::uint8_t(cls);
    t->requester = self_;
    t->remote = src;
    t->remoteAddr = srcAddr;
    t->localAddr = dstAddr;
    t->bytes = bytes;
    t->counters = counters;
    t->inlineData = false;
    t->fused = false;
    t->trid = counters->readTrid;
    ++counters->readsIssued;
    if (t->trid != kNoTrid) ++counters->tridReadIssued[t->trid];
    ++counters->cmdInFlight;
    issue(t, at);
}

void Niu::serveRead(Transfer* t) {
    arrived(ActivityLog::Other);
    // The endpoint takes one read request per interval on this NoC; later
    // arrivals wait their turn (in arrival order).
    const Tick interval = noc_.config().requestInterval(self_.x, self_.y);
    if (interval > 0) {
        const Tick at = std::max(now(), nextAccept_);
        nextAccept_ = at + interval;
        if (at > now()) {
            expect(at, ActivityLog::Other);
            schedule(at, *this, Step::AcceptRead, t);
            return;
        }
    }
    acceptRead(t);
}

void Niu::acceptRead(Transfer* t) {
    if (foreign_) {
        const Tick at = now();
        expect(at, ActivityLog::Other);
        foreign_->read(at, t->remoteAddr, t->bytes, &t->data, [this, t, at](Tick done) {
            retire(at, ActivityLog::Other);
            readServed(t, done);
        });
        return;
    }
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    memoryAccess(t, tlm::TLM_READ_COMMAND, t->remoteAddr, d);
    readServed(t, now() + d.value());
}

void Niu::readServed(Transfer* t, Tick done) {
    // The response leaves through this endpoint's injection port (its own class).
    if (done <= now())
        injectPackets(numRequestClasses(), t, t->requester, &Niu::responseLanded, false);
    else
        schedule(done, *this, Step::Respond, t);
}

void Niu::responseLanded(Transfer* t) {
    Niu* requester = endpoint(t->requester);
    requester->expect(t->lastArrival, ActivityLog::L1Write);
    schedule(t->lastArrival, *requester, Step::ReadArrived, t);
}

void Niu::readArrived(Transfer* t) {
    if (foreign_) {
        const Tick at = now();  // the landing stays pending until the model answers
        foreign_->write(at, t->localAddr, t->data, [this, t, at](Tick) {
            retire(at, ActivityLog::L1Write);
            readStored(t);
        });
        return;
    }
    arrived(ActivityLog::L1Write);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    memoryAccess(t, tlm::TLM_WRITE_COMMAND, t->localAddr, d);
    readStored(t);
}

void Niu::readStored(Transfer* t) {
    ++t->counters->readsDone;
    if (t->trid != kNoTrid) ++t->counters->tridReadDone[t->trid];
    t->counters->changed();
    release(t);
}

}  // namespace cclsim
