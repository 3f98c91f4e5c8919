// Chip architecture configuration: decoded from an arch YAML
// (platforms/arch/wormhole_b0.yaml) into the typed configs of the models.
#pragma once

#include "models/erisc/EriscCore.h"
#include "models/memory/DramChannel.h"
#include "models/noc/NocTypes.h"
#include "models/pe/PeCore.h"

#include <string>
#include <vector>

namespace cclsim {

/// Off-chip memory: channels behind NoC endpoints, addressed as banks.
/// Bank b is channel b / banksPerChannel at offset (b % banksPerChannel) *
/// bankBytes; workers reach it through bankEndpoints[b].
struct DramArch {
    std::string kind = "gddr6";                           ///< gddr6 or hbm
    std::vector<std::vector<CoreCoord>> channelEndpoints;  ///< NoC endpoints of each channel
    unsigned banksPerChannel = 2;
    std::uint64_t bankBytes = 1ull << 30;
    std::vector<CoreCoord> bankEndpoints;                 ///< per bank: the endpoint workers use
    DramChannelConfig channel;                            ///< per channel timing and size
    double endpointInjectBytesPerNs = 23.2;               ///< read responses leaving a DRAM endpoint

    unsigned channels() const { return unsigned(channelEndpoints.size()); }
    unsigned banks() const { return channels() * banksPerChannel; }
};

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
    DramArch dram;
    bool hasDram() const { return !dram.channelEndpoints.empty(); }

    Tick cycles(double n) const { return nsToTicks(n * 1000.0 / aiclkMhz); }
};

/// Read an arch YAML; errors name the file, line and key.
ArchConfig loadArchConfig(const std::string& file);
/// Parse "x-y" (the soc-descriptor coordinate notation).
CoreCoord parseCoord(const std::string& text, const std::string& where);

}  // namespace cclsim
