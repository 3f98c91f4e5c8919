// A core's L1 SRAM: real bytes, semaphore words, and write watchers.
//
// Watchers are called once per watched range a write overlaps, with that
// range's start, so a kernel knows which of its words changed.
//
// The L1 is a TLM-2.0 target (the NoC and the Ethernet subsystem write into it
// through `socket`) and offers direct word access to the firmware running on
// its own core. Kernels that spin on a word register a MemoryWatcher for it;
// any write that overlaps a watched word calls the watcher, which is how a
// `noc_semaphore_wait` wakes exactly when the semaphore changes instead of
// spinning in wall-clock time.
//
// The socket speaks the TLM-2.0 base protocol to any initiator (see
// models/memory/TlmAccess.h: byte enables, streaming width, error
// responses), adds no delay (an L1 access's time is in the NoC and Ethernet
// models), answers transport_dbg, and grants read-only DMI in data mode
// (writes must go through the socket: they wake watchers). cclsim's own
// initiators use two extensions: a Payload in place of the data pointer, and
// an atomic increment (models/common/Payload.h).
//
// In data mode an L1 remembers, for each range that landed as slices of shared
// pages (a DRAM read by reference, models/common/Payload.h), which slice it
// holds, until a write overwrites part of it; snapshot() sends those ranges on
// by reference and copies only the rest.
//
// The bytes themselves live in a SparseStore, or in a foreign model's
// memory (setBacking: a plug-in L1, models/plugin/ForeignTarget.h) reached
// through transport_dbg; watchers, control ranges and bounds stay here.
//
// In timing mode (storePayload == false) bulk transfers keep only the bytes
// that overlap control ranges: semaphores and channel-sync words registered
// by the host runtime and the firmware builders, and every word firmware
// stores with a word access (those become control words).
#pragma once

#include "models/common/Payload.h"
#include "models/memory/SparseStore.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim {

class ForeignTarget;

class MemoryWatcher {
public:
    virtual ~MemoryWatcher() = default;
    /// A write overlapped the watched range starting at `watchedAddr`.
    virtual void onWatchedWrite(std::uint32_t watchedAddr) = 0;
};

struct L1Config {
    std::uint64_t sizeBytes = std::uint64_t(1536) * 1024;
    bool storePayload = true;
};

class L1Memory : public sc_core::sc_module {
public:
    /// Any number of initiators (both NIUs, the Ethernet subsystem) bind here.
    tlm_utils::multi_passthrough_target_socket<L1Memory> socket{"socket"};

    L1Memory(const sc_core::sc_module_name& name, const L1Config& cfg);
    L1Memory(const L1Memory&) = delete;
    L1Memory& operator=(const L1Memory&) = delete;

    std::uint32_t readU32(std::uint32_t addr) const {
        // The status reads of every spin loop come here: the common case inline.
        if (!backing_ && contains(addr, 4)) return store_.readWord(addr);
        return readU32Checked(addr);
    }
    void writeU32(std::uint32_t addr, std::uint32_t value);
    std::uint32_t atomicAdd(std::uint32_t addr, std::uint32_t addend);
    /// Store `n` consecutive words (kept in every mode, one watcher notification).
    void writeWords(std::uint32_t addr, const std::uint32_t* words, std::uint32_t n);

    /// Raw byte access for the owning core and for testbenches.
    void readBytes(std::uint32_t addr, std::uint32_t n, std::uint8_t* out) const;
    void writeBytes(std::uint32_t addr, std::uint32_t n, const std::uint8_t* in);

    /// Capture what a transfer of [addr, addr+n) carries (see Payload).
    void snapshot(std::uint32_t addr, std::uint32_t n, Payload& out) const;
    void apply(std::uint32_t addr, const Payload& p);

    void markControl(std::uint32_t addr, std::uint32_t n);
    bool isControl(std::uint32_t addr, std::uint32_t n) const;

    void watch(std::uint32_t addr, std::uint32_t n, MemoryWatcher* w);
    void unwatch(std::uint32_t addr, std::uint32_t n, MemoryWatcher* w);
    void unwatchAll(MemoryWatcher* w);

    /// Keep the bytes in a foreign model instead (before the simulation).
    void setBacking(ForeignTarget* f);
    ForeignTarget* backing() const { return backing_; }

    bool contains(std::uint64_t addr, std::uint64_t n) const {
        return addr + n <= cfg_.sizeBytes && n <= cfg_.sizeBytes;
    }
    std::uint64_t size() const { return cfg_.sizeBytes; }
    bool storesPayload() const { return cfg_.storePayload; }
    std::uint64_t bytesAllocated() const { return store_.bytesAllocated(); }

private:
    struct Range {
        std::uint32_t lo, hi;
    };
    struct Watch {
        std::uint32_t lo, hi;
        MemoryWatcher* w;
    };
    /// [lo, hi) still holds, byte for byte, the page slice that landed there.
    struct Origin {
        std::uint32_t lo, hi;
        SharedPage page;
        std::uint32_t pageOffset;
    };

    void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    unsigned transportDbg(int id, tlm::tlm_generic_payload& gp);
    bool getDirectMemPtr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
    void storeRead(std::uint32_t addr, std::uint32_t n, std::uint8_t* out) const;
    void storeWrite(std::uint32_t addr, std::uint32_t n, const std::uint8_t* in);
    /// A write landed: forget the origins it overwrote, wake its watchers.
    void notifyWrite(std::uint32_t addr, std::uint32_t n);
    void wakeWatchers(std::uint32_t addr, std::uint32_t n);
    void dropOrigins(std::uint32_t addr, std::uint32_t n);
    void keepWord(std::uint32_t addr, std::uint32_t n);
    void checkRange(std::uint64_t addr, std::uint64_t n, const char* what) const;
    /// readU32 outside L1 (an error) or from a foreign model.
    std::uint32_t readU32Checked(std::uint32_t addr) const;
    template <class F> void forEachControl(std::uint32_t addr, std::uint32_t n, F&& f) const;

    L1Config cfg_;
    SparseStore store_;
    std::vector<Range> control_;   // sorted, non-overlapping
    std::vector<Watch> watches_;   // sorted by lo
    std::vector<Origin> origins_;  // sorted, disjoint (data mode)
    std::uint32_t maxWatchLen_ = 0;
    ForeignTarget* backing_ = nullptr;
};

}  // namespace cclsim
