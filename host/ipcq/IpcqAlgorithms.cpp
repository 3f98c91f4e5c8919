#include "host/ipcq/IpcqAlgorithms.h"

#include "firmware/ipcq/ipcq_kernels.h"

#include <fmt/format.h>

#include <numeric>

namespace cclsim::ipcq {

namespace {

/// Chunks of `bytes` split `parts` ways, each a whole number of 16 B (NoC
/// alignment) and elements.
std::string splitCheck(std::uint64_t bytes, std::uint64_t parts, const char* what) {
    if (bytes % (parts * 16))
        return fmt::format(
            "the {} B tensor does not split into {} {} of a multiple of 16 B (make the size a multiple "
            "of {} B)",
            bytes, parts, what, parts * 16);
    return {};
}

bool bidirOf(const AlgoShape& s) {
    return s.topology == TopologyKind::Ring1d && s.params.at("bidir") != 0;
}

std::vector<std::uint32_t> ringArgs(const AlgoShape& s, const TensorArgs& t, unsigned position, bool bidir) {
    RingArgs r;
    r.t = t;
    r.position = position;
    r.ranks = s.worldSize;
    r.bidir = bidir ? 1 : 0;
    return pack_ipcq_args(r);
}

IpcqAlgorithm ringAllReduce() {
    IpcqAlgorithm a;
    a.name = "ring_allreduce";
    a.description = "ring reduce-scatter + all-gather; ring_1d: half of every chunk each way, ring_1d_unidir: E only";
    a.topologies = {TopologyKind::Ring1d, TopologyKind::Ring1dUnidir};
    a.params = {{"bidir", 1}};
    a.kernel = fw::ipcq::ring_allreduce_main;
    a.checkSize = [](const AlgoShape& s) {
        return splitCheck(s.tensorBytes, std::uint64_t(s.worldSize) * (bidirOf(s) ? 2 : 1),
                          bidirOf(s) ? "half-chunks" : "chunks");
    };
    a.kernelArgs = [](const AlgoShape& s, unsigned rank, const TensorArgs& t) {
        return ringArgs(s, t, rank, bidirOf(s));
    };
    a.golden = [](const golden::Tensors& x, const AlgoShape& s) {
        std::vector<unsigned> ring(s.worldSize);
        std::iota(ring.begin(), ring.end(), 0u);
        return golden::ringAllReduce(x, ring, bidirOf(s), s.dtype);
    };
    return a;
}

/// The custom-neighbour example: a ring that visits ranks `stride` apart
/// (0, s, 2s, ... mod n), built by replacing the builtin map (pattern B).
IpcqAlgorithm stridedRing() {
    IpcqAlgorithm a = ringAllReduce();
    a.name = "ring_allreduce_strided";
    a.description = "ring all-reduce over a custom neighbour map (neighbors() hook): E = rank + stride";
    a.topologies = {TopologyKind::None};
    a.params = {{"stride", 3}, {"bidir", 1}};
    auto positionOf = [](const AlgoShape& s, unsigned rank) {
        // rank = position * stride (mod n): position = rank * stride^-1.
        const unsigned n = s.worldSize, st = unsigned(s.params.at("stride"));
        for (unsigned p = 0; p < n; ++p)
            if ((std::uint64_t(p) * st) % n == rank) return p;
        return 0u;
    };
    auto bidir = [](const AlgoShape& s) { return s.params.at("bidir") != 0; };
    a.checkSize = [bidir](const AlgoShape& s) {
        const long st = s.params.at("stride");
        if (st <= 0 || std::gcd(unsigned(st), s.worldSize) != 1)
            return fmt::format(
                "params.stride {} must be positive and coprime with world_size {} (one ring through "
                "every rank)",
                st, s.worldSize);
        return splitCheck(s.tensorBytes, std::uint64_t(s.worldSize) * (bidir(s) ? 2 : 1),
                          bidir(s) ? "half-chunks" : "chunks");
    };
    a.neighbors = [](unsigned rank, unsigned n, NeighborMap&, const AlgoParams& p) -> std::optional<NeighborMap> {
        const unsigned st = unsigned(p.at("stride")) % n;
        NeighborMap m;
        m[IpcqDir::E] = Neighbor{(rank + st) % n, true};
        m[IpcqDir::W] = Neighbor{(rank + n - st) % n, p.at("bidir") != 0};
        return m;
    };
    a.kernelArgs = [positionOf, bidir](const AlgoShape& s, unsigned rank, const TensorArgs& t) {
        return ringArgs(s, t, positionOf(s, rank), bidir(s));
    };
    a.golden = [bidir](const golden::Tensors& x, const AlgoShape& s) {
        std::vector<unsigned> ring(s.worldSize);
        for (unsigned p = 0; p < s.worldSize; ++p)
            ring[p] = unsigned((std::uint64_t(p) * s.params.at("stride")) % s.worldSize);
        return golden::ringAllReduce(x, ring, bidir(s), s.dtype);
    };
    return a;
}

IpcqAlgorithm meshAllReduce() {
    IpcqAlgorithm a;
    a.name = "mesh_allreduce";
    a.description = "2D mesh: ring all-reduce along every row (E), then along every column (S)";
    a.topologies = {TopologyKind::Mesh2d};
    a.kernel = fw::ipcq::mesh_allreduce_main;
    a.checkSize = [](const AlgoShape& s) {
        std::string e = splitCheck(s.tensorBytes, s.mesh.cols, "row chunks");
        return e.empty() ? splitCheck(s.tensorBytes, s.mesh.rows, "column chunks") : e;
    };
    a.kernelArgs = [](const AlgoShape& s, unsigned rank, const TensorArgs& t) {
        MeshArgs m;
        m.t = t;
        m.rows = s.mesh.rows;
        m.cols = s.mesh.cols;
        m.row = rank / s.mesh.cols;
        m.col = rank % s.mesh.cols;
        return pack_ipcq_args(m);
    };
    a.golden = [](const golden::Tensors& x, const AlgoShape& s) {
        return golden::meshAllReduce(x, s.mesh.rows, s.mesh.cols, s.dtype);
    };
    return a;
}

IpcqAlgorithm treeAllReduce() {
    IpcqAlgorithm a;
    a.name = "tree_allreduce";
    a.description = "binary tree (heap order): reduce to rank 0, broadcast back down";
    a.topologies = {TopologyKind::TreeBinary};
    a.kernel = fw::ipcq::tree_allreduce_main;
    a.checkSize = [](const AlgoShape& s) { return splitCheck(s.tensorBytes, 1, "pieces"); };
    a.kernelArgs = [](const AlgoShape&, unsigned, const TensorArgs& t) {
        TreeArgs r;
        r.t = t;
        return pack_ipcq_args(r);
    };
    a.golden = [](const golden::Tensors& x, const AlgoShape& s) { return golden::treeAllReduce(x, s.dtype); };
    return a;
}

std::map<std::string, IpcqAlgorithm>& registry() {
    static std::map<std::string, IpcqAlgorithm> r = [] {
        std::map<std::string, IpcqAlgorithm> m;
        for (IpcqAlgorithm a : {ringAllReduce(), stridedRing(), meshAllReduce(), treeAllReduce()})
            m.emplace(a.name, std::move(a));
        return m;
    }();
    return r;
}

}  // namespace

const IpcqAlgorithm* findAlgorithm(const std::string& name) {
    auto it = registry().find(name);
    return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> algorithmNames() {
    std::vector<std::string> out;
    for (const auto& [n, a] : registry()) out.push_back(n);
    return out;
}

void registerAlgorithm(IpcqAlgorithm a) {
    const std::string name = a.name;
    registry()[name] = std::move(a);
}

GroupNeighbors applyNeighborsHook(const IpcqAlgorithm& a, GroupNeighbors g, const AlgoParams& params) {
    if (!a.neighbors) return g;
    const unsigned n = unsigned(g.size());
    for (unsigned r = 0; r < n; ++r) {
        std::optional<NeighborMap> replaced = a.neighbors(r, n, g[r], params);
        if (replaced) g[r] = std::move(*replaced);
    }
    return g;
}

}  // namespace cclsim::ipcq
