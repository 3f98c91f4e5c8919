#include "platforms/ClusterDescriptor.h"

#include "models/common/Yaml.h"
#include "platforms/MeshSpec.h"
#include "platforms/TtClusterDescriptor.h"

#include <filesystem>
#include <set>

namespace cclsim {

namespace {

std::string dirOf(const std::string& file) {
    const auto slash = file.rfind('/');
    return slash == std::string::npos ? std::string(".") : file.substr(0, slash);
}

EthEndpoint endpoint(const YamlMap& m, const ClusterDescriptor& cd) {
    EthEndpoint e;
    e.chip = m.get<unsigned>("chip");
    e.chan = m.get<unsigned>("chan");
    m.finish();
    if (e.chip >= cd.chips.size())
        m.fail("chip", fmt::format("refers to chip {} but the cluster has chips 0..{}", e.chip, cd.chips.size() - 1));
    if (e.chan >= cd.arch.ethCores.size())
        m.fail("chan", fmt::format("refers to Ethernet channel {} but a {} chip has channels 0..{}", e.chan,
                                   cd.arch.name, cd.arch.ethCores.size() - 1));
    return e;
}

}  // namespace

ClusterDescriptor loadClusterDescriptor(const std::string& file, const std::string& archOverride, bool torus,
                                        const std::string& archDir) {
    const YamlMap root = YamlMap::loadFile(file);
    if (isTtMetalClusterDescriptor(root)) {
        if (torus)
            throw ConfigError(
                fmt::format("{}: --torus: a tt-metal cluster descriptor lists every cabled link "
                            "already (there are no torus-only links to add)",
                            file));
        return loadTtMetalClusterDescriptor(root, file, archOverride,
                                            archDir.empty() ? dirOf(file) + "/arch" : archDir);
    }
    ClusterDescriptor cd;
    cd.file = file;
    cd.name = root.get<std::string>("name");
    const std::string archRel = root.get<std::string>("arch");
    const std::string archPath =
        !archOverride.empty() ? archOverride : (archRel.rfind('/', 0) == 0 ? archRel : dirOf(file) + "/" + archRel);
    // A missing arch file is the descriptor's (or --arch's) error: say which
    // line named it, not only that the file is not there.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(archPath, ec)) {
        const std::string why = std::filesystem::exists(archPath, ec) ? "is not a file" : "does not exist";
        if (!archOverride.empty()) throw ConfigError(fmt::format("--arch {}: {}", archOverride, why));
        root.fail("arch", fmt::format("names {}, which {}", archPath, why));
    }
    cd.arch = loadArchConfig(archPath);

    // A mesh spec with links_per_pair generates the chips and links
    // (platforms/MeshSpec.h); otherwise they are written out.
    const std::optional<YamlMap> meshMap = root.optMap("mesh");
    const bool generated = meshMap && meshMap->has("links_per_pair");
    std::vector<LinkDesc> allLinks;
    std::optional<MeshSpec> spec;
    if (generated) {
        for (const char* key : {"chips", "links"})
            if (root.has(key))
                root.fail(key, "is generated from mesh: {rows, cols, links_per_pair, ...}: give one or the other");
        spec = decodeMeshSpec(*meshMap, unsigned(cd.arch.ethCores.size()));
        cd.chips = meshChips(*spec);
        allLinks = meshLinks(*spec, unsigned(cd.arch.ethCores.size()));
        for (LinkDesc& l : allLinks)  // the same checks as a written-out link
            for (const EthEndpoint& e : {l.a, l.b})
                if (e.chip >= cd.chips.size() || e.chan >= cd.arch.ethCores.size())
                    throw ConfigError(fmt::format("{}: chip {} channel {} does not exist", l.where, e.chip, e.chan));
    } else {
        const YamlSeq chips = root.seq("chips");
        if (chips.size() == 0) root.fail("chips", "must list at least one chip");
        cd.chips.resize(chips.size());
        std::vector<bool> seen(chips.size(), false);
        for (std::size_t i = 0; i < chips.size(); ++i) {
            const YamlMap c = chips.map(i);
            ChipDesc d;
            d.id = c.get<unsigned>("id");
            if (d.id >= chips.size())
                c.fail("id", fmt::format("chip ids must be 0..{} (one per listed chip)", chips.size() - 1));
            if (seen[d.id]) c.fail("id", fmt::format("chip {} is listed twice", d.id));
            seen[d.id] = true;
            if (c.has("location")) {
                const YamlSeq loc = c.seq("location");
                if (loc.size() != 4) c.fail("location", "must be [x, y, rack, shelf]");
                for (std::size_t k = 0; k < 4; ++k) d.location[k] = loc.get<int>(k);
            }
            d.pcie = c.get<bool>("pcie", false);
            c.finish();
            cd.chips[d.id] = d;
        }
        if (root.has("links")) {
            const YamlSeq links = root.seq("links");
            for (std::size_t i = 0; i < links.size(); ++i) {
                const YamlMap l = links.map(i);
                LinkDesc ld;
                ld.where = links.where(i);
                ld.a = endpoint(l.map("a"), cd);
                ld.b = endpoint(l.map("b"), cd);
                ld.dispatch = l.get<bool>("dispatch", false);
                ld.torus = l.get<bool>("torus", false);
                l.finish();
                allLinks.push_back(ld);
            }
        }
    }

    std::map<EthEndpoint, std::string> used;
    unsigned torusLinks = 0;
    for (const LinkDesc& ld : allLinks) {
        if (ld.a.chip == ld.b.chip)
            throw ConfigError(fmt::format("{} connects chip {} to itself", ld.where, ld.a.chip));
        for (const EthEndpoint& e : {ld.a, ld.b}) {
            auto [it, fresh] = used.emplace(e, ld.where);
            if (!fresh)
                throw ConfigError(fmt::format("{} uses chip {} channel {}, which is already used by the link at {}",
                                              ld.where, e.chip, e.chan, it->second));
        }
        if (ld.torus) ++torusLinks;
        if (ld.torus && !torus) continue;  // an open edge without --torus
        cd.links.push_back(ld);
    }
    if (torus && torusLinks == 0)
        throw ConfigError(fmt::format("{}: --torus, but the cluster '{}' has no links marked torus: true{}", file,
                                      cd.name,
                                      generated ? " (its mesh spec would generate them with torus: true)" : ""));

    if (spec && !root.has("ring_order")) cd.ringOrder = meshRing(*spec);  // a generated mesh's default ring
    if (root.has("ring_order")) {
        const YamlSeq ro = root.seq("ring_order");
        std::set<unsigned> s;
        for (std::size_t i = 0; i < ro.size(); ++i) {
            const unsigned c = ro.get<unsigned>(i);
            if (c >= cd.chips.size()) ro.fail(i, fmt::format("chip {} does not exist", c));
            if (!s.insert(c).second) ro.fail(i, fmt::format("chip {} appears twice", c));
            cd.ringOrder.push_back(c);
        }
    }
    if (auto ro = root.optMap("ring_orders")) {
        for (const std::string& key : ro->keys()) {
            unsigned hops = 0;
            std::size_t used = 0;
            try {
                hops = unsigned(std::stoul(key, &used));
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != key.size() || hops < 2) ro->fail(key, "keys are hop counts (integers >= 2)");
            const YamlSeq s = ro->seq(key);
            std::vector<unsigned> order;
            for (std::size_t i = 0; i < s.size(); ++i) {
                const unsigned c = s.get<unsigned>(i);
                if (c >= cd.chips.size()) s.fail(i, fmt::format("chip {} does not exist", c));
                order.push_back(c);
            }
            if (order.size() != hops) ro->fail(key, fmt::format("lists {} chips for {} hops", order.size(), hops));
            cd.ringOrders[hops] = order;
        }
        ro->finish();
    }
    if (meshMap) {
        const unsigned rows = meshMap->get<unsigned>("rows"), cols = meshMap->get<unsigned>("cols");
        for (const char* key : {"torus", "pcie"})
            if (!generated && meshMap->has(key))
                meshMap->fail(key, "belongs to a generated mesh: add links_per_pair (and drop chips and links)");
        meshMap->finish();
        if (std::size_t(rows) * cols != cd.chips.size())
            meshMap->fail("rows", "rows x cols must equal the number of chips");
        cd.mesh = std::array<unsigned, 2>{rows, cols};
    }
    if (root.has("mesh_order")) {
        if (!cd.mesh) root.fail("mesh_order", "needs a mesh: {rows, cols}");
        const YamlSeq mo = root.seq("mesh_order");
        if (mo.size() != cd.chips.size()) root.fail("mesh_order", "must list every chip once, row by row");
        std::set<unsigned> s;
        for (std::size_t i = 0; i < mo.size(); ++i) {
            const unsigned c = mo.get<unsigned>(i);
            if (c >= cd.chips.size() || !s.insert(c).second)
                mo.fail(i, fmt::format("chip {} is unknown or repeated", c));
            cd.meshOrder.push_back(c);
        }
    } else if (cd.mesh) {
        for (unsigned c = 0; c < cd.chips.size(); ++c) cd.meshOrder.push_back(c);
    }
    root.finish();
    return cd;
}

std::vector<const LinkDesc*> ClusterDescriptor::linksBetween(unsigned c0, unsigned c1) const {
    std::vector<const LinkDesc*> out;
    for (const LinkDesc& l : links)
        if ((l.a.chip == c0 && l.b.chip == c1) || (l.a.chip == c1 && l.b.chip == c0)) out.push_back(&l);
    return out;
}

std::vector<const LinkDesc*> ClusterDescriptor::userLinksBetween(unsigned c0, unsigned c1) const {
    std::vector<const LinkDesc*> out;
    for (const LinkDesc* l : linksBetween(c0, c1))
        if (!l->dispatch && !l->excluded) out.push_back(l);
    return out;
}

bool ClusterDescriptor::linksAround(const std::vector<unsigned>& order) const {
    for (std::size_t i = 0; i < order.size(); ++i)
        if (userLinksBetween(order[i], order[(i + 1) % order.size()]).empty()) return false;
    return true;
}

const LinkDesc* ClusterDescriptor::linkAt(EthEndpoint e) const {
    for (const LinkDesc& l : links)
        if (l.a == e || l.b == e) return &l;
    return nullptr;
}

}  // namespace cclsim
