// Chip architecture configuration: decoded from an arch YAML
// (platforms/arch/wormhole_b0.yaml) into the typed configs of the models.
#pragma once

#include "models/erisc/EriscCore.h"
#include "models/noc/NocTypes.h"
#include "models/pe/PeCore.h"

#include <string>
#include <vector>

namespace cclsim {

struct ArchConfig {
    std::string name;
    std::string file;
    double aiclkMhz = 1000;
    NocConfig noc;
    std::vector<CoreCoord> workers;
    std::uint32_t workerUnreservedBase = 0;
    PeCoreConfig worker;
    std::vector<CoreCoord> ethCores;  ///< index = logical Ethernet channel
    EriscConfig erisc;
    std::vector<CoreCoord> dramCores;

    Tick cycles(double n) const { return nsToTicks(n * 1000.0 / aiclkMhz); }
};

/// Read an arch YAML; errors name the file, line and key.
ArchConfig loadArchConfig(const std::string& file);
/// Parse "x-y" (the soc-descriptor coordinate notation).
CoreCoord parseCoord(const std::string& text, const std::string& where);

}  // namespace cclsim
