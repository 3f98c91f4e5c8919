// Running the rows of a table: each row is one board process
// (`<board dir>/<board> <workload> <options> --json <tmp>`), up to `jobs` at
// once, each with a wall-clock timeout. SystemC elaborates once per process,
// so rows never share a process.
#pragma once

#include "tools/coverify/CoverifyReport.h"
#include "tools/coverify/CoverifyTable.h"

#include <string>
#include <vector>

namespace cclsim::coverify {

struct RunOptions {
    std::string boardDir;  ///< where the board executables are
    std::string workDir;   ///< the rows' working directory (relative paths in options)
    unsigned jobs = 1;     ///< rows at once
    double timeoutSeconds = 600;
    bool progress = true;  ///< a line on stderr as each row finishes
    /// Options added after every row's own (--with): the table under a
    /// configuration change, e.g. another fabric payload or an arch overlay.
    std::vector<std::string> extraArgs;
};

/// The executables in `dir` a table may name as boards (every executable file
/// but the runner itself), sorted.
std::vector<std::string> boardsIn(const std::string& dir);

/// Run every row; results are in row order.
std::vector<RowResult> runTable(const Table& table, const RunOptions& options);

}  // namespace cclsim::coverify
