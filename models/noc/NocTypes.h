// Shared NoC vocabulary: coordinates, NoC addresses, configuration.
#pragma once

#include "models/common/Time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim {

struct CoreCoord {
    std::uint8_t x = 0;
    std::uint8_t y = 0;
    bool operator==(const CoreCoord& o) const { return x == o.x && y == o.y; }
    bool operator!=(const CoreCoord& o) const { return !(*this == o); }
    bool operator<(const CoreCoord& o) const { return y != o.y ? y < o.y : x < o.x; }
    std::string str() const { return std::to_string(x) + "-" + std::to_string(y); }
};

/// NoC address encoding of Wormhole: bits [35:0] local address, [41:36] x, [47:42] y.
namespace nocaddr {
constexpr unsigned kLocalBits = 36;
constexpr unsigned kCoordBits = 6;
constexpr std::uint64_t kLocalMask = (std::uint64_t{1} << kLocalBits) - 1;
inline std::uint64_t encode(unsigned x, unsigned y, std::uint64_t local) {
    return (std::uint64_t(y) << (kLocalBits + kCoordBits)) | (std::uint64_t(x) << kLocalBits) | (local & kLocalMask);
}
inline CoreCoord coord(std::uint64_t a) {
    return CoreCoord{std::uint8_t((a >> kLocalBits) & 0x3f), std::uint8_t((a >> (kLocalBits + kCoordBits)) & 0x3f)};
}
inline std::uint64_t local(std::uint64_t a) {
    return a & kLocalMask;
}
}  // namespace nocaddr

/// Resolved NoC timing parameters (see platforms/arch/*.yaml for the sources).
struct NocConfig {
    unsigned gridX = 10;
    unsigned gridY = 12;
    double linkBytesPerNs = 32.0;  ///< per link and direction
    Tick hopLatency = 10 * kTicksPerNs;
    Tick startupLatency = 30 * kTicksPerNs;  ///< NIU to first router and ejection
    std::uint32_t maxPacketBytes = 8192;     ///< NoC burst: a packet holds a link while it passes
    std::uint32_t headerBytes = 32;          ///< one header flit per packet
    /// Bytes of a packet the routers of one hop can park while its head is
    /// blocked further on (wormhole flow control): a blocked packet holds its
    /// source until the rest of it fits into the buffers behind the block.
    std::uint32_t routerBufferBytes = 256;
    /// NIU command buffer (per kernel and NoC): after accepting a command it is
    /// busy this long before noc_cmd_buf_ready; the core spins until then.
    Tick cmdBufBusy = 0;
    /// Packets a kernel may have accepted by its NIU that have not yet left
    /// the source (the NIU request queue); when full the core stalls at issue.
    std::uint32_t cmdQueueDepth = 0;  ///< 0: unbounded
    /// Per grid cell (y * gridX + x): the rate its ejection port absorbs
    /// (empty or 0: the link rate), and the interval at which its endpoint
    /// accepts read requests on this NoC (0: no limit; DRAM endpoints).
    std::vector<double> absorbBytesPerNs;
    std::vector<Tick> requestAccept;
    double absorbRate(unsigned x, unsigned y) const {
        const std::size_t i = std::size_t(y) * gridX + x;
        return i < absorbBytesPerNs.size() && absorbBytesPerNs[i] > 0 ? absorbBytesPerNs[i] : linkBytesPerNs;
    }
    Tick requestInterval(unsigned x, unsigned y) const {
        const std::size_t i = std::size_t(y) * gridX + x;
        return i < requestAccept.size() ? requestAccept[i] : 0;
    }
};

}  // namespace cclsim
