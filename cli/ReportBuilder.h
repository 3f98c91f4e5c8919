// The JSON report of one run (--json, runInProcess, a sweep point), built
// from plain facts about the finished run, and the report files (--json,
// --csv).
//
// Every report has the head (board, workload, params, sim_time_ns,
// wall_seconds, peak_rss_mib), "data_check" and "results". A run with a
// fault plan adds "link_health" (and "skipped_links" with
// --skip-links-with-retrain). Then one of:
//   - a run that did not finish: "error" (the stop report), empty "results",
//     data_check "off" (exit 5);
//   - a finished run: the workload's "results" and extra keys, "stats", the
//     data check and, when it failed, "data_check_failure" (exit 1).
// Either is blamed on the faults when they lost anything: "fault_diagnosis"
// (links, blocked, data) and "error" say what was lost and what it stopped
// (exit 6). A run's report carries no "exit_code"; only the error file of a
// failure without a report does (RunOutcome::errorFile).
#pragma once

#include "cli/RunOutcome.h"
#include "cli/Workload.h"
#include "models/core/FastForward.h"
#include "models/eth/EthSubsystem.h"
#include "platforms/ClusterDescriptor.h"
#include "platforms/FaultInjector.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cclsim {

class ReportBuilder {
public:
    /// The head of the report.
    ReportBuilder(const std::string& board, const std::string& workload, const nlohmann::json& params, double simTimeNs,
                  double wallSeconds, double peakRssMiB);

    /// "link_health": each link direction's counters at the end of the run.
    void addLinkHealth(const std::vector<LinkHealthRow>& rows);
    /// "skipped_links": the links left out of every op.
    void addSkippedLinks(const std::vector<const LinkDesc*>& links);

    /// The run stopped before every kernel returned; `stopReport` says where.
    /// `loss` is the faults' diagnosis when they lost anything (then the run
    /// is theirs: exit 6), else nothing (exit 5).
    RunOutcome stopped(const std::string& stopReport, const std::optional<std::string>& loss);

    /// The workload's results of a finished run.
    void addResults(const nlohmann::json& results);
    /// "stats": the Ethernet traffic and the event count of a finished run.
    void addStats(const EthStats& eth, std::uint64_t events, double wallSeconds);
    /// "results.fast_forward": what --fast-forward skipped (skips, packets,
    /// simulated time) and, when it skipped nothing, why.
    void addFastForward(const FastForward& ff);
    /// The data check's verdict ("pass", "fail", "off") and, on "fail", the
    /// first failure; `loss` as for stopped(): a check that failed while the
    /// faults lost data is theirs.
    RunOutcome checked(const std::string& verdict, const std::string& firstFailure,
                       const std::optional<std::string>& loss);

    /// The report so far (Workload::decorate adds its keys here).
    nlohmann::json& report() { return report_; }

private:
    /// Blame the run on the faults if they lost anything, else `otherwise`.
    RunOutcome blameFaults(RunOutcome otherwise, const std::optional<std::string>& loss, const std::string& headline,
                           const std::string& blocked, const std::string& data);

    nlohmann::json report_;
};

/// Write `report` to `path` (--json), indented; ConfigError if it cannot.
void writeJson(const std::string& path, const nlohmann::json& report);

/// The CSV form of `reports` (--csv): the workload's header, then one row per
/// report that has results. ConfigError if the workload has no CSV form.
std::string csvText(const Workload& workload, const std::vector<nlohmann::json>& reports);
/// Write csvText() to `path`; ConfigError if it cannot.
void writeCsv(const std::string& path, const Workload& workload, const std::vector<nlohmann::json>& reports);

}  // namespace cclsim
