// One DRAM controller (a Wormhole GDDR6 group of two 1 GB channels, or an HBM
// channel) behind its NoC endpoints.
//
// A TLM-2.0 target: every NoC endpoint of the controller binds its NIU here.
// It stores real bytes sparsely (2 GB cost only the pages written). Each bank
// (a 1 GB GDDR6 channel; an HBM channel's pseudo-channels, interleaved by
// address) is a FIFO server: an access starts when its bank is free,
// occupies it for bytes / bandwidth, and completes `latency` later; every
// refresh interval the bank stops for a refresh (an access waits it out). The
// access arrives at now + the annotated delay, and the completion is returned
// as the TLM delay annotation (loosely-timed style), so the NIU acks a write or
// injects a read response when the DRAM is done; contention between the
// endpoints and the cores that share the channel is the queueing.
// Any TLM-2.0 initiator may use the socket: the base protocol
// (models/memory/TlmAccess.h), transport_dbg, and read/write DMI in data mode.
#pragma once

#include "models/common/Payload.h"
#include "models/common/Time.h"
#include "models/common/Trace.h"
#include "models/memory/SparseStore.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <vector>

namespace cclsim {

/// Set from the arch YAML's `dram:` or `sram:` section (ArchConfig), the one
/// place the values are written; nothing here is a default to fall back on.
struct DramChannelConfig {
    std::uint64_t bankBytes = 0;
    unsigned banks = 0;                 ///< banks behind this controller (each its own server)
    unsigned pseudoChannels = 0;        ///< servers per bank, interleaved by address
    std::uint32_t interleaveBytes = 0;  ///< pseudo-channel interleave granularity
    double bytesPerNs = 0;              ///< per server (bank bandwidth / pseudo-channels)
    Tick readLatency = 0;
    Tick writeLatency = 0;
    /// Refresh: every `refreshInterval` each server is unavailable for
    /// `refreshTicks` (0: never); an access that meets a refresh waits it out.
    Tick refreshInterval = 0;
    Tick refreshTicks = 0;
    bool storePayload = true;
};

struct DramStats {
    std::uint64_t reads = 0, writes = 0;
    double readBytes = 0, writeBytes = 0;
};

class DramChannel : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<DramChannel> socket{"socket"};

    DramChannel(const sc_core::sc_module_name& name, const DramChannelConfig& cfg);
    DramChannel(const DramChannel&) = delete;
    DramChannel& operator=(const DramChannel&) = delete;

    /// Host access (zero time): load inputs, read outputs back.
    void hostWrite(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in);
    void hostRead(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) const;

    std::uint64_t size() const { return cfg_.bankBytes * cfg_.banks; }
    std::uint64_t bytesAllocated() const { return store_.bytesAllocated(); }
    const DramStats& stats() const { return stats_; }
    const DramChannelConfig& config() const { return cfg_; }
    void trace(TraceFile& tf);

private:
    void landPayload(std::uint64_t addr, const Payload& p);
    void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    unsigned transportDbg(int id, tlm::tlm_generic_payload& gp);
    bool getDirectMemPtr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
    /// Occupy the pseudo-channel(s) for an access arriving at `arrival`;
    /// returns its completion tick.
    Tick serve(std::uint64_t addr, std::uint32_t bytes, Tick latency, Tick arrival);

    DramChannelConfig cfg_;
    SparseStore store_;
    std::vector<Tick> freeAt_;  ///< per server: bank * pseudoChannels + pseudo-channel
    DramStats stats_;
    TraceSignal busyUntilNs_{32};
};

}  // namespace cclsim
