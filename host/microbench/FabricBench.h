// What the fabric microbenchmarks (fabric_ping, fabric_bandwidth,
// fabric_traffic) share on the host: the fabric they ask for, the chips
// along one route out of the source, and the command of a benchmark packet.
#pragma once

#include "host/fabric/FabricBuilder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim::microbench {

/// The fabric a benchmark builds: a line or ring over `order` (default: the
/// board's ring order) or the board's mesh or torus (FabricRouting.h's
/// topologyFromOptions).
struct FabricChoice {
    std::string kind = "line";  ///< line, ring, mesh or torus
    std::vector<unsigned> order;
};

/// The command a benchmark packet carries to its destination core.
enum class BenchCommand : std::uint32_t {
    Write = 0,          ///< unicast write (the receiver polls the data)
    FusedWriteInc = 1,  ///< unicast write + semaphore increment in one packet
    AtomicInc = 2,      ///< semaphore increment only
    ScatterWrite = 3,   ///< unicast scatter write: the payload's halves to two addresses (one after the other)
};

/// Chips at 1, 2, ... hops from `src` whose routes all leave the same way
/// (one connection serves them all), nearest first; at most `maxHops`.
std::vector<unsigned> targetsAlongRoute(const fabric::FabricBuilder& fab, unsigned src, unsigned maxHops);

/// The source chip: `src`, or the fabric's first chip when `src` < 0;
/// ConfigError if the chip is not part of the fabric.
unsigned sourceChip(const fabric::FabricTopology& t, int src);

/// `h` with `cmd` to core `dst`: data to L1 `rx`, increments to L1 `sem`.
/// `flush`: a fused write + increment's flush flag (tt-metal's header
/// default is true; its latency and 1D bandwidth tests pass false). An
/// increment alone always flushes, as tt-metal's latency test sends it.
fabric::PacketHeader benchCommand(fabric::PacketHeader h, BenchCommand cmd, CoreCoord dst, std::uint32_t rx,
                                  std::uint32_t sem, std::uint32_t payload, bool flush = false);

/// A kernel's 64-bit timer stamp (low word at `addr`, high word after it,
/// in `core`'s L1 on `chip`), in ns.
double stampNs(Runtime& rt, unsigned chip, CoreCoord core, std::uint32_t addr);

/// One link direction's payload limit for fabric packets of `payload` bytes
/// behind a `headerBytes` header: 12.5 GB/s x P / (P + H + 50 x frames),
/// the payload padded to 16 B words on the wire.
double fabricFramingLimitGBps(const EthConfig& e, std::uint32_t headerBytes, std::uint32_t payload);

}  // namespace cclsim::microbench
