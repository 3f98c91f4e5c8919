// One group of chips an op runs its collective on (one row of a mesh axis,
// one communication group): its topology, the tensors of every rank, the
// golden reference's description of it and its inputs.
#pragma once

#include "golden/Golden.h"
#include "host/ccl/CclTopology.h"
#include "runtime/Runtime.h"

#include <vector>

namespace cclsim::ccl {

struct CclRank {
    unsigned chip = 0;
    Buffer input, output;
};

struct CclGroup {
    CclTopology topo;
    std::vector<CclRank> ranks;
    golden::Collective golden;
    std::vector<golden::Tensor> inputs;  ///< logical input of every rank
};

}  // namespace cclsim::ccl
