// Host side of fabric_ubench: the traffic patterns of tt-metal's fabric
// bandwidth microbenchmark (tests/tt_metal/tt_metal/perf_microbenchmark/
// routing, test_fabric_sanity_t3k_ubench.yaml), on a 1D fabric, and its
// figure of merit.
//
// Every chip of the pattern sends flows: a flow is a direction and a reach
// (hops), multicast (every chip along it writes) or unicast (the last one
// does). A chip's flows share one sender core, which sends one packet per
// flow in turn (tt-metal's test sender with several traffic configs); each
// flow's receivers sit on the same core of every chip (a multicast writes
// one address everywhere) and wait for the flow's last packet, a fused
// write + increment (tt-metal's ntype unicast_write), or every packet is one
// and they count them all (fused_atomic_inc).
//
//   pattern                 chip at position i of n (E: up the order)
//   unidirectional_linear   line: E n-1-i hops if i < n/2, else W i hops
//   all_to_all              line: E n-1-i and W i hops (those > 0)
//   one_to_all              line, first chip only: unicasts E to 1 .. n-1 hops
//   full_ring               ring: E n-1 and W n-1 hops
//   half_ring               ring: E ceil((n-1)/2) and W floor((n-1)/2) hops,
//                           swapped at even positions
//
// Figure (tt-metal's BandwidthProfiler): M = the most flows that cross one
// link direction; bandwidth = payload x packets x M / time, where time runs
// from the first sender's start to the last receiver's increment. It is the
// rate of the busiest link direction in payload bytes.
#pragma once

#include "host/microbench/FabricBench.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cclsim::microbench {

/// The pattern names, in the order `--pattern` lists them.
const std::vector<std::string>& fabricUbenchPatterns();

struct FabricUbenchParams {
    FabricChoice fabric;  ///< empty kind: line for the line patterns, ring for the ring ones
    std::string pattern = "unidirectional_linear";
    std::string ftype;                 ///< "mcast", "unicast" or empty: the pattern's tt-metal default
    bool fused = false;                ///< every packet a fused write + increment (ntype fused_atomic_inc)
    bool scatter = false;              ///< packets before a flow's last a two-chunk scatter write (scatter_write)
    unsigned packetBytes = 4096;       ///< payload per packet (tt-metal's test: 4096)
    double bytes = 1.0 * 1024 * 1024;  ///< payload per flow (rounded up to whole packets)
};

struct FabricUbenchFlow {
    unsigned src = 0;
    fabric::Dir dir = fabric::Dir::E;
    unsigned hops = 0;
    std::vector<unsigned> chips;  ///< the chips it passes, in order (the last is the farthest)
};

struct FabricUbenchResult {
    double payloadGBps = 0;  ///< the busiest link direction, tt-metal's formula
    double perFlowGBps = 0;  ///< one flow's payload rate
    double framingLimitGBps = 0;
    unsigned maxFlowsPerLink = 0;  ///< M
    double timeNs = 0;
    std::uint32_t headerBytes = 0;
};

class FabricUbench {
public:
    /// ConfigError if the pattern does not fit the fabric (a ring pattern on
    /// a line, a payload larger than the fabric's).
    void build(Runtime& rt, const FabricUbenchParams& p);
    FabricUbenchResult read(Runtime& rt) const;

    const std::vector<FabricUbenchFlow>& flows() const { return flows_; }
    std::uint32_t packets() const { return packets_; }  ///< per flow
    bool multicast() const { return mcast_; }
    fabric::FabricKind topology() const;

    /// The flows of `pattern` over a 1D fabric `topo` (pure: testable without a run).
    static std::vector<FabricUbenchFlow> planFlows(const fabric::FabricTopology& topo, const std::string& pattern);
    /// M: the most flows crossing one link direction.
    static unsigned maxFlowsPerLink(const std::vector<FabricUbenchFlow>& flows);

private:
    struct Sender {
        unsigned chip = 0;
        CoreCoord core;
        std::vector<std::size_t> flows;
        std::vector<fabric::ClientId> clients;  ///< one per direction it sends in
        std::vector<fabric::Dir> dirs;
        std::uint32_t buf = 0, res = 0;
        KernelHandle kernel;
    };
    struct Receiver {
        std::size_t flow = 0;
        unsigned chip = 0;
        std::uint32_t res = 0;
        KernelHandle kernel;
    };

    FabricUbenchParams p_;
    std::unique_ptr<fabric::FabricBuilder> fab_;
    std::vector<FabricUbenchFlow> flows_;
    std::vector<CoreCoord> flowCore_;  ///< the receiving core of each flow (the same on every chip)
    std::vector<std::uint32_t> flowBuf_, flowSem_;
    std::vector<Sender> senders_;
    std::vector<Receiver> receivers_;
    std::uint32_t packets_ = 0;
    bool mcast_ = true;
};

}  // namespace cclsim::microbench
