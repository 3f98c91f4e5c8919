// The workloads of the board executables (the one list, WorkloadRegistry.cpp)
// and the description of a board that runs them.
#pragma once

#include "cli/Workload.h"

#include <string>
#include <vector>

namespace cclsim {

/// A board executable: its name, its cluster descriptor and its workloads.
struct BoardInfo {
    std::string name;             ///< executable and platform name ("n300")
    std::string descriptor;       ///< its cluster descriptor: a file of the configuration directory ("n300.yaml")
    std::string defaultWorkload;  ///< run when no workload is given
    std::vector<WorkloadFactory> workloads;
};

/// Every workload of the board executables: the one list (cli/WorkloadRegistry.cpp).
std::vector<WorkloadFactory> allWorkloads();

/// A board of this build running every workload.
BoardInfo makeBoard(const std::string& name, const std::string& descriptor, const std::string& defaultWorkload);

}  // namespace cclsim
