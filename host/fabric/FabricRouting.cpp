#include "host/fabric/FabricRouting.h"

#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace cclsim::fabric {

const char* fabricKindName(FabricKind k) {
    switch (k) {
        case FabricKind::Line: return "line";
        case FabricKind::Ring: return "ring";
        case FabricKind::Mesh: return "mesh";
        case FabricKind::Torus: return "torus";
    }
    return "?";
}

const char* nocSendTypeName(NocSendType t) {
    switch (t) {
        case NocSendType::NOC_UNICAST_WRITE: return "NOC_UNICAST_WRITE";
        case NocSendType::NOC_UNICAST_INLINE_WRITE: return "NOC_UNICAST_INLINE_WRITE";
        case NocSendType::NOC_UNICAST_ATOMIC_INC: return "NOC_UNICAST_ATOMIC_INC";
        case NocSendType::NOC_FUSED_UNICAST_ATOMIC_INC: return "NOC_FUSED_UNICAST_ATOMIC_INC";
        case NocSendType::NOC_UNICAST_SCATTER_WRITE: return "NOC_UNICAST_SCATTER_WRITE";
        case NocSendType::NOC_UNICAST_READ: return "NOC_UNICAST_READ";
    }
    return "?";
}

bool FabricTopology::wraps(Dir d) const {
    switch (kind) {
        case FabricKind::Line: return false;
        case FabricKind::Ring: return true;
        case FabricKind::Mesh: return false;
        case FabricKind::Torus: return isX(d) ? wrapX : wrapY;
    }
    return false;
}

bool FabricTopology::contains(unsigned chip) const {
    const auto c = chips();
    return std::find(c.begin(), c.end(), chip) != c.end();
}

std::optional<unsigned> FabricTopology::neighbour(unsigned chip, Dir d) const {
    if (!is2d()) {
        if (!isX(d)) return std::nullopt;
        const auto it = std::find(order.begin(), order.end(), chip);
        if (it == order.end()) return std::nullopt;
        const long n = long(order.size()), p = long(it - order.begin());
        const long q = p + (d == Dir::E ? 1 : -1);
        if (q >= 0 && q < n) return order[std::size_t(q)];
        if (kind == FabricKind::Ring) return order[std::size_t((q + n) % n)];
        return std::nullopt;
    }
    const auto it = std::find(grid.begin(), grid.end(), chip);
    if (it == grid.end()) return std::nullopt;
    const long i = long(it - grid.begin());
    long r = i / long(cols), c = i % long(cols);
    const bool wrap = wraps(d);
    switch (d) {
        case Dir::E: c += 1; break;
        case Dir::W: c -= 1; break;
        case Dir::N: r -= 1; break;
        case Dir::S: r += 1; break;
    }
    if (wrap) {
        r = (r + long(rows)) % long(rows);
        c = (c + long(cols)) % long(cols);
    }
    if (r < 0 || c < 0 || r >= long(rows) || c >= long(cols)) return std::nullopt;
    return grid[std::size_t(r) * cols + std::size_t(c)];
}

unsigned FabricTopology::maxHops() const {
    if (!is2d()) {
        const unsigned n = unsigned(order.size());
        return n - 1;
    }
    const unsigned hx = wrapX ? cols / 2 : cols - 1;
    const unsigned hy = wrapY ? rows / 2 : rows - 1;
    return hx + hy;
}

FabricTopology makeTopology1d(FabricKind kind, const std::vector<unsigned>& order) {
    if (kind != FabricKind::Line && kind != FabricKind::Ring) throw ConfigError("a 1D fabric is a line or a ring");
    if (order.size() < 2) throw ConfigError("a fabric needs at least two chips");
    std::set<unsigned> seen(order.begin(), order.end());
    if (seen.size() != order.size())
        throw ConfigError(fmt::format("fabric chip order [{}] visits a chip twice", fmt::join(order, ",")));
    if (kind == FabricKind::Ring && order.size() < 3)
        throw ConfigError(fmt::format(
            "a fabric ring needs at least three chips ([{}] has two: its two directions would share one link; use "
            "--fabric line)",
            fmt::join(order, ",")));
    FabricTopology t;
    t.kind = kind;
    t.order = order;
    return t;
}

FabricTopology makeTopologyMesh(const ClusterDescriptor& d, bool torus) {
    if (!d.mesh) throw ConfigError(fmt::format("{}: a 2D fabric needs the descriptor's mesh and mesh_order", d.file));
    FabricTopology t;
    t.kind = torus ? FabricKind::Torus : FabricKind::Mesh;
    t.rows = (*d.mesh)[0];
    t.cols = (*d.mesh)[1];
    t.grid = d.meshOrder;
    if (torus) {
        // An axis wraps if every row (column) has a link between its ends.
        auto linked = [&](unsigned a, unsigned b) { return !d.userLinksBetween(a, b).empty(); };
        bool x = t.cols > 2, y = t.rows > 2;
        for (std::size_t r = 0; r < t.rows && x; ++r) x = linked(t.grid[r * t.cols], t.grid[(r + 1) * t.cols - 1]);
        for (unsigned c = 0; c < t.cols && y; ++c) y = linked(t.grid[c], t.grid[std::size_t(t.rows - 1) * t.cols + c]);
        if (!x && !y)
            throw ConfigError(
                fmt::format("{}: --torus: no mesh axis of more than two chips has links between its ends "
                            "(is the descriptor loaded with its torus links?)",
                            d.file));
        t.wrapX = x;
        t.wrapY = y;
    }
    return t;
}

FabricTopology topologyFromOptions(const ClusterDescriptor& d, const std::string& kind,
                                   const std::vector<unsigned>& order) {
    if (kind == "mesh" || kind == "torus") {
        if (!order.empty())
            throw ConfigError(fmt::format("--order applies to line and ring fabrics, not to a {}", kind));
        if (kind == "torus") {
            bool anyTorus = false;
            for (const LinkDesc& l : d.links) anyTorus |= l.torus;
            if (!anyTorus)
                throw ConfigError(
                    fmt::format("--fabric torus: {} is loaded without torus links (pass --torus; a "
                                "descriptor needs links marked `torus: true`)",
                                d.file));
        }
        return makeTopologyMesh(d, kind == "torus");
    }
    FabricKind k;
    if (kind == "line")
        k = FabricKind::Line;
    else if (kind == "ring")
        k = FabricKind::Ring;
    else
        throw ConfigError(fmt::format("--fabric {}: expected line, ring, mesh or torus", kind));
    std::vector<unsigned> o = order;
    if (o.empty()) o = d.ringOrder;
    if (o.empty())
        for (unsigned c = 0; c < d.chips.size(); ++c) o.push_back(c);
    for (unsigned c : o)
        if (c >= d.chips.size()) throw ConfigError(fmt::format("--order: chip {} does not exist", c));
    return makeTopology1d(k, o);
}

namespace {

/// Steps along one axis from position a to b of n (shorter way if it wraps,
/// the positive direction on a tie): signed count.
long axisSteps(long a, long b, long n, bool wrap) {
    long s = b - a;
    if (!wrap) return s;
    s = ((s % n) + n) % n;  // 0..n-1 forward
    return s <= n / 2 ? s : s - n;
}

}  // namespace

Route route(const FabricTopology& t, unsigned src, unsigned dst, bool yFirst) {
    if (src == dst) throw ConfigError(fmt::format("fabric route from chip {} to itself", src));
    if (!t.contains(src) || !t.contains(dst))
        throw ConfigError(fmt::format("fabric route {} -> {}: chip {} is not part of the {} fabric", src, dst,
                                      t.contains(src) ? dst : src, fabricKindName(t.kind)));
    Route r;
    r.src = src;
    r.dst = dst;
    auto push = [&r](Dir d, long n) {
        for (long i = 0; i < n; ++i) r.hops.push_back(d);
    };
    if (!t.is2d()) {
        const long n = long(t.order.size());
        const long a = long(std::find(t.order.begin(), t.order.end(), src) - t.order.begin());
        const long b = long(std::find(t.order.begin(), t.order.end(), dst) - t.order.begin());
        const long s = axisSteps(a, b, n, t.kind == FabricKind::Ring);
        push(s > 0 ? Dir::E : Dir::W, s > 0 ? s : -s);
        return r;
    }
    const auto pos = [&](unsigned chip) {
        const long i = long(std::find(t.grid.begin(), t.grid.end(), chip) - t.grid.begin());
        return std::pair<long, long>{i / long(t.cols), i % long(t.cols)};
    };
    const auto [r0, c0] = pos(src);
    const auto [r1, c1] = pos(dst);
    const long dy = axisSteps(r0, r1, long(t.rows), t.wrapY && t.kind == FabricKind::Torus);
    const long dx = axisSteps(c0, c1, long(t.cols), t.wrapX && t.kind == FabricKind::Torus);
    auto ys = [&] { push(dy > 0 ? Dir::S : Dir::N, dy > 0 ? dy : -dy); };
    auto xs = [&] { push(dx > 0 ? Dir::E : Dir::W, dx > 0 ? dx : -dx); };
    if (yFirst) {
        ys();
        xs();
    } else {
        xs();
        ys();
    }
    return r;
}

void setRoute(PacketHeader& h, const FabricTopology& t, const Route& r) {
    h.set_chips(r.src, r.dst);
    if (!t.is2d()) {
        if (r.size() > route1d::kMaxHops)
            throw ConfigError(
                fmt::format("fabric route of {} hops exceeds the 1D header's {}", r.size(), route1d::kMaxHops));
        h.set_route_1d(r.size());
        return;
    }
    if (r.size() > route2d::kMaxHops)
        throw ConfigError(
            fmt::format("fabric route of {} hops exceeds the 2D header's {}", r.size(), route2d::kMaxHops));
    std::vector<std::uint8_t> nib;
    for (Dir d : r.hops) nib.push_back(std::uint8_t(d));
    nib.push_back(route2d::kLocal);
    h.set_route_2d(nib.data(), unsigned(nib.size()));
    h.words[hdr::kRoute / 4] = 1;  // the sender's hop is taken by choosing its router
}

void setReplyRoute(PacketHeader& h, const FabricTopology& t, const Route& r) {
    if (!t.is2d()) {
        if (r.size() > route1d::kHopsPerWord)
            throw ConfigError(fmt::format("fabric read requests reach at most {} hops (this one: {})",
                                          route1d::kHopsPerWord, r.size()));
        h.set_reply_route_1d(r.size());
        return;
    }
    std::vector<std::uint8_t> nib;
    for (auto it = r.hops.rbegin(); it != r.hops.rend(); ++it) nib.push_back(std::uint8_t(opposite(*it)));
    nib.push_back(route2d::kLocal);
    h.set_reply_route_2d(nib.data(), unsigned(nib.size()));
}

}  // namespace cclsim::fabric
