#include "models/chip/NocSelection.h"

#include "models/common/Report.h"
#include "models/noc/Noc.h"
#include "models/noc/NocPacketTrace.h"
#include "models/plugin/ModelRegistry.h"

#include <fmt/format.h>

namespace cclsim {

std::unique_ptr<NocInterconnect> makeNocInterconnect(const ArchConfig& arch, unsigned chip, unsigned noc) {
    auto booking = std::make_unique<Noc>(noc, arch.noc);
    const ModelChoice* m = arch.model("noc");
    if (!m) return booking;
    ModelRegistry& registry = modelRegistry();
    registerBuiltinNocModels(registry);
    if (!m->library.empty()) {
        try {
            registry.loadLibrary(m->library);
        } catch (const ConfigError& e) {
            throw ConfigError(fmt::format("{}: models.noc: {}", m->where, e.what()));
        }
    }
    const NocFactory* f = registry.noc(m->name);
    if (!f)
        throw ConfigError(fmt::format("{}: models.noc: no NoC model named '{}' is registered (registered: {}){}",
                                      m->where, m->name, registry.nocNames(),
                                      m->library.empty() ? std::string(", and the entry names no library:")
                                                         : fmt::format(", after loading {}", m->library)));
    NocModelSpec spec;
    spec.chip = chip;
    spec.noc = noc;
    spec.config = &arch.noc;
    spec.params = m->params;
    std::unique_ptr<NocInterconnect> made;
    try {
        made = (*f)(spec, std::move(booking));
    } catch (const std::exception& e) {
        throw ConfigError(fmt::format("{}: models.noc: NoC model '{}' (chip {}, NoC {}): {}", m->where, m->name, chip,
                                      noc, e.what()));
    }
    if (!made)
        throw ConfigError(fmt::format("{}: models.noc: NoC model '{}' returned no interconnect for chip {}, NoC {}",
                                      m->where, m->name, chip, noc));
    if (made->id() != noc || made->config().gridX != arch.noc.gridX || made->config().gridY != arch.noc.gridY)
        throw ConfigError(
            fmt::format("{}: models.noc: NoC model '{}' built NoC {} on a {}x{} grid for chip {}'s NoC "
                        "{} on the arch's {}x{} grid",
                        m->where, m->name, made->id(), made->config().gridX, made->config().gridY, chip, noc,
                        arch.noc.gridX, arch.noc.gridY));
    return made;
}

}  // namespace cclsim
