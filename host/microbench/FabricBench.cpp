#include "host/microbench/FabricBench.h"

#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <cmath>

namespace cclsim::microbench {

using namespace cclsim::fabric;

std::vector<unsigned> targetsAlongRoute(const FabricBuilder& fab, unsigned src, unsigned maxHops) {
    std::vector<unsigned> chips = fab.topology().chips();
    std::vector<unsigned> out;
    Dir first = Dir::E;
    for (unsigned k = 1; k <= maxHops; ++k) {
        for (unsigned c : chips) {
            if (c == src) continue;
            const Route r = fab.route(src, c);
            if (r.size() != k || (!out.empty() && r.first() != first)) continue;
            if (out.empty()) first = r.first();
            out.push_back(c);
            break;
        }
        if (out.size() != k) break;
    }
    return out;
}

unsigned sourceChip(const FabricTopology& t, int src) {
    if (src < 0) return t.chips().front();
    if (!t.contains(unsigned(src))) throw ConfigError(fmt::format("--src {}: chip is not part of the fabric", src));
    return unsigned(src);
}

PacketHeader benchCommand(PacketHeader h, BenchCommand cmd, CoreCoord dst, std::uint32_t rx, std::uint32_t sem,
                          std::uint32_t payload, bool flush) {
    const std::uint64_t data = nocaddr::encode(dst.x, dst.y, rx);
    const std::uint64_t s = nocaddr::encode(dst.x, dst.y, sem);
    if (cmd == BenchCommand::Write) return h.to_noc_unicast_write(data, payload);
    if (cmd == BenchCommand::FusedWriteInc) return h.to_noc_fused_unicast_write_atomic_inc(data, s, 1, payload, flush);
    if (cmd == BenchCommand::ScatterWrite) {
        // Two chunks, the first half (whole 16 B words) and the rest, each
        // written by its own NoC command at the destination router.
        const std::uint32_t first = std::max<std::uint32_t>(16, payload / 2 / 16 * 16);
        return h.to_noc_unicast_scatter_write(data, nocaddr::encode(dst.x, dst.y, rx + first), first, payload);
    }
    return h.to_noc_unicast_atomic_inc(s, 1);
}

double stampNs(Runtime& rt, unsigned chip, CoreCoord core, std::uint32_t addr) {
    const double cycleNs = ticksToNs(rt.platform().descriptor().arch.cycles(1));
    const std::uint64_t t = (std::uint64_t(rt.readL1({chip, core}, addr + 4)) << 32) | rt.readL1({chip, core}, addr);
    return double(t) * cycleNs;
}

double fabricFramingLimitGBps(const EthConfig& e, std::uint32_t headerBytes, std::uint32_t payload) {
    const double wire = double(headerBytes + (payload + 15) / 16 * 16);
    return e.lineBytesPerNs * payload / (wire + e.packetOverheadBytes * std::ceil(wire / e.maxPacketBytes));
}

}  // namespace cclsim::microbench
