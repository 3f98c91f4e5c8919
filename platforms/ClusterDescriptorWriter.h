// Writing a cluster descriptor in cclsim's own form (ClusterDescriptor.h):
// what `cclsim cluster convert` (a board's --write-cluster) produces from a
// tt-metal cluster descriptor, so that the derived parts (dispatch links,
// mesh, rings, harvested rows) can be read, reviewed and edited.
//
// A descriptor whose worker grid differs from its arch file's (tt-metal's
// harvest masks) gets an arch overlay beside it: `base:` the arch file,
// `worker: {cores_x, cores_y}` the rows and columns left.
#pragma once

#include "platforms/ClusterDescriptor.h"

#include <string>

namespace cclsim {

/// The descriptor's YAML; `archRef` is written as its `arch:` (a path
/// relative to where the file will be), `header` as its leading comment.
std::string clusterDescriptorYaml(const ClusterDescriptor& d, const std::string& archRef, const std::string& header);

/// An arch overlay that gives `base`'s chip the worker grid `workers`
/// (whole rows and columns of it); `baseRef` is written as its `base:`.
std::string workerGridOverlayYaml(const ArchConfig& base, const std::vector<CoreCoord>& workers,
                                  const std::string& baseRef, const std::string& name);

/// The files written by writeClusterDescriptor.
struct WrittenCluster {
    std::string descriptor;
    std::string archOverlay;  ///< empty when the arch file is used as it is
};

/// Write `d` to `file` (and, when its worker grid is not its arch file's,
/// the overlay `<stem>_arch.yaml` beside it). `source` names what it came
/// from, for the header. Throws ConfigError when a file cannot be written.
WrittenCluster writeClusterDescriptor(const ClusterDescriptor& d, const std::string& file, const std::string& source);

}  // namespace cclsim
