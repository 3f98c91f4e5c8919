// One NoC of a chip: dimension-order routing on a 2D torus, links as FIFO
// reservation servers.
//
// Wormhole has two NoCs routing in opposite directions: NoC0 goes +x
// (east, wrapping) then +y (south), NoC1 goes -y (north) then -x (west).
// A packet holds each link on its path for its serialisation time (wormhole
// switching); a packet that needs a busy link waits for the first gap long
// enough for it, so two flows through one link share its bandwidth packet by
// packet. A packet books its path when its head enters the NoC (the NIU calls
// reservePacket as the packet starts), so bookings follow the order packets
// reach the links. Packets of different virtual channels of one source port
// do not wait for each other: the port interleaves them chunk by chunk (PE_DMA)
// and the link carries both at once. The
// ejection port at the destination is a link too (many writers into one core
// share it; DRAM and Ethernet endpoints absorb slower than a link). A packet
// whose head waits at a busy link keeps its tail in the routers behind it:
// once those buffers are full its source cannot send the rest, so the packet
// leaves its source late and the NIU's next packet waits (back-pressure).
// Computation is arithmetic on busy intervals: no events.
//
// This is cclsim's default implementation of the interconnect contract
// (models/noc/NocInterconnect.h); the chip builds it for each NoC and hands
// it to a registered NoC model when the arch YAML names one.
#pragma once

#include "models/noc/NocInterconnect.h"

#include <algorithm>
#include <vector>

namespace cclsim {

class Noc final : public NocInterconnect {
public:
    Noc(unsigned id, const NocConfig& cfg);

    unsigned hops(CoreCoord src, CoreCoord dst) const override;
    /// Unloaded latency of a header-only message (acks, read requests).
    Tick unloadedLatency(CoreCoord src, CoreCoord dst) const override {
        return config().startupLatency + Tick(hops(src, dst)) * config().hopLatency;
    }

    /// Reserve the path for one packet of `wireBytes` whose injection spans
    /// [injectStart, injectEnd]; returns the tick its tail reaches `dst`.
    /// `lane` is the source port's class (virtual channel). `sourceFree`
    /// (optional) receives when the packet's tail has left the source: later
    /// than `injectEnd` when the head was blocked on the way for longer than
    /// the routers behind the block can buffer (wormhole back-pressure).
    Tick reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd,
                       unsigned lane = 0, Tick* sourceFree = nullptr) override;

    /// Bytes that crossed the busiest link (utilisation reports).
    double busiestLinkBytes() const override;

private:
    enum Dim { X = 0, Y = 1, Eject = 2 };
    std::size_t linkIndex(unsigned x, unsigned y, Dim d) const { return (std::size_t(y) * config().gridX + x) * 3 + d; }

    struct Busy {
        Tick start, end;
        std::uint32_t source;  ///< injecting endpoint and lane: ((y * gridX + x) << 4) | lane
    };
    /// One link direction's bookings. Intervals of different source ports
    /// never overlap; those of one port may (its lanes interleave).
    /// (One cache line: a packet's booking of a hop reads and writes only
    /// this, and the bookings themselves unless the link is idle.)
    struct alignas(64) Link {
        std::vector<Busy> busy;  ///< sorted by start; [head, end) may still matter
        std::size_t head = 0;
        Tick maxEnd = 0;   ///< latest end of any booking
        Tick maxDur = 0;   ///< longest booking (bounds the scan start)
        double bytes = 0;  ///< wire bytes that crossed it (utilisation)
    };
    /// Start of the first gap of `dur` at or after `earliest` on `l`,
    /// ignoring the other lanes of the same source port; books it. An idle
    /// link (everything booked has ended: about half of the bookings) is
    /// answered inline without reading its bookings.
    Tick book(Link& l, Tick earliest, Tick dur, std::uint32_t source, Tick nowTick) {
        if (l.maxEnd <= std::min(nowTick, earliest)) {
            l.busy.clear();
            l.busy.push_back(Busy{earliest, earliest + dur, source});
            l.head = 0;
            l.maxEnd = earliest + dur;
            l.maxDur = dur;
            return earliest;
        }
        return bookBusy(l, earliest, dur, source, nowTick);
    }
    /// book() on a link with bookings that may still matter.
    Tick bookBusy(Link& l, Tick earliest, Tick dur, std::uint32_t source, Tick nowTick);

    std::vector<Link> links_;
    Tick bufferedTicks_;  ///< a router's buffer at the link rate (back-pressure slack per hop)
};

}  // namespace cclsim
