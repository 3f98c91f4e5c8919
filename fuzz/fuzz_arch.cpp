// libFuzzer harness: the chip architecture YAML (models/chip/ArchConfig.*,
// through models/common/Yaml.*: overlays with `base:`, strict keys).
// The input is the file; its `base:` may name the shipped wormhole_b0.yaml.
#include "fuzz/ConfigScratch.h"
#include "models/chip/ArchConfig.h"
#include "models/common/ConfigError.h"

using namespace cclsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool linked = (fuzz::linkShippedConfig(), true);
    (void)linked;
    const std::string path = fuzz::writeScratch("arch_input.yaml", {reinterpret_cast<const char*>(data), size});
    // An error may name the input or a base file it overlays (all in the scratch directory).
    fuzz::runReader<ConfigError>(fuzz::scratchDir() + "/", [&] {
        const ArchConfig a = loadArchConfig(path);
        // A different clock rescales every cycle-based figure: the same file must load again.
        loadArchConfig(path, a.aiclkMhz > 500 ? a.aiclkMhz / 2 : 1000.0);
    });
    return 0;
}
