// Resolved Ethernet parameters (sources in platforms/arch/*.yaml).
#pragma once

#include "models/common/Time.h"

#include <cstdint>

namespace cclsim {

/// Every value is set from the arch YAML's `eth:` section (ArchConfig), the
/// one place they are written; nothing here is a default to fall back on.
struct EthConfig {
    double lineBytesPerNs = 0;    ///< payload-free line rate per direction (line_rate_gbit_s / 8)
    std::uint32_t wordBytes = 0;  ///< address/size unit of eth_send_packet
    std::uint32_t minPacketBytes = 0;
    std::uint32_t maxPacketBytes = 0;       ///< larger payloads are split by the subsystem into frames
    std::uint32_t packetOverheadBytes = 0;  ///< framing bytes per frame on the wire
    Tick latency = 0;                       ///< subsystem + link, last bit out to data in remote L1
    bool storeAndForward = true;            ///< TX and RX MACs buffer whole frames
    unsigned txQueues = 0;
    /// Commands a tx_cmd_q holds that the MAC has not taken (its command
    /// registers): the queue is busy while it holds this many.
    unsigned txQueueDepth = 0;
    /// The MAC's tx FIFO per queue, in wire bytes behind the command being
    /// sent: a queued command is taken once it (and those before it) fit.
    double txFifoBytes = 0;
    /// FEC of the link (bit-error faults): RS(codewordSymbols, dataSymbols) over
    /// `fecSymbolBits`-bit symbols, correcting `fecCorrectableSymbols` per codeword.
    std::uint32_t fecCodewordSymbols = 0;
    std::uint32_t fecDataSymbols = 0;
    std::uint32_t fecSymbolBits = 0;
    std::uint32_t fecCorrectableSymbols = 0;

    /// Ethernet packets (frames) a payload of `bytes` travels in (at least one).
    std::uint32_t frames(std::uint32_t bytes) const {
        const std::uint32_t n = (bytes + maxPacketBytes - 1) / maxPacketBytes;
        return n ? n : 1;
    }

    /// Latency a command adds beyond its serialisation: the link latency plus,
    /// with store-and-forward MACs, filling the first frame before it goes
    /// out and receiving the last frame before it is written to L1.
    Tick deliveryLatency(std::uint32_t bytes) const {
        if (!storeAndForward) return latency;
        const std::uint32_t frames = (bytes + maxPacketBytes - 1) / maxPacketBytes;
        const std::uint32_t first = bytes < maxPacketBytes ? bytes : maxPacketBytes;
        const std::uint32_t last = bytes - (frames ? frames - 1 : 0) * maxPacketBytes;
        const double wire = double(first) + double(last) + 2.0 * packetOverheadBytes;
        return latency + transferTicks(wire, lineBytesPerNs);
    }

    /// Wire time of the last frame of a payload (the receive MAC's
    /// store-and-forward of it, and the minimum spacing of in-order deliveries).
    Tick lastFrameTicks(std::uint32_t bytes) const {
        if (!storeAndForward) return 0;
        const std::uint32_t frames = (bytes + maxPacketBytes - 1) / maxPacketBytes;
        const std::uint32_t last = bytes - (frames ? frames - 1 : 0) * maxPacketBytes;
        return transferTicks(double(last) + packetOverheadBytes, lineBytesPerNs);
    }

    /// Bytes on the wire for a payload of `bytes` (framing overhead per packet).
    double wireBytes(std::uint32_t bytes) const { return double(bytes) + double(frames(bytes)) * packetOverheadBytes; }
};

}  // namespace cclsim
