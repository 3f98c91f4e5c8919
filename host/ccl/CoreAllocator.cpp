// Worker cores handed out per chip in a fixed order.
#include "host/ccl/CoreAllocator.h"

#include "host/ccl/CclOpError.h"

#include <algorithm>

namespace cclsim::ccl {

CoreAllocator::CoreAllocator(const ArchConfig& arch, unsigned chips, const std::vector<CoreCoord>& own)
    : pool_(own.empty() ? arch.workers : own), own_(!own.empty()), next_(chips, 0) {}

CoreCoord CoreAllocator::take(unsigned chip, const CclSpec& s) {
    if (next_[chip] >= pool_.size())
        throw CclOpError(
            "workers",
            fmt::format("{} with {} link(s) x {} worker(s) needs more than the {} worker cores {}of chip {}{}; use "
                        "fewer {} or {}{}",
                        golden::opName(s.op), s.links, s.workers, pool_.size(),
                        own_ ? fmt::format("given to it ({}) ", specRef("cores")) : "", chip,
                        s.relay ? " (relayed hops take a worker per stream on every chip they cross)" : "",
                        specRef("workers"), specRef("links"), own_ ? ", or give it more " + specRef("cores") : ""));
    return pool_[next_[chip]++];
}

void CoreAllocator::align(const std::vector<unsigned>& chips) {
    unsigned most = 0;
    for (unsigned c : chips) most = std::max(most, next_[c]);
    for (unsigned c : chips) next_[c] = most;
}

unsigned CoreAllocator::maxUsed() const {
    return next_.empty() ? 0 : *std::max_element(next_.begin(), next_.end());
}

}  // namespace cclsim::ccl
