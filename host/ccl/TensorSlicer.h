// Tensor slicer (CCL guide, "Tensor Slicer Scheduling"): splits each block
// of a collective into chunks of at most one EDM message and assigns them to
// worker units.
//
// A range of R pages of a block (the whole block, or the half one direction
// of a bidirectional ring pair moves) becomes ceil(R / M) chunks of M pages
// (the last may be shorter). Units take alternating chunks (unit u: u, u + U,
// u + 2U, ...), as the guide's multi-worker reduce-scatter does.
//
// No deadlock at any size: every kernel of the collectives processes one
// chunk at a time per channel and each EDM channel buffers at least one
// message (one per slot, CclSpec::edmBuffers), and
// the stream schedules (ccl_schedule.h) only ever make a chip wait for data
// that an upstream chip sends without waiting for this chip (reduce-scatter
// consumes a partial before it produces the next; all-to-all relays through
// unbounded scratch). So the pipeline never needs more buffering than one
// EDM slot per channel, whatever the tensor size (more slots only add
// slack); the slicer's job is to keep every message within a slot.
#pragma once

#include <cstdint>

namespace cclsim::ccl {

struct ChunkSet {
    std::uint32_t first = 0, stride = 1;
    std::uint32_t count = 0;  ///< chunks of one block this set holds
};

class TensorSlicer {
public:
    /// `pagesPerChunk` is at most the EDM payload in pages; `units` worker units.
    TensorSlicer(std::uint32_t rangePages, std::uint32_t pagesPerChunk, unsigned units);

    std::uint32_t rangePages() const { return rangePages_; }
    std::uint32_t pagesPerChunk() const { return pagesPerChunk_; }
    std::uint32_t chunks() const { return chunks_; }
    unsigned units() const { return units_; }

    /// Unit u's chunks of the range.
    ChunkSet unit(unsigned u) const;

private:
    std::uint32_t rangePages_, pagesPerChunk_, chunks_;
    unsigned units_;
};

}  // namespace cclsim::ccl
