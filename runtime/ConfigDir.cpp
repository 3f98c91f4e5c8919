#include "runtime/ConfigDir.h"

#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

namespace cclsim {

namespace fs = std::filesystem;

namespace {
// The install's data directory relative to its executables (CMake computes it
// from CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_DATADIR: "../share/cclsim").
#ifndef CCLSIM_INSTALL_CONFIG_FROM_BIN
#error "CCLSIM_INSTALL_CONFIG_FROM_BIN must be defined by the build (runtime/CMakeLists.txt)"
#endif
constexpr const char* kFromBin = CCLSIM_INSTALL_CONFIG_FROM_BIN;

bool isDir(const std::string& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}
}  // namespace

ConfigDir::ConfigDir(std::vector<Place> places) : places_(std::move(places)) {
    for (std::size_t i = 0; i < places_.size(); ++i) {
        const Place& p = places_[i];
        if (p.given && !isDir(p.dir))
            throw ConfigError(fmt::format("configuration directory {} ({}): no such directory", p.dir, p.how));
        if (isDir(p.dir)) {
            found_ = int(i);
            return;
        }
    }
}

ConfigDir ConfigDir::locate(const std::string& option, const std::string& exe) {
    std::vector<Place> places;
    if (!option.empty()) places.push_back({option, "--config-dir", true});
    if (const char* env = std::getenv("CCLSIM_CONFIG_DIR"); env && *env)
        places.push_back({env, "CCLSIM_CONFIG_DIR", true});
    std::error_code ec;
    const fs::path self = exe.empty() ? fs::read_symlink("/proc/self/exe", ec) : fs::path(exe);
    if (!ec && !self.empty()) {
        const fs::path bin = fs::absolute(self, ec).parent_path();
        places.push_back({(bin / "config").string(), "beside the executable", false});
        places.push_back({(bin / kFromBin).lexically_normal().string(), "the install prefix", false});
    }
    return ConfigDir(std::move(places));
}

const std::string& ConfigDir::dir() const {
    if (found_ >= 0) return places_[std::size_t(found_)].dir;
    std::string looked;
    for (const Place& p : places_) looked += fmt::format("\n  {} ({})", p.dir, p.how);
    if (looked.empty()) looked = "\n  (no place: this program never said where its configuration is)";
    throw ConfigError(
        fmt::format("no configuration directory (the board descriptors, arch/ and workload files of platforms/) found; "
                    "looked at:{}\ngive one with --config-dir DIR or CCLSIM_CONFIG_DIR=DIR",
                    looked));
}

std::string ConfigDir::file(const std::string& name) const {
    std::string path = (fs::path(dir()) / name).string();
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw ConfigError(fmt::format("{}: no such file in the configuration directory {} ({})", path, dir(), how()));
    return path;
}

std::string ConfigDir::shown(const std::string& name) const {
    return found_ >= 0 ? (fs::path(places_[std::size_t(found_)].dir) / name).string() : name;
}

std::string ConfigDir::how() const {
    return found_ >= 0 ? places_[std::size_t(found_)].how : "";
}

}  // namespace cclsim
