// The command line of a board executable: the global options, one
// subcommand per workload with that workload's options, and the parse that
// turns argv into the options and the chosen workload.
//
//   <board> [global options] [<workload> [workload options]]
//
// The help text is CLI11's, from the descriptions given here and by each
// workload (Workload::addOptions); no workload given runs the board's default.
#pragma once

#include "cli/RunOutcome.h"
#include "cli/Workload.h"
#include "cli/WorkloadRegistry.h"
#include "models/common/Time.h"
#include "models/common/Trace.h"
#include "runtime/ConfigDir.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cclsim {

/// The options every workload shares: the global flags of a board executable.
struct GlobalOptions {
    std::string json;                   ///< --json: the report file
    std::string vcd;                    ///< --vcd: the trace file (a .gtkw beside it)
    std::string configDir;              ///< --config-dir
    ConfigDir configs;                  ///< where the configuration is, once the command line is parsed
    std::string cluster;                ///< --cluster: descriptor instead of the board's
    std::string arch;                   ///< --arch: arch YAML instead of the descriptor's
    std::string faults;                 ///< --faults: fault plan YAML
    bool skipLinksWithRetrain = false;  ///< --skip-links-with-retrain
    double aiclkMhz = 0;                ///< --aiclk-mhz (0: the arch YAML's)
    std::uint32_t fabricPayload = 0;    ///< --fabric-payload (0: the arch YAML's fabric.max_payload_bytes)
    bool noData = false;                ///< --no-data
    bool fastForward = false;           ///< --fast-forward
    double skewNs = 0;                  ///< --skew-ns
    std::vector<std::string> starts;    ///< --start CHIP:NS, as given
    bool traceAll = false;              ///< --trace-all-cores
    double traceWindowNs = ticksToNs(TraceFile::kDefaultSampleWindow);  ///< --trace-window-ns
    double maxSimUs = 10e6;                                             ///< --max-sim-us
    bool quiet = false;                                                 ///< --quiet
    bool torus = false;                                                 ///< --torus
    std::string csv;                                                    ///< --csv: the CSV report file
    unsigned jobs = 0;                                                  ///< sweep points at once (0: every core)
    std::string plot;                                                   ///< sweep plot image (.png or .svg)
    std::string writeCluster;  ///< --write-cluster: write the descriptor in our form, run nothing
};

class BoardCli {
public:
    /// The command line of `board`: its global options and every workload's subcommand.
    explicit BoardCli(const BoardInfo& board);
    ~BoardCli();
    BoardCli(const BoardCli&) = delete;
    BoardCli& operator=(const BoardCli&) = delete;

    /// Parse the executable's arguments. On --help or a usage error CLI11
    /// prints its text and the outcome says how to exit (0 or 2); nothing
    /// when a run should follow.
    std::optional<RunOutcome> parse(int argc, char** argv);
    /// Parse `args` (the command line without the program name) without
    /// printing: on --help or a usage error the outcome, with the CLI11
    /// message as its reason; nothing when a run should follow.
    std::optional<RunOutcome> parse(const std::vector<std::string>& args);

    /// The help text (--help).
    std::string help() const;
    /// The workload to run: the subcommand given, else the board's default.
    Workload& workload() { return *chosen_; }
    const GlobalOptions& options() const { return options_; }

    /// Find the configuration directory (ConfigError if --config-dir or
    /// $CCLSIM_CONFIG_DIR names none) and tell the chosen workload.
    void locateConfigs();

private:
    void addGlobalOptions();
    void addWorkloads();
    static void refuseNegatives(CLI::App& cmd);
    void select();

    const BoardInfo& board_;
    std::unique_ptr<CLI::App> app_;
    GlobalOptions options_;
    std::map<std::string, std::unique_ptr<Workload>> workloads_;
    std::map<CLI::App*, Workload*> byCommand_;
    Workload* chosen_ = nullptr;
};

}  // namespace cclsim
