// How a collective method (GCL user guide 3.4) runs on a ring of n chips or
// a line: which directions the gather streams use and how far each block
// travels, the plan of each direction's reduce mover, and the pages of a
// block each direction moves. Pure arithmetic over the schedule vocabulary
// of firmware/ccl/ccl_schedule.h; unit-tested in tests/unit/test_ccl_planner.cpp.
//
//   clockwise / anticlockwise ring   one direction, every block n-1 hops
//   bidirectional ring pair          both directions, every block n-1 hops,
//                                    the first ceil(B/2) pages one way and
//                                    the rest the other
//   meet in the middle, broadcast,   both directions, a block ceil((n-1)/2)
//   line                             hops one way and the rest the other (a
//                                    line: to its ends)
#pragma once

#include "firmware/ccl/ccl_schedule.h"
#include "golden/Golden.h"

#include <cstdint>
#include <vector>

namespace cclsim::ccl {

struct MethodPlan {
    /// Pages [first, first + pages) of every block.
    struct Range {
        std::uint32_t first = 0, pages = 0;
        bool operator==(const Range& o) const { return first == o.first && pages == o.pages; }
    };
    std::vector<unsigned> gatherDirs;       ///< directions of the gather streams (non-empty ranges only)
    std::uint32_t gatherReach[2] = {0, 0};  ///< ring reach of a gathered block per direction
    std::vector<unsigned> reduceDirs;       ///< directions with a reduce mover
    ReducePlan reduce[2];                   ///< the plan of each direction's reduce mover
    Range range[2];                         ///< pages of a block each direction moves
    std::uint32_t a2aSplit = 0;             ///< AllToAllPlan::ring_split
};

/// The plan of method `m` on n ranks (`ring`: a ring, else a line) for
/// blocks of `blockPages` pages.
MethodPlan planMethod(golden::Method m, unsigned n, bool ring, std::uint64_t blockPages);

}  // namespace cclsim::ccl
