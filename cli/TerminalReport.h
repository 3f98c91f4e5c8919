// What a run prints on the terminal, unless --quiet: the links it skips,
// progress lines on long runs (stderr), the link health table of a run with a
// fault plan, and the summary after the run (stdout). Errors are not its
// business: every failure prints RunOutcome::terminalLine(), quiet or not.
#pragma once

#include "cli/RunObserver.h"
#include "cli/Workload.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace cclsim {

class TerminalReport : public RunObserver {
public:
    /// `quiet`: print nothing (--quiet, and every sweep point).
    explicit TerminalReport(bool quiet);

    void linksSkipped(const std::vector<const LinkDesc*>& links) override;
    void simulationStarts() override;
    /// A progress line on stderr at most once a second (once in 10 s when
    /// stderr is not a terminal), once the run has taken 2 s.
    void progress(Tick simNow, const std::function<double()>& fractionDone) override;
    void simulationEnds() override;
    void linkHealth(const std::vector<LinkHealthRow>& rows) override;

    /// The summary of a finished run: the workload's lines, simulated and wall
    /// time, the data check, and where the trace and the report went.
    void summary(const Workload& workload, const nlohmann::json& report, const std::string& vcd,
                 const std::string& json) const;

    /// "  skipping N link(s) that retrained at init: chip 0 ch 1 <-> chip 1 ch 2;...".
    static std::string skippedLinksText(const std::vector<const LinkDesc*>& links);
    /// The counters of every link direction that saw a fault, as a table
    /// (tt-metal's counters); empty when none did.
    static std::string linkHealthText(const std::vector<LinkHealthRow>& rows);
    /// summary()'s text after the workload's own lines.
    static std::string runSummaryText(const nlohmann::json& report, const std::string& vcd, const std::string& json);

private:
    bool quiet_;
    bool tty_;
    std::chrono::steady_clock::time_point t0_;
    double last_ = 0;
    bool printed_ = false;
};

}  // namespace cclsim
