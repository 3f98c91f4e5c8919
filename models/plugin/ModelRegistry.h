// Plugging your own SystemC models into a cclsim platform.
//
// cclsim's memories (DRAM channels, the SRAM pool, worker and Ethernet-core
// L1s) and the on-chip NoC interconnect are chosen by name when a chip
// elaborates: by default cclsim's own models, or a model a user registered
// here and named in the arch YAML's `models:` section:
//
//   models:
//     dram: {name: my_dram, library: libmydram.so, params: {latency_ns: 120}}
//
// A model is registered from C++ in two ways:
//   - in-process, before the platform elaborates (a test, or a user's own
//     sc_main): `cclsim::modelRegistry().addMemory("my_dram", factory);`
//   - from a shared library named by `library:` (path relative to the arch
//     YAML): cclsim dlopen()s it once and calls its entry point, which the
//     library defines with CCLSIM_PLUGIN_ENTRY (see below).
//
// A memory model is any sc_module with a TLM-2.0 base-protocol target socket
// (32-bit bus width): cclsim binds its own bridge to that socket and calls
// b_transport from a SystemC thread at the transaction's true time, so the
// model may wait(); see models/plugin/ForeignTarget.h for what it receives.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace cclsim {

class NocInterconnect;
struct NocConfig;

/// Any TLM-2.0 base-protocol target socket of bus width 32
/// (tlm_utils::simple_target_socket, tlm::tlm_target_socket, ...).
using TargetSocketBase = tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

/// What cclsim asks a memory factory to build.
struct MemoryModelSpec {
    std::string role;             ///< "dram", "sram", "worker_l1" or "eth_l1"
    std::string name;             ///< a unique module name to give it (sc_module_name)
    unsigned chip = 0;            ///< the chip it belongs to
    std::uint64_t sizeBytes = 0;  ///< it serves addresses [0, sizeBytes)
    /// The `params:` map of its `models:` entry, values as written (strings).
    std::map<std::string, std::string> params;
};

/// A built memory model: cclsim owns the module and binds its bridge to `socket`.
struct MemoryModel {
    std::unique_ptr<sc_core::sc_module> module;
    TargetSocketBase* socket = nullptr;
};

using MemoryFactory = std::function<MemoryModel(const MemoryModelSpec&)>;

/// What cclsim asks a NoC factory to build: the interconnect of NoC `noc` of
/// chip `chip`. `booking` is cclsim's own model of that NoC (the default);
/// a factory may wrap it (to trace or perturb it) or ignore it.
struct NocModelSpec {
    unsigned chip = 0;
    unsigned noc = 0;
    const NocConfig* config = nullptr;
    std::map<std::string, std::string> params;
};
using NocFactory =
    std::function<std::unique_ptr<NocInterconnect>(const NocModelSpec&, std::unique_ptr<NocInterconnect> booking)>;

class ModelRegistry {
public:
    /// Register a memory model under `name` (replaces an earlier one of that name).
    void addMemory(const std::string& name, MemoryFactory f) { memories_[name] = std::move(f); }
    void addNoc(const std::string& name, NocFactory f) { nocs_[name] = std::move(f); }

    const MemoryFactory* memory(const std::string& name) const {
        auto it = memories_.find(name);
        return it == memories_.end() ? nullptr : &it->second;
    }
    const NocFactory* noc(const std::string& name) const {
        auto it = nocs_.find(name);
        return it == nocs_.end() ? nullptr : &it->second;
    }
    /// Names registered so far (for error messages).
    std::string memoryNames() const { return names(memories_); }
    std::string nocNames() const { return names(nocs_); }

    /// dlopen `path` once and run its CCLSIM_PLUGIN_ENTRY; errors throw ConfigError.
    void loadLibrary(const std::string& path);

private:
    template <class M> static std::string names(const M& m) {
        std::string s;
        for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k;
        return s.empty() ? "(none)" : s;
    }
    std::map<std::string, MemoryFactory> memories_;
    std::map<std::string, NocFactory> nocs_;
    std::map<std::string, void*> libraries_;
};

/// The process's registry.
ModelRegistry& modelRegistry();

}  // namespace cclsim

/// A plug-in library defines its entry point with this macro and registers
/// its models in the body:
///   CCLSIM_PLUGIN_ENTRY { registry.addMemory("my_dram", makeMyDram); }
#define CCLSIM_PLUGIN_ENTRY_SYMBOL "cclsim_register_models"
#define CCLSIM_PLUGIN_ENTRY extern "C" void cclsim_register_models(cclsim::ModelRegistry& registry)
