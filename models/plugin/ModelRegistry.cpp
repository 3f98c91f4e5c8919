#include "models/plugin/ModelRegistry.h"

#include "models/common/Report.h"

#include <fmt/format.h>

#include <dlfcn.h>

namespace cclsim {

ModelRegistry& modelRegistry() {
    static ModelRegistry r;
    return r;
}

void ModelRegistry::loadLibrary(const std::string& path) {
    if (libraries_.count(path)) return;
    // RTLD_GLOBAL: a library's models may use symbols of another (and its
    // SystemC is the process's one: libsystemc is a shared library).
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!h) throw ConfigError(fmt::format("model library {}: cannot load it: {}", path, dlerror()));
    using Entry = void (*)(ModelRegistry&);
    auto entry = reinterpret_cast<Entry>(dlsym(h, CCLSIM_PLUGIN_ENTRY_SYMBOL));
    if (!entry)
        throw ConfigError(
            fmt::format("model library {}: it has no entry point {} (define it with "
                        "CCLSIM_PLUGIN_ENTRY from models/plugin/ModelRegistry.h)",
                        path, CCLSIM_PLUGIN_ENTRY_SYMBOL));
    libraries_[path] = h;  // kept loaded until exit: its modules live in the platform
    entry(*this);
}

}  // namespace cclsim
