// A fault plan: the Ethernet faults injected into a run (`--faults FILE`, or
// a `faults:` section a test builds), with the seed of their randomness.
//
//   seed: 42
//   faults:
//     - {kind: ber, link: all, rate: 1.0e-9}
//     - {kind: retrain, link: {chip: 0, channel: 1}, at_us: 20, duration_us: 50}
//     - {kind: down, link: {chip: 4, channel: 0}, at_us: 10}
//     - {kind: drop, link: {chip: 1, channel: 2}, at_us: 5, packets: 3}
//
// A link named by one end means both directions of that link; `all` means
// every connected link. Decoding is strict (file:line:key errors); whether
// the named chip and channel exist and are cabled is checked against the
// board when the faults are attached (models/eth/LinkFaults.h).
#pragma once

#include "models/common/Time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim {

class YamlMap;

struct FaultSpec {
    enum Kind { Ber, Retrain, Down, Drop };
    Kind kind = Ber;
    bool allLinks = false;
    unsigned chip = 0, channel = 0;  ///< one end of the link (unless allLinks)
    double rate = 0;                 ///< ber: bit error rate
    Tick at = 0;                     ///< retrain, down, drop: when
    Tick duration = 0;               ///< retrain: how long the link trains
    std::uint32_t packets = 0;       ///< drop: Ethernet packets (frames) lost
    std::string where;               ///< file:line of the entry
    static const char* kindName(Kind k);
};

struct FaultPlan {
    std::uint64_t seed = 1;
    std::vector<FaultSpec> faults;
    std::string file;
    bool empty() const { return faults.empty(); }
};

FaultPlan loadFaultPlan(const std::string& file);
/// Decode a plan from a mapping with `seed:` and `faults:` keys.
FaultPlan decodeFaultPlan(const YamlMap& root);

}  // namespace cclsim
