#include "models/common/Yaml.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <ios>
#include <limits>
#include <map>
#include <type_traits>

namespace cclsim {

std::string yamlLocation(const std::string& file, const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    if (m.line < 0) return file;
    return fmt::format("{}:{}", file, m.line + 1);
}

namespace {
const char* typeName(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map: return "a mapping";
        case YAML::NodeType::Sequence: return "a list";
        case YAML::NodeType::Scalar: return "a scalar";
        case YAML::NodeType::Null: return "empty";
        default: return "undefined";
    }
}

template <class T> const char* wanted() {
    if constexpr (std::is_same_v<T, bool>)
        return "true or false";
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
        return "a non-negative integer";
    else if constexpr (std::is_integral_v<T>)
        return "an integer";
    else if constexpr (std::is_floating_point_v<T>)
        return "a number";
    else
        return "a string";
}
}  // namespace

template <class T> T yamlScalar(const YAML::Node& n, const std::string& where) {
    if (!n.IsScalar()) throw ConfigError(fmt::format("{}: expected {}, found {}", where, wanted<T>(), typeName(n)));
    const std::string& text = n.Scalar();
    if constexpr (std::is_same_v<T, std::string>) {
        return text;
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // Integers, with 0x hex; reject fractions, signs on unsigned, overflow.
        std::size_t pos = 0;
        long long v = 0;
        try {
            v = std::stoll(text, &pos, 0);
        } catch (const std::exception&) {
            pos = 0;
        }
        if (pos != text.size() || text.empty())
            throw ConfigError(fmt::format("{}: expected {}, found '{}'", where, wanted<T>(), text));
        if (v < 0 && std::is_unsigned_v<T>)
            throw ConfigError(fmt::format("{}: expected {}, found '{}'", where, wanted<T>(), text));
        bool inRange;
        if constexpr (std::is_unsigned_v<T>)
            inRange =
                static_cast<unsigned long long>(v) <= static_cast<unsigned long long>(std::numeric_limits<T>::max());
        else
            inRange = v >= static_cast<long long>(std::numeric_limits<T>::min()) &&
                      v <= static_cast<long long>(std::numeric_limits<T>::max());
        if (!inRange) throw ConfigError(fmt::format("{}: value '{}' is out of range", where, text));
        return static_cast<T>(v);
    } else {
        try {
            return n.as<T>();
        } catch (const YAML::Exception&) {
            throw ConfigError(fmt::format("{}: expected {}, found '{}'", where, wanted<T>(), text));
        }
    }
}

template bool yamlScalar<bool>(const YAML::Node&, const std::string&);
template int yamlScalar<int>(const YAML::Node&, const std::string&);
template unsigned yamlScalar<unsigned>(const YAML::Node&, const std::string&);
template long yamlScalar<long>(const YAML::Node&, const std::string&);
template unsigned long yamlScalar<unsigned long>(const YAML::Node&, const std::string&);
template unsigned long long yamlScalar<unsigned long long>(const YAML::Node&, const std::string&);
template double yamlScalar<double>(const YAML::Node&, const std::string&);
template std::string yamlScalar<std::string>(const YAML::Node&, const std::string&);

YamlMap::YamlMap(const YAML::Node& node, std::string file, std::string path)
    : node_(node), file_(std::move(file)), path_(std::move(path)) {
    if (!node_.IsMap())
        throw ConfigError(fmt::format("{}: '{}' must be a mapping, found {}", yamlLocation(file_, node_),
                                      path_.empty() ? "document" : path_, typeName(node_)));
    // yaml-cpp keeps duplicate keys and lookups see the first: reject them.
    std::map<std::string, YAML::Node> seen;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        if (!it->first.IsScalar()) continue;
        auto [pos, fresh] = seen.emplace(it->first.Scalar(), it->first);
        if (!fresh)
            throw ConfigError(fmt::format("{}: key '{}' is given twice (first at {})", yamlLocation(file_, it->first),
                                          keyPath(it->first.Scalar()), yamlLocation(file_, pos->second)));
    }
}

YamlMap YamlMap::loadFile(const std::string& file) {
    YAML::Node root;
    std::error_code ec;
    // A directory opens like a file and fails only when read, with the C++
    // library's words and no file name.
    if (std::filesystem::is_directory(file, ec)) throw ConfigError(fmt::format("{}: is a directory, not a file", file));
    try {
        root = YAML::LoadFile(file);
    } catch (const YAML::BadFile&) {
        throw ConfigError(fmt::format("{}: cannot open file", file));
    } catch (const YAML::ParserException& e) {
        throw ConfigError(fmt::format("{}:{}: YAML syntax error: {}", file, e.mark.line + 1, e.msg));
    } catch (const std::ios_base::failure& e) {
        throw ConfigError(fmt::format("{}: cannot read the file ({})", file, e.what()));
    }
    return YamlMap(root, file, "");
}

YamlMap YamlMap::loadString(const std::string& text, const std::string& pseudoFile) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw ConfigError(fmt::format("{}:{}: YAML syntax error: {}", pseudoFile, e.mark.line + 1, e.msg));
    }
    return YamlMap(root, pseudoFile, "");
}

YamlMap YamlMap::loadFileWithBase(const std::string& file, const std::string& baseKey) {
    std::vector<std::string> chain;
    return loadChain(file, baseKey, chain);
}

YamlMap YamlMap::loadChain(const std::string& file, const std::string& baseKey, std::vector<std::string>& chain) {
    namespace fs = std::filesystem;
    YamlMap m = loadFile(file);
    std::error_code ec;
    chain.push_back(fs::weakly_canonical(fs::path(file), ec).string());
    if (!m.has(baseKey)) return m;
    const fs::path rel(m.get<std::string>(baseKey));
    const fs::path basePath = rel.is_absolute() ? rel : fs::path(file).parent_path() / rel;
    if (!fs::is_regular_file(basePath, ec))
        m.fail(baseKey,
               fmt::format("names the base file '{}', which does not exist or is not a file", basePath.string()));
    const std::string canon = fs::weakly_canonical(basePath, ec).string();
    for (std::size_t i = 0; i < chain.size(); ++i)
        if (chain[i] == canon) {
            std::string cycle;
            for (std::size_t k = i; k < chain.size(); ++k) cycle += chain[k] + " -> ";
            m.fail(baseKey, fmt::format("makes the base files a cycle: {}{}", cycle, canon));
        }
    m.base_ = std::make_shared<const YamlMap>(loadChain(basePath.string(), baseKey, chain));
    return m;
}

YamlMap::Found YamlMap::find(const std::string& key) const {
    // Look the key up without yaml-cpp's operator[] side effects. A missing
    // key is an undefined node (a default Node would count as a null value).
    for (auto it = node_.begin(); it != node_.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key) return Found{it->second, it->first, this};
    if (base_) return base_->find(key);
    return Found{YAML::Node(YAML::NodeType::Undefined), YAML::Node(YAML::NodeType::Undefined), this};
}

void YamlMap::markUsed(const std::string& key) const {
    used_.insert(key);
    if (base_) base_->markUsed(key);
}

YamlMap YamlMap::layeredChild(const std::string& key, const Found& f) const {
    YamlMap m(f.value, f.layer->file_, keyPath(key));
    // Below the layer that holds the mapping, the next layer's mapping under
    // the same key (if it is one) supplies the keys this one leaves out.
    if (const YamlMap* below = f.layer->base_.get()) {
        const Found g = below->find(key);
        if (g.value && g.value.IsMap()) m.base_ = std::make_shared<const YamlMap>(below->layeredChild(key, g));
    }
    return m;
}

bool YamlMap::has(const std::string& key) const {
    markUsed(key);
    YAML::Node n = child(key);
    return n && !n.IsNull();
}

std::string YamlMap::where(const std::string& key) const {
    // The key's own line: an empty value is positioned at the next token.
    const Found f = find(key);
    return fmt::format("{}: key '{}'", f.key ? yamlLocation(f.layer->file_, f.key) : yamlLocation(file_, node_),
                       keyPath(key));
}

void YamlMap::fail(const std::string& key, const std::string& what) const {
    throw ConfigError(fmt::format("{} {}", where(key), what));
}

YamlMap YamlMap::map(const std::string& key) const {
    markUsed(key);
    const Found f = find(key);
    if (!f.value) fail(key, "is required but missing");
    if (!f.value.IsMap()) fail(key, fmt::format("must be a mapping, found {}", typeName(f.value)));
    return layeredChild(key, f);
}

std::optional<YamlMap> YamlMap::optMap(const std::string& key) const {
    markUsed(key);
    const Found f = find(key);
    if (!f.value || f.value.IsNull()) return std::nullopt;
    if (!f.value.IsMap()) fail(key, fmt::format("must be a mapping, found {}", typeName(f.value)));
    return layeredChild(key, f);
}

YamlSeq YamlMap::seq(const std::string& key) const {
    markUsed(key);
    const Found f = find(key);
    if (!f.value) fail(key, "is required but missing");
    if (!f.value.IsSequence()) fail(key, fmt::format("must be a list, found {}", typeName(f.value)));
    return YamlSeq(f.value, f.layer->file_, keyPath(key));
}

YAML::Node YamlMap::raw(const std::string& key) const {
    used_.insert(key);
    return child(key);
}

std::vector<std::string> YamlMap::keys() const {
    std::vector<std::string> out;
    for (auto it = node_.begin(); it != node_.end(); ++it) out.push_back(it->first.Scalar());
    if (base_)
        for (const std::string& k : base_->keys())
            if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    return out;
}

void YamlMap::renamed(const std::string& oldKey, const std::string& newKey, const std::string& why) const {
    if (child(oldKey)) fail(oldKey, fmt::format("was renamed to '{}' ({})", keyPath(newKey), why));
}

void YamlMap::finish() const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        const std::string k = it->first.Scalar();
        if (!used_.count(k))
            throw ConfigError(fmt::format("{}: unknown key '{}'", yamlLocation(file_, it->first), keyPath(k)));
    }
    if (base_) base_->finish();
}

YamlSeq::YamlSeq(const YAML::Node& node, std::string file, std::string path)
    : node_(node), file_(std::move(file)), path_(std::move(path)) {}

std::string YamlSeq::where(std::size_t i) const {
    return fmt::format("{}: key '{}[{}]'", yamlLocation(file_, i < node_.size() ? node_[i] : node_), path_, i);
}

void YamlSeq::fail(std::size_t i, const std::string& what) const {
    throw ConfigError(fmt::format("{} {}", where(i), what));
}

YamlMap YamlSeq::map(std::size_t i) const {
    if (!node_[i].IsMap()) fail(i, fmt::format("must be a mapping, found {}", typeName(node_[i])));
    return YamlMap(node_[i], file_, fmt::format("{}[{}]", path_, i));
}

YamlSeq YamlSeq::seq(std::size_t i) const {
    if (!node_[i].IsSequence()) fail(i, fmt::format("must be a list, found {}", typeName(node_[i])));
    return YamlSeq(node_[i], file_, fmt::format("{}[{}]", path_, i));
}

}  // namespace cclsim
