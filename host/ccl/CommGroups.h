// Communication groups over the replicas (GCL user guide 3.2): which
// replicas take part in each of the collectives one op runs at once.
//
//   ALL             one group of every replica
//   CONSECUTIVE(k)  {0..k-1}, {k..2k-1}, ...
//   ORTHOGONAL(k)   m = N / k groups with stride m: {0, m, 2m, ...}, {1, m+1, ...}, ...
//
// A group size that does not divide the replica count is an error.
#pragma once

#include <string>
#include <vector>

namespace cclsim::ccl {

enum class GroupKind { All, Consecutive, Orthogonal };
const char* groupKindName(GroupKind k);

struct GroupSpec {
    GroupKind kind = GroupKind::All;
    unsigned size = 0;  ///< k (consecutive, orthogonal)
    std::string text() const;
};

/// "all", "consecutive:K", "orthogonal:K" (ConfigError otherwise).
GroupSpec parseGroup(const std::string& s);

/// The groups of replica indices 0..replicas-1, each in replica order.
std::vector<std::vector<unsigned>> commGroups(unsigned replicas, const GroupSpec& g);

}  // namespace cclsim::ccl
