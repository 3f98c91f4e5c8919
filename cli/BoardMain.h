// The command line shared by every board executable:
//
//   <board> <workload> [workload options] [--json FILE] [--vcd FILE]
//           [--config-dir DIR] [--cluster FILE] [--arch FILE] [--no-data] [--skew-ns NS]
//           [--start CHIP:NS ...] [--trace-all-cores] [--trace-window-ns NS] [--max-sim-us US] [--quiet]
//
// Exit codes: 0 success, 1 data check failed, 2 usage error, 3 bad
// configuration, 4 simulation error (firmware misuse), 5 deadlock or time limit.
#pragma once

#include "cli/Workload.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cclsim {

struct BoardInfo {
    std::string name;             ///< executable and platform name ("n300")
    std::string descriptor;       ///< its cluster descriptor: a file of the configuration directory ("n300.yaml")
    std::string defaultWorkload;  ///< run when no workload is given
    std::vector<WorkloadFactory> workloads;
};

/// The board executable: parse the command line, run, report, return the exit code.
int boardMain(int argc, char** argv, const BoardInfo& board);

/// Run one workload in this process as the executable would for `args`
/// (the command line without the program name), without printing. Returns
/// the JSON report; `exitCode` is what the executable would return. Tests use
/// this: one call per process, because SystemC elaborates once.
nlohmann::json runInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode);

/// Parse `args` as runInProcess would and read and check the configuration
/// the run would start from (descriptor, arch, --start, the workload's
/// options), without elaborating or simulating: the JSON holds the board,
/// workload and params, or {"error": ...}; `exitCode` is 0, 2 (usage) or 3
/// (configuration). Any number of calls per process (fuzz/fuzz_board_cli.cpp).
nlohmann::json checkInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode);

/// Every workload of the board executables: the one list (cli/WorkloadRegistry.cpp).
std::vector<WorkloadFactory> allWorkloads();

/// A board of this build running every workload.
BoardInfo makeBoard(const std::string& name, const std::string& descriptor, const std::string& defaultWorkload);

}  // namespace cclsim
