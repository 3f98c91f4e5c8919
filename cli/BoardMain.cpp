// The entry points of the board executables: boardMain (the executable),
// runInProcess and checkInProcess (tests and the fuzzer), and the two ways a
// command line runs, one session or a sweep of them.
#include "cli/BoardMain.h"

#include "cli/BoardCli.h"
#include "cli/ReportBuilder.h"
#include "cli/RunOutcome.h"
#include "cli/RunSession.h"
#include "cli/SweepPool.h"
#include "cli/TerminalReport.h"
#include "models/common/ConfigError.h"
#include "platforms/ClusterDescriptorWriter.h"
#include "tools/sweep/SweepPlot.h"

#include <fmt/format.h>
#include <systemc>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <thread>

namespace cclsim {

namespace {

// SystemC prints its banner from main() before sc_main runs; a static
// initialiser of the executable runs earlier still.
const bool kQuietBanner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

void quietSystemC() {
    // Reports from SystemC itself: errors throw; we print them once.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
}

/// The report of a command line that ended in the parse: --help's text, or the usage error.
nlohmann::json parseReport(const BoardCli& cli, const RunOutcome& outcome, int& exitCode) {
    exitCode = outcome.exitCode();
    return outcome.kind() == RunOutcome::Kind::Ok ? nlohmann::json{{"help", cli.help()}} : outcome.errorReport();
}

/// Run `session` (a function returning a RunReport); an exception it throws
/// becomes its outcome and the report {"error": ...}.
template <class Session> RunReport reportingErrors(Session&& session) {
    try {
        return session();
    } catch (...) {
        const RunOutcome outcome = RunOutcome::fromCurrentException();
        return RunReport{outcome.errorReport(), outcome};
    }
}

/// The configuration a run would start from, read and checked without
/// elaborating: the configuration directory, the cluster descriptor with
/// its arch (and --aiclk-mhz, --fabric-payload), the --start times and the workload's options.
nlohmann::json checkOnce(const BoardInfo& board, Workload& w, const GlobalOptions& g) {
    const ClusterDescriptor desc = RunSession::loadDescriptor(board, g);
    RunSession::dispatchTimes(g, unsigned(desc.chips.size()));
    nlohmann::json params = w.params();
    params["cluster"] = desc.file;
    params["arch"] = desc.arch.file;
    return nlohmann::json{{"board", board.name}, {"workload", w.name()}, {"params", params}};
}

/// --write-cluster: the descriptor a run would use, in our form; nothing runs.
int writeCluster(const BoardInfo& board, const GlobalOptions& g) {
    const ClusterDescriptor desc = RunSession::loadDescriptor(board, g);
    const WrittenCluster w = writeClusterDescriptor(desc, g.writeCluster, desc.file);
    if (!g.quiet) {
        std::cout << fmt::format("wrote {} ({} chips, {} links)\n", w.descriptor, desc.chips.size(), desc.links.size());
        if (!w.archOverlay.empty())
            std::cout << fmt::format("wrote {} (the arch with {} worker cores)\n", w.archOverlay,
                                     desc.arch.workers.size());
    }
    return RunOutcome::kExitOk;
}

/// Say why on stderr and, with --json, in the report file (scripts see why a
/// run failed); the exit code.
int fail(const GlobalOptions& g, const RunOutcome& outcome) {
    std::cerr << outcome.terminalLine();
    if (!g.json.empty() && outcome.writesErrorFile()) {
        try {
            writeJson(g.json, outcome.errorFile());
        } catch (const std::exception&) {
        }
    }
    return outcome.exitCode();
}

/// One run: the report files, then the summary, or why it stopped.
int runSingle(const BoardInfo& board, Workload& w, const GlobalOptions& g) {
    TerminalReport terminal(g.quiet);
    const RunReport run = RunSession(board, w, g).run(terminal);
    const RunOutcome& outcome = run.outcome;
    if (!g.json.empty()) writeJson(g.json, run.report);
    if (!g.csv.empty() && !outcome.endsInError()) writeCsv(g.csv, w, {run.report});
    if (outcome.endsInError()) {
        std::cerr << outcome.terminalLine();
        return outcome.exitCode();
    }
    terminal.summary(w, run.report, g.vcd, g.json);
    if (outcome.kind() == RunOutcome::Kind::DataCheckFailed) std::cerr << outcome.terminalLine();
    return outcome.exitCode();
}

/// Sweep point `i`, run in its own process: quiet, without a trace.
PointResult runPoint(const BoardInfo& board, Workload& w, const GlobalOptions& g, std::size_t i) {
    const RunReport run = reportingErrors([&] {
        w.selectSweepPoint(i);
        GlobalOptions child = g;
        child.vcd.clear();
        child.quiet = true;  // no progress lines from sweep points
        TerminalReport terminal(child.quiet);
        return RunSession(board, w, child).run(terminal);
    });
    return PointResult{run.report, run.outcome.exitCode()};
}

/// Every point of the workload's sweep in its own process, up to --jobs at
/// once: rows (or why a point failed) in point order, then the JSON, CSV and
/// plot of every point; the worst exit code of any point.
int runSweep(const BoardInfo& board, Workload& w, const GlobalOptions& g) {
    const std::size_t jobs = g.jobs ? g.jobs : std::max(1u, std::thread::hardware_concurrency());
    int worst = RunOutcome::kExitOk;
    if (!g.quiet) std::cout << w.sweepHeader() << std::flush;
    SweepPool pool(w.sweepPoints(), jobs);
    const auto point = [&](std::size_t i) { return runPoint(board, w, g, i); };
    const auto shown = [&](std::size_t i, const PointResult& p) {
        if (p.exitCode != RunOutcome::kExitOk) {
            worst = std::max(worst, p.exitCode);
            std::cerr << SweepPool::failureLine(i, p);
        } else if (!g.quiet) {
            std::cout << w.sweepRow(p.report) << std::flush;
        }
    };
    std::vector<PointResult> points = pool.run(point, shown);
    std::vector<nlohmann::json> reports;
    reports.reserve(points.size());
    for (PointResult& p : points) reports.push_back(std::move(p.report));
    if (!g.json.empty())
        writeJson(g.json, nlohmann::json{{"board", board.name}, {"workload", w.name()}, {"sweep", reports}});
    if (!g.csv.empty()) writeCsv(g.csv, w, reports);
    if (!g.plot.empty()) {
        const sweep::PlotFiles f = sweep::writePlot(g.plot, reports, w.sweepSeries(reports));
        if (!g.quiet) std::cout << fmt::format("  plot: {} (gnuplot data {}, script {})\n", f.image, f.data, f.script);
    }
    return worst;
}

}  // namespace

int boardMain(int argc, char** argv, const BoardInfo& board) {
    quietSystemC();
    BoardCli cli(board);
    if (const auto parsed = cli.parse(argc, argv)) return parsed->exitCode();
    Workload& w = cli.workload();
    const GlobalOptions& g = cli.options();
    try {
        cli.locateConfigs();
        if (!g.writeCluster.empty()) return writeCluster(board, g);
        if (w.sweepPoints() > 0) return runSweep(board, w, g);
        if (!g.plot.empty()) return fail(g, RunOutcome::usageError("--plot draws a sweep: add the workload's --sweep"));
        return runSingle(board, w, g);
    } catch (...) {
        return fail(g, RunOutcome::fromCurrentException());
    }
}

nlohmann::json runInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode) {
    quietSystemC();
    BoardCli cli(board);
    if (const auto parsed = cli.parse(args)) return parseReport(cli, *parsed, exitCode);
    const RunReport run = reportingErrors([&] {
        cli.locateConfigs();
        TerminalReport terminal(cli.options().quiet);
        return RunSession(board, cli.workload(), cli.options()).run(terminal);
    });
    exitCode = run.outcome.exitCode();
    return run.report;
}

nlohmann::json checkInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode) {
    BoardCli cli(board);
    if (const auto parsed = cli.parse(args)) return parseReport(cli, *parsed, exitCode);
    try {
        cli.locateConfigs();
        exitCode = RunOutcome::kExitOk;
        return checkOnce(board, cli.workload(), cli.options());
    } catch (const ConfigError& e) {
        // Only a configuration error is an answer here: anything else
        // escapes, and the fuzzer reports it.
        const RunOutcome outcome = RunOutcome::configError(e.what());
        exitCode = outcome.exitCode();
        return outcome.errorReport();
    }
}

}  // namespace cclsim
