#include "host/ccl/plan/DirectRsPlan.h"

#include <algorithm>

namespace cclsim::ccl {

std::vector<DirectRsDest> directRsDestinations(unsigned pos, unsigned n) {
    std::vector<DirectRsDest> dests;
    for (unsigned q = 0; q < n; ++q) {
        if (q == pos) continue;
        const unsigned fwd = (q + n - pos) % n, bwd = (pos + n - q) % n;
        dests.push_back(fwd <= bwd ? DirectRsDest{q, 0, fwd} : DirectRsDest{q, 1, bwd});
    }
    std::stable_sort(dests.begin(), dests.end(),
                     [](const DirectRsDest& x, const DirectRsDest& y) { return x.hops > y.hops; });
    return dests;
}

void directRsBarrierRanges(const std::vector<DirectRsDest>& dests, std::uint32_t range[2]) {
    range[0] = range[1] = 0;
    for (const DirectRsDest& d : dests) range[d.conn] = std::max<std::uint32_t>(range[d.conn], d.hops);
}

std::uint32_t DirectRsChunks::first(unsigned l, std::uint32_t chunks) const {
    return l * (chunks / links) + std::min<std::uint32_t>(l, chunks % links);
}

std::uint32_t DirectRsChunks::count(unsigned l, std::uint32_t chunks) const {
    return chunks / links + (l < chunks % links ? 1 : 0);
}

DirectRsChunks directRsChunks(unsigned links, std::uint32_t chunks) {
    return DirectRsChunks{std::max(1u, std::min<unsigned>(links, std::max<std::uint32_t>(chunks, 1)))};
}

}  // namespace cclsim::ccl
