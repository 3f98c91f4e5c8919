// Worker cores of ops that run at the same time on the same chips: each op
// gets a range of the arch's worker list (the same cores on every chip),
// given by the user ("A-B", indices into the list) or an equal share of the
// cores no given range takes. Two ranges never overlap (tt-metal ops that run
// side by side are likewise placed on disjoint core grids).
#pragma once

#include "models/noc/NocTypes.h"

#include <set>
#include <string>
#include <vector>

namespace cclsim::ccl {

struct OpCores {
    std::string where;   ///< how errors name the op (e.g. "--op 2 'all_gather --size 1M'")
    std::string given;   ///< "A-B" or "A"; empty: a share of the free cores
    unsigned first = 0;  ///< resolved range of worker indices, inclusive
    unsigned last = 0;
};

/// Resolve every op's range over `workers`, keeping clear of the worker
/// indices in `reserved` (taken by `reservedBy`); ConfigError naming the op
/// on a malformed or out-of-range text, an overlap, or too few free cores.
void placeOpCores(std::vector<OpCores>& ops, const std::vector<CoreCoord>& workers,
                  const std::set<unsigned>& reserved = {}, const std::string& reservedBy = "");

}  // namespace cclsim::ccl
