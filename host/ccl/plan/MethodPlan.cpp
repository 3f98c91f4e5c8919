// Directions, reach and page ranges of each collective method (pure).
#include "host/ccl/plan/MethodPlan.h"

#include <stdexcept>

namespace cclsim::ccl {

MethodPlan planMethod(golden::Method m, unsigned n, bool ring, std::uint64_t blockPages) {
    using golden::Method;
    MethodPlan p;
    const std::uint32_t B = std::uint32_t(blockPages);
    p.range[0] = p.range[1] = MethodPlan::Range{0, B};
    const std::uint32_t h = n / 2;  // ceil((n - 1) / 2)
    std::uint32_t r0 = 0, r1 = 0;   // reduce reach
    switch (m) {
        case Method::Clockwise:
            p.gatherDirs = {0};
            p.gatherReach[0] = n - 1;
            r0 = n - 1;
            p.a2aSplit = n - 1;
            break;
        case Method::Anticlockwise:
            p.gatherDirs = {1};
            p.gatherReach[1] = n - 1;
            r1 = n - 1;
            p.a2aSplit = 0;
            break;
        case Method::BidirPair:
            p.gatherDirs = {0, 1};
            p.gatherReach[0] = p.gatherReach[1] = n - 1;
            p.range[0] = MethodPlan::Range{0, (B + 1) / 2};
            p.range[1] = MethodPlan::Range{(B + 1) / 2, B - (B + 1) / 2};
            p.a2aSplit = n / 2;
            break;
        case Method::MeetInMiddle:
        case Method::Broadcast:
        case Method::Line:
            p.gatherDirs = {0, 1};
            p.gatherReach[0] = h;
            p.gatherReach[1] = n - 1 - h;
            r0 = h;
            r1 = n - 1 - h;
            p.a2aSplit = n / 2;
            break;
        case Method::Direct:  // golden's order of the fabric's direct reduce-scatter, never a spec's method
            throw std::logic_error("planMethod: the direct reduce-scatter is a fabric op, not an EDM schedule");
    }
    for (unsigned d = 0; d < 2; ++d) {
        p.reduce[d].ranks = n;
        p.reduce[d].ring = ring;
        p.reduce[d].ring_reach[0] = m == Method::BidirPair ? (d == 0 ? n - 1 : 0) : r0;
        p.reduce[d].ring_reach[1] = m == Method::BidirPair ? (d == 1 ? n - 1 : 0) : r1;
    }
    for (unsigned d = 0; d < 2; ++d) {
        const bool used = !ring || (m == Method::BidirPair ? true : (d == 0 ? r0 : r1) > 0);
        if (used && p.range[d].pages > 0) p.reduceDirs.push_back(d);
    }
    // A gather direction with an empty range (a one-page block split in two) is not used.
    std::vector<unsigned> g;
    for (unsigned d : p.gatherDirs)
        if (p.range[d].pages > 0) g.push_back(d);
    p.gatherDirs = g;
    return p;
}

}  // namespace cclsim::ccl
