// tt-metal's default links per hop and workers per link.
#include "cli/workloads/ccl/CollectiveDefaults.h"

#include <algorithm>

namespace cclsim::ccl {

unsigned defaultLinks(const ClusterDescriptor& d, const std::vector<std::vector<unsigned>>& groups, TopologyKind topo) {
    std::size_t fewest = 0;
    for (const auto& g : groups)
        for (std::size_t i = 0; i + 1 < g.size() || (topo == TopologyKind::Ring && g.size() > 2 && i < g.size()); ++i) {
            const std::size_t l = d.userLinksBetween(g[i], g[(i + 1) % g.size()]).size();
            if (l > 0 && (fewest == 0 || l < fewest)) fewest = l;
        }
    return unsigned(std::max<std::size_t>(1, fewest));
}

bool multicastAllGather(TopologyKind topo, unsigned n) {
    return topo != TopologyKind::Ring || n < 3;
}

unsigned defaultWorkers(bool reduces, CclSpec::Impl impl, std::uint64_t inputBytes, unsigned n, unsigned links,
                        TopologyKind topo, bool gathers) {
    if (impl == CclSpec::Impl::Fabric && gathers && multicastAllGather(topo, n)) {
        // tt-metal's all_gather on a linear fabric (AllGatherMulticastFactory):
        // one worker per link (num_workers_per_link = 1; the option is ignored).
        return 1;
    }
    if (impl == CclSpec::Impl::Fabric && reduces) {
        // tt-metal reduce_scatter_minimal_async (default_workers): by the bytes
        // a link moves, input x (n-1)/n / links (/2 on a ring); ring: 1 up to
        // 4 KB, 2 below 1 MB, 4 up to 50 MB, else 8; line: 1, 2 below 0.5 MB,
        // 4 up to 4 MB, else 8.
        const bool ringOfMore = topo == TopologyKind::Ring && n >= 3;
        const double perLink = double(inputBytes) * (n - 1) / n / links / (ringOfMore ? 2 : 1);
        if (perLink <= 4096) return 1;
        if (ringOfMore) return perLink < 1048576.0 ? 2 : perLink <= 50.0 * 1048576 ? 4 : 8;
        return perLink < 500000.0 ? 2 : perLink <= 4000000.0 ? 4 : 8;
    }
    if (impl == CclSpec::Impl::Fabric) {
        // tt-metal all_gather_async: 4 workers per direction when a link carries
        // more than 256 KB, 1 when it carries at most 4 KB, else 2. A link next
        // to a chip carries div_up(n-1, 2) slices of the input.
        const std::uint64_t perLink = inputBytes * ((n - 1 + 1) / 2);
        return perLink <= 4096 ? 1 : perLink <= 262144 ? 2 : 4;
    }
    // tt-metal's legacy all-gather (AllGatherConfig): 8 EDM channels per link on a
    // ring, half each way, 4 on a line, used both ways; one worker per channel.
    return 4;
}

}  // namespace cclsim::ccl
