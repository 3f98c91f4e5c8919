// One NoC of a chip: dimension-order routing on a 2D torus, links as FIFO
// reservation servers.
//
// Wormhole has two NoCs routing in opposite directions: NoC0 goes +x
// (east, wrapping) then +y (south), NoC1 goes -y (north) then -x (west).
// A packet holds each link on its path for its serialisation time (wormhole
// switching); the next packet that needs the link starts when it is free, so
// two flows through one link share its bandwidth packet by packet. The
// ejection port at the destination is a link too (many writers into one core
// share it). Computation is arithmetic on "free at" ticks: no events.
#pragma once

#include "models/noc/NocTypes.h"

#include <vector>

namespace cclsim {

class Noc {
public:
    Noc(unsigned id, const NocConfig& cfg);

    unsigned id() const { return id_; }
    const NocConfig& config() const { return cfg_; }

    unsigned hops(CoreCoord src, CoreCoord dst) const;
    /// Unloaded latency of a header-only message (acks, read requests).
    Tick unloadedLatency(CoreCoord src, CoreCoord dst) const {
        return cfg_.startupLatency + Tick(hops(src, dst)) * cfg_.hopLatency;
    }

    /// Reserve the path for one packet of `wireBytes` whose injection spans
    /// [injectStart, injectEnd]; returns the tick its tail reaches `dst`.
    Tick reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd);

    /// Bytes that crossed the busiest link (utilisation reports).
    double busiestLinkBytes() const;

private:
    enum Dim { X = 0, Y = 1, Eject = 2 };
    std::size_t linkIndex(unsigned x, unsigned y, Dim d) const { return (std::size_t(y) * cfg_.gridX + x) * 3 + d; }

    unsigned id_;
    NocConfig cfg_;
    std::vector<Tick> freeAt_;
    std::vector<double> bytes_;
};

}  // namespace cclsim
