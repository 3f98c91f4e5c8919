// Resolved Ethernet parameters (sources in platforms/arch/*.yaml).
#pragma once

#include "models/common/Time.h"

#include <cstdint>

namespace cclsim {

struct EthConfig {
    double lineBytesPerNs = 12.5;          ///< 100 Gb/s per direction
    std::uint32_t wordBytes = 16;          ///< address/size unit of eth_send_packet
    std::uint32_t minPacketBytes = 16;
    std::uint32_t maxPacketBytes = 1500;   ///< larger payloads are split by the subsystem
    std::uint32_t packetOverheadBytes = 50;
    Tick latency = 500 * kTicksPerNs;      ///< subsystem + link, first bit out to data in remote L1
    unsigned txQueues = 2;
    unsigned txQueueDepth = 2;             ///< commands a tx_cmd_q holds (incl. the one in flight)

    /// Bytes on the wire for a payload of `bytes` (framing overhead per packet).
    double wireBytes(std::uint32_t bytes) const {
        const std::uint32_t packets = (bytes + maxPacketBytes - 1) / maxPacketBytes;
        return double(bytes) + double(packets ? packets : 1) * packetOverheadBytes;
    }
};

}  // namespace cclsim
