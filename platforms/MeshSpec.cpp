#include "platforms/MeshSpec.h"

#include <fmt/format.h>

namespace cclsim {

namespace {

/// Channel groups per direction, in channel order (see MeshSpec.h).
enum Direction : unsigned { kNorth = 0, kWest = 1, kSouth = 2, kEast = 3 };

}  // namespace

MeshSpec decodeMeshSpec(const YamlMap& m, unsigned ethChannels) {
    MeshSpec s;
    s.where = m.where("links_per_pair");
    s.rows = m.get<unsigned>("rows");
    s.cols = m.get<unsigned>("cols");
    s.linksPerPair = m.get<unsigned>("links_per_pair");
    s.torus = m.get<bool>("torus", false);
    if (s.rows == 0) m.fail("rows", "must be >= 1");
    if (s.cols == 0) m.fail("cols", "must be >= 1");
    if (s.rows * s.cols < 2) m.fail("rows", "a mesh needs at least two chips (rows x cols >= 2)");
    if (s.rows > 64 || s.cols > 64) m.fail(s.rows > 64 ? "rows" : "cols", "must be <= 64");
    const unsigned group = ethChannels / 4;
    if (s.linksPerPair == 0) m.fail("links_per_pair", "must be >= 1");
    if (s.linksPerPair > group)
        m.fail("links_per_pair",
               fmt::format("is {}, but a chip's {} Ethernet channels give each of the four mesh directions {} "
                           "(at most {} links per neighbour pair)",
                           s.linksPerPair, ethChannels, group, group));

    const unsigned n = s.rows * s.cols;
    s.pcie.assign(n, false);
    if (!m.has("pcie")) m.fail("pcie", "is required: 'all' or a list of the chip ids with a PCIe connection");
    if (m.node()["pcie"].IsScalar()) {
        const std::string v = m.get<std::string>("pcie");
        if (v != "all") m.fail("pcie", fmt::format("must be 'all' or a list of chip ids, found '{}'", v));
        s.pcie.assign(n, true);
    } else {
        const YamlSeq ids = m.seq("pcie");
        if (ids.size() == 0) m.fail("pcie", "must name at least one chip");
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const unsigned id = ids.get<unsigned>(i);
            if (id >= n) ids.fail(i, fmt::format("chip {} does not exist (the mesh has chips 0..{})", id, n - 1));
            if (s.pcie[id]) ids.fail(i, fmt::format("chip {} is listed twice", id));
            s.pcie[id] = true;
        }
    }
    m.finish();
    return s;
}

std::vector<ChipDesc> meshChips(const MeshSpec& s) {
    std::vector<ChipDesc> chips;
    for (unsigned r = 0; r < s.rows; ++r)
        for (unsigned c = 0; c < s.cols; ++c) {
            ChipDesc d;
            d.id = r * s.cols + c;
            d.location = {int(c), int(r), 0, 0};
            d.pcie = s.pcie[d.id];
            chips.push_back(d);
        }
    return chips;
}

std::vector<LinkDesc> meshLinks(const MeshSpec& s, unsigned ethChannels) {
    const unsigned group = ethChannels / 4;
    auto id = [&](unsigned r, unsigned c) { return r * s.cols + c; };
    std::vector<LinkDesc> links;
    // `from` leaves through its `out` group, `to` receives on the opposite group.
    auto join = [&](unsigned from, Direction out, unsigned to, Direction in, bool wrap) {
        for (unsigned k = 0; k < s.linksPerPair; ++k) {
            LinkDesc l;
            l.a = EthEndpoint{from, out * group + k};
            l.b = EthEndpoint{to, in * group + k};
            l.torus = wrap;
            l.where = fmt::format("{} (generated link chip {} ch {} <-> chip {} ch {})", s.where, l.a.chip, l.a.chan,
                                  l.b.chip, l.b.chan);
            links.push_back(l);
        }
    };
    for (unsigned r = 0; r < s.rows; ++r)
        for (unsigned c = 0; c < s.cols; ++c) {
            if (c + 1 < s.cols) join(id(r, c), kEast, id(r, c + 1), kWest, false);
            if (r + 1 < s.rows) join(id(r, c), kSouth, id(r + 1, c), kNorth, false);
        }
    if (s.torus) {
        // A dimension of one chip has nothing to wrap to.
        if (s.cols > 1)
            for (unsigned r = 0; r < s.rows; ++r) join(id(r, s.cols - 1), kEast, id(r, 0), kWest, true);
        if (s.rows > 1)
            for (unsigned c = 0; c < s.cols; ++c) join(id(s.rows - 1, c), kSouth, id(0, c), kNorth, true);
    }
    return links;
}

std::vector<unsigned> meshRing(const MeshSpec& s) {
    return gridRing(s.rows, s.cols);
}

std::vector<unsigned> gridRing(unsigned rows, unsigned cols) {
    if (rows * cols == 2) return {0, 1};
    if (rows < 2 || cols < 2 || (rows % 2 && cols % 2)) return {};
    // Walk a grid of `major` lines of `minor` chips each, `major` even; `at`
    // maps (line, position) to a cell index.
    const bool byRows = rows % 2 == 0;
    const unsigned major = byRows ? rows : cols, minor = byRows ? cols : rows;
    auto at = [&](unsigned line, unsigned pos) { return byRows ? line * cols + pos : pos * cols + line; };
    std::vector<unsigned> ring;
    for (unsigned p = 0; p < minor; ++p) ring.push_back(at(0, p));
    for (unsigned l = 1; l < major; ++l)
        for (unsigned k = 1; k < minor; ++k) ring.push_back(at(l, l % 2 ? minor - k : k));
    for (unsigned l = major - 1; l >= 1; --l) ring.push_back(at(l, 0));
    return ring;
}

}  // namespace cclsim
