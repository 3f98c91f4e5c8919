#include "platforms/TtClusterDescriptor.h"

#include "platforms/MeshSpec.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace cclsim {

namespace {

/// The largest board whose ring is searched for when it has no coordinates.
constexpr std::size_t kMaxSearchedChips = 64;

/// Wormhole's NoC row of harvest_mask bit i (tt-umd: wormhole HARVESTING_NOC_LOCATIONS).
constexpr unsigned kHarvestRows[] = {11, 1, 10, 2, 9, 3, 8, 4, 7, 5};

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

unsigned chipKey(const YamlMap& m, const std::string& key) {
    std::size_t used = 0;
    unsigned long v = 0;
    try {
        v = std::stoul(key, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != key.size()) m.fail(key, "keys are chip ids (integers)");
    return unsigned(v);
}

/// `- {chip: pcie id}` entries (a sequence of one-pair maps) or one map.
std::set<unsigned> mmioChips(const YamlMap& root) {
    std::set<unsigned> out;
    if (!root.has("chips_with_mmio")) return out;
    const YAML::Node n = root.raw("chips_with_mmio");
    const std::string where = root.where("chips_with_mmio");
    auto addMap = [&](const YAML::Node& m) {
        for (const auto& kv : m) out.insert(kv.first.as<unsigned>());
    };
    try {
        if (n.IsMap())
            addMap(n);
        else if (n.IsSequence())
            for (const YAML::Node& e : n) {
                if (e.IsMap())
                    addMap(e);
                else
                    out.insert(e.as<unsigned>());
            }
        else if (!n.IsNull())
            throw YAML::Exception(YAML::Mark::null_mark(), "neither a list nor a map");
    } catch (const YAML::Exception&) {
        throw ConfigError(fmt::format("{}: chips_with_mmio must list chip ids (- CHIP: PCIE_ID)", where));
    }
    return out;
}

/// A ring through every chip over user links, found by depth-first search
/// from chip 0 that tries the neighbour with the fewest onward choices first
/// (Warnsdorff's rule); empty when none turns up within a step budget.
std::vector<unsigned> searchRing(const ClusterDescriptor& cd) {
    const unsigned n = unsigned(cd.chips.size());
    std::vector<std::vector<unsigned>> adj(n);
    for (unsigned a = 0; a < n; ++a)
        for (unsigned b = 0; b < n; ++b)
            if (a != b && !cd.userLinksBetween(a, b).empty()) adj[a].push_back(b);
    std::vector<unsigned> path{0};
    std::vector<bool> on(n, false);
    on[0] = true;
    std::uint64_t budget = 1'000'000;
    auto free = [&](unsigned v) {
        unsigned k = 0;
        for (unsigned w : adj[v]) k += !on[w];
        return k;
    };
    std::function<bool()> extend = [&]() -> bool {
        const unsigned u = path.back();
        if (path.size() == n) return std::find(adj[u].begin(), adj[u].end(), 0u) != adj[u].end();
        std::vector<unsigned> next;
        for (unsigned v : adj[u])
            if (!on[v]) next.push_back(v);
        std::stable_sort(next.begin(), next.end(), [&](unsigned a, unsigned b) { return free(a) < free(b); });
        for (unsigned v : next) {
            if (budget-- == 0) return false;
            path.push_back(v);
            on[v] = true;
            if (extend()) return true;
            on[v] = false;
            path.pop_back();
        }
        return false;
    };
    return n >= 3 && extend() ? path : std::vector<unsigned>{};
}

}  // namespace

bool isTtMetalClusterDescriptor(const YamlMap& root) {
    return root.has("ethernet_connections") && !root.has("name");
}

ClusterDescriptor loadTtMetalClusterDescriptor(const YamlMap& root, const std::string& file,
                                               const std::string& archOverride, const std::string& archDir) {
    ClusterDescriptor cd;
    cd.file = file;
    // Chips: the keys of `arch`, each a Wormhole.
    const YamlMap arch = root.map("arch");
    std::set<unsigned> ids;
    for (const std::string& k : arch.keys()) {
        const unsigned id = chipKey(arch, k);
        const std::string a = lower(arch.get<std::string>(k));
        if (a != "wormhole" && a != "wormhole_b0")
            arch.fail(k, fmt::format("chip {} is a '{}'; cclsim models Wormhole chips only (wormhole_b0)", id, a));
        ids.insert(id);
    }
    arch.finish();
    if (ids.empty()) root.fail("arch", "lists no chips");
    if (*ids.rbegin() + 1 != ids.size())
        root.fail("arch",
                  fmt::format("chip ids must be 0..{} (one per chip), found up to {}", ids.size() - 1, *ids.rbegin()));
    const std::string archPath = !archOverride.empty() ? archOverride : archDir + "/wormhole_b0.yaml";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(archPath, ec))
        throw ConfigError(fmt::format("{}: the Wormhole arch YAML {} does not exist (pass --arch)", file, archPath));
    cd.arch = loadArchConfig(archPath);
    cd.chips.resize(ids.size());
    for (unsigned c = 0; c < cd.chips.size(); ++c) cd.chips[c].id = c;

    // Ethernet coordinates, when given.
    bool located = false;
    if (const std::optional<YamlMap> chips = root.optMap("chips")) {
        for (const std::string& k : chips->keys()) {
            const unsigned id = chipKey(*chips, k);
            if (id >= cd.chips.size()) chips->fail(k, fmt::format("chip {} is not in arch", id));
            const YamlSeq loc = chips->seq(k);
            if (loc.size() != 4) chips->fail(k, "must be [x, y, rack, shelf]");
            for (std::size_t i = 0; i < 4; ++i) cd.chips[id].location[i] = loc.get<int>(i);
            located = true;
        }
        chips->finish();
    }
    const std::set<unsigned> mmio = mmioChips(root);
    for (unsigned c : mmio) {
        if (c >= cd.chips.size()) root.fail("chips_with_mmio", fmt::format("chip {} is not in arch", c));
        cd.chips[c].pcie = true;
    }

    // Links, each listed once (a writer may list both directions).
    const YamlSeq eth = root.seq("ethernet_connections");
    std::set<std::pair<EthEndpoint, EthEndpoint>> seen;
    for (std::size_t i = 0; i < eth.size(); ++i) {
        const YamlSeq pair = eth.seq(i);
        if (pair.size() != 2) eth.fail(i, "a connection is a pair [{chip, chan}, {chip, chan}]");
        LinkDesc l;
        l.where = eth.where(i);
        EthEndpoint* ends[2] = {&l.a, &l.b};
        for (std::size_t e = 0; e < 2; ++e) {
            const YamlMap m = pair.map(e);
            ends[e]->chip = m.get<unsigned>("chip");
            ends[e]->chan = m.get<unsigned>("chan");
            m.finish();
            if (ends[e]->chip >= cd.chips.size()) m.fail("chip", fmt::format("chip {} is not in arch", ends[e]->chip));
            if (ends[e]->chan >= cd.arch.ethCores.size())
                m.fail("chan", fmt::format("channel {} does not exist (a Wormhole has 0..{})", ends[e]->chan,
                                           cd.arch.ethCores.size() - 1));
        }
        const auto key = l.b < l.a ? std::make_pair(l.b, l.a) : std::make_pair(l.a, l.b);
        if (!seen.insert(key).second) continue;
        cd.links.push_back(l);
    }
    // The link the dispatcher takes to a chip without PCIe: its lowest
    // channel to a chip with PCIe.
    for (unsigned c = 0; c < cd.chips.size(); ++c) {
        if (cd.chips[c].pcie) continue;
        LinkDesc* best = nullptr;
        for (LinkDesc& l : cd.links) {
            const EthEndpoint& far = l.a.chip == c ? l.b : l.a;
            if ((l.a.chip != c && l.b.chip != c) || !cd.chips[far.chip].pcie) continue;
            if (!best || far < (best->a.chip == c ? best->b : best->a)) best = &l;
        }
        if (best) best->dispatch = true;
    }

    // Harvested Tensix rows (any chip's) leave every chip's worker grid.
    if (const std::optional<YamlMap> h = root.optMap("harvesting")) {
        std::set<unsigned> rows;
        for (const std::string& k : h->keys()) {
            const unsigned id = chipKey(*h, k);
            if (id >= cd.chips.size()) h->fail(k, fmt::format("chip {} is not in arch", id));
            const YamlMap m = h->map(k);
            const unsigned mask = m.get<unsigned>("harvest_mask", 0u);
            if (mask >> std::size(kHarvestRows))
                m.fail("harvest_mask", fmt::format("0x{:x} has bits beyond Wormhole's 10 Tensix rows", mask));
            for (unsigned b = 0; b < std::size(kHarvestRows); ++b)
                if (mask & (1u << b)) rows.insert(kHarvestRows[b]);
            // noc_translation and the DRAM/Ethernet/PCIe masks do not change the model.
        }
        if (!rows.empty()) {
            auto& w = cd.arch.workers;
            w.erase(std::remove_if(w.begin(), w.end(), [&](const CoreCoord& c) { return rows.count(c.y) != 0; }),
                    w.end());
            if (w.empty()) root.fail("harvesting", "harvests every Tensix row");
        }
    }

    // A name: the boards' types, else the file's stem.
    std::string boards;
    if (root.has("boards")) {
        const YamlSeq bs = root.seq("boards");
        for (std::size_t i = 0; i < bs.size(); ++i) {
            const YamlSeq parts = bs.seq(i);
            for (std::size_t p = 0; p < parts.size(); ++p) {
                const YamlMap part = parts.map(p);
                if (part.has("board_type")) boards += (boards.empty() ? "" : "+") + part.get<std::string>("board_type");
            }
        }
    }
    cd.name = !boards.empty() ? boards : std::filesystem::path(file).stem().string();

    // A mesh from the chips' [x, y] when they tile a full grid, and a ring.
    if (located) {
        int maxX = 0, maxY = 0;
        std::map<std::pair<int, int>, unsigned> at;
        bool flat = true;
        for (const ChipDesc& c : cd.chips) {
            maxX = std::max(maxX, c.location[0]);
            maxY = std::max(maxY, c.location[1]);
            flat &= c.location[2] == 0 && c.location[3] == 0 && c.location[0] >= 0 && c.location[1] >= 0;
            at[{c.location[1], c.location[0]}] = c.id;
        }
        const unsigned rows = unsigned(maxY) + 1, cols = unsigned(maxX) + 1;
        if (flat && at.size() == cd.chips.size() && std::size_t(rows) * cols == cd.chips.size()) {
            cd.mesh = std::array<unsigned, 2>{rows, cols};
            for (const auto& [yx, id] : at) cd.meshOrder.push_back(id);  // (y, x) order: row-major
        }
    }
    if (cd.mesh) {
        std::vector<unsigned> ring;
        for (unsigned cell : gridRing((*cd.mesh)[0], (*cd.mesh)[1])) ring.push_back(cd.meshOrder[cell]);
        if (!ring.empty() && cd.linksAround(ring)) cd.ringOrder = ring;
    } else if (cd.chips.size() == 2 && cd.linksAround({0, 1})) {
        cd.ringOrder = {0, 1};
    }
    // No coordinates (chips: {}): search, on boards up to a Galaxy's size
    // (the search recurses once per chip and its budget is for such sizes).
    if (cd.ringOrder.empty() && cd.chips.size() >= 3 && cd.chips.size() <= kMaxSearchedChips)
        cd.ringOrder = searchRing(cd);
    return cd;
}

}  // namespace cclsim
