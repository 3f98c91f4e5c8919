// Strict YAML reading: every error names the file, the line and the key.
//
// Config decoders walk a document through YamlMap / YamlSeq views. A view
// remembers which keys were read, and `finish()` rejects any key nobody
// asked for, so a misspelt option is an error instead of a silent default.
#pragma once

#include "models/common/ConfigError.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cclsim {

class YamlSeq;

class YamlMap {
public:
    YamlMap(YAML::Node node, std::string file, std::string path);

    /// Parse a file and return its top-level mapping.
    static YamlMap loadFile(const std::string& file);
    static YamlMap loadString(const std::string& text, const std::string& pseudoFile);

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
    YAML::Node child(const std::string& key) const;
    YAML::Node keyNode(const std::string& key) const;
    std::string keyPath(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

    YAML::Node node_;
    std::string file_;
    std::string path_;
    mutable std::set<std::string> used_;
};

class YamlSeq {
public:
    YamlSeq(YAML::Node node, std::string file, std::string path);
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
    used_.insert(key);
    YAML::Node n = child(key);
    if (!n) fail(key, "is required but missing");
    return yamlScalar<T>(n, where(key));
}

template <class T> T YamlMap::get(const std::string& key, const T& fallback) const {
    used_.insert(key);
    YAML::Node n = child(key);
    if (!n || n.IsNull()) return fallback;
    return yamlScalar<T>(n, where(key));
}

template <class T> T YamlSeq::get(std::size_t i) const {
    if (i >= node_.size()) fail(i, "index out of range");
    return yamlScalar<T>(node_[i], where(i));
}

}  // namespace cclsim
