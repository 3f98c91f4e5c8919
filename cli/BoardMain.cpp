#include "cli/BoardMain.h"

#include "models/common/Report.h"
#include "models/eth/FaultPlan.h"
#include "models/noc/NocPacketTrace.h"
#include "platforms/Platform.h"
#include "tools/sweep/SweepPlot.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace cclsim {

namespace {

// SystemC prints its banner from main() before sc_main runs; a static
// initialiser of the executable runs earlier still.
const bool kQuietBanner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

enum Exit { kOk = 0, kDataFail = 1, kUsage = 2, kConfig = 3, kSimError = 4, kStuck = 5, kLostToFault = 6 };

struct GlobalOptions {
    std::string json;
    std::string vcd;
    std::string configDir;  ///< --config-dir
    ConfigDir configs;      ///< where the configuration is, once the command line is parsed
    std::string cluster;
    std::string arch;
    std::string faults;                 ///< --faults: fault plan YAML
    bool skipLinksWithRetrain = false;  ///< --skip-links-with-retrain
    double aiclkMhz = 0;
    bool noData = false;
    double skewNs = 0;
    std::vector<std::string> starts;
    bool traceAll = false;
    double traceWindowNs = ticksToNs(TraceFile::kDefaultSampleWindow);
    double maxSimUs = 10e6;
    bool quiet = false;
    bool torus = false;
    std::string csv;
    unsigned jobs = 0;  ///< sweep points at once (0: every core)
    std::string plot;   ///< sweep plot image (.png or .svg)
};

double peakRssMiB() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
}

std::vector<Tick> dispatchTimes(const GlobalOptions& g, unsigned chips) {
    std::vector<Tick> t(chips, 0);
    for (unsigned c = 0; c < chips; ++c) t[c] = nsToTicks(g.skewNs * c);
    for (const std::string& s : g.starts) {
        const auto colon = s.find(':');
        unsigned chip = 0;
        double ns = 0;
        try {
            if (colon == std::string::npos) throw std::invalid_argument(s);
            chip = unsigned(std::stoul(s.substr(0, colon)));
            ns = std::stod(s.substr(colon + 1));
        } catch (const std::exception&) {
            throw ConfigError(fmt::format("--start {}: expected CHIP:NS", s));
        }
        if (chip >= chips) throw ConfigError(fmt::format("--start {}: chip {} does not exist", s, chip));
        if (ns < 0) throw ConfigError(fmt::format("--start {}: time must be >= 0", s));
        t[chip] = nsToTicks(ns);
    }
    return t;
}

/// Progress on the terminal for long runs: simulated time and the share of
/// the work done, at most once a second, once the run has taken 2 s.
class ProgressPrinter {
public:
    ProgressPrinter(Workload& w, Runtime& rt, bool quiet)
        : w_(w), rt_(rt), quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0), t0_(std::chrono::steady_clock::now()) {}
    void update(Tick simNow) {
        if (quiet_) return;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        if (wall < 2.0 || wall - last_ < (tty_ ? 1.0 : 10.0)) return;
        last_ = wall;
        const double f = w_.progress(rt_);
        std::string line = fmt::format("  ... simulated {:.1f} us", ticksToNs(simNow) / 1000.0);
        if (f >= 0) line += fmt::format(", {:.0f}% of bytes moved", 100.0 * f);
        line += fmt::format(", {:.0f} s wall", wall);
        std::cerr << (tty_ ? "\r" + line + "   " : line + "\n") << std::flush;
        printed_ = true;
    }
    void finish() {
        if (printed_ && tty_) std::cerr << "\n";
    }

private:
    Workload& w_;
    Runtime& rt_;
    bool quiet_, tty_;
    std::chrono::steady_clock::time_point t0_;
    double last_ = 0;
    bool printed_ = false;
};

/// Keep a platform that has run until the process ends, reachable from a
/// static (leak checkers do not report it) and never destroyed.
void keepUntilExit(std::unique_ptr<Platform> p) {
    static std::vector<Platform*> kept;
    kept.push_back(p.release());
}

/// The link health counters at the end of a run that saw a fault.
void printLinkHealth(const FaultInjector& faults, bool quiet) {
    if (quiet) return;
    bool any = false;
    for (const LinkHealthRow& row : faults.health()) any |= row.health->any();
    if (!any) return;
    std::cout
        << "  link health (per direction, tt-metal's counters):\n"
        << "    chip ch -> chip ch   retrains  crc_errors  corrected_cw  uncorrected_cw  retransmitted  lost_pkts\n";
    for (const LinkHealthRow& row : faults.health()) {
        const LinkHealth& h = *row.health;
        if (!h.any()) continue;
        std::cout << fmt::format("    {:4} {:2} -> {:4} {:2} {:10} {:11} {:13} {:15} {:14} {:10}\n", row.chip,
                                 row.channel, row.peerChip, row.peerChannel, h.retrainCount, h.crcErrors,
                                 h.correctedCodewords, h.uncorrectedCodewords, h.retransmittedFrames, h.lostFrames);
    }
}

/// Run one simulation in this process and return its report.
nlohmann::json runOnce(const BoardInfo& board, Workload& w, const GlobalOptions& g, int& exitCode) {
    const std::string cluster = g.cluster.empty() ? g.configs.file(board.descriptor) : g.cluster;
    ClusterDescriptor desc = loadClusterDescriptor(cluster, g.arch, g.torus);
    if (g.aiclkMhz > 0) desc.arch = loadArchConfig(desc.arch.file, g.aiclkMhz);
    PlatformOptions po;
    po.storePayload = !g.noData;
    po.traceAllCores = g.traceAll;
    if (!g.faults.empty()) po.faults = loadFaultPlan(g.faults);
    po.skipLinksWithRetrain = g.skipLinksWithRetrain;
    if (g.skipLinksWithRetrain && g.faults.empty())
        throw ConfigError("--skip-links-with-retrain needs --faults: only a fault plan makes a link retrain");
    // A run that reaches the report keeps its platform until the process ends
    // (kept(), below): destroying a SystemC hierarchy costs time quadratic in
    // its modules (each module's removal scans SystemC's module registry),
    // 14% of the instructions of a 1 MiB Galaxy all-gather, for nothing, as
    // the process exits right after the report. A run that fails in its
    // set-up (bad options found by the workload's host code) destroys it, so
    // the process may elaborate again.
    auto owned = std::make_unique<Platform>(board.name.c_str(), desc, po);
    Platform& platform = *owned;
    const auto excluded = platform.excludedLinks();
    if (!excluded.empty() && !g.quiet) {
        std::cout << fmt::format("  skipping {} link(s) that retrained at init:", excluded.size());
        for (const LinkDesc* l : excluded)
            std::cout << fmt::format(" chip {} ch {} <-> chip {} ch {};", l->a.chip, l->a.chan, l->b.chip, l->b.chan);
        std::cout << "\n";
    }
    Runtime rt(platform);
    const auto starts = dispatchTimes(g, platform.numChips());
    for (unsigned c = 0; c < platform.numChips(); ++c) rt.setDispatchTime(c, starts[c]);
    w.build(rt);
    rt.launch();

    std::unique_ptr<TraceFile> tf;
    if (!g.vcd.empty()) {
        tf = std::make_unique<TraceFile>(g.vcd);
        tf->setSampleWindow(nsToTicks(g.traceWindowNs));
        platform.trace(*tf);
        tf->begin();
    }
    RunOptions ro;
    ro.maxSimTime = nsToTicks(g.maxSimUs * 1000.0);
    ProgressPrinter progress(w, rt, g.quiet);
    ro.progress = [&progress](Tick t) { progress.update(t); };
    RunResult r;
    try {
        r = rt.run(ro);
    } catch (const std::exception& e) {
        // Firmware that trips over what a fault did to its data (a dropped
        // packet leaves a stale header in a slot) stops the run: with a loss
        // on the links, that is the fault's doing.
        const FaultInjector* f = platform.faults();
        if (!f || !f->lostAnything()) throw;
        r.completed = false;
        r.report = fmt::format("firmware stopped at {:.3f} ns: {}\n", ticksToNs(now()), e.what());
    }
    flushNocPacketTraces();  // complete before a report reader (or a sweep point's _exit) sees them
    keepUntilExit(std::move(owned));
    progress.finish();
    if (tf) {
        tf->close();
        const std::string gtkw =
            g.vcd.substr(0, g.vcd.rfind('.') == std::string::npos ? g.vcd.size() : g.vcd.rfind('.')) + ".gtkw";
        tf->writeGtkw(gtkw);
    }

    nlohmann::json params = w.params();
    params["cluster"] = desc.file;
    params["arch"] = desc.arch.file;
    params["aiclk_mhz"] = desc.arch.aiclkMhz;
    params["no_data"] = g.noData;
    params["skew_ns"] = g.skewNs;
    params["start"] = g.starts;
    params["max_sim_us"] = g.maxSimUs;
    params["torus"] = g.torus;
    params["faults"] = g.faults;
    params["skip_links_with_retrain"] = g.skipLinksWithRetrain;
    nlohmann::json report{{"board", board.name},
                          {"workload", w.name()},
                          {"params", params},
                          {"sim_time_ns", ticksToNs(r.lastKernelFinish)},
                          {"wall_seconds", r.wallSeconds},
                          {"peak_rss_mib", peakRssMiB()}};
    const FaultInjector* faults = platform.faults();
    if (faults) {
        nlohmann::json rows = nlohmann::json::array();
        for (const LinkHealthRow& row : faults->health()) {
            const LinkHealth& h = *row.health;
            rows.push_back({{"chip", row.chip},
                            {"channel", row.channel},
                            {"direction", "tx"},
                            {"peer_chip", row.peerChip},
                            {"peer_channel", row.peerChannel},
                            {"retrain_count", h.retrainCount},
                            {"crc_errors", h.crcErrors},
                            {"corrected_codewords", h.correctedCodewords},
                            {"uncorrected_codewords", h.uncorrectedCodewords},
                            {"retransmitted_frames", h.retransmittedFrames},
                            {"lost_packets", h.lostFrames},
                            {"lost_messages", h.lostCommands},
                            {"lost_bytes", h.lostBytes}});
        }
        report["link_health"] = rows;
        if (g.skipLinksWithRetrain) {
            nlohmann::json skipped = nlohmann::json::array();
            for (const LinkDesc* l : excluded)
                skipped.push_back({{"chip", l->a.chip},
                                   {"channel", l->a.chan},
                                   {"peer_chip", l->b.chip},
                                   {"peer_channel", l->b.chan}});
            report["skipped_links"] = skipped;
        }
        printLinkHealth(*faults, g.quiet);
    }
    // A run that stopped or went wrong while the faults lost something is
    // the faults' doing: exit 6 with what the links lost.
    auto blameFaults = [&](const std::string& headline, const std::string& blocked, const std::string& data) {
        if (!faults || !faults->lostAnything()) return;
        const std::string why = faults->diagnosis();
        report["fault_diagnosis"] = {{"links", why}, {"blocked", blocked}};
        if (!data.empty()) report["fault_diagnosis"]["data"] = data;
        report["error"] = headline + why + blocked;
        exitCode = kLostToFault;
    };
    if (!r.completed) {
        report["data_check"] = "off";
        report["error"] = r.report;
        report["results"] = nlohmann::json::object();
        exitCode = kStuck;
        // Not a firmware deadlock: the op could not finish with what the faults took.
        blameFaults("lost to a fault:\n", r.report, "");
        return report;
    }
    report["results"] = w.results(rt, r);
    w.decorate(report);
    const EthStats es = platform.ethStats();
    report["stats"] = {{"eth_commands", es.commands},
                       {"eth_packets", es.frames},
                       {"eth_payload_bytes", es.payloadBytes},
                       {"eth_packets_per_wall_second", r.wallSeconds > 0 ? double(es.frames) / r.wallSeconds : 0.0},
                       {"eth_commands_per_wall_second", r.wallSeconds > 0 ? double(es.commands) / r.wallSeconds : 0.0},
                       {"events", platform.eq.fired()}};
    report["data_check"] = w.dataCheck(rt);
    if (report["data_check"] == "fail") {
        report["data_check_failure"] = rt.scoreboard().firstFailure();
        exitCode = kDataFail;
        // The firmware finished without noticing a loss (e.g. a dropped
        // payload whose completion still arrived): the check found it.
        blameFaults("lost to a fault: the op finished with wrong data\n", "",
                    "the op finished but its output differs from the golden reference: " +
                        report["data_check_failure"].get<std::string>());
    } else {
        exitCode = kOk;
    }
    return report;
}

void writeCsv(const std::string& path, const Workload& w, const std::vector<nlohmann::json>& reports) {
    if (w.csvHeader().empty()) throw ConfigError(fmt::format("--csv: workload {} has no CSV report", w.name()));
    std::ofstream os(path);
    if (!os) throw ConfigError(fmt::format("cannot write CSV report '{}'", path));
    os << w.csvHeader() << "\n";
    for (const nlohmann::json& r : reports) {
        const bool ran = r.contains("results") && !r.contains("error") && !r["results"].empty();
        const std::string row = ran ? w.csvRow(r) : std::string();
        if (!row.empty()) os << row << "\n";
    }
}

void writeJson(const std::string& path, const nlohmann::json& j) {
    std::ofstream os(path);
    if (!os) throw ConfigError(fmt::format("cannot write JSON report '{}'", path));
    os << j.dump(2) << "\n";
}

/// A sweep point running in its own process: its report arrives on a pipe.
struct PointProcess {
    pid_t pid = -1;
    int fd = -1;
    std::string buf;
};

/// Fork the process of sweep point `i`. The child selects the point, runs
/// it, writes its JSON report to the pipe and exits with the run's exit code.
PointProcess startPoint(const BoardInfo& board, Workload& w, const GlobalOptions& g, std::size_t i,
                        const std::map<std::size_t, PointProcess>& running) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error(fmt::format("sweep point {}: pipe failed", i));
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(fmt::format("sweep point {}: fork failed", i));
    if (pid == 0) {
        close(fds[0]);
        for (const auto& [j, p] : running) close(p.fd);  // the other points' pipes are not ours
        int code = kOk;
        std::string out;
        try {
            w.selectSweepPoint(i);
            GlobalOptions child = g;
            child.vcd.clear();
            child.quiet = true;  // no progress lines from sweep points
            nlohmann::json rep = runOnce(board, w, child, code);
            out = rep.dump();
        } catch (const ConfigError& e) {
            out = nlohmann::json{{"error", std::string("configuration error: ") + e.what()}}.dump();
            code = kConfig;
        } catch (const sc_core::sc_report& e) {
            out = nlohmann::json{{"error", std::string("simulation error ") + e.get_msg()}}.dump();
            code = kSimError;
        } catch (const std::exception& e) {
            out = nlohmann::json{{"error", e.what()}}.dump();
            code = kSimError;
        }
        std::size_t off = 0;
        while (off < out.size()) {
            const ssize_t n = write(fds[1], out.data() + off, out.size() - off);
            if (n <= 0) break;
            off += std::size_t(n);
        }
        close(fds[1]);
        _exit(code);
    }
    close(fds[1]);
    return PointProcess{pid, fds[0], {}};
}

/// Reap a finished point: its report (or why there is none) and exit code.
nlohmann::json finishPoint(PointProcess& p, std::size_t i, int& code) {
    close(p.fd);
    int status = 0;
    waitpid(p.pid, &status, 0);
    code = WIFEXITED(status) ? WEXITSTATUS(status) : kSimError;
    if (p.buf.empty()) {
        code = code == kOk ? kSimError : code;
        return nlohmann::json{{"error", WIFSIGNALED(status)
                                            ? fmt::format("sweep point {} crashed (signal {})", i, WTERMSIG(status))
                                            : fmt::format("sweep point {} wrote no report", i)}};
    }
    try {
        return nlohmann::json::parse(p.buf);
    } catch (const nlohmann::json::exception& e) {
        code = code == kOk ? kSimError : code;
        return nlohmann::json{{"error", fmt::format("sweep point {}: unreadable report: {}", i, e.what())}};
    }
}

/// Run every sweep point in its own child process, up to `g.jobs` at once;
/// rows are printed and reports kept in point order, whatever order the
/// points finish in.
int runSweep(const BoardInfo& board, Workload& w, const GlobalOptions& g) {
    const std::size_t n = w.sweepPoints();
    const std::size_t jobs = g.jobs ? g.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::optional<nlohmann::json>> done(n);
    std::vector<int> codes(n, kOk);
    std::map<std::size_t, PointProcess> running;
    std::size_t next = 0, shown = 0;
    int worst = kOk;
    if (!g.quiet) std::cout << w.sweepHeader() << std::flush;
    while (shown < n) {
        while (running.size() < jobs && next < n) {
            running.emplace(next, startPoint(board, w, g, next, running));
            ++next;
        }
        std::vector<pollfd> fds;
        std::vector<std::size_t> which;
        for (const auto& [i, p] : running) {
            fds.push_back(pollfd{p.fd, POLLIN, 0});
            which.push_back(i);
        }
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("sweep: poll failed");
        }
        for (std::size_t k = 0; k < fds.size(); ++k) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            PointProcess& p = running.at(which[k]);
            char tmp[65536];
            const ssize_t got = read(p.fd, tmp, sizeof tmp);
            if (got > 0) {
                p.buf.append(tmp, std::size_t(got));
                continue;
            }
            if (got < 0 && errno == EINTR) continue;
            done[which[k]] = finishPoint(p, which[k], codes[which[k]]);
            running.erase(which[k]);
        }
        for (; shown < n && done[shown]; ++shown) {
            const nlohmann::json& rep = *done[shown];
            if (codes[shown] != kOk) {
                worst = std::max(worst, codes[shown]);
                // The first line of the message; the whole of it is in the JSON report.
                const std::string why = rep.contains("error")
                                            ? rep["error"].get<std::string>()
                                            : "data check failed: " + rep.value("data_check_failure", "");
                const auto eol = why.find('\n');
                std::cerr << fmt::format("sweep point {} failed (exit {}): {}{}\n", shown, codes[shown],
                                         why.substr(0, eol), eol == std::string::npos ? "" : " ...");
            } else if (!g.quiet) {
                std::cout << w.sweepRow(rep) << std::flush;
            }
        }
    }
    std::vector<nlohmann::json> reports;
    for (auto& r : done) reports.push_back(std::move(*r));
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

namespace {

/// The parsed command line of a board executable.
struct Cli {
    CLI::App app;
    GlobalOptions g;
    std::map<std::string, std::unique_ptr<Workload>> workloads;
    std::map<CLI::App*, Workload*> byCommand;
    Workload* chosen = nullptr;

    explicit Cli(const BoardInfo& board)
        : app(fmt::format("cclsim {} board: transaction-level model of {} and its firmware", board.name, board.name),
              board.name) {
        app.fallthrough();
        app.failure_message(CLI::FailureMessage::help);
        app.add_option("--json", g.json, "write the machine-readable report to FILE");
        app.add_option("--vcd", g.vcd, "write a VCD trace (and a GTKWave .gtkw beside it)");
        app.add_option("--config-dir", g.configDir,
                       "directory of the configuration files (board descriptors, arch/, ccl.yaml, ...; default: "
                       "$CCLSIM_CONFIG_DIR, else config/ beside the executable, else the install's share/cclsim)");
        app.add_option("--cluster", g.cluster, "cluster descriptor YAML (default: the board's)");
        app.add_option("--arch", g.arch, "chip architecture YAML (default: the descriptor's)");
        app.add_option("--faults", g.faults,
                       "inject the Ethernet faults of this plan (YAML: seed, faults: ber / retrain / down / drop)");
        app.add_flag("--skip-links-with-retrain", g.skipLinksWithRetrain,
                     "leave out of every op the links that retrain while the device initialises (a --faults retrain "
                     "at 0 us), as tt-metal's skip-Ethernet-cores-with-retrain option: ops run on fewer links");
        app.add_option("--aiclk-mhz", g.aiclkMhz, "run the chips at this AICLK instead of the arch YAML's aiclk_mhz")
            ->check(CLI::Range(100.0, 3000.0));
        app.add_flag("--no-data", g.noData, "timing only: payload bytes are not stored or checked");
        app.add_option("--skew-ns", g.skewNs, "chip c's program starts c x NS later");
        app.add_option("--start", g.starts, "CHIP:NS dispatch time of one chip (repeatable)");
        app.add_flag("--trace-all-cores", g.traceAll, "trace every core, not only the busy ones");
        app.add_option("--trace-window-ns", g.traceWindowNs,
                       "window of the traced utilisation signals (tx_util_pct), default 1000")
            ->check(CLI::Range(0.001, 1e9));
        app.add_option("--max-sim-us", g.maxSimUs, "stop (and report) after this much simulated time");
        app.add_flag("--quiet", g.quiet, "print only errors");
        app.add_flag("--torus", g.torus, "close the mesh with the descriptor's torus links (edge links)");
        app.add_option("--csv", g.csv, "write the report as CSV to FILE (collectives; one row per sweep size)");
        app.add_option("-j,--jobs", g.jobs, "sweeps: points run at once, each in its own process (default: every core)")
            ->check(CLI::Range(1u, 4096u));
        app.add_option("--plot", g.plot,
                       "sweeps: draw the sweep with gnuplot into FILE.png or FILE.svg (data and "
                       "script beside it)")
            ->check(CLI::Validator(
                [](std::string& f) {
                    const auto dot = f.rfind('.');
                    const std::string ext = dot == std::string::npos ? "" : f.substr(dot);
                    return ext == ".png" || ext == ".svg" ? std::string() : "the image must end in .png or .svg";
                },
                "FILE.png|FILE.svg"));
        for (WorkloadFactory f : board.workloads) {
            auto w = f();
            CLI::App* cmd = app.add_subcommand(w->name(), w->description());
            w->addOptions(*cmd);
            byCommand[cmd] = w.get();
            workloads[w->name()] = std::move(w);
        }
        app.require_subcommand(0, 1);
    }
    void select(const BoardInfo& board) {
        for (CLI::App* sub : app.get_subcommands()) chosen = byCommand.at(sub);
        if (!chosen) chosen = workloads.at(board.defaultWorkload).get();
    }
    /// Find the configuration directory (ConfigError if --config-dir or
    /// $CCLSIM_CONFIG_DIR names none) and tell the chosen workload.
    void locateConfigs() {
        g.configs = ConfigDir::locate(g.configDir);
        chosen->setConfigDir(g.configs);
    }
};

void quietSystemC() {
    // Reports from SystemC itself: errors throw; we print them once.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
}

}  // namespace

namespace {
/// Parse `args` (the command line without the program name) into `cli`; on a
/// usage error return its report and set `exitCode`.
std::optional<nlohmann::json> parseArgs(Cli& cli, const BoardInfo& board, const std::vector<std::string>& args,
                                        int& exitCode) {
    std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 takes the arguments reversed
    try {
        cli.app.parse(rev);
    } catch (const CLI::ParseError& e) {
        // --help is no error: its text (CLI11's own message for it is an internal note).
        if (e.get_exit_code() == 0) {
            exitCode = kOk;
            return nlohmann::json{{"help", cli.app.help()}};
        }
        exitCode = kUsage;
        return nlohmann::json{{"error", e.what()}};
    }
    cli.select(board);
    return std::nullopt;
}

/// The configuration a run would start from, read and checked without
/// elaborating: the configuration directory, the cluster descriptor with
/// its arch (and --aiclk-mhz), the --start times and the workload's options.
nlohmann::json checkOnce(const BoardInfo& board, Workload& w, const GlobalOptions& g) {
    const std::string cluster = g.cluster.empty() ? g.configs.file(board.descriptor) : g.cluster;
    ClusterDescriptor desc = loadClusterDescriptor(cluster, g.arch, g.torus);
    if (g.aiclkMhz > 0) desc.arch = loadArchConfig(desc.arch.file, g.aiclkMhz);
    dispatchTimes(g, unsigned(desc.chips.size()));
    nlohmann::json params = w.params();
    params["cluster"] = desc.file;
    params["arch"] = desc.arch.file;
    return nlohmann::json{{"board", board.name}, {"workload", w.name()}, {"params", params}};
}
}  // namespace

nlohmann::json checkInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode) {
    Cli cli(board);
    if (auto usage = parseArgs(cli, board, args, exitCode)) return *usage;
    try {
        cli.locateConfigs();
        exitCode = kOk;
        return checkOnce(board, *cli.chosen, cli.g);
    } catch (const ConfigError& e) {
        exitCode = kConfig;
        return nlohmann::json{{"error", std::string("configuration error: ") + e.what()}};
    }
}

nlohmann::json runInProcess(const BoardInfo& board, const std::vector<std::string>& args, int& exitCode) {
    quietSystemC();
    Cli cli(board);
    if (auto usage = parseArgs(cli, board, args, exitCode)) return *usage;
    try {
        cli.locateConfigs();
        return runOnce(board, *cli.chosen, cli.g, exitCode);
    } catch (const ConfigError& e) {
        exitCode = kConfig;
        return nlohmann::json{{"error", std::string("configuration error: ") + e.what()}};
    } catch (const sc_core::sc_report& e) {
        exitCode = kSimError;
        return nlohmann::json{{"error", std::string("simulation error ") + e.get_msg()}};
    } catch (const std::exception& e) {
        exitCode = kSimError;
        return nlohmann::json{{"error", e.what()}};
    }
}

namespace {
/// Report an error on stderr and, with --json, as {"error": ...} in the report
/// file (scripts see why a run failed); returns `code`.
int fail(const GlobalOptions& g, int code, const std::string& message) {
    std::cerr << "cclsim: " << message << "\n";
    if (!g.json.empty()) {
        try {
            writeJson(g.json, nlohmann::json{{"error", message}, {"exit_code", code}});
        } catch (const std::exception&) {
        }
    }
    return code;
}
}  // namespace

int boardMain(int argc, char** argv, const BoardInfo& board) {
    quietSystemC();
    Cli cli(board);
    try {
        cli.app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = cli.app.exit(e);
        return rc == 0 ? kOk : kUsage;
    }
    cli.select(board);
    Workload* w = cli.chosen;
    const GlobalOptions& g = cli.g;

    try {
        cli.locateConfigs();
        if (w->sweepPoints() > 0) return runSweep(board, *w, g);
        if (!g.plot.empty()) return fail(g, kUsage, "--plot draws a sweep: add the workload's --sweep");
        int code = kOk;
        const nlohmann::json rep = runOnce(board, *w, g, code);
        if (!g.json.empty()) writeJson(g.json, rep);
        if (!g.csv.empty() && code != kStuck && code != kLostToFault) writeCsv(g.csv, *w, {rep});
        if (code == kStuck || code == kLostToFault) {
            std::cerr << "cclsim: " << rep["error"].get<std::string>();
            return code;
        }
        if (!g.quiet) {
            std::cout << w->summary(rep["results"]);
            std::cout << fmt::format("  simulated {:.3f} us in {:.2f} s wall, data check: {}\n",
                                     rep["sim_time_ns"].get<double>() / 1000.0, rep["wall_seconds"].get<double>(),
                                     rep["data_check"].get<std::string>());
            if (!g.vcd.empty())
                std::cout << "  trace: " << g.vcd << " (open with: gtkwave " << g.vcd.substr(0, g.vcd.rfind('.'))
                          << ".gtkw)\n";
            if (!g.json.empty()) std::cout << "  report: " << g.json << "\n";
        }
        if (code == kDataFail)
            std::cerr << "cclsim: data check failed: " << rep["data_check_failure"].get<std::string>() << "\n";
        return code;
    } catch (const ConfigError& e) {
        return fail(g, kConfig, std::string("configuration error: ") + e.what());
    } catch (const sweep::PlotError& e) {
        std::cerr << "cclsim: " << e.what() << "\n";  // the sweep's reports are written already
        return kConfig;
    } catch (const sc_core::sc_report& e) {
        return fail(g, kSimError, std::string("simulation error ") + e.get_msg());
    } catch (const std::exception& e) {
        return fail(g, kSimError, std::string("error: ") + e.what());
    }
}

}  // namespace cclsim
