// One run of a workload on a board, in this process: load the cluster
// descriptor and the fault plan, elaborate the platform, build and launch the
// workload's programs, simulate (with the VCD if asked), and turn the finished
// run into its report and outcome.
//
// The session prints nothing: it tells a RunObserver what happens, in order,
// and the observer decides what the user sees. SystemC elaborates once per
// process, so a process runs one session (a sweep runs each point in a child
// process; cli/SweepPool.h).
#pragma once

#include "cli/BoardCli.h"
#include "cli/RunObserver.h"
#include "cli/RunOutcome.h"
#include "cli/Workload.h"
#include "cli/WorkloadRegistry.h"
#include "platforms/ClusterDescriptor.h"
#include "platforms/Platform.h"
#include "runtime/Runtime.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cclsim {

/// The report of one run and what the run came to.
struct RunReport {
    nlohmann::json report;
    RunOutcome outcome;
};

class RunSession {
public:
    RunSession(const BoardInfo& board, Workload& workload, const GlobalOptions& options);
    RunSession(const RunSession&) = delete;
    RunSession& operator=(const RunSession&) = delete;
    ~RunSession();

    /// Elaborate, build, simulate and report, telling `observer` as it goes.
    /// Throws ConfigError on bad configuration or options, anything else on a
    /// model or firmware error; a run that stops or fails its data check is
    /// no exception (the outcome says so).
    RunReport run(RunObserver& observer);

    /// The cluster descriptor a run with `options` uses: --cluster or the
    /// board's, with --arch, --aiclk-mhz and --fabric-payload applied.
    static ClusterDescriptor loadDescriptor(const BoardInfo& board, const GlobalOptions& options);
    /// When each of `chips` chips starts its programs: chip c at c x
    /// --skew-ns, then each --start CHIP:NS. ConfigError on a bad --start.
    static std::vector<Tick> dispatchTimes(const GlobalOptions& options, unsigned chips);

private:
    void elaborate(RunObserver& observer);
    void build();
    RunResult simulate(RunObserver& observer);
    RunResult runNoticingLoss(const RunOptions& ro);
    void closeTrace();
    RunReport report(const RunResult& run, RunObserver& observer);
    nlohmann::json params() const;
    /// What the faults lost (their diagnosis), if they lost anything.
    std::optional<std::string> lossDiagnosis() const;

    const BoardInfo& board_;
    Workload& workload_;
    const GlobalOptions& options_;
    ClusterDescriptor desc_;
    std::unique_ptr<Platform> owned_;  ///< until the run is simulated (then kept until the process exits)
    Platform* platform_ = nullptr;
    std::vector<const LinkDesc*> excluded_;
    std::optional<Runtime> runtime_;
    std::unique_ptr<TraceFile> trace_;
};

}  // namespace cclsim
