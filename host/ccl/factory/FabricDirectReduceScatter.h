// The direct (one-shot) reduce-scatter on a ring, tt-metal's
// reduce_scatter_minimal_direct (ttnn.reduce_scatter dispatches to it on a
// ring up to 512 KiB of input per chip, and all_reduce's reduce-scatter
// with it): one worker core per link on every chip, whose writer owns both
// of the link's fabric connections and unicasts input block q straight to
// rank q (firmware/ccl/direct_rs_kernels.cpp). It sends about 2.3x the
// ring's link bytes on an 8-ring for one fabric traversal instead of n - 1
// store-and-forward steps: a latency path, which tt-metal measured to win
// below its 512 KiB gate and to lose above it.
#pragma once

#include "host/ccl/factory/FactoryContext.h"

#include <cstdint>
#include <string>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ccl {

/// tt-metal's gate (ttnn reduce_scatter.cpp, k_direct_rs_max_input_bytes):
/// the direct path up to this many input bytes per chip.
constexpr std::uint64_t kDirectRsMaxInputBytes = 512ull << 10;

/// Why the direct reduce-scatter cannot run this op ("" when it can): a
/// ring of at least three chips on the packet fabric, neighbours only, the
/// op alone on its chips, the reduce-scatter's or all-reduce's own method.
std::string directReduceScatterUnfit(const CclSpec& s, TopologyKind topo, unsigned ranks);

/// tt-metal's dispatch: the direct path where it fits, without persistent
/// buffers or a worker count given (tt-metal: explicit tuning keeps the
/// ring op), up to kDirectRsMaxInputBytes of input per chip.
bool directReduceScatterAuto(const CclSpec& s, TopologyKind topo, unsigned ranks, bool workersGiven);

/// Build the direct reduce-scatter of group `g` on the fabric `fab` (not yet
/// built: this adds its clients); `gates` (all_reduce: per position, the
/// op gate its kernels end) may be empty. Call finishDirectReduceScatter once
/// the fabric is built.
struct DirectRsBuild;
std::shared_ptr<DirectRsBuild> buildDirectReduceScatter(FactoryContext& ctx, CclGroup& g, fabric::FabricBuilder& fab,
                                                        const std::vector<unsigned>& gates);
/// The runtime arguments, once the fabric is built (its connections).
void finishDirectReduceScatter(Runtime& rt, const DirectRsBuild& b, const fabric::FabricBuilder& fab);

}  // namespace cclsim::ccl
