#include "host/ccl/TensorSlicer.h"

#include "firmware/ccl/ccl_schedule.h"

#include <stdexcept>

namespace cclsim::ccl {

TensorSlicer::TensorSlicer(std::uint32_t rangePages, std::uint32_t pagesPerChunk, unsigned units)
    : rangePages_(rangePages), pagesPerChunk_(pagesPerChunk), chunks_(0), units_(units) {
    if (rangePages == 0 || pagesPerChunk == 0 || units == 0) throw std::invalid_argument("TensorSlicer: zero size");
    chunks_ = num_chunks(rangePages, pagesPerChunk);
}

ChunkSet TensorSlicer::unit(unsigned u) const {
    ChunkSet s{u, units_, 0};
    s.count = unit_chunk_count(chunks_, s.first, s.stride);
    return s;
}

}  // namespace cclsim::ccl
