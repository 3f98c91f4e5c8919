#include "models/memory/L1Memory.h"

#include "models/common/Report.h"
#include "models/memory/TlmAccess.h"
#include "models/plugin/ForeignTarget.h"

#include <algorithm>

namespace cclsim {

L1Memory::L1Memory(const sc_core::sc_module_name& name, const L1Config& cfg)
    : sc_core::sc_module(name), cfg_(cfg), store_(cfg.sizeBytes) {
    socket.register_b_transport(this, &L1Memory::b_transport);
    socket.register_transport_dbg(this, &L1Memory::transportDbg);
    socket.register_get_direct_mem_ptr(this, &L1Memory::getDirectMemPtr);
}

void L1Memory::setBacking(ForeignTarget* f) {
    backing_ = f;
    // Writes the bridge completes (NoC and Ethernet landings) wake watchers.
    if (f) f->onWrite = [this](std::uint64_t addr, std::uint32_t n) { notifyWrite(std::uint32_t(addr), n); };
}

void L1Memory::storeRead(std::uint32_t addr, std::uint32_t n, std::uint8_t* out) const {
    if (backing_)
        backing_->debugRead(addr, std::uint64_t(n), out);
    else
        store_.read(addr, n, out);
}

void L1Memory::storeWrite(std::uint32_t addr, std::uint32_t n, const std::uint8_t* in) {
    if (backing_)
        backing_->debugWrite(addr, std::uint64_t(n), in);
    else
        store_.write(addr, n, in);
}

void L1Memory::checkRange(std::uint64_t addr, std::uint64_t n, const char* what) const {
    if (!contains(addr, n))
        CCLSIM_ERROR(name(), "{} of {} bytes at 0x{:x} is outside L1 (size 0x{:x})", what, n, addr, cfg_.sizeBytes);
}

std::uint32_t L1Memory::readU32Checked(std::uint32_t addr) const {
    checkRange(addr, 4, "read");
    if (backing_) {
        std::uint32_t v = 0;
        storeRead(addr, 4, reinterpret_cast<std::uint8_t*>(&v));
        return v;
    }
    return store_.readWord(addr);
}

void L1Memory::keepWord(std::uint32_t addr, std::uint32_t n) {
    // In timing mode a word that firmware stores is a control word: later
    // transfers of it (noc_semaphore_set_remote, channel-sync sends) carry it.
    if (!cfg_.storePayload && !isControl(addr, n)) markControl(addr, n);
}

void L1Memory::writeU32(std::uint32_t addr, std::uint32_t value) {
    checkRange(addr, 4, "write");
    keepWord(addr, 4);
    storeWrite(addr, 4, reinterpret_cast<const std::uint8_t*>(&value));
    notifyWrite(addr, 4);
}

void L1Memory::writeWords(std::uint32_t addr, const std::uint32_t* words, std::uint32_t n) {
    checkRange(addr, 4ull * n, "write");
    keepWord(addr, 4 * n);
    storeWrite(addr, 4ull * n, reinterpret_cast<const std::uint8_t*>(words));
    notifyWrite(addr, 4 * n);
}

std::uint32_t L1Memory::atomicAdd(std::uint32_t addr, std::uint32_t addend) {
    const std::uint32_t old = readU32(addr);
    writeU32(addr, old + addend);
    return old;
}

void L1Memory::readBytes(std::uint32_t addr, std::uint32_t n, std::uint8_t* out) const {
    checkRange(addr, n, "read");
    storeRead(addr, n, out);
}

void L1Memory::writeBytes(std::uint32_t addr, std::uint32_t n, const std::uint8_t* in) {
    checkRange(addr, n, "write");
    if (cfg_.storePayload) {
        storeWrite(addr, n, in);
    } else {
        forEachControl(addr, n, [&](std::uint32_t lo, std::uint32_t hi) { storeWrite(lo, hi - lo, in + (lo - addr)); });
    }
    notifyWrite(addr, n);
}

template <class F> void L1Memory::forEachControl(std::uint32_t addr, std::uint32_t n, F&& f) const {
    const std::uint32_t end = addr + n;
    auto it = std::upper_bound(control_.begin(), control_.end(), addr,
                               [](std::uint32_t a, const Range& r) { return a < r.hi; });
    for (; it != control_.end() && it->lo < end; ++it) f(std::max(it->lo, addr), std::min(it->hi, end));
}

void L1Memory::snapshot(std::uint32_t addr, std::uint32_t n, Payload& out) const {
    checkRange(addr, n, "read");
    // Reuse the payload's buffers: pooled transfers keep their capacity.
    out.size = n;
    std::size_t count = 0;
    auto next = [&]() -> Payload::Fragment& {
        if (out.frags.size() <= count) out.frags.emplace_back();
        return out.frags[count++];
    };
    if (!cfg_.storePayload) {
        forEachControl(addr, n, [&](std::uint32_t lo, std::uint32_t hi) {
            storeRead(lo, hi - lo, next().own(lo - addr, hi - lo));
        });
        out.frags.resize(count);
        return;
    }
    // Data mode: the ranges that still hold the page slices that landed
    // there go out by reference, the rest is copied.
    PayloadStats& stats = payloadStats();
    const std::uint32_t end = addr + n;
    auto it = std::upper_bound(origins_.begin(), origins_.end(), addr,
                               [](std::uint32_t a, const Origin& o) { return a < o.hi; });
    for (std::uint32_t pos = addr; pos < end;) {
        if (it != origins_.end() && it->lo <= pos) {
            const std::uint32_t k = std::min(it->hi, end) - pos;
            next().share(pos - addr, it->page, it->pageOffset + (pos - it->lo), k);
            pos += k;
            ++it;
            continue;
        }
        const std::uint32_t gapEnd = it != origins_.end() ? std::min(it->lo, end) : end;
        storeRead(pos, gapEnd - pos, next().own(pos - addr, gapEnd - pos));
        stats.copied += gapEnd - pos;
        pos = gapEnd;
    }
    out.frags.resize(count);
}

void L1Memory::apply(std::uint32_t addr, const Payload& p) {
    checkRange(addr, p.size, "write");
    if (!cfg_.storePayload) {
        for (const auto& f : p.frags)
            forEachControl(addr + f.offset, f.length(), [&](std::uint32_t lo, std::uint32_t hi) {
                storeWrite(lo, hi - lo, f.data() + (lo - addr - f.offset));
            });
        notifyWrite(addr, p.size);
        return;
    }
    PayloadStats& stats = payloadStats();
    for (const auto& f : p.frags) {
        storeWrite(addr + f.offset, f.length(), f.data());
        stats.copied += f.length();
    }
    stats.landed += p.size;
    dropOrigins(addr, p.size);
    // Remember which ranges now equal which page slices: a later read of
    // them goes out by reference.
    if (!backing_)
        for (const auto& f : p.frags)
            if (f.shared()) {
                const std::uint32_t lo = addr + f.offset;
                auto pos = std::lower_bound(origins_.begin(), origins_.end(), lo,
                                            [](const Origin& o, std::uint32_t a) { return o.lo < a; });
                origins_.insert(pos, Origin{lo, lo + f.pageLen, f.page, f.pageOffset});
            }
    wakeWatchers(addr, p.size);
}

void L1Memory::dropOrigins(std::uint32_t addr, std::uint32_t n) {
    if (origins_.empty()) return;
    const std::uint32_t end = addr + n;
    auto it = std::upper_bound(origins_.begin(), origins_.end(), addr,
                               [](std::uint32_t a, const Origin& o) { return a < o.hi; });
    while (it != origins_.end() && it->lo < end) {
        // Keep the parts of the record outside [addr, end).
        if (it->lo < addr && it->hi > end) {  // the write is inside: split in two
            Origin tail{end, it->hi, it->page, it->pageOffset + (end - it->lo)};
            it->hi = addr;
            origins_.insert(it + 1, std::move(tail));
            return;
        }
        if (it->lo < addr) {
            it->hi = addr;
            ++it;
        } else if (it->hi > end) {
            it->pageOffset += end - it->lo;
            it->lo = end;
            return;
        } else {
            it = origins_.erase(it);
        }
    }
}

void L1Memory::markControl(std::uint32_t addr, std::uint32_t n) {
    checkRange(addr, n, "control range");
    control_.push_back({addr, addr + n});
    std::sort(control_.begin(), control_.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
    std::vector<Range> merged;
    for (const Range& r : control_) {
        if (!merged.empty() && r.lo <= merged.back().hi)
            merged.back().hi = std::max(merged.back().hi, r.hi);
        else
            merged.push_back(r);
    }
    control_.swap(merged);
}

bool L1Memory::isControl(std::uint32_t addr, std::uint32_t n) const {
    std::uint32_t covered = 0;
    forEachControl(addr, n, [&](std::uint32_t lo, std::uint32_t hi) { covered += hi - lo; });
    return covered == n;
}

void L1Memory::watch(std::uint32_t addr, std::uint32_t n, MemoryWatcher* w) {
    // Sorted by address so a write finds its watchers by binary search.
    auto pos = std::lower_bound(watches_.begin(), watches_.end(), addr,
                                [](const Watch& x, std::uint32_t a) { return x.lo < a; });
    for (auto it = pos; it != watches_.end() && it->lo == addr; ++it)
        if (it->w == w && it->hi == addr + n) return;
    watches_.insert(pos, {addr, addr + n, w});
    maxWatchLen_ = std::max(maxWatchLen_, n);
}

void L1Memory::unwatch(std::uint32_t addr, std::uint32_t n, MemoryWatcher* w) {
    watches_.erase(std::remove_if(watches_.begin(), watches_.end(),
                                  [&](const Watch& x) { return x.w == w && x.lo == addr && x.hi == addr + n; }),
                   watches_.end());
}

void L1Memory::unwatchAll(MemoryWatcher* w) {
    watches_.erase(std::remove_if(watches_.begin(), watches_.end(), [&](const Watch& x) { return x.w == w; }),
                   watches_.end());
}

void L1Memory::notifyWrite(std::uint32_t addr, std::uint32_t n) {
    dropOrigins(addr, n);
    wakeWatchers(addr, n);
}

void L1Memory::wakeWatchers(std::uint32_t addr, std::uint32_t n) {
    if (watches_.empty()) return;
    const std::uint32_t end = addr + n;
    // Watchers may unwatch from the callback: collect the hits first.
    struct Hit {
        MemoryWatcher* w;
        std::uint32_t lo;
    };
    Hit hits[16];
    std::size_t count = 0;
    std::vector<Hit> more;
    const std::uint32_t from = addr > maxWatchLen_ ? addr - maxWatchLen_ : 0;
    auto first = std::lower_bound(watches_.begin(), watches_.end(), from,
                                  [](const Watch& x, std::uint32_t a) { return x.lo < a; });
    for (auto it = first; it != watches_.end() && it->lo < end; ++it) {
        if (addr >= it->hi) continue;
        if (count < 16)
            hits[count++] = Hit{it->w, it->lo};
        else
            more.push_back(Hit{it->w, it->lo});
    }
    // A callback may unwatch: skip hits whose watch is gone by then.
    auto stillWatched = [&](const Hit& h) {
        auto it = std::lower_bound(watches_.begin(), watches_.end(), h.lo,
                                   [](const Watch& x, std::uint32_t a) { return x.lo < a; });
        for (; it != watches_.end() && it->lo == h.lo; ++it)
            if (it->w == h.w) return true;
        return false;
    };
    for (std::size_t i = 0; i < count; ++i)
        if (i == 0 || stillWatched(hits[i])) hits[i].w->onWatchedWrite(hits[i].lo);
    for (const Hit& h : more)
        if (stillWatched(h)) h.w->onWatchedWrite(h.lo);
}

void L1Memory::b_transport(int /*id*/, tlm::tlm_generic_payload& gp, sc_core::sc_time& /*delay*/) {
    const std::uint64_t addr = gp.get_address();
    const std::uint32_t len = gp.get_data_length();
    // cclsim's own initiators: an atomic increment, or a Payload in place of
    // the data pointer.
    if (auto* atomic = gp.get_extension<AtomicExtension>()) {
        if (!gp.is_write() || len != 4) {
            gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
        if (!contains(addr, 4)) {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        atomic->previous = atomicAdd(std::uint32_t(addr), atomic->addend);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    auto* pe = gp.get_extension<PayloadExtension>();
    if (pe && pe->payload && !gp.is_read() && !gp.is_write()) pe = nullptr;
    if (pe && pe->payload) {
        if (!contains(addr, len)) {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (gp.is_write())
            apply(std::uint32_t(addr), *pe->payload);
        else
            snapshot(std::uint32_t(addr), len, *pe->payload);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    // Any TLM-2.0 initiator: the base protocol. The L1 adds no delay.
    plainTlmAccess(
        gp, cfg_.sizeBytes,
        [this](std::uint64_t a, std::uint32_t n, std::uint8_t* out) { readBytes(std::uint32_t(a), n, out); },
        [this](std::uint64_t a, std::uint32_t n, const std::uint8_t* in) { writeBytes(std::uint32_t(a), n, in); });
}

unsigned L1Memory::transportDbg(int /*id*/, tlm::tlm_generic_payload& gp) {
    return debugTlmAccess(
        gp, cfg_.sizeBytes,
        [this](std::uint64_t a, std::uint32_t n, std::uint8_t* out) { readBytes(std::uint32_t(a), n, out); },
        [this](std::uint64_t a, std::uint32_t n, const std::uint8_t* in) { writeBytes(std::uint32_t(a), n, in); });
}

bool L1Memory::getDirectMemPtr(int /*id*/, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    // Read-only, one page at a time, and only where the L1 holds every byte
    // itself: a write must come through the socket to wake its watchers.
    const std::uint64_t addr = gp.get_address();
    if (!cfg_.storePayload || backing_ || addr >= cfg_.sizeBytes) return dmiRefused(dmi, cfg_.sizeBytes);
    dmiPage(dmi, store_.pageOf(addr), addr, store_.pageBytes(), cfg_.sizeBytes);
    dmi.allow_read();
    dmi.set_read_latency(sc_core::SC_ZERO_TIME);
    dmi.set_write_latency(sc_core::SC_ZERO_TIME);
    return true;
}

}  // namespace cclsim
