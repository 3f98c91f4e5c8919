// Where a board executable finds the configuration files it ships with: the
// cluster descriptors of the boards (n300.yaml, ...), the chip architecture
// files (arch/), the collective method table and the default ccl.yaml; the
// source tree's platforms/ directory, or a copy of it.
//
// No path is compiled in, so a build tree or an install can be moved. The
// places tried, in order:
//
//   1. --config-dir DIR                  (an option of every board executable)
//   2. $CCLSIM_CONFIG_DIR
//   3. <directory of the executable>/config
//        the build tree: CMake links build/config to the source's platforms/
//   4. <directory of the executable>/<bin -> data>/cclsim
//        an install: P/bin/t3000 finds P/share/cclsim (cmake --install)
//
// The executable's directory comes from /proc/self/exe. A place given
// explicitly (1, 2) must exist: a typo is an error, never a silent fall back
// to another copy. When nothing is found, the error names every place looked at.
#pragma once

#include <string>
#include <vector>

namespace cclsim {

class ConfigDir {
public:
    /// A place to look: a directory and how it was chosen ("--config-dir").
    struct Place {
        std::string dir;
        std::string how;
        bool given = false;  ///< named by the user: must exist
    };

    /// No places: every lookup fails (a workload that was never told).
    ConfigDir() = default;
    explicit ConfigDir(std::vector<Place> places);

    /// The places of a board executable, in order; `option` is the value of
    /// --config-dir ("" when not given), `exe` the executable's path ("" reads
    /// /proc/self/exe).
    static ConfigDir locate(const std::string& option, const std::string& exe = "");

    /// The directory in use; ConfigError naming every place looked at when none is.
    const std::string& dir() const;
    /// The file `name` of the directory ("ccl.yaml", "arch/wormhole_b0.yaml");
    /// ConfigError when the file is not there.
    std::string file(const std::string& name) const;
    /// `dir()/name` when a directory is in use, else `name`: for reports, never throws.
    std::string shown(const std::string& name) const;
    /// How the directory in use was chosen ("beside the executable"); "" if none is.
    std::string how() const;

    const std::vector<Place>& places() const { return places_; }

private:
    std::vector<Place> places_;
    int found_ = -1;  ///< index of the place in use; -1: none
};

}  // namespace cclsim
