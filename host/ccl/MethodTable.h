// Method "auto": the rule table that picks a collective method
// (GCL user guide 3.4: "pick the optimal method using ... data size,
// number of replicas in a communication group, communication group type ...
// physical network topology"). The table is data, in
// platforms/collective_methods.yaml; the first rule whose conditions all
// hold wins:
//
//   max_broadcast_size: 2048          # group_size x bytes (GCL syncful.maxBroadcastSize)
//   rules:
//     - {ops: [reduce_scatter, all_reduce], within_broadcast_size: true, method: broadcast}
//     - {topology: line, method: line}
//     - {ops: [all_gather], min_bytes: 65536, method: bidirectional_ring_pair}
//     - {method: meet_in_middle_ring}
//
// Conditions: ops, groups (all / consecutive / orthogonal), topology (ring /
// line), min_ranks / max_ranks, min_bytes / max_bytes (input bytes per
// rank), within_broadcast_size (ranks x input bytes <= max_broadcast_size).
#pragma once

#include "golden/Golden.h"
#include "host/ccl/CclTopology.h"
#include "host/ccl/CommGroups.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace cclsim::ccl {

struct MethodRule {
    std::vector<golden::Op> ops;           ///< empty: any
    std::vector<GroupKind> groups;         ///< empty: any
    std::vector<TopologyKind> topologies;  ///< empty: any
    unsigned minRanks = 0, maxRanks = std::numeric_limits<unsigned>::max();
    std::uint64_t minBytes = 0, maxBytes = std::numeric_limits<std::uint64_t>::max();
    bool withinBroadcastSize = false;
    golden::Method method = golden::Method::BidirPair;
    std::string where;  ///< file:line of the rule
};

struct MethodTable {
    std::string file;
    std::uint64_t maxBroadcastSize = 2048;
    std::vector<MethodRule> rules;
};

/// Read a table (errors name file:line:key; a table must end with a rule
/// that always matches, so auto always finds a method).
MethodTable loadMethodTable(const std::string& file);

struct MethodChoice {
    golden::Method method;
    std::string rule;  ///< where the rule that picked it is
};

/// The first matching rule for an op on `ranks` ranks with `bytes` input
/// bytes per rank. A rule's method must suit the op and topology (a line
/// runs `line` only; broadcast only reduces); unsuitable rules are skipped.
MethodChoice chooseMethod(const MethodTable& t, golden::Op op, GroupKind group, TopologyKind topo, unsigned ranks,
                          std::uint64_t bytes);

/// Can `m` run `op` on `topo`? ("" if so, else why not; spec fields named
/// with specRef, see CclOpError.h.)
std::string methodFits(golden::Method m, golden::Op op, TopologyKind topo);

}  // namespace cclsim::ccl
