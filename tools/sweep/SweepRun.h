// Running a sweep's points and merging their reports.
//
// A sweep directory holds everything a run needs and leaves behind:
//   DIR/sweep.json      the manifest: board, workload, swept keys, and per point
//                       its options and its shell command
//   DIR/jobs.txt        one shell command per line, point i on line i+1: runs
//                       the board with --json DIR/points/i.json, its output to
//                       DIR/points/i.log, its exit code to DIR/points/i.rc
//   DIR/sweep.sbatch    (--emit-slurm) a Slurm job array, one point per task
//   DIR/points/         what the points write
// Every engine runs the same job lines: the sweep tool itself (-j N processes
// on this machine), a Slurm job array, or GNU parallel (locally or over ssh
// with --sshloginfile; the hosts must see DIR and the build at the same paths).
// The merge reads the manifest and the points' files, in point order, and
// names the points that are missing or failed.
#pragma once

#include "tools/sweep/SweepSpec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cclsim::sweep {

/// Write DIR/sweep.json and DIR/jobs.txt for `spec`; the points run `boardExe`
/// from `workDir` (where relative paths in the options are resolved).
void writeSweepDir(const SweepSpec& spec, const std::string& dir, const std::string& boardExe,
                   const std::string& workDir);

/// Write DIR/sweep.sbatch (a job array over the manifest's points); returns its path.
std::string writeSlurmScript(const std::string& dir);

/// Run the job lines of DIR on this machine, up to `jobs` at once (each a
/// `sh -c` process in its own process group). A point running longer than
/// `timeoutSeconds` (> 0) is killed and gets exit code 124. Progress lines on
/// stderr unless `quiet`. Ctrl-C kills the running points and throws.
void runLocal(const std::string& dir, unsigned jobs, bool quiet, double timeoutSeconds = 0);

/// The merged report of DIR: {"board", "workload", "swept", "points": [
///   {"index", "options": {key: value}, "status": "ok"|"failed"|"missing",
///    "exit_code", "error"?, "report"?}, ...]}.
nlohmann::json mergeSweepDir(const std::string& dir);

/// The merged report as CSV: point, the swept keys, status, exit code, data
/// check, simulated time, then every scalar of the points' results (the
/// union, in first-seen order). Wall-clock fields are left out, so the same
/// sweep gives the same CSV on any engine.
std::string mergedCsv(const nlohmann::json& merged);

/// A terminal table of the merged report (a few headline results per point).
std::string mergedTable(const nlohmann::json& merged);

/// The plot series of each point: the swept keys other than the plot's x
/// axis, "key=value, ...".
std::vector<std::string> mergedSeries(const nlohmann::json& merged);

/// The reports of the points (failed and missing ones as {"error": ...}), in point order.
std::vector<nlohmann::json> mergedReports(const nlohmann::json& merged);

/// The exit code of a merged sweep: 0 if every point ran and passed, the
/// worst point exit code if some failed (124: killed by --timeout), 6 if some
/// are missing.
int mergedExitCode(const nlohmann::json& merged);

/// Shell-quote one word.
std::string shellQuote(const std::string& s);

}  // namespace cclsim::sweep
