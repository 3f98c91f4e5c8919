#include "host/ccl/MethodTable.h"

#include "host/ccl/CclOpError.h"
#include "models/common/Report.h"
#include "models/common/Yaml.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim::ccl {

namespace {

golden::Op parseOp(const std::string& s, const std::string& where) {
    std::string names;
    for (golden::Op op : golden::kAllOps) {
        if (s == golden::opName(op)) return op;
        names += fmt::format("{}{}", names.empty() ? "" : ", ", golden::opName(op));
    }
    throw ConfigError(fmt::format("{}: unknown op '{}' ({})", where, s, names));
}

template <class T, class Parse> std::vector<T> list(const YamlMap& m, const std::string& key, Parse&& parse) {
    std::vector<T> out;
    if (!m.has(key)) return out;
    const YamlSeq s = m.seq(key);
    for (std::size_t i = 0; i < s.size(); ++i) out.push_back(parse(s.get<std::string>(i), s.where(i)));
    return out;
}

}  // namespace

std::string methodFits(golden::Method m, golden::Op op, TopologyKind topo) {
    using golden::Method;
    if (topo == TopologyKind::Line && m != Method::Line)
        return fmt::format("a line of chips runs method line, not {}", golden::methodName(m));
    if (topo == TopologyKind::Ring && m == Method::Line)
        return fmt::format("method line needs {}", specRef("topology", "line"));
    if (m == Method::Broadcast && op != golden::Op::ReduceScatter && op != golden::Op::AllReduce)
        return fmt::format(
            "method broadcast (broadcast everything, reduce locally) applies to reduce_scatter and "
            "all_reduce, not to {}",
            golden::opName(op));
    return {};
}

MethodTable loadMethodTable(const std::string& file) {
    const YamlMap root = YamlMap::loadFile(file);
    MethodTable t;
    t.file = file;
    t.maxBroadcastSize = root.get<std::uint64_t>("max_broadcast_size", 2048);
    const YamlSeq rules = root.seq("rules");
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const YamlMap m = rules.map(i);
        MethodRule r;
        r.where = rules.where(i);
        r.ops = list<golden::Op>(m, "ops", parseOp);
        r.groups = list<GroupKind>(m, "groups", [](const std::string& s, const std::string& w) {
            if (s == "all") return GroupKind::All;
            if (s == "consecutive") return GroupKind::Consecutive;
            if (s == "orthogonal") return GroupKind::Orthogonal;
            throw ConfigError(fmt::format("{}: unknown group kind '{}' (all, consecutive, orthogonal)", w, s));
        });
        if (m.has("topology")) {
            const std::string tp = m.get<std::string>("topology");
            if (tp != "ring" && tp != "line") m.fail("topology", fmt::format("must be ring or line, found '{}'", tp));
            r.topologies = {tp == "ring" ? TopologyKind::Ring : TopologyKind::Line};
        }
        r.minRanks = m.get<unsigned>("min_ranks", 0);
        r.maxRanks = m.get<unsigned>("max_ranks", r.maxRanks);
        r.minBytes = m.get<std::uint64_t>("min_bytes", 0);
        r.maxBytes = m.get<std::uint64_t>("max_bytes", r.maxBytes);
        r.withinBroadcastSize = m.get<bool>("within_broadcast_size", false);
        const std::string meth = m.get<std::string>("method");
        try {
            r.method = golden::parseMethod(meth);
        } catch (const std::invalid_argument&) {
            m.fail("method", fmt::format("unknown method '{}' (clockwise_ring, anticlockwise_ring, "
                                         "bidirectional_ring_pair, meet_in_middle_ring, broadcast, line)",
                                         meth));
        }
        m.finish();
        t.rules.push_back(r);
    }
    root.finish();
    // Every (op, topology) must find a method.
    for (golden::Op op : golden::kAllOps)
        for (TopologyKind topo : {TopologyKind::Ring, TopologyKind::Line}) {
            bool found = false;
            for (const MethodRule& r : t.rules) {
                const bool always = r.groups.empty() && r.minRanks == 0 &&
                                    r.maxRanks == std::numeric_limits<unsigned>::max() && r.minBytes == 0 &&
                                    r.maxBytes == std::numeric_limits<std::uint64_t>::max() && !r.withinBroadcastSize;
                const bool opOk = r.ops.empty() || std::find(r.ops.begin(), r.ops.end(), op) != r.ops.end();
                const bool topoOk = r.topologies.empty() ||
                                    std::find(r.topologies.begin(), r.topologies.end(), topo) != r.topologies.end();
                if (always && opOk && topoOk && methodFits(r.method, op, topo).empty()) found = true;
            }
            if (!found)
                throw ConfigError(
                    fmt::format("{}: no rule always picks a method for {} on a {} (end the table with a "
                                "rule without size or rank conditions)",
                                file, golden::opName(op), topologyName(topo)));
        }
    return t;
}

MethodChoice chooseMethod(const MethodTable& t, golden::Op op, GroupKind group, TopologyKind topo, unsigned ranks,
                          std::uint64_t bytes) {
    for (const MethodRule& r : t.rules) {
        if (!r.ops.empty() && std::find(r.ops.begin(), r.ops.end(), op) == r.ops.end()) continue;
        if (!r.groups.empty() && std::find(r.groups.begin(), r.groups.end(), group) == r.groups.end()) continue;
        if (!r.topologies.empty() && std::find(r.topologies.begin(), r.topologies.end(), topo) == r.topologies.end())
            continue;
        if (ranks < r.minRanks || ranks > r.maxRanks || bytes < r.minBytes || bytes > r.maxBytes) continue;
        if (r.withinBroadcastSize && std::uint64_t(ranks) * bytes > t.maxBroadcastSize) continue;
        if (!methodFits(r.method, op, topo).empty()) continue;
        return MethodChoice{r.method, r.where};
    }
    throw std::logic_error("method table without a default rule");
}

}  // namespace cclsim::ccl
