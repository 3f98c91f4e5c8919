#include "firmware/ccl/CclTopology.h"

#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

namespace cclsim::ccl {

const char* topologyName(TopologyKind k) { return k == TopologyKind::Ring ? "ring" : "line"; }

CclTopology buildTopology(const ClusterDescriptor& d, const std::vector<unsigned>& order, TopologyKind kind,
                          unsigned links) {
    CclTopology t;
    t.kind = kind;
    t.order = order;
    t.links = links;
    const std::string what = fmt::format("{} [{}]", topologyName(kind), fmt::join(order, ","));
    if (order.size() < 2) throw ConfigError(fmt::format("{}: a collective needs at least 2 chips", what));
    if (links == 0) throw ConfigError("--links must be at least 1");
    std::set<unsigned> seen;
    for (unsigned c : order) {
        if (c >= d.chips.size())
            throw ConfigError(fmt::format("{}: chip {} does not exist (the board has chips 0..{})", what, c,
                                          d.chips.size() - 1));
        if (!seen.insert(c).second) throw ConfigError(fmt::format("{}: chip {} appears twice", what, c));
    }
    const unsigned n = unsigned(order.size());
    const unsigned hops = kind == TopologyKind::Ring ? n : n - 1;
    for (unsigned i = 0; i < hops; ++i) {
        CclHop h;
        h.from = order[i];
        h.to = order[(i + 1) % n];
        const auto user = d.userLinksBetween(h.from, h.to);
        if (user.empty()) {
            const bool wrap = kind == TopologyKind::Ring && i == n - 1;
            const bool onlyDispatch = !d.linksBetween(h.from, h.to).empty();
            std::string why;
            if (onlyDispatch)
                why = fmt::format("chips {} and {} have no user Ethernet link (their only link is reserved for "
                                  "dispatch)", h.from, h.to);
            else if (wrap)
                why = fmt::format("the ring needs a wraparound link but chips {} and {} have no Ethernet link (use "
                                  "--topology line, or --torus on a board with torus links)", h.from, h.to);
            else
                why = fmt::format("chips {} and {} have no Ethernet link (the order is not connected)", h.from, h.to);
            throw ConfigError(fmt::format("{}: hop {}: {}", what, i, why));
        }
        if (user.size() < links)
            throw ConfigError(fmt::format("{}: hop {} (chips {} -> {}) has {} user link(s) but --links is {}", what, i,
                                          h.from, h.to, user.size(), links));
        h.links.assign(user.begin(), user.begin() + links);
        t.hops.push_back(std::move(h));
    }
    return t;
}

std::vector<std::vector<unsigned>> meshGroups(const ClusterDescriptor& d, const std::string& axis) {
    if (!d.mesh) throw ConfigError(fmt::format("--axis {}: cluster '{}' describes no mesh (mesh: {{rows, cols}})", axis, d.name));
    const unsigned rows = (*d.mesh)[0], cols = (*d.mesh)[1];
    std::vector<std::vector<unsigned>> groups;
    if (axis == "row") {
        for (unsigned r = 0; r < rows; ++r)
            groups.emplace_back(d.meshOrder.begin() + std::ptrdiff_t(r * cols), d.meshOrder.begin() + std::ptrdiff_t((r + 1) * cols));
    } else if (axis == "col") {
        for (unsigned c = 0; c < cols; ++c) {
            std::vector<unsigned> g;
            for (unsigned r = 0; r < rows; ++r) g.push_back(d.meshOrder[r * cols + c]);
            groups.push_back(std::move(g));
        }
    } else {
        throw ConfigError(fmt::format("--axis {}: must be row or col", axis));
    }
    return groups;
}

}  // namespace cclsim::ccl
