#include "tools/sweep/SweepSpec.h"

#include "models/common/Yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <regex>
#include <set>

namespace cclsim::sweep {

namespace {

// Options the sweep tool sets itself on every point.
const std::set<std::string> kReserved{"json", "csv", "plot", "vcd", "sweep", "jobs", "j", "quiet", "help", "h"};

// Points beyond this are almost certainly a mistake in the spec.
constexpr std::size_t kMaxPoints = 100000;

/// A scalar or a list of scalars (comma-joined) as one option value; `where`
/// names the place ("s.yaml:7: key 'sweep.size[0]'").
OptionValue decodeValue(const std::string& key, const YAML::Node& n, const std::string& where) {
    OptionValue v;
    v.key = key;
    if (n.IsScalar()) {
        const std::string& s = n.Scalar();
        if (n.Tag() != "!" && (s == "true" || s == "false")) {  // a quoted "true" is a value
            v.flag = s == "true";
            v.omit = s == "false";
            return v;
        }
        if (s.empty()) throw SweepError(fmt::format("{} has an empty value", where));
        v.value = s;
        return v;
    }
    if (n.IsSequence()) {
        if (n.size() == 0) throw SweepError(fmt::format("{} is an empty list", where));
        for (std::size_t i = 0; i < n.size(); ++i) {
            if (!n[i].IsScalar())
                throw SweepError(
                    fmt::format("{} must hold scalars, found a nested {}", where, n[i].IsMap() ? "mapping" : "list"));
            v.value += (i ? "," : "") + n[i].Scalar();
        }
        return v;
    }
    throw SweepError(
        fmt::format("{} must be a value or a list of values, found {}", where, n.IsMap() ? "a mapping" : "nothing"));
}

void checkKey(const std::string& key, const std::string& where) {
    static const std::regex kName("[a-z0-9][a-z0-9_-]*");
    if (!std::regex_match(key, kName))
        throw SweepError(
            fmt::format("{} is not an option name (lower case, digits, '-', without the leading dashes)", where));
    if (kReserved.count(key))
        throw SweepError(fmt::format("{}: --{} is set by the sweep tool itself, not by the spec", where, key));
}

/// A name-valued key (board, workload).
std::string name(const YamlMap& doc, const std::string& key) {
    std::string v = doc.get<std::string>(key);
    if (v.empty()) doc.fail(key, "must be a name");
    return v;
}

SweepSpec decode(const YamlMap& doc) {
    const std::string& file = doc.file();
    // A misspelt key is reported before the required key it was meant to be.
    for (const char* k : {"board", "workload", "options", "sweep"}) doc.has(k);
    try {
        doc.finish();
    } catch (const ConfigError& e) {
        throw SweepError(fmt::format("{} (a spec has board, workload, options, sweep)", e.what()));
    }
    SweepSpec s;
    s.file = file;
    s.board = name(doc, "board");
    s.workload = name(doc, "workload");
    std::set<std::string> seen;
    if (const std::optional<YamlMap> options = doc.optMap("options")) {
        for (const std::string& k : options->keys()) {
            const std::string where = options->where(k);
            checkKey(k, where);
            seen.insert(k);
            s.fixed.push_back(decodeValue(k, options->raw(k), where));
            s.keyPlaces.emplace_back(k, where);
        }
    }
    const YamlMap sweep = doc.map("sweep");
    if (sweep.keys().empty()) doc.fail("sweep", "must be a mapping of option: [values, ...]");
    for (const std::string& k : sweep.keys()) {
        const std::string where = sweep.where(k);
        checkKey(k, where);
        if (!seen.insert(k).second)
            throw SweepError(fmt::format("{} is also a fixed option; give it in one place", where));
        if (!sweep.raw(k).IsSequence())
            throw SweepError(fmt::format("{} must be a list of the values to sweep", where));
        const YamlSeq list = sweep.seq(k);
        if (list.size() == 0) throw SweepError(fmt::format("{} is an empty list", where));
        std::vector<OptionValue> values;
        std::set<std::string> distinct;
        for (std::size_t i = 0; i < list.size(); ++i) {
            values.push_back(decodeValue(k, list.node()[i], list.where(i)));
            const OptionValue& v = values.back();
            const std::string text = v.flag ? "true" : v.omit ? "false" : v.value;
            if (!distinct.insert(text).second)
                throw SweepError(fmt::format("{} repeats the value '{}'", list.where(i), text));
        }
        s.axes.emplace_back(k, std::move(values));
        s.keyPlaces.emplace_back(k, where);
    }
    std::size_t n = 1;
    for (const auto& a : s.axes) {
        n *= a.second.size();
        if (n > kMaxPoints) throw SweepError(fmt::format("{}: the sweep has more than {} points", s.file, kMaxPoints));
    }
    return s;
}

/// Read with the shared reader (models/common/Yaml.h); its errors
/// (ConfigError, file:line:key) become the tool's.
template <class Load> SweepSpec decodeChecked(Load load) {
    try {
        return decode(load());
    } catch (const ConfigError& e) {
        throw SweepError(e.what());
    }
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
    return decodeChecked([&] { return YamlMap::loadFile(file); });
}

SweepSpec loadSpecString(const std::string& text, const std::string& pseudoFile) {
    return decodeChecked([&] { return YamlMap::loadString(text, pseudoFile); });
}

std::string optionFlag(const std::string& key) {
    return (key.size() == 1 ? "-" : "--") + key;
}

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
