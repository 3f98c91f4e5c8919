#include "host/microbench/LinkEnds.h"

#include "models/common/ConfigError.h"

#include <fmt/format.h>

namespace cclsim::microbench {

LinkEnds userLink(const ClusterDescriptor& d, unsigned chipA, unsigned chipB, unsigned index) {
    if (chipA >= d.chips.size() || chipB >= d.chips.size())
        throw ConfigError(fmt::format("chips {} and {}: the board has chips 0..{}", chipA, chipB, d.chips.size() - 1));
    const auto links = d.userLinksBetween(chipA, chipB);
    if (links.empty())
        throw ConfigError(fmt::format("no user Ethernet link between chip {} and chip {} in {}", chipA, chipB, d.file));
    if (index >= links.size())
        throw ConfigError(fmt::format("link {} between chip {} and chip {} does not exist: there are {} user links",
                                      index, chipA, chipB, links.size()));
    const LinkDesc& l = *links[index];
    LinkEnds e;
    const bool aFirst = l.a.chip == chipA;
    e.chipA = chipA;
    e.chanA = aFirst ? l.a.chan : l.b.chan;
    e.chipB = chipB;
    e.chanB = aFirst ? l.b.chan : l.a.chan;
    e.coreA = d.arch.ethCores[e.chanA];
    e.coreB = d.arch.ethCores[e.chanB];
    return e;
}

}  // namespace cclsim::microbench
