// The worker cores of one op: handed out per chip in a fixed order (the
// architecture's worker list, or the cores the op was given when it shares
// the chips with other ops). The order in which an op's program factory
// takes cores decides which kernel runs where, so factories take them in
// the order their kernels are created.
#pragma once

#include "host/ccl/CclSpec.h"
#include "models/chip/ArchConfig.h"

#include <vector>

namespace cclsim::ccl {

class CoreAllocator {
public:
    /// `own`: the op's cores (empty: every worker core of `arch`).
    CoreAllocator(const ArchConfig& arch, unsigned chips, const std::vector<CoreCoord>& own);

    /// The next free core of `chip`; CclOpError naming the spec's workers
    /// and links (and cores when given) when the chip has none left.
    CoreCoord take(unsigned chip, const CclSpec& s);
    /// The most cores taken on one chip.
    unsigned maxUsed() const;
    /// Skip cores on the chips of `chips` so that the next take on each
    /// hands out the same core (a line multicast names one NoC address for
    /// every chip it reaches).
    void align(const std::vector<unsigned>& chips);

private:
    std::vector<CoreCoord> pool_;
    bool own_;
    std::vector<unsigned> next_;
};

}  // namespace cclsim::ccl
