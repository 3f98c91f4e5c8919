// What a run of a board executable came to, and the exit code that says it.
//
// This is the one mapping from what happened to an exit code and a reason:
// the entry points (cli/BoardMain.cpp), the run session, the report builder
// and the sweep's child processes all end in a RunOutcome, so a ConfigError
// means exit 3 and "configuration error: ..." wherever it is caught.
//
//   what happened                                   exit  reason
//   success (or --help)                               0   -
//   the data check failed                             1   "data check failed: <first failure>"
//   usage error (bad option, --plot without a sweep)  2   CLI11's message, or ours
//   ConfigError (bad YAML, options, files)            3   "configuration error: <what>"
//   sweep::PlotError (gnuplot, the plot's files)      3   <what>
//   sc_report from SystemC or a model                 4   "simulation error <message>"
//   any other std::exception (firmware misuse, ...)   4   <what> ("error: <what>" on the terminal)
//   deadlock, a timed-out wait or the time limit      5   the runtime's stop report
//   stopped or wrong while the faults lost data       6   what the links lost and what was blocked
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace cclsim {

class RunOutcome {
public:
    /// What happened, one kind per row of the table above.
    enum class Kind { Ok, DataCheckFailed, UsageError, ConfigError, PlotError, ModelError, Error, Stuck, LostToFault };

    /// The exit codes of the board executables (cli/BoardMain.h lists them for users).
    static constexpr int kExitOk = 0;
    static constexpr int kExitDataCheckFailed = 1;
    static constexpr int kExitUsage = 2;
    static constexpr int kExitConfig = 3;
    static constexpr int kExitSimulationError = 4;
    static constexpr int kExitStuck = 5;
    static constexpr int kExitLostToFault = 6;

    /// Success.
    RunOutcome() = default;

    static RunOutcome ok() { return {}; }
    /// A command line that does not parse, or options that do not go together.
    static RunOutcome usageError(const std::string& message) { return RunOutcome(Kind::UsageError, message); }
    /// A ConfigError's text (`what()`).
    static RunOutcome configError(const std::string& what) {
        return RunOutcome(Kind::ConfigError, "configuration error: " + what);
    }
    /// The run's first data-check failure (the scoreboard's).
    static RunOutcome dataCheckFailed(const std::string& firstFailure) {
        return RunOutcome(Kind::DataCheckFailed, "data check failed: " + firstFailure);
    }
    /// A run that did not finish: the runtime's stop report (deadlock, timed-out wait, time limit).
    static RunOutcome stuck(const std::string& stopReport) { return RunOutcome(Kind::Stuck, stopReport); }
    /// A run that stopped or went wrong while the faults lost data: the whole explanation.
    static RunOutcome lostToFault(const std::string& explanation) { return RunOutcome(Kind::LostToFault, explanation); }

    /// The exception being handled (call it inside a catch block): ConfigError,
    /// sweep::PlotError, sc_core::sc_report or any other std::exception.
    /// Anything that is not a std::exception is rethrown.
    static RunOutcome fromCurrentException();

    Kind kind() const { return kind_; }
    int exitCode() const;
    /// The reason as the report's "error" has it (empty on success).
    const std::string& message() const { return message_; }
    /// The reason as the terminal and the --json error report have it: an
    /// exception without a kind of its own says "error: <what>".
    std::string terminalMessage() const;
    /// The line on stderr: "cclsim: " and the terminal message. A stop report
    /// (exit 5 and 6) is multi-line text printed as it stands.
    std::string terminalLine() const;
    /// The run's report ends in its "error" (exit 5 and 6: it stopped, or the
    /// faults explain it): no summary, no CSV row; stderr gets the error.
    bool endsInError() const { return kind_ == Kind::Stuck || kind_ == Kind::LostToFault; }

    /// The report of a failure that left no run report: {"error": message()}
    /// (runInProcess, checkInProcess, a sweep point's process).
    nlohmann::json errorReport() const;
    /// The --json file of a failure that left no run report:
    /// {"error": terminalMessage(), "exit_code": exitCode()}.
    nlohmann::json errorFile() const;
    /// Whether a failure writes errorFile() to --json: a plot error comes
    /// after the sweep's reports are written, and leaves them.
    bool writesErrorFile() const { return kind_ != Kind::PlotError; }

private:
    explicit RunOutcome(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

    Kind kind_ = Kind::Ok;
    std::string message_;
};

}  // namespace cclsim
