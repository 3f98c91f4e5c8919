#include "models/memory/DramChannel.h"

#include "models/common/Report.h"
#include "models/memory/TlmAccess.h"

#include <algorithm>

namespace cclsim {

DramChannel::DramChannel(const sc_core::sc_module_name& name, const DramChannelConfig& cfg)
    : sc_core::sc_module(name),
      cfg_(cfg),
      store_(cfg.bankBytes * cfg.banks),
      freeAt_(std::size_t(std::max(1u, cfg.banks)) * std::max(1u, cfg.pseudoChannels), 0) {
    if (!(cfg_.bytesPerNs > 0)) throw ConfigError(std::string(this->name()) + ": DRAM bandwidth must be > 0");
    socket.register_b_transport(this, &DramChannel::b_transport);
    socket.register_transport_dbg(this, &DramChannel::transportDbg);
    socket.register_get_direct_mem_ptr(this, &DramChannel::getDirectMemPtr);
}

void DramChannel::trace(TraceFile& tf) {
    busyUntilNs_.attach(tf, std::string(name()) + ".queue_ns");
}

void DramChannel::hostWrite(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in) {
    if (addr + n > size()) CCLSIM_ERROR(name(), "host write of {} B at 0x{:x} is outside the controller", n, addr);
    store_.write(addr, n, in);
}

void DramChannel::hostRead(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const {
    if (addr + n > size()) CCLSIM_ERROR(name(), "host read of {} B at 0x{:x} is outside the controller", n, addr);
    store_.read(addr, n, out);
}

Tick DramChannel::serve(std::uint64_t addr, std::uint32_t bytes, Tick latency, Tick t) {
    // An access (arriving at `t`) is split over the servers it touches; it
    // completes when its last part does.
    Tick done = t;
    std::uint64_t a = addr;
    std::uint32_t left = std::max<std::uint32_t>(bytes, 1);
    const unsigned pcs = std::max(1u, cfg_.pseudoChannels);
    while (left) {
        const std::uint64_t bank = std::min<std::uint64_t>(a / cfg_.bankBytes, cfg_.banks - 1);
        const std::uint32_t inChunk = cfg_.interleaveBytes - std::uint32_t(a % cfg_.interleaveBytes);
        const std::uint64_t toBankEnd = (bank + 1) * cfg_.bankBytes - a;
        std::uint32_t k = std::min<std::uint64_t>(left, toBankEnd);
        if (pcs > 1) k = std::min(k, inChunk);
        Tick& free = freeAt_[bank * pcs + (pcs > 1 ? (a / cfg_.interleaveBytes) % pcs : 0)];
        Tick start = std::max(t, free);
        Tick end = start + transferTicks(k, cfg_.bytesPerNs);
        if (cfg_.refreshInterval > 0 && cfg_.refreshTicks > 0) {
            // Refreshes occupy the last `refresh` ticks of every interval on
            // every server; an access starting inside one waits for its end,
            // and a refresh falling inside an access stretches it.
            const Tick period = cfg_.refreshInterval;
            const Tick busyFrom = period - cfg_.refreshTicks;
            if (start % period >= busyFrom) start += period - start % period;
            end = start + transferTicks(k, cfg_.bytesPerNs);
            if (start / period * period + busyFrom < end) end += cfg_.refreshTicks;
        }
        free = end;
        done = std::max(done, free);
        a += k;
        left -= k;
    }
    if (busyUntilNs_.attached()) busyUntilNs_.set(std::uint64_t(ticksToNs(done - t)));
    return done + latency;
}

void DramChannel::b_transport(int /*id*/, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const std::uint64_t addr = gp.get_address();
    const std::uint32_t len = gp.get_data_length();
    // The access reaches the controller at now + the annotated delay; on
    // return the delay says when it completed (loosely timed).
    const Tick arrival = now() + delay.value();
    if (gp.get_extension<AtomicExtension>()) {
        gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // semaphores live in L1
        return;
    }
    auto* pe = gp.get_extension<PayloadExtension>();
    if (!(pe && pe->payload)) {
        // Any TLM-2.0 initiator: the base protocol.
        const bool accessed = plainTlmAccess(
            gp, size(), [this](std::uint64_t a, std::uint32_t n, std::uint8_t* out) { store_.read(a, n, out); },
            [this](std::uint64_t a, std::uint32_t n, const std::uint8_t* in) {
                if (cfg_.storePayload) store_.write(a, n, in);
            });
        if (!accessed) return;
    } else if (addr + len > size() || len > size()) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    Tick done;
    if (gp.is_write()) {
        if (pe && pe->payload && cfg_.storePayload) landPayload(addr, *pe->payload);
        ++stats_.writes;
        stats_.writeBytes += len;
        done = serve(addr, len, cfg_.writeLatency, arrival);
    } else {
        if (pe && pe->payload) {
            Payload& p = *pe->payload;
            p.size = len;
            p.frags.clear();
            if (cfg_.storePayload) {
                if (store_.sharing()) {
                    store_.shareOut(addr, len, p, 0);  // by reference: no copy
                } else {
                    store_.read(addr, len, p.ownAll(len));
                    payloadStats().copied += len;
                }
            }
        }
        ++stats_.reads;
        stats_.readBytes += len;
        done = serve(addr, len, cfg_.readLatency, arrival);
    }
    delay = toScTime(done - now());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void DramChannel::landPayload(std::uint64_t addr, const Payload& p) {
    // Slices of shared pages land through the store, which adopts whole
    // pages by reference (SparseStore::landShared); owned bytes are copied.
    PayloadStats& stats = payloadStats();
    for (const auto& f : p.frags) {
        const std::uint64_t at = addr + f.offset;
        if (f.shared()) {
            stats.copied += store_.landShared(at, f);
            continue;
        }
        store_.write(at, f.length(), f.data());
        stats.copied += f.length();
    }
    stats.landed += p.size;
}

unsigned DramChannel::transportDbg(int /*id*/, tlm::tlm_generic_payload& gp) {
    return debugTlmAccess(
        gp, size(), [this](std::uint64_t a, std::uint32_t n, std::uint8_t* out) { store_.read(a, n, out); },
        [this](std::uint64_t a, std::uint32_t n, const std::uint8_t* in) { store_.write(a, n, in); });
}

bool DramChannel::getDirectMemPtr(int /*id*/, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    // Read and write, one page at a time, when the controller keeps every
    // byte (data mode). DMI bypasses the bank timing, as DMI does.
    const std::uint64_t addr = gp.get_address();
    if (!cfg_.storePayload || addr >= size()) return dmiRefused(dmi, size());
    dmiPage(dmi, store_.pageOf(addr), addr, store_.pageBytes(), size());
    dmi.allow_read_write();
    dmi.set_read_latency(toScTime(cfg_.readLatency));
    dmi.set_write_latency(toScTime(cfg_.writeLatency));
    return true;
}

}  // namespace cclsim
