// The give-up report of a firmware wait (see WaitTimeout.h).
#include "models/core/WaitTimeout.h"

#include <fmt/format.h>

namespace cclsim {

void WaitTimeout::giveUp(const std::string& who, Tick at) {
    gaveUp_ = fmt::format(
        "{} gave up its wait at {:.3f} us after {:.3f} ms without a change ({} in the arch "
        "YAML)\n",
        who, ticksToNs(at) / 1000.0, ticksToNs(timeout_) / 1e6, yamlKey_);
}

}  // namespace cclsim
