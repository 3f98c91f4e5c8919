// The command line of a board executable (BoardCli.h). The texts of the
// options are the help text users and tests read: change them with care.
#include "cli/BoardCli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace cclsim {

BoardCli::BoardCli(const BoardInfo& board)
    : board_(board),
      app_(std::make_unique<CLI::App>(
          fmt::format("cclsim {} board: transaction-level model of {} and its firmware", board.name, board.name),
          board.name)) {
    app_->fallthrough();
    app_->failure_message(CLI::FailureMessage::help);
    addGlobalOptions();
    refuseNegatives(*app_);
    addWorkloads();
    app_->require_subcommand(0, 1);
}

BoardCli::~BoardCli() = default;

std::string BoardCli::help() const {
    return app_->help();
}

void BoardCli::addGlobalOptions() {
    GlobalOptions& g = options_;
    app_->add_option("--json", g.json, "write the machine-readable report to FILE");
    app_->add_option("--vcd", g.vcd, "write a VCD trace (and a GTKWave .gtkw beside it)");
    app_->add_option("--config-dir", g.configDir,
                     "directory of the configuration files (board descriptors, arch/, ccl.yaml, ...; default: "
                     "$CCLSIM_CONFIG_DIR, else config/ beside the executable, else the install's share/cclsim)");
    app_->add_option("--cluster", g.cluster, "cluster descriptor YAML (default: the board's)");
    app_->add_option("--arch", g.arch, "chip architecture YAML (default: the descriptor's)");
    app_->add_option("--write-cluster", g.writeCluster,
                     "write the cluster descriptor (--cluster, e.g. a tt-metal one) in cclsim's form to FILE "
                     "(an arch overlay beside it when rows are harvested) and run nothing");
    app_->add_option("--faults", g.faults,
                     "inject the Ethernet faults of this plan (YAML: seed, faults: ber / retrain / down / drop)");
    app_->add_flag("--skip-links-with-retrain", g.skipLinksWithRetrain,
                   "leave out of every op the links that retrain while the device initialises (a --faults retrain "
                   "at 0 us), as tt-metal's skip-Ethernet-cores-with-retrain option: ops run on fewer links");
    app_->add_option("--aiclk-mhz", g.aiclkMhz, "run the chips at this AICLK instead of the arch YAML's aiclk_mhz")
        ->check(CLI::Range(100.0, 3000.0));
    app_->add_option("--fabric-payload", g.fabricPayload,
                     "the packet fabric's largest packet payload in bytes (a multiple of 16), instead of the arch "
                     "YAML's fabric.max_payload_bytes: tt-metal's FabricRouterConfig max_packet_payload_size_bytes. "
                     "The routers' channel slots are sized for it")
        ->check(CLI::Range(16u, 65536u));
    app_->add_flag("--no-data", g.noData, "timing only: payload bytes are not stored or checked");
    app_->add_flag("--fast-forward", g.fastForward,
                   "skip stretches of steady packet loops at their measured rates (the fabric ring collectives, "
                   "eth_bandwidth with credits on tx_cmd_q 1, edm_stream one way or with --credit-txq 1, "
                   "fabric_bandwidth; needs --no-data but on "
                   "eth_bandwidth and fabric_bandwidth; see results.fast_forward and the fast_forward trace "
                   "signal)");
    app_->add_option("--skew-ns", g.skewNs, "chip c's program starts c x NS later");
    app_->add_option("--start", g.starts, "CHIP:NS dispatch time of one chip (repeatable)");
    app_->add_flag("--trace-all-cores", g.traceAll, "trace every core, not only the busy ones");
    app_->add_option("--trace-window-ns", g.traceWindowNs,
                     "window of the traced utilisation signals (tx_util_pct), default 1000")
        ->check(CLI::Range(0.001, 1e9));
    app_->add_option("--max-sim-us", g.maxSimUs, "stop (and report) after this much simulated time");
    app_->add_flag("--quiet", g.quiet, "print only errors");
    app_->add_flag("--torus", g.torus, "close the mesh with the descriptor's torus links (edge links)");
    app_->add_option("--csv", g.csv, "write the report as CSV to FILE (collectives; one row per sweep size)");
    app_->add_option("-j,--jobs", g.jobs, "sweeps: points run at once, each in its own process (default: every core)")
        ->check(CLI::Range(1u, 4096u));
    app_->add_option("--plot", g.plot,
                     "sweeps: draw the sweep with gnuplot into FILE.png or FILE.svg (data and "
                     "script beside it)")
        ->check(CLI::Validator(
            [](std::string& f) {
                const auto dot = f.rfind('.');
                const std::string ext = dot == std::string::npos ? "" : f.substr(dot);
                return ext == ".png" || ext == ".svg" ? std::string() : "the image must end in .png or .svg";
            },
            "FILE.png|FILE.svg"));
}

/// CLI11 reads "-5" into an unsigned option as 2^64 - 5 (a seed, a root, a
/// chip); and --peer and --src keep -1 for "the default". A negative value
/// given for any of them is refused, naming the option.
void BoardCli::refuseNegatives(CLI::App& cmd) {
    const CLI::Validator nonNegative(
        [](std::string& v) { return !v.empty() && v[0] == '-' ? "must not be negative: " + v : std::string(); }, "");
    for (CLI::Option* o : cmd.get_options()) {
        const std::string type = o->get_type_name();
        if (type.rfind("UINT", 0) == 0 || o->get_name() == "--peer" || o->get_name() == "--src") o->check(nonNegative);
    }
}

void BoardCli::addWorkloads() {
    for (const WorkloadFactory& f : board_.workloads) {
        auto w = f();
        CLI::App* cmd = app_->add_subcommand(w->name(), w->description());
        Options options(*cmd);
        w->addOptions(options);
        refuseNegatives(*cmd);
        byCommand_[cmd] = w.get();
        workloads_[w->name()] = std::move(w);
    }
}

std::optional<RunOutcome> BoardCli::parse(int argc, char** argv) {
    try {
        app_->parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 prints the help (stdout) or the error with the help (stderr).
        const int rc = app_->exit(e);
        return rc == 0 ? RunOutcome::ok() : RunOutcome::usageError(e.what());
    }
    select();
    return std::nullopt;
}

std::optional<RunOutcome> BoardCli::parse(const std::vector<std::string>& args) {
    std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 takes the arguments reversed
    try {
        app_->parse(rev);
    } catch (const CLI::ParseError& e) {
        // --help is no error (CLI11's own message for it is an internal note).
        return e.get_exit_code() == 0 ? RunOutcome::ok() : RunOutcome::usageError(e.what());
    }
    select();
    return std::nullopt;
}

void BoardCli::select() {
    for (CLI::App* sub : app_->get_subcommands()) chosen_ = byCommand_.at(sub);
    if (!chosen_) chosen_ = workloads_.at(board_.defaultWorkload).get();
}

void BoardCli::locateConfigs() {
    options_.configs = ConfigDir::locate(options_.configDir);
    chosen_->setConfigDir(options_.configs);
}

}  // namespace cclsim
