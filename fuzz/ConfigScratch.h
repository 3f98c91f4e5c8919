// The scratch directory as a configuration directory: the repository's
// platforms/arch linked in as arch/ (and its files beside the input), so a
// fuzzed descriptor's `arch: arch/wormhole_b0.yaml` or a fuzzed arch file's
// `base: wormhole_b0.yaml` resolves as it does for the shipped files.
#pragma once

#include "fuzz/FuzzSupport.h"

#include <filesystem>

namespace cclsim::fuzz {

/// The shipped configuration (platforms/ of this source tree; the harnesses
/// are development tools, run from the build tree by bench/fuzz.sh).
inline std::string platformsDir() {
    const char* env = std::getenv("CCLSIM_CONFIG_DIR");
    return env && *env ? env : CCLSIM_FUZZ_PLATFORMS_DIR;
}

inline void linkShippedConfig() {
    namespace fs = std::filesystem;
    const fs::path arch = fs::path(platformsDir()) / "arch";
    std::error_code ec;
    fs::create_directory_symlink(arch, fs::path(scratchDir()) / "arch", ec);
    for (const auto& e : fs::directory_iterator(arch))
        fs::create_symlink(e.path(), fs::path(scratchDir()) / e.path().filename(), ec);
}

}  // namespace cclsim::fuzz
