// The error of every configuration reader (arch YAML, cluster descriptors,
// ccl.yaml, sweep specs, command-line values): a message that names the file,
// the line and the key. No SystemC here, so that tools without a simulation
// (tools/sweep) can share the readers (models/common/Yaml.*).
#pragma once

#include <stdexcept>

namespace cclsim {

/// Error raised while reading configuration (no simulated time involved).
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace cclsim
