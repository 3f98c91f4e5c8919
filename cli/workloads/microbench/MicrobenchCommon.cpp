// Helpers the microbenchmark workloads share (MicrobenchWorkloads.h).
#include "cli/workloads/microbench/MicrobenchWorkloads.h"

#include <fmt/format.h>

namespace cclsim::microbench {

std::string linkName(const LinkEnds& e) {
    return fmt::format("chip {} ch {} <-> chip {} ch {}", e.chipA, e.chanA, e.chipB, e.chanB);
}

void buildNamingSizes(const std::function<void()>& build, const std::string& sizing) {
    try {
        build();
    } catch (const ConfigError& e) {
        if (std::string(e.what()).find("cannot allocate") == std::string::npos) throw;
        throw ConfigError(fmt::format("{} ({}: fewer or smaller buffers fit)", e.what(), sizing));
    }
}

}  // namespace cclsim::microbench
