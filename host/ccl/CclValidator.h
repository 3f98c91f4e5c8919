// The checks of a CclSpec before anything is planned or built (tt-metal's
// validate_on_program_cache_miss): every error is a CclOpError that names
// the spec field at fault and why. The checks that need the groups' size
// (the tensor's shape) are the planner's (CclPlanner, the collectives'
// shape rules); those that need memory (packets, cores, buffers) fail where
// the memory is taken.
#pragma once

#include "host/ccl/CclSpec.h"
#include "host/ccl/CclTopology.h"

#include <vector>

namespace cclsim::ccl {

/// The spec on its own: groups given, page size, workers, EDM buffers, the
/// reduction operator and the data type.
void validateSpec(const CclSpec& s);

/// The groups' topologies: every group of the same size.
void validateGroups(const std::vector<CclTopology>& topologies);

}  // namespace cclsim::ccl
