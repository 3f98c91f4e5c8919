// The command line shared by every board executable:
//
//   <board> <workload> [workload options] [--json FILE] [--vcd FILE]
//           [--config-dir DIR] [--cluster FILE] [--arch FILE] [--no-data] [--skew-ns NS]
//           [--start CHIP:NS ...] [--trace-all-cores] [--trace-window-ns NS] [--max-sim-us US] [--quiet]
//
// Exit codes: 0 success, 1 data check failed, 2 usage error, 3 bad
// configuration, 4 simulation error (firmware misuse), 5 deadlock or time
// limit, 6 lost to a fault (the run stopped or went wrong while the injected
// faults lost data). cli/RunOutcome.h maps what happened to them.
//
// The pieces: BoardCli (the command line), RunSession (one run),
// ReportBuilder and TerminalReport (what the run reports), SweepPool (the
// points of a sweep, each in its own process), RunOutcome (exit codes).
#pragma once

#include "cli/Workload.h"
#include "cli/WorkloadRegistry.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cclsim {

/// The board executable: parse the command line, run, report, return the exit code.
int boardMain(int argc, char** argv, const BoardInfo& board);

/// Run one workload in this process as the executable would for `args`
/// (the command line without the program name), without the summary or the
/// report files (a run's own lines, such as the link health table, still show
/// unless --quiet). Returns the JSON report; `exitCode` is what the executable
/// would return. Tests use this: one call per process, because SystemC
/// elaborates once.
nlohmann::json runInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode);

/// Parse `args` as runInProcess would and read and check the configuration
/// the run would start from (descriptor, arch, --start, the workload's
/// options), without elaborating or simulating: the JSON holds the board,
/// workload and params, or {"error": ...}; `exitCode` is 0, 2 (usage) or 3
/// (configuration). Any number of calls per process (fuzz/fuzz_board_cli.cpp).
nlohmann::json checkInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode);

}  // namespace cclsim
