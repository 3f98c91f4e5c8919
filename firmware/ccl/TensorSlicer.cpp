#include "firmware/ccl/TensorSlicer.h"

#include "firmware/ccl/ccl_schedule.h"

#include <stdexcept>

namespace cclsim::ccl {

TensorSlicer::TensorSlicer(std::uint32_t blockPages, std::uint32_t pagesPerChunk, unsigned units)
    : blockPages_(blockPages), pagesPerChunk_(pagesPerChunk), chunks_(0), units_(units) {
    if (blockPages == 0 || pagesPerChunk == 0 || units == 0) throw std::invalid_argument("TensorSlicer: zero size");
    chunks_ = num_chunks(blockPages, pagesPerChunk);
}

ChunkSet TensorSlicer::unit(unsigned u) const {
    ChunkSet s{u, units_, 0};
    s.count = unit_chunk_count(chunks_, s.first, s.stride);
    return s;
}

ChunkSet TensorSlicer::unitHalf(unsigned u, unsigned dir) const {
    ChunkSet s{u + dir * units_, 2 * units_, 0};
    s.count = unit_chunk_count(chunks_, s.first, s.stride);
    return s;
}

}  // namespace cclsim::ccl
