// Host side of ring_ping: the Ethernet guide's walkthrough host program. It
// picks a chip order, an Ethernet link per hop (a revisited chip pair uses
// its next link, as in the guide's build_eth_sockets_list), places a
// Receiver and a Sender per hop, and reads back the master's round trips.
//
// Ring position i runs a Receiver on the Ethernet core where hop i-1 lands
// and a Sender on the core where hop i leaves; when both are the same core
// one combined kernel does both. Position 0's Receiver is the master: it
// starts each round and times it.
#pragma once

#include "host/microbench/LinkEnds.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <vector>

namespace cclsim::microbench {

struct RingPingParams {
    unsigned hops = 2;            ///< ring length in Ethernet hops
    unsigned packetBytes = 16;    ///< payload bytes per packet, a multiple of 16
    bool separateSync = false;    ///< the channel-sync word as its own packet (the guide's older form)
    unsigned channels = 1;        ///< packets in flight around the ring
    unsigned samples = 10;        ///< measured round trips (one more is sent unmeasured)
    std::vector<unsigned> order;  ///< chip order of the ring (empty: the board's order for `hops`)
    std::vector<unsigned> links;  ///< per hop, which user link it takes (empty: n-th visit, n-th link)
};

struct RingPingResult {
    double roundTripNs = 0;  ///< mean over the samples
    double perHopNs = 0;     ///< round trip / hops
    double roundTripMinNs = 0, roundTripMaxNs = 0;
};

class RingPing {
public:
    /// Links, buffers, semaphores and kernels of every ring position.
    /// ConfigError on an order or link choice the board cannot run.
    void build(Runtime& rt, const RingPingParams& p);
    /// The master's measured words, after the run.
    RingPingResult read(Runtime& rt) const;

    /// The chip order build() used.
    const std::vector<unsigned>& order() const { return order_; }
    /// Hop i's link: A = the sending chip order[i], B = order[i + 1].
    std::vector<LinkEnds> hops() const;

private:
    struct Hop {
        LinkEnds link;
        const LinkDesc* desc;
        unsigned chanBase = 0;  ///< erisc_info channels used on this hop (separate sync)
    };
    /// Per ring position: the Receiver core (end of the previous hop) and the Sender core.
    struct Pos {
        unsigned chip;
        CoreCoord rx, tx;
        bool combined;
        std::uint32_t rxBase = 0, ack = 0, results = 0, txBase = 0, semBase = 0;
    };

    std::vector<unsigned> defaultOrder(const ClusterDescriptor& d) const;
    void planHops(const ClusterDescriptor& d);
    std::vector<Pos> placePositions(Runtime& rt);
    std::vector<std::uint32_t> argsFor(const std::vector<Pos>& pos, unsigned i, bool rxRole, bool txRole,
                                       std::uint32_t handshake) const;
    void createKernels(Runtime& rt, const std::vector<Pos>& pos);

    RingPingParams p_;
    std::vector<unsigned> order_;
    std::vector<Hop> hops_;
    CoreRef master_{};
    std::uint32_t results_ = 0;
};

}  // namespace cclsim::microbench
