#include "host/ccl/CommGroups.h"

#include "models/common/Report.h"

#include <fmt/format.h>

namespace cclsim::ccl {

const char* groupKindName(GroupKind k) {
    switch (k) {
        case GroupKind::All: return "all";
        case GroupKind::Consecutive: return "consecutive";
        case GroupKind::Orthogonal: return "orthogonal";
    }
    return "?";
}

std::string GroupSpec::text() const {
    return kind == GroupKind::All ? "all" : fmt::format("{}:{}", groupKindName(kind), size);
}

GroupSpec parseGroup(const std::string& s) {
    if (s == "all") return GroupSpec{};
    const auto colon = s.find(':');
    const std::string kind = s.substr(0, colon);
    GroupSpec g;
    if (kind == "consecutive")
        g.kind = GroupKind::Consecutive;
    else if (kind == "orthogonal")
        g.kind = GroupKind::Orthogonal;
    else
        throw ConfigError(fmt::format("--group {}: expected all, consecutive:K or orthogonal:K", s));
    try {
        std::size_t pos = 0;
        if (colon == std::string::npos) throw std::invalid_argument(s);
        const std::string k = s.substr(colon + 1);
        const unsigned long v = std::stoul(k, &pos);
        if (pos != k.size() || v < 1 || v > 4096) throw std::invalid_argument(s);
        g.size = unsigned(v);
    } catch (const std::exception&) {
        throw ConfigError(fmt::format("--group {}: the group size K must be a whole number >= 1", s));
    }
    return g;
}

std::vector<std::vector<unsigned>> commGroups(unsigned replicas, const GroupSpec& g) {
    std::vector<std::vector<unsigned>> out;
    if (g.kind == GroupKind::All) {
        out.emplace_back();
        for (unsigned r = 0; r < replicas; ++r) out.back().push_back(r);
        return out;
    }
    const unsigned k = g.size;
    if (k == 0 || replicas % k)
        throw ConfigError(
            fmt::format("--group {}: a group size of {} does not divide the {} replicas", g.text(), k, replicas));
    const unsigned m = replicas / k;  // number of groups
    for (unsigned i = 0; i < m; ++i) {
        out.emplace_back();
        for (unsigned j = 0; j < k; ++j) out.back().push_back(g.kind == GroupKind::Consecutive ? i * k + j : i + j * m);
    }
    return out;
}

}  // namespace cclsim::ccl
