// Which interconnect a chip's NoC uses: cclsim's booking model (models/noc/
// Noc.h), or the NoC model the arch YAML's `models: noc:` entry names, built
// by its registered factory (models/plugin/ModelRegistry.h) around the
// booking model.
#pragma once

#include "models/chip/ArchConfig.h"
#include "models/noc/NocInterconnect.h"

#include <memory>

namespace cclsim {

/// The interconnect of NoC `noc` (0 or 1) of chip `chip`. `arch` must outlive
/// it (the factory is handed a pointer to arch.noc). With a `models: noc:`
/// entry: its `library:` is loaded first, then its factory is called with the
/// booking model; an unknown name, a factory that fails or returns no
/// interconnect, or one of another NoC or grid is a ConfigError naming the
/// entry's file:line.
std::unique_ptr<NocInterconnect> makeNocInterconnect(const ArchConfig& arch, unsigned chip, unsigned noc);

}  // namespace cclsim
