// sweep: run a sweep spec's points on the board executables and merge them.
//
//   sweep SPEC.yaml [-j N] [--timeout S] [--dir DIR] [--csv F] [--json F] [--plot F.png|.svg]
//   sweep SPEC.yaml --emit-slurm DIR [--submit]      a Slurm job array
//   sweep SPEC.yaml --emit-parallel DIR              a GNU parallel job list
//   sweep --merge DIR [--csv F] [--json F] [--plot F.png|.svg]
//
// The boards are found beside this executable (build/). Exit codes: 0 every
// point passed; a point's exit code (1 data check, 3 configuration, 4
// simulation error, 5 deadlock / time limit, 124 killed by --timeout; the
// worst) if some failed; 2
// usage error or bad spec; 6 points missing in --merge.
#include "tools/sweep/SweepPlot.h"
#include "tools/sweep/SweepRun.h"
#include "tools/sweep/SweepSpec.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace cclsim::sweep;

namespace {

constexpr int kUsage = 2;
constexpr int kRunError = 4;

/// Output and exit code of a shell command.
std::string capture(const std::string& cmd, int& code) {
    std::FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) throw std::runtime_error("cannot run: " + cmd);
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int st = pclose(p);
    code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

std::string selfDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path().string() : exe.parent_path().string();
}

/// The board executable of a spec, checked, with its options checked too.
std::string boardExe(const SweepSpec& spec) {
    const fs::path exe = fs::path(selfDir()) / spec.board;
    if (spec.board.find('/') != std::string::npos || !fs::exists(exe) || access(exe.c_str(), X_OK) != 0 ||
        spec.board == "sweep" || spec.board == "coverify")
        throw SweepError(fmt::format("{}: board '{}' is not a board executable of this build (none at {})", spec.file,
                                     spec.board, exe.string()));
    int code = 0;
    const std::string sub = capture(shellQuote(exe.string()) + " " + shellQuote(spec.workload) + " --help", code);
    const std::string usage = fmt::format("Usage: {} {}", spec.board, spec.workload);
    if (code != 0 || sub.find(usage) == std::string::npos)
        throw SweepError(fmt::format("{}: board {} has no workload '{}' (see {} --help)", spec.file, spec.board,
                                     spec.workload, spec.board));
    const std::string top = capture(shellQuote(exe.string()) + " --help", code);
    checkOptions(spec, sub + "\n" + top);
    return exe.string();
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream os(path, std::ios::binary);
    os << text;
    os.close();
    if (!os) throw SweepError(fmt::format("cannot write '{}'", path));
}

/// Drop the wall-clock fields of the points' reports (--no-wall).
void stripWall(nlohmann::json& merged) {
    for (nlohmann::json& p : merged["points"]) {
        if (!p.contains("report")) continue;
        nlohmann::json& r = p["report"];
        r.erase("wall_seconds");
        r.erase("peak_rss_mib");
        if (r.contains("stats"))
            for (const char* k : {"eth_packets_per_wall_second", "eth_commands_per_wall_second"}) r["stats"].erase(k);
    }
}

struct Outputs {
    std::string csv, json, plot;
    bool noWall = false;
    bool quiet = false;
};

int report(const std::string& dir, const Outputs& o) {
    nlohmann::json merged = mergeSweepDir(dir);
    if (o.noWall) stripWall(merged);
    if (!o.quiet) std::cout << mergedTable(merged) << std::flush;
    if (!o.csv.empty()) writeFile(o.csv, mergedCsv(merged));
    if (!o.json.empty()) writeFile(o.json, merged.dump(2) + "\n");
    if (!o.plot.empty()) {
        const PlotFiles f = writePlot(o.plot, mergedReports(merged), mergedSeries(merged));
        if (!o.quiet) std::cout << fmt::format("  plot: {} (gnuplot data {}, script {})\n", f.image, f.data, f.script);
    }
    const int code = mergedExitCode(merged);
    std::size_t failed = 0, missing = 0;
    for (const auto& p : merged["points"]) {
        failed += p["status"] == "failed";
        missing += p["status"] == "missing";
    }
    if (failed || missing)
        std::cerr << fmt::format("sweep: {} of {} point(s) failed, {} missing (exit {})\n", failed,
                                 merged["points"].size(), missing, code);
    return code;
}

int run(int argc, char** argv) {
    CLI::App app(
        "cclsim sweep: run the points of a sweep spec on the board executables (in parallel here, or as a "
        "Slurm job array or GNU parallel job list) and merge their reports",
        "sweep");
    std::string specFile, dir, emitSlurm, emitParallel, mergeDir;
    unsigned jobs = 0;
    double timeout = 0;
    bool submit = false;
    Outputs o;
    app.add_option("spec", specFile, "sweep spec (YAML)");
    app.add_option("-j,--jobs", jobs, "points at once on this machine (default: every core)")
        ->check(CLI::Range(1u, 4096u));
    app.add_option("--timeout", timeout,
                   "kill a point after this many wall-clock seconds (exit 124; default: no limit)")
        ->check(CLI::Range(0.0, 1e7));
    app.add_option("--dir", dir,
                   "keep the points' reports and logs in DIR (default: a temporary directory, removed "
                   "when every point passed)");
    app.add_option("--csv", o.csv, "write the merged report as CSV");
    app.add_option("--json", o.json, "write the merged report as JSON");
    app.add_option("--plot", o.plot,
                   "draw the sweep into FILE.png or FILE.svg with gnuplot (data and script beside it)");
    app.add_flag("--no-wall", o.noWall, "leave wall-clock fields out of the merged JSON");
    app.add_flag("-q,--quiet", o.quiet, "no table, no progress lines");
    app.add_option("--emit-slurm", emitSlurm, "write a Slurm job array for the spec into DIR (run nothing)");
    app.add_flag("--submit", submit, "with --emit-slurm: submit it with sbatch");
    app.add_option("--emit-parallel", emitParallel,
                   "write a GNU parallel job list for the spec into DIR (run nothing)");
    app.add_option("--merge", mergeDir, "merge the points' reports of a sweep directory (after Slurm or GNU parallel)");
    try {
        app.parse(argc, argv);
        const int modes = !mergeDir.empty() + !emitSlurm.empty() + !emitParallel.empty();
        if (modes > 1) throw CLI::ValidationError("give one of --merge, --emit-slurm, --emit-parallel");
        if (mergeDir.empty() == specFile.empty())
            throw CLI::ValidationError(mergeDir.empty() ? "a sweep spec (SPEC.yaml) is required"
                                                        : "--merge DIR takes no spec: the directory holds it");
        if (submit && emitSlurm.empty()) throw CLI::ValidationError("--submit goes with --emit-slurm DIR");
        if (!emitSlurm.empty() || !emitParallel.empty()) {
            if (!o.csv.empty() || !o.json.empty() || !o.plot.empty() || !dir.empty() || jobs || timeout > 0)
                throw CLI::ValidationError(
                    "--emit-* writes a job list only: give -j, --timeout, --dir, --csv, --json "
                    "and --plot to the run or to --merge");
        }
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : kUsage;
    }

    try {
        if (!mergeDir.empty()) return report(mergeDir, o);

        const SweepSpec spec = loadSpec(specFile);
        const std::string exe = boardExe(spec);
        const std::string cwd = fs::current_path().string();
        if (!emitSlurm.empty()) {
            writeSweepDir(spec, emitSlurm, exe, cwd);
            const std::string script = writeSlurmScript(emitSlurm);
            std::cout << fmt::format("{} points; Slurm job array: {}\n", spec.points(), script);
            if (!submit) {
                std::cout << fmt::format("  submit: sbatch {}\n  then:   sweep --merge {}\n", script, emitSlurm);
                return 0;
            }
            int code = 0;
            const std::string out = capture("sbatch --parsable " + shellQuote(script), code);
            if (code == 127) throw SweepError("--submit: sbatch not found (is Slurm installed on this host?)");
            if (code != 0) throw SweepError(fmt::format("--submit: sbatch failed: {}", out));
            std::cout << fmt::format("  submitted: job {}  (then: sweep --merge {})\n", out.substr(0, out.find('\n')),
                                     emitSlurm);
            return 0;
        }
        if (!emitParallel.empty()) {
            writeSweepDir(spec, emitParallel, exe, cwd);
            const std::string list = (fs::absolute(emitParallel) / "jobs.txt").lexically_normal().string();
            std::cout << fmt::format("{} points; GNU parallel job list: {}\n", spec.points(), list);
            std::cout << fmt::format("  here:        parallel -j {} < {}\n",
                                     std::max(1u, std::thread::hardware_concurrency()), list);
            std::cout << fmt::format("  on hosts:    parallel --sshloginfile HOSTS < {}   (shared paths)\n", list);
            std::cout << fmt::format("  then:        sweep --merge {}\n", emitParallel);
            return 0;
        }

        // On this machine: the same job lines, -j at once.
        bool temp = false;
        std::string d = dir;
        if (d.empty()) {
            std::string tmpl = (fs::temp_directory_path() / "cclsim-sweep-XXXXXX").string();
            if (!mkdtemp(tmpl.data())) throw SweepError("cannot create a temporary directory");
            d = tmpl;
            temp = true;
        }
        writeSweepDir(spec, d, exe, cwd);
        const unsigned j = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
        if (!o.quiet)
            std::cerr << fmt::format("sweep: {} point(s) of {} {} from {}, {} at once\n", spec.points(), spec.board,
                                     spec.workload, spec.file, j);
        runLocal(d, j, o.quiet, timeout);
        const int code = report(d, o);
        if (temp && code == 0)
            fs::remove_all(d);
        else if (!o.quiet || code != 0)
            std::cerr << fmt::format("sweep: points' reports and logs in {}\n", d);
        return code;
    } catch (const SweepError& e) {
        std::cerr << "sweep: error: " << e.what() << "\n";
        return kUsage;
    } catch (const PlotError& e) {
        std::cerr << "sweep: error: " << e.what() << "\n";
        return kUsage;
    } catch (const std::exception& e) {
        std::cerr << "sweep: error: " << e.what() << "\n";
        return kRunError;
    }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {  // a bug or an exhausted machine, not bad input
        std::cerr << "sweep: internal error: " << e.what() << "\n";
    } catch (...) {
        std::cerr << "sweep: internal error\n";
    }
    return kRunError;
}
