// The pure plan of the direct (one-shot) reduce-scatter
// (factory/FabricDirectReduceScatter): where each rank sends its blocks and
// how a block's chunks split over the links, as tt-metal's
// reduce_scatter_minimal_direct factory decides them.
#pragma once

#include <cstdint>
#include <vector>

namespace cclsim::ccl {

/// One destination of a rank: the rank, the connection (0 forward towards
/// position + 1, 1 backward) and the ring distance that way.
struct DirectRsDest {
    unsigned rank = 0, conn = 0, hops = 0;
};

/// Rank `pos`'s destinations on a ring of n, in send order: the shorter
/// way round (ties forward), farthest first, ties in rank order.
std::vector<DirectRsDest> directRsDestinations(unsigned pos, unsigned n);

/// The start barrier's reach from rank `pos`: the farthest destination
/// each way (index 0 forward, 1 backward).
void directRsBarrierRanges(const std::vector<DirectRsDest>& dests, std::uint32_t range[2]);

/// A block's chunks over the links: link l takes chunks [first, first +
/// count) (the first chunks % links links one more); at most one link per
/// chunk, so no link is idle.
struct DirectRsChunks {
    unsigned links = 1;
    std::uint32_t first(unsigned l, std::uint32_t chunks) const;
    std::uint32_t count(unsigned l, std::uint32_t chunks) const;
};
DirectRsChunks directRsChunks(unsigned links, std::uint32_t chunks);

}  // namespace cclsim::ccl
