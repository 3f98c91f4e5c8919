// Host side of fabric_traffic: every chip sends `messages` messages to every
// other chip over the fabric (every command kind, plus read requests), one
// sender per chip and first-hop direction; every chip's receiver checks
// each source's messages in order (fabric_bench_args.h's trafficMessage
// gives both ends the same sizes and commands). Receivers come first so
// their read regions have the same L1 address on every chip.
#pragma once

#include "firmware/microbench/fabric_bench_args.h"
#include "host/microbench/FabricBench.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace cclsim::microbench {

struct FabricTrafficParams {
    FabricChoice fabric{"ring", {}};
    unsigned messages = 8;     ///< per (source, destination) pair
    unsigned maxBytes = 2048;  ///< largest message, a multiple of 16
    unsigned reads = 1;        ///< read requests per (source, destination) pair
    unsigned seed = 1;         ///< message size / command seed
    unsigned plane = 0;        ///< routing plane
};

/// What the run moved (counted from the message plan) and how long it took.
struct FabricTrafficResult {
    std::size_t chips = 0;
    std::uint64_t messages = 0;
    std::uint64_t packets = 0;  ///< messages' packets plus a request and a reply per read
    std::uint64_t payloadBytes = 0;
    std::uint64_t reads = 0;
    std::size_t senders = 0;
    unsigned muxes = 0;
    fabric::FabricKind topology = fabric::FabricKind::Ring;
    double timeUs = 0;  ///< to the last kernel's finish
};

class FabricTraffic {
public:
    /// The fabric, a receiver per chip and a sender per chip and direction,
    /// with their regions, kernels and arguments. ConfigError if the fabric
    /// cannot carry the largest message, has no such plane or too many chips.
    void build(Runtime& rt, const FabricTrafficParams& p);
    FabricTrafficResult read(const RunResult& run) const;

private:
    struct Rx {
        unsigned chip = 0;
        CoreCoord core;
        std::uint32_t readSrc = 0;
        std::vector<unsigned> sources;
        std::vector<std::uint32_t> region, counter;
        KernelHandle kernel;
    };
    struct Tx {
        unsigned chip = 0;
        fabric::Dir dir = fabric::Dir::E;
        CoreCoord core;
        fabric::ClientId client;
        std::vector<unsigned> dests;
        std::uint32_t staging = 0, reply = 0, replySem = 0;
        KernelHandle kernel;
    };
    void placeReceivers(Runtime& rt);
    void placeSenders(Runtime& rt);
    void setSenderArgs(Runtime& rt);
    void setReceiverArgs(Runtime& rt);
    FabricTrafficArgs common() const;

    FabricTrafficParams p_;
    std::unique_ptr<fabric::FabricBuilder> fab_;
    std::vector<unsigned> chips_;
    std::vector<Rx> rxs_;
    std::vector<Tx> txs_;
};

}  // namespace cclsim::microbench
