#include "host/ipcq/IpcqTopology.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace cclsim::ipcq {

std::optional<TopologyKind> parseTopology(const std::string& s) {
    if (s == "ring_1d") return TopologyKind::Ring1d;
    if (s == "ring_1d_unidir") return TopologyKind::Ring1dUnidir;
    if (s == "mesh_2d") return TopologyKind::Mesh2d;
    if (s == "tree_binary") return TopologyKind::TreeBinary;
    if (s == "none" || s == "custom") return TopologyKind::None;
    return std::nullopt;
}

const char* topologyName(TopologyKind k) {
    switch (k) {
        case TopologyKind::Ring1d: return "ring_1d";
        case TopologyKind::Ring1dUnidir: return "ring_1d_unidir";
        case TopologyKind::Mesh2d: return "mesh_2d";
        case TopologyKind::TreeBinary: return "tree_binary";
        case TopologyKind::None: return "none";
    }
    return "?";
}

MeshShape meshShape(unsigned worldSize, std::optional<unsigned> rows, std::optional<unsigned> cols) {
    MeshShape m;
    if (rows || cols) {
        m.rows = rows ? *rows : worldSize / *cols;
        m.cols = cols ? *cols : worldSize / *rows;
        if (std::uint64_t(m.rows) * m.cols != worldSize)
            throw std::invalid_argument(fmt::format("a {} x {} mesh has {} ranks, not world_size {}", m.rows, m.cols,
                                                    m.rows * m.cols, worldSize));
    } else {
        const unsigned side = unsigned(std::lround(std::sqrt(double(worldSize))));
        if (side * side != worldSize)
            throw std::invalid_argument(fmt::format(
                "mesh_2d needs a square world_size (rows = cols) unless the algorithm gives rows and cols; {} is not "
                "square",
                worldSize));
        m.rows = m.cols = side;
    }
    if (m.rows < 2 || m.cols < 2)
        throw std::invalid_argument(
            fmt::format("a {} x {} mesh has an axis of one rank (its N/S or E/W neighbour "
                        "would be itself); use ring_1d",
                        m.rows, m.cols));
    return m;
}

GroupNeighbors builtinNeighbors(TopologyKind kind, unsigned n, MeshShape mesh) {
    GroupNeighbors g(n);
    switch (kind) {
        case TopologyKind::Ring1d:
        case TopologyKind::Ring1dUnidir:
            if (n < 2) throw std::invalid_argument(fmt::format("a ring needs at least 2 ranks, world_size is {}", n));
            for (unsigned r = 0; r < n; ++r) {
                g[r][IpcqDir::E] = Neighbor{(r + 1) % n, true};
                g[r][IpcqDir::W] = Neighbor{(r + n - 1) % n, kind == TopologyKind::Ring1d};
            }
            break;
        case TopologyKind::Mesh2d: {
            if (mesh.rows * mesh.cols != n) mesh = meshShape(n, std::nullopt, std::nullopt);
            const unsigned R = mesh.rows, C = mesh.cols;
            for (unsigned r = 0; r < R; ++r)
                for (unsigned c = 0; c < C; ++c) {
                    NeighborMap& m = g[r * C + c];
                    m[IpcqDir::N] = Neighbor{((r + R - 1) % R) * C + c, true};
                    m[IpcqDir::S] = Neighbor{((r + 1) % R) * C + c, true};
                    m[IpcqDir::E] = Neighbor{r * C + (c + 1) % C, true};
                    m[IpcqDir::W] = Neighbor{r * C + (c + C - 1) % C, true};
                }
            break;
        }
        case TopologyKind::TreeBinary:
            if (n < 2) throw std::invalid_argument(fmt::format("a tree needs at least 2 ranks, world_size is {}", n));
            for (unsigned r = 0; r < n; ++r) {
                if (r > 0) g[r][IpcqDir::Parent] = Neighbor{(r - 1) / 2, true};
                if (2 * r + 1 < n) g[r][IpcqDir::ChildLeft] = Neighbor{2 * r + 1, true};
                if (2 * r + 2 < n) g[r][IpcqDir::ChildRight] = Neighbor{2 * r + 2, true};
            }
            break;
        case TopologyKind::None: break;
    }
    return g;
}

namespace {
std::optional<IpcqDir> reverseOf(IpcqDir d) {
    switch (d) {
        case IpcqDir::N: return IpcqDir::S;
        case IpcqDir::S: return IpcqDir::N;
        case IpcqDir::E: return IpcqDir::W;
        case IpcqDir::W: return IpcqDir::E;
        default: return std::nullopt;  // tree links: found by looking
    }
}
}  // namespace

std::optional<IpcqDir> landingDirection(const GroupNeighbors& g, unsigned rank, IpcqDir d) {
    const auto it = g.at(rank).find(d);
    if (it == g.at(rank).end() || it->second.peer >= g.size()) return std::nullopt;
    const NeighborMap& peer = g[it->second.peer];
    auto pointsBack = [&](IpcqDir x) {
        const auto b = peer.find(x);
        return b != peer.end() && b->second.peer == rank;
    };
    if (const std::optional<IpcqDir> r = reverseOf(d)) return pointsBack(*r) ? r : std::nullopt;
    if (d == IpcqDir::Parent) {
        for (IpcqDir x : {IpcqDir::ChildLeft, IpcqDir::ChildRight})
            if (pointsBack(x)) return x;
        return std::nullopt;
    }
    return pointsBack(IpcqDir::Parent) ? std::optional<IpcqDir>(IpcqDir::Parent) : std::nullopt;
}

std::string checkSymmetry(const GroupNeighbors& g) {
    for (unsigned r = 0; r < g.size(); ++r)
        for (const auto& [d, nb] : g[r]) {
            if (nb.peer >= g.size())
                return fmt::format("rank {} direction {} names rank {}, but world_size is {}", r, ipcqDirName(d),
                                   nb.peer, g.size());
            if (nb.peer == r) return fmt::format("rank {} direction {} names the rank itself", r, ipcqDirName(d));
        }
    for (unsigned r = 0; r < g.size(); ++r) {
        for (const auto& [d, nb] : g[r]) {
            const std::optional<IpcqDir> back = landingDirection(g, r, d);
            if (!back) {
                const std::optional<IpcqDir> rev = reverseOf(d);
                std::string have;
                for (const auto& [pd, pn] : g[nb.peer])
                    have += fmt::format("{}{}->{}", have.empty() ? "" : ", ", ipcqDirName(pd), pn.peer);
                return fmt::format(
                    "I3 endpoint asymmetry: rank {} direction {} names rank {}, but rank {} {} does not "
                    "name rank {} (rank {} has: {})",
                    r, ipcqDirName(d), nb.peer, nb.peer,
                    rev ? fmt::format("direction {}", ipcqDirName(*rev)) : std::string("(reverse link)"), r, nb.peer,
                    have.empty() ? "no directions" : have);
            }
            const Neighbor& other = g[nb.peer].at(*back);
            if (!nb.canSend && !other.canSend)
                return fmt::format(
                    "rank {} direction {} and rank {} direction {} both only receive: the link carries "
                    "nothing",
                    r, ipcqDirName(d), nb.peer, ipcqDirName(*back));
        }
    }
    return {};
}

}  // namespace cclsim::ipcq
