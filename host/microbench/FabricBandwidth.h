// Host side of fabric_bandwidth: W workers on one chip stream fused write +
// increment packets to W workers on a chip H hops away, one routing plane
// per worker (round-robin). Each sender stamps its first send, each receiver
// its last increment; read() takes the earliest and the latest and compares
// the payload bandwidth with the link's framing limit
// 12.5 GB/s x P / (P + header + 50 x ceil((P + header) / 1500)) per plane.
#pragma once

#include "host/microbench/FabricBench.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace cclsim::microbench {

struct FabricBandwidthParams {
    FabricChoice fabric;
    int src = -1;                      ///< source chip (-1: the fabric's first chip)
    unsigned hops = 1;                 ///< distance of the receiving chip
    unsigned packetBytes = 0;          ///< payload per packet (0: the fabric's largest)
    unsigned workers = 1;              ///< sending workers, each with its own receiver
    unsigned planes = 1;               ///< routing planes the workers spread over (0: all)
    double bytes = 4.0 * 1024 * 1024;  ///< payload per worker (rounded up to whole packets)
};

struct FabricBandwidthResult {
    double payloadGBps = 0;       ///< all workers together
    double framingLimitGBps = 0;  ///< over the planes used
    double lineRateGBps = 0;      ///< line rate x planes used
    double timeNs = 0;            ///< earliest first send to the latest last arrival
    std::uint32_t headerBytes = 0;
    bool viaMux = false;  ///< the workers reach the routers through fabric muxes
    fabric::FabricKind topology = fabric::FabricKind::Line;
};

class FabricBandwidth {
public:
    /// The fabric and every sender / receiver pair with its buffers, kernels
    /// and arguments. ConfigError if the fabric cannot carry the packet, has
    /// fewer planes or does not reach `hops`.
    void build(Runtime& rt, const FabricBandwidthParams& p);
    /// The pairs' timestamps, after the run.
    FabricBandwidthResult read(Runtime& rt) const;

    unsigned packetBytes() const { return packetUsed_; }  ///< the payload build() used
    unsigned planesUsed() const { return planesUsed_; }
    std::uint32_t packets() const { return packets_; }  ///< per worker
    unsigned srcChip() const { return srcChip_; }
    unsigned dstChip() const { return dstChip_; }

private:
    struct Pair {
        unsigned plane = 0;
        CoreCoord sender, receiver;
        fabric::ClientId client;
        std::uint32_t srcBuf = 0, srcRes = 0, dstBuf = 0, dstSem = 0, dstRes = 0;
        KernelHandle ks, kr;
    };
    void resolve(const FabricBandwidthParams& p);
    void placePairs(Runtime& rt, fabric::Dir out, fabric::Dir back);
    void setArgs(Runtime& rt);

    FabricBandwidthParams p_;
    std::unique_ptr<fabric::FabricBuilder> fab_;
    unsigned packetUsed_ = 0, planesUsed_ = 1;
    unsigned srcChip_ = 0, dstChip_ = 0;
    std::uint32_t packets_ = 0;
    std::vector<Pair> pairs_;
};

}  // namespace cclsim::microbench
