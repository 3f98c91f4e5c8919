#include "host/ccl/CclTopology.h"

#include "host/ccl/CclOpError.h"
#include "models/common/Report.h"
#include "platforms/MeshSpec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace cclsim::ccl {

const char* topologyName(TopologyKind k) {
    return k == TopologyKind::Ring ? "ring" : "line";
}

namespace {

/// A shortest chip path from `a` to `b` over neighbour pairs with at least
/// `links` user links (breadth first, lowest chip ids first); empty if none.
std::vector<unsigned> shortestPath(const ClusterDescriptor& d, unsigned a, unsigned b, unsigned links) {
    const unsigned n = unsigned(d.chips.size());
    std::vector<int> prev(n, -1);
    std::vector<unsigned> queue{a};
    prev[a] = int(a);
    for (std::size_t i = 0; i < queue.size() && prev[b] < 0; ++i) {
        const unsigned c = queue[i];
        for (unsigned x = 0; x < n; ++x)
            if (prev[x] < 0 && d.userLinksBetween(c, x).size() >= links) {
                prev[x] = int(c);
                queue.push_back(x);
            }
    }
    if (prev[b] < 0) return {};
    std::vector<unsigned> path{b};
    while (path.back() != a) path.push_back(unsigned(prev[path.back()]));
    return std::vector<unsigned>(path.rbegin(), path.rend());
}

}  // namespace

CclTopology buildTopology(const ClusterDescriptor& d, const std::vector<unsigned>& order, TopologyKind kind,
                          unsigned links, bool relay, std::map<const LinkDesc*, unsigned>* load) {
    CclTopology t;
    t.kind = kind;
    t.order = order;
    t.links = links;
    const std::string what = fmt::format("{} [{}]", topologyName(kind), fmt::join(order, ","));
    if (order.size() < 2) throw ConfigError(fmt::format("{}: a collective needs at least 2 chips", what));
    if (links == 0) throw CclOpError("links", fmt::format("{} must be at least 1", specRef("links")));
    std::set<unsigned> seen;
    for (unsigned c : order) {
        if (c >= d.chips.size())
            throw ConfigError(
                fmt::format("{}: chip {} does not exist (the board has chips 0..{})", what, c, d.chips.size() - 1));
        if (!seen.insert(c).second) throw ConfigError(fmt::format("{}: chip {} appears twice", what, c));
    }
    const unsigned n = unsigned(order.size());
    const unsigned hops = kind == TopologyKind::Ring ? n : n - 1;
    for (unsigned i = 0; i < hops; ++i) {
        CclHop h;
        h.from = order[i];
        h.to = order[(i + 1) % n];
        const auto user = d.userLinksBetween(h.from, h.to);
        if (user.empty() && relay) {
            h.path = shortestPath(d, h.from, h.to, links);
            if (h.path.empty())
                throw CclOpError("links",
                                 fmt::format("{}: hop {}: no path of chips with {} user link(s) per pair joins "
                                             "chips {} and {} (fewer {}, or other chips)",
                                             what, i, links, h.from, h.to, specRef("links")));
            for (std::size_t k = 0; k + 1 < h.path.size(); ++k) {
                auto seg = d.userLinksBetween(h.path[k], h.path[k + 1]);
                if (load)  // spread the relayed hops of all groups over the pair's links
                    std::stable_sort(seg.begin(), seg.end(),
                                     [&](const LinkDesc* x, const LinkDesc* y) { return (*load)[x] < (*load)[y]; });
                h.segments.emplace_back(seg.begin(), seg.begin() + links);
                if (load)
                    for (const LinkDesc* l : h.segments.back()) ++(*load)[l];
            }
            h.links = h.segments.front();
            t.hops.push_back(std::move(h));
            continue;
        }
        if (user.empty()) {
            const bool wrap = kind == TopologyKind::Ring && i == n - 1;
            const bool onlyDispatch = !d.linksBetween(h.from, h.to).empty();
            std::string why;
            if (onlyDispatch)
                why = fmt::format(
                    "chips {} and {} have no user Ethernet link (their only link is reserved for "
                    "dispatch)",
                    h.from, h.to);
            else if (wrap)
                throw CclOpError("topology",
                                 fmt::format("{}: hop {}: the ring needs a wraparound link but chips {} "
                                             "and {} have no Ethernet link (use {}, or {} on a board with "
                                             "torus links)",
                                             what, i, h.from, h.to, specRef("topology", "line"), specRef("torus")));
            else
                why = fmt::format("chips {} and {} have no Ethernet link (the order is not connected)", h.from, h.to);
            throw ConfigError(fmt::format("{}: hop {}: {}", what, i, why));
        }
        if (user.size() < links)
            throw CclOpError("links", fmt::format("{}: hop {} (chips {} -> {}) has {} user link(s) but {} is {}", what,
                                                  i, h.from, h.to, user.size(), specRef("links"), links));
        h.links.assign(user.begin(), user.begin() + links);
        h.path = {h.from, h.to};
        h.segments = {h.links};
        if (load)
            for (const LinkDesc* l : h.links) ++(*load)[l];
        t.hops.push_back(std::move(h));
    }
    return t;
}

std::vector<std::vector<unsigned>> meshGroups(const ClusterDescriptor& d, const std::string& axis) {
    if (!d.mesh)
        throw CclOpError("axis", fmt::format("{}: cluster '{}' describes no mesh (mesh: {{rows, cols}})",
                                             specRef("axis", axis), d.name));
    const unsigned rows = (*d.mesh)[0], cols = (*d.mesh)[1];
    std::vector<std::vector<unsigned>> groups;
    if (axis == "row") {
        for (unsigned r = 0; r < rows; ++r)
            groups.emplace_back(d.meshOrder.begin() + std::ptrdiff_t(r) * cols,
                                d.meshOrder.begin() + std::ptrdiff_t(r + 1) * cols);
    } else if (axis == "col") {
        for (unsigned c = 0; c < cols; ++c) {
            std::vector<unsigned> g;
            for (unsigned r = 0; r < rows; ++r) g.push_back(d.meshOrder[r * cols + c]);
            groups.push_back(std::move(g));
        }
    } else {
        throw CclOpError("axis", fmt::format("{}: must be row or col", specRef("axis", axis)));
    }
    return groups;
}

namespace {

/// Does every chip of `ring` link to the next one, the last to the first?
bool closes(const ClusterDescriptor& d, const std::vector<unsigned>& ring) {
    return ring.size() >= 3 && d.linksAround(ring);
}

/// Block shapes r x c = k of a rows x cols mesh with a ring through every
/// cell (both at least 2, one even), the squarest first; `tiling`: only
/// those that tile the mesh.
std::vector<std::pair<unsigned, unsigned>> blockShapes(unsigned k, unsigned rows, unsigned cols, bool tiling) {
    std::vector<std::pair<unsigned, unsigned>> shapes;
    for (unsigned r = 2; r <= rows; ++r) {
        const unsigned c = k / r;
        if (k % r || c < 2 || c > cols || (r % 2 && c % 2)) continue;
        if (tiling && (rows % r || cols % c)) continue;
        shapes.emplace_back(r, c);
    }
    std::stable_sort(shapes.begin(), shapes.end(), [](auto a, auto b) {
        auto skew = [](std::pair<unsigned, unsigned> s) {
            return s.first > s.second ? s.first - s.second : s.second - s.first;
        };
        return skew(a) < skew(b);
    });
    return shapes;
}

/// The chips of the r x c block at (r0, c0) of the mesh, walked as a snake.
std::vector<unsigned> blockRing(const ClusterDescriptor& d, unsigned r0, unsigned c0, unsigned r, unsigned c) {
    const unsigned cols = (*d.mesh)[1];
    std::vector<unsigned> ring;
    for (unsigned cell : gridRing(r, c))  // row-major indices of the r x c block
        ring.push_back(d.meshOrder[(r0 + cell / c) * cols + c0 + cell % c]);
    return ring;
}

std::string joined(const std::vector<unsigned>& v) {
    std::string s;
    for (unsigned c : v) s += (s.empty() ? "" : ",") + std::to_string(c);
    return s;
}

}  // namespace

std::vector<unsigned> closedRingOfSize(const ClusterDescriptor& d, unsigned k, std::string* how) {
    auto say = [&](std::string text) {
        if (how) *how = std::move(text);
    };
    std::vector<unsigned> base = d.ringOrder;
    if (base.empty())
        for (unsigned c = 0; c < d.chips.size(); ++c) base.push_back(c);
    if (k <= base.size()) {
        std::vector<unsigned> first(base.begin(), base.begin() + k);
        if (closes(d, first)) {
            say(fmt::format("the first {} chips of the ring order", k));
            return first;
        }
    }
    if (auto it = d.ringOrders.find(k); it != d.ringOrders.end() && closes(d, it->second)) {
        say(fmt::format("the descriptor's ring order for {} chips", k));
        return it->second;
    }
    if (d.mesh && k >= 4) {
        const unsigned rows = (*d.mesh)[0], cols = (*d.mesh)[1];
        for (const auto& [r, c] : blockShapes(k, rows, cols, false))
            for (unsigned r0 = 0; r0 + r <= rows; ++r0)
                for (unsigned c0 = 0; c0 + c <= cols; ++c0) {
                    const std::vector<unsigned> ring = blockRing(d, r0, c0, r, c);
                    if (closes(d, ring)) {
                        say(fmt::format("a {}x{} block of the mesh, walked as a ring", r, c));
                        return ring;
                    }
                }
    }
    say(fmt::format("no {} chips of the board close a ring (the first {} of the ring order are {})", k, k,
                    joined(std::vector<unsigned>(base.begin(), base.begin() + std::min<std::size_t>(k, base.size())))));
    return {};
}

std::vector<unsigned> ringTilingOfSize(const ClusterDescriptor& d, unsigned k, std::string* how) {
    auto say = [&](std::string text) {
        if (how) *how = std::move(text);
    };
    if (!d.mesh) {
        say("the board has no mesh to tile");
        return {};
    }
    const unsigned rows = (*d.mesh)[0], cols = (*d.mesh)[1];
    for (const auto& [r, c] : blockShapes(k, rows, cols, true)) {
        std::vector<unsigned> order;
        bool all = true;
        for (unsigned r0 = 0; r0 < rows && all; r0 += r)
            for (unsigned c0 = 0; c0 < cols && all; c0 += c) {
                const std::vector<unsigned> ring = blockRing(d, r0, c0, r, c);
                all = closes(d, ring);
                order.insert(order.end(), ring.begin(), ring.end());
            }
        if (all) {
            say(fmt::format("{} blocks of {}x{} chips of the mesh, each walked as a ring", (rows / r) * (cols / c), r,
                            c));
            return order;
        }
    }
    say(fmt::format("no tiling of the {}x{} mesh by blocks of {} chips closes a ring in every block", rows, cols, k));
    return {};
}

}  // namespace cclsim::ccl
