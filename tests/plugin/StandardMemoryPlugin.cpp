// The glue that makes StandardMemory a cclsim plug-in: a shared library
// whose entry point registers it as "std_memory". Parameters (the arch
// YAML's `params:`): latency_ns (default 100), mode: wait | annotate
// (default wait).
#include "models/plugin/ModelRegistry.h"
#include "tests/plugin/StandardMemory.h"

#include <stdexcept>
#include <string>

namespace {

cclsim::MemoryModel makeStandardMemory(const cclsim::MemoryModelSpec& spec) {
    double latencyNs = 100;
    bool waitInside = true;
    for (const auto& [key, value] : spec.params) {
        if (key == "latency_ns")
            latencyNs = std::stod(value);
        else if (key == "mode" && (value == "wait" || value == "annotate"))
            waitInside = value == "wait";
        else
            throw std::invalid_argument("std_memory: unknown parameter " + key + ": " + value +
                                        " (latency_ns, mode: wait|annotate)");
    }
    auto m = std::make_unique<StandardMemory>(spec.name.c_str(), spec.sizeBytes,
                                              sc_core::sc_time(latencyNs, sc_core::SC_NS), waitInside);
    cclsim::MemoryModel out;
    out.socket = &m->socket;
    out.module = std::move(m);
    return out;
}

}  // namespace

CCLSIM_PLUGIN_ENTRY {
    registry.addMemory("std_memory", makeStandardMemory);
}
