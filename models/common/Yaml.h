// Strict YAML reading: every error names the file, the line and the key.
//
// Config decoders walk a document through YamlMap / YamlSeq views. A view
// remembers which keys were read, and `finish()` rejects any key nobody
// asked for, so a misspelt option is an error instead of a silent default.
//
// Overlays: a file may name a base file (loadFileWithBase, e.g. `base:
// wormhole_b0.yaml`) and hold only what differs. The view then reads the two
// documents as one deep-merged mapping without copying either: a key of the
// overlay hides the base's, mappings present in both merge key by key, any
// other value (a scalar, a list, an empty value) replaces the base's whole.
// Every error still names the file and line the value was read from, and
// `finish()` rejects unknown keys of the overlay and of the base alike.
#pragma once

#include "models/common/ConfigError.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cclsim {

class YamlSeq;

class YamlMap {
public:
    YamlMap(const YAML::Node& node, std::string file, std::string path);

    /// Parse a file and return its top-level mapping.
    static YamlMap loadFile(const std::string& file);
    static YamlMap loadString(const std::string& text, const std::string& pseudoFile);
    /// Parse a file that may overlay a base file: a top-level `baseKey`
    /// names it (a path relative to the file). Bases may chain; a missing
    /// base file or a cycle of bases is a ConfigError naming the key.
    static YamlMap loadFileWithBase(const std::string& file, const std::string& baseKey);

    bool has(const std::string& key) const;
    template <class T> T get(const std::string& key) const;
    template <class T> T get(const std::string& key, const T& fallback) const;
    YamlMap map(const std::string& key) const;
    std::optional<YamlMap> optMap(const std::string& key) const;
    YamlSeq seq(const std::string& key) const;
    /// The value of `key` as yaml-cpp holds it (undefined if absent), for
    /// readers with shapes of their own (a scalar or a list, tags); marks it read.
    YAML::Node raw(const std::string& key) const;
    /// The keys in document order.
    std::vector<std::string> keys() const;

    /// Reject keys that were never read.
    void finish() const;
    /// A key that was renamed: its presence is an error naming the new key.
    void renamed(const std::string& oldKey, const std::string& newKey, const std::string& why) const;

    [[noreturn]] void fail(const std::string& key, const std::string& what) const;
    std::string where(const std::string& key) const;
    const std::string& file() const { return file_; }
    const std::string& path() const { return path_; }
    const YAML::Node& node() const { return node_; }

private:
    /// Where a key was found: its value and key nodes and the layer (this
    /// map or one of its bases) that holds them; undefined nodes if absent.
    struct Found {
        YAML::Node value, key;
        const YamlMap* layer;
    };
    Found find(const std::string& key) const;
    YAML::Node child(const std::string& key) const { return find(key).value; }
    void markUsed(const std::string& key) const;
    /// The mapping under `key` (found and checked by the caller), merged
    /// with the bases' mappings under the same key.
    YamlMap layeredChild(const std::string& key, const Found& f) const;
    std::string keyPath(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
    static YamlMap loadChain(const std::string& file, const std::string& baseKey, std::vector<std::string>& chain);

    YAML::Node node_;
    std::string file_;
    std::string path_;
    mutable std::set<std::string> used_;
    std::shared_ptr<const YamlMap> base_;  ///< the layer this map overlays (none: a plain document)
};

class YamlSeq {
public:
    YamlSeq(const YAML::Node& node, std::string file, std::string path);
    std::size_t size() const { return node_.size(); }
    template <class T> T get(std::size_t i) const;
    YamlMap map(std::size_t i) const;
    YamlSeq seq(std::size_t i) const;
    [[noreturn]] void fail(std::size_t i, const std::string& what) const;
    std::string where(std::size_t i) const;
    const std::string& path() const { return path_; }
    const YAML::Node& node() const { return node_; }

private:
    YAML::Node node_;
    std::string file_;
    std::string path_;
};

/// Convert a scalar, throwing ConfigError with `where` on failure.
template <class T> T yamlScalar(const YAML::Node& n, const std::string& where);

std::string yamlLocation(const std::string& file, const YAML::Node& n);

// ---- implementation of the templates -------------------------------------

template <class T> T YamlMap::get(const std::string& key) const {
    markUsed(key);
    YAML::Node n = child(key);
    if (!n) fail(key, "is required but missing");
    return yamlScalar<T>(n, where(key));
}

template <class T> T YamlMap::get(const std::string& key, const T& fallback) const {
    markUsed(key);
    YAML::Node n = child(key);
    if (!n || n.IsNull()) return fallback;
    return yamlScalar<T>(n, where(key));
}

template <class T> T YamlSeq::get(std::size_t i) const {
    if (i >= node_.size()) fail(i, "index out of range");
    return yamlScalar<T>(node_[i], where(i));
}

}  // namespace cclsim
