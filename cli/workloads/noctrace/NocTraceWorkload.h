// The noc_trace workload: replay a tt-metal NoC event trace on one chip.
#pragma once

#include "cli/Workload.h"

#include <memory>

namespace cclsim::noctrace {

std::unique_ptr<Workload> makeNocTrace();

}  // namespace cclsim::noctrace
