#include "tools/sweep/SweepSpec.h"

#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <regex>
#include <set>

namespace cclsim::sweep {

namespace {

// Options the sweep tool sets itself on every point.
const std::set<std::string> kReserved{"json", "csv", "plot", "vcd", "sweep", "jobs", "j", "quiet", "help", "h"};

// Points beyond this are almost certainly a mistake in the spec.
constexpr std::size_t kMaxPoints = 100000;

std::string location(const std::string& file, const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    return m.line < 0 ? file : fmt::format("{}:{}", file, m.line + 1);
}

std::string where(const YAML::Node& n, const std::string& file, const std::string& key) {
    return fmt::format("{}: key '{}'", location(file, n), key);
}

/// The entries of a mapping in document order, each with its key node.
struct Entry {
    std::string key;
    YAML::Node keyNode;
    YAML::Node value;
};
std::vector<Entry> entries(const YAML::Node& map) {
    std::vector<Entry> out;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const YAML::Node k = it->first;
        const YAML::Node v = it->second;
        out.push_back(Entry{k.Scalar(), k, v});
    }
    return out;
}

/// A scalar or a list of scalars (comma-joined) as one option value.
OptionValue decodeValue(const std::string& key, const YAML::Node& n, const std::string& file, const std::string& path) {
    OptionValue v;
    v.key = key;
    if (n.IsScalar()) {
        const std::string s = n.Scalar();
        if (n.Tag() != "!" && (s == "true" || s == "false")) {
            v.flag = s == "true";
            v.omit = s == "false";
            return v;
        }
        if (s.empty()) throw SweepError(fmt::format("{} has an empty value", where(n, file, path)));
        v.value = s;
        return v;
    }
    if (n.IsSequence()) {
        if (n.size() == 0) throw SweepError(fmt::format("{} is an empty list", where(n, file, path)));
        for (std::size_t i = 0; i < n.size(); ++i) {
            if (!n[i].IsScalar())
                throw SweepError(fmt::format("{} must hold scalars, found a nested {}", where(n[i], file, path),
                                              n[i].IsMap() ? "mapping" : "list"));
            v.value += (i ? "," : "") + n[i].Scalar();
        }
        return v;
    }
    throw SweepError(fmt::format("{} must be a value or a list of values, found {}", where(n, file, path),
                                  n.IsMap() ? "a mapping" : "nothing"));
}

void checkKey(const std::string& key, const YAML::Node& keyNode, const std::string& file, const std::string& path) {
    static const std::regex kName("[a-z0-9][a-z0-9_-]*");
    if (!std::regex_match(key, kName))
        throw SweepError(fmt::format("{} is not an option name (lower case, digits, '-', without the leading dashes)",
                                      where(keyNode, file, path)));
    if (kReserved.count(key))
        throw SweepError(fmt::format("{}: --{} is set by the sweep tool itself, not by the spec",
                                      where(keyNode, file, path), key));
}

SweepSpec decode(const YAML::Node& root, const std::string& file) {
    SweepSpec s;
    s.file = file;
    if (!root.IsMap()) throw SweepError(fmt::format("{}: a sweep spec is a mapping (board, workload, options, sweep)", file));
    YAML::Node sweepKey, sweepNode;
    bool hasBoard = false, hasWorkload = false, hasSweep = false;
    std::set<std::string> seen;
    for (const Entry& e : entries(root)) {
        const auto scalar = [&]() {
            if (!e.value.IsScalar() || e.value.Scalar().empty())
                throw SweepError(fmt::format("{} must be a name", where(e.keyNode, file, e.key)));
            return e.value.Scalar();
        };
        if (e.key == "board") {
            s.board = scalar();
            hasBoard = true;
        } else if (e.key == "workload") {
            s.workload = scalar();
            hasWorkload = true;
        } else if (e.key == "options") {
            if (e.value.IsNull()) continue;
            if (!e.value.IsMap())
                throw SweepError(fmt::format("{} must be a mapping of option: value", where(e.keyNode, file, e.key)));
            for (const Entry& o : entries(e.value)) {
                const std::string path = "options." + o.key;
                checkKey(o.key, o.keyNode, file, path);
                seen.insert(o.key);
                s.fixed.push_back(decodeValue(o.key, o.value, file, path));
                s.keyPlaces.emplace_back(o.key, where(o.keyNode, file, path));
            }
        } else if (e.key == "sweep") {
            sweepKey = e.keyNode;
            sweepNode = e.value;
            hasSweep = true;
        } else {
            throw SweepError(fmt::format("{}: unknown key '{}' (a spec has board, workload, options, sweep)",
                                         location(file, e.keyNode), e.key));
        }
    }
    if (!hasBoard) throw SweepError(fmt::format("{}: key 'board' is required but missing", file));
    if (!hasWorkload) throw SweepError(fmt::format("{}: key 'workload' is required but missing", file));
    if (!hasSweep) throw SweepError(fmt::format("{}: key 'sweep' is required but missing", file));
    if (!sweepNode.IsMap() || sweepNode.size() == 0)
        throw SweepError(fmt::format("{} must be a mapping of option: [values, ...]", where(sweepKey, file, "sweep")));
    for (const Entry& e : entries(sweepNode)) {
        const std::string& k = e.key;
        const std::string path = "sweep." + k;
        checkKey(k, e.keyNode, file, path);
        if (seen.count(k))
            throw SweepError(fmt::format("{} is also a fixed option; give it in one place", where(e.keyNode, file, path)));
        seen.insert(k);
        const YAML::Node& list = e.value;
        if (!list.IsSequence())
            throw SweepError(fmt::format("{} must be a list of the values to sweep", where(e.keyNode, file, path)));
        if (list.size() == 0) throw SweepError(fmt::format("{} is an empty list", where(e.keyNode, file, path)));
        std::vector<OptionValue> values;
        std::set<std::string> distinct;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string ipath = fmt::format("{}[{}]", path, i);
            values.push_back(decodeValue(k, list[i], file, ipath));
            const OptionValue& v = values.back();
            const std::string text = v.flag ? "true" : v.omit ? "false" : v.value;
            if (!distinct.insert(text).second)
                throw SweepError(fmt::format("{} repeats the value '{}'", where(list[i], file, ipath), text));
        }
        s.axes.emplace_back(k, std::move(values));
        s.keyPlaces.emplace_back(k, where(e.keyNode, file, path));
    }
    std::size_t n = 1;
    for (const auto& a : s.axes) {
        n *= a.second.size();
        if (n > kMaxPoints)
            throw SweepError(fmt::format("{}: the sweep has more than {} points", s.file, kMaxPoints));
    }
    return s;
}

}  // namespace

std::size_t SweepSpec::points() const {
    std::size_t n = 1;
    for (const auto& a : axes) n *= a.second.size();
    return n;
}

namespace {
/// Index into each axis of point `i` (the first axis outermost).
std::vector<std::size_t> digits(const SweepSpec& s, std::size_t i) {
    std::vector<std::size_t> d(s.axes.size());
    for (std::size_t k = s.axes.size(); k-- > 0;) {
        d[k] = i % s.axes[k].second.size();
        i /= s.axes[k].second.size();
    }
    return d;
}
}  // namespace

std::vector<OptionValue> SweepSpec::pointOptions(std::size_t i) const {
    std::vector<OptionValue> out = fixed;
    const auto d = digits(*this, i);
    for (std::size_t k = 0; k < axes.size(); ++k) out.push_back(axes[k].second[d[k]]);
    return out;
}

std::vector<std::string> SweepSpec::pointValues(std::size_t i) const {
    std::vector<std::string> out;
    const auto d = digits(*this, i);
    for (std::size_t k = 0; k < axes.size(); ++k) {
        const OptionValue& v = axes[k].second[d[k]];
        out.push_back(v.flag ? "true" : v.omit ? "false" : v.value);
    }
    return out;
}

std::vector<std::string> SweepSpec::sweptKeys() const {
    std::vector<std::string> out;
    for (const auto& a : axes) out.push_back(a.first);
    return out;
}

SweepSpec loadSpec(const std::string& file) {
    YAML::Node root;
    try {
        root = YAML::LoadFile(file);
    } catch (const YAML::BadFile&) {
        throw SweepError(fmt::format("{}: cannot open file", file));
    } catch (const YAML::ParserException& e) {
        throw SweepError(fmt::format("{}:{}: YAML syntax error: {}", file, e.mark.line + 1, e.msg));
    }
    return decode(root, file);
}

SweepSpec loadSpecString(const std::string& text, const std::string& pseudoFile) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw SweepError(fmt::format("{}:{}: YAML syntax error: {}", pseudoFile, e.mark.line + 1, e.msg));
    }
    return decode(root, pseudoFile);
}

std::string optionFlag(const std::string& key) { return (key.size() == 1 ? "-" : "--") + key; }

std::vector<std::string> optionArgs(const std::vector<OptionValue>& options) {
    std::vector<std::string> out;
    for (const OptionValue& v : options) {
        if (v.omit) continue;
        out.push_back(optionFlag(v.key));
        if (!v.flag) out.push_back(v.value);
    }
    return out;
}

void checkOptions(const SweepSpec& spec, const std::string& help) {
    // CLI11 lists options as "-b,--minbytes TEXT" or "--size TEXT".
    std::set<std::string> known;
    static const std::regex kOpt("(^|[\\s,])(--?[A-Za-z0-9][A-Za-z0-9_-]*)");
    for (auto it = std::sregex_iterator(help.begin(), help.end(), kOpt); it != std::sregex_iterator(); ++it)
        known.insert((*it)[2]);
    for (const auto& [key, place] : spec.keyPlaces)
        if (!known.count(optionFlag(key)))
            throw SweepError(fmt::format("{}: {} {} takes no option {} (see {} {} --help)", place, spec.board,
                                          spec.workload, optionFlag(key), spec.board, spec.workload));
}

}  // namespace cclsim::sweep
