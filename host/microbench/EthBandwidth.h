// Host side of eth_bandwidth: the same kernel on both Ethernet cores of a
// user link, each with C channels of one tx and one rx buffer per direction.
// Each kernel stamps the cycle of its first send and of its last receive;
// read() takes the earliest start and the latest end of the two cores and
// compares the payload bandwidth per direction with the line rate and with
// the framing-limited maximum 12.5 GB/s x P/(P + 50*ceil(P/1500)).
#pragma once

#include "host/microbench/LinkEnds.h"
#include "runtime/Runtime.h"

#include <cstdint>

namespace cclsim::microbench {

struct EthBandwidthParams {
    unsigned packetBytes = 4096;        ///< payload bytes per packet, a multiple of 16
    unsigned channels = 8;              ///< per direction; 0: as many as the kernel region holds, at most maxChannels
    unsigned maxChannels = 30;          ///< cap of channels = 0
    double bytes = 16.0 * 1024 * 1024;  ///< payload to move per direction (rounded up to whole packets)
    bool unidir = false;                ///< only chipA sends
    unsigned creditTxq = 0;             ///< tx_cmd_q of the buffer credits (0 shares it with data)
    unsigned chipA = 0, chipB = 1;
    unsigned link = 0;  ///< which user link between the two chips
};

struct EthBandwidthResult {
    double payloadGBps = 0;  ///< per direction
    double lineRateGBps = 0;
    double framingLimitGBps = 0;  ///< line rate x P / wire bytes of P
    double bytesPerDirection = 0;
    double measuredNs = 0;  ///< earliest first send to latest last receive
};

class EthBandwidth {
public:
    /// Buffers and the kernel on both cores. ConfigError if the link does
    /// not exist or the channels' buffers do not fit the kernel region.
    void build(Runtime& rt, const EthBandwidthParams& p);
    /// The two cores' timestamps, after the run.
    EthBandwidthResult read(Runtime& rt) const;

    const LinkEnds& link() const { return ends_; }
    unsigned channelsUsed() const { return used_; }
    std::uint32_t packetsPerChannel() const { return perChannel_; }

private:
    EthBandwidthParams p_;
    LinkEnds ends_{};
    unsigned used_ = 0;
    std::uint32_t perChannel_ = 0;
    std::uint32_t resA_ = 0, resB_ = 0;  ///< L1: start and end timestamps (two words each)
};

}  // namespace cclsim::microbench
