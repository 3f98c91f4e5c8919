// Watching the NoC packet by packet: a decorator over any interconnect that
// reports each booked packet to an observer, and the built-in NoC model
// "packet_trace" that uses it to write one CSV line per packet.
//
// A packet as the interconnect books it (NocInterconnect.h) is the unit a
// NoC trace wants: who sent how many bytes where, when its head entered the
// NoC and when its tail was absorbed. ObservedNoc forwards every call to the
// interconnect it wraps unchanged (the timing is the wrapped model's, to the
// picosecond) and, after each booking, hands the observer a NocPacket.
//
//   models:
//     noc: {name: packet_trace, params: {file: noc_packets.csv}}
//
// writes, for every chip and both NoCs of the run, one file:
//
//   chip,noc,src,dst,lane,bytes,inject_ns,tail_ns
//   0,0,1-1,9-0,1,4128,1234.000,1410.250
//
// src/dst are NoC coordinates x-y; lane the source port's class (PE_DMA
// virtual channel; the last class of a port carries read responses);
// bytes the wire bytes (payload + header); inject_ns when the head entered
// the NoC; tail_ns when the tail was absorbed at dst. Lines come in booking
// order (the order heads enter the NoC across the whole board).
#pragma once

#include "models/noc/NocInterconnect.h"

#include <functional>
#include <memory>

namespace cclsim {

class ModelRegistry;

/// One booked packet.
struct NocPacket {
    unsigned chip = 0;
    unsigned noc = 0;
    CoreCoord src, dst;
    unsigned lane = 0;
    std::uint32_t wireBytes = 0;  ///< payload + header
    Tick injectStart = 0;         ///< the head enters the NoC
    Tick injectEnd = 0;           ///< the source has put the last byte on the wire
    Tick tail = 0;                ///< the tail is absorbed at dst (reservePacket's result)
    Tick sourceFree = 0;          ///< the tail has left the source (>= injectEnd; back-pressure)
};

/// Forwards everything to `inner` and reports each booked packet to `observer`.
class ObservedNoc final : public NocInterconnect {
public:
    using Observer = std::function<void(const NocPacket&)>;
    ObservedNoc(unsigned chip, std::unique_ptr<NocInterconnect> inner, Observer observer);

    unsigned hops(CoreCoord src, CoreCoord dst) const override { return inner_->hops(src, dst); }
    Tick unloadedLatency(CoreCoord src, CoreCoord dst) const override { return inner_->unloadedLatency(src, dst); }
    Tick reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd,
                       unsigned lane = 0, Tick* sourceFree = nullptr) override;
    double busiestLinkBytes() const override { return inner_->busiestLinkBytes(); }

    NocInterconnect& inner() { return *inner_; }

private:
    unsigned chip_;
    std::unique_ptr<NocInterconnect> inner_;
    Observer observer_;
};

/// Register cclsim's own NoC models ("packet_trace") unless a model of that
/// name is registered already (a user's registration wins). Idempotent.
void registerBuiltinNocModels(ModelRegistry& registry);

/// Write out what the packet traces open in this process have buffered (they
/// are complete at process exit; a top level that reads one back in-process
/// calls this first).
void flushNocPacketTraces();

}  // namespace cclsim
