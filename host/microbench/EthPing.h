// Host side of eth_ping: one master and one responder kernel on the two
// Ethernet cores of a user link. The master sends `samples` + 1 pings of
// `packetBytes` (plus the 16 B channel-sync word) and the responder echoes
// each; the master sums the measured round trips and the cycles spent in
// eth_send_packet into four L1 words, which read() turns into the Ethernet
// guide's figures.
#pragma once

#include "host/microbench/LinkEnds.h"
#include "runtime/Runtime.h"

#include <cstdint>

namespace cclsim::microbench {

struct EthPingParams {
    unsigned samples = 10;          ///< measured round trips (one more is sent unmeasured)
    unsigned packetBytes = 16;      ///< payload bytes per ping, a multiple of 16
    unsigned chipA = 0, chipB = 1;  ///< the chips of the link; chipA runs the master
    unsigned link = 0;              ///< which user link between the two chips
};

struct EthPingResult {
    double roundTripNs = 0;  ///< mean over the samples
    double roundTripMinNs = 0, roundTripMaxNs = 0;
    double oneWayNs = 0;     ///< the guide's derivation: (round trip - 2 x ideal send) / 2
    double idealSendNs = 0;  ///< payload + sync word at line rate, framing included
    double sendIssueNs = 0;  ///< mean eth_send_packet call, timer reads included
};

class EthPing {
public:
    /// Buffers on both Ethernet cores (the same layout on each), the master
    /// kernel on chipA's end and the responder on chipB's. ConfigError if the
    /// link does not exist.
    void build(Runtime& rt, const EthPingParams& p);
    /// The master's measured words, after the run.
    EthPingResult read(Runtime& rt) const;
    const LinkEnds& link() const { return ends_; }

private:
    EthPingParams p_;
    LinkEnds ends_{};
    std::uint32_t results_ = 0;  ///< L1 of the master: sum, min, max round trip, sum of issue (cycles)
};

}  // namespace cclsim::microbench
