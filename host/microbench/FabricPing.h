// Host side of fabric_ping: one sender pings responders at 1, 2, ... H hops
// along the fabric in turn (tt-metal's fabric latency test: the responder
// echoes a packet of the same shape). Per hop latency is half the slope of
// the round trip against the hop count (least squares), so fixed costs at
// both ends drop out; a single distance gives round trip / (2 x hops).
#pragma once

#include "host/microbench/FabricBench.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace cclsim::microbench {

struct FabricPingParams {
    FabricChoice fabric;
    int src = -1;               ///< source chip (-1: the fabric's first chip)
    unsigned hops = 0;          ///< farthest responder (0: as far as the fabric reaches in one direction)
    unsigned packetBytes = 16;  ///< payload bytes per packet (>= 16 for Write: the sequence word)
    BenchCommand mode = BenchCommand::Write;
    unsigned samples = 20;  ///< measured round trips per distance
    unsigned plane = 0;     ///< routing plane
};

struct FabricPingResult {
    struct Distance {
        unsigned hops = 0;
        unsigned chip = 0;  ///< the responder
        double roundTripNs = 0, roundTripMinNs = 0, roundTripMaxNs = 0;
    };
    std::vector<Distance> byHops;  ///< nearest first
    double perHopNs = 0;
    bool fitted = false;  ///< perHopNs is half the least-squares slope (two or more distances)
    std::uint32_t headerBytes = 0, senderSlots = 0, receiverSlots = 0;
    unsigned planes = 0;
    fabric::FabricKind topology = fabric::FabricKind::Line;
};

class FabricPing {
public:
    /// The fabric, the sender and one responder per distance, with their
    /// buffers, kernels and arguments. ConfigError if the fabric cannot
    /// carry the packet, has no such plane or does not reach `hops`.
    void build(Runtime& rt, const FabricPingParams& p);
    /// The sender's round trips per distance, after the run.
    FabricPingResult read(Runtime& rt) const;
    unsigned srcChip() const { return srcChip_; }

private:
    /// One kernel's core, fabric client and L1.
    struct Core {
        unsigned chip;
        CoreCoord core;
        fabric::ClientId client;
        std::uint32_t tx, rx, sem, results;
    };
    std::vector<Core> placeCores(Runtime& rt, fabric::Dir out);
    void setArgs(Runtime& rt, const std::vector<Core>& cores, const std::vector<KernelHandle>& ks);

    FabricPingParams p_;
    std::unique_ptr<fabric::FabricBuilder> fab_;
    unsigned srcChip_ = 0;
    std::vector<unsigned> targets_;  ///< responders, nearest first
    CoreCoord sender_;
    std::uint32_t results_ = 0;  ///< sender's L1: sum, min, max round trip per target (cycles)
};

}  // namespace cclsim::microbench
