// coverify: run a table of measured figures on the model and compare.
//
//   coverify TABLE.csv [-j N] [--junit OUT.xml] [--boards DIR] [--timeout S] [--with "OPTIONS"]
//
// Each row runs `<DIR>/<board> <workload> <options> --json <tmp>` in its own
// process (up to N at once, in the directory that holds the table, so that
// relative paths in the options are the table's), then the value at the row's
// key is compared with the measured value. Prints the table in row order with
// every row's error and the geometric-mean |error|, optionally writes JUnit XML.
//
// Exit codes: 0 every row within its tolerance; 1 a row outside its tolerance,
// or a row without a value (board error, missing key, timeout); 2 usage error;
// 3 a bad table (the message names file:line:column).
#include "tools/coverify/CoverifyReport.h"
#include "tools/coverify/CoverifyTable.h"
#include "tools/coverify/RowRunner.h"

#include <CLI/CLI.hpp>
#include <climits>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>
#include <unistd.h>

namespace {

/// The directory of this executable (the board executables are built beside it).
std::string selfDir() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return ".";
    std::string path(buf, static_cast<std::size_t>(n));
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return path;
    return std::string(cwd) + "/" + path;
}

std::string dirOf(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

int run(int argc, char** argv) {
    using namespace cclsim::coverify;
    CLI::App app{"Run a table of measured figures (CSV) on the model and compare model vs measured."};
    std::string tableFile, junitFile;
    std::string boardDir = selfDir();
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    double timeout = 600;
    bool quiet = false;
    std::string with;
    app.add_option("table", tableFile, "CSV table: board,workload,options,key,measured,tolerance[,name,source]")
        ->required();
    app.add_option("-j,--jobs", jobs, "rows run at once (default: the number of CPUs)")->check(CLI::Range(1u, 1024u));
    app.add_option("--junit", junitFile, "write JUnit XML (one testcase per row) to this file");
    app.add_option("--boards", boardDir, "directory of the board executables (default: beside coverify)");
    app.add_option("--timeout", timeout, "wall-clock seconds a row may run before it is killed (default 600)")
        ->check(CLI::PositiveNumber);
    app.add_flag("-q,--quiet", quiet, "no progress lines on stderr");
    app.add_option("--with", with,
                   "options added to every row's, split as the options column (e.g. \"--fabric-payload 6144\" or "
                   "\"--arch overlay.yaml\"): the table under a configuration change");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }

    const std::vector<std::string> boards = boardsIn(boardDir);
    if (boards.empty()) {
        std::cerr << "coverify: error: no board executables in " << boardDir << " (build first, or pass --boards)\n";
        return 2;
    }
    Table table;
    try {
        table = loadTable(tableFile, boards);
    } catch (const TableError& e) {
        std::cerr << "coverify: error: " << e.what() << "\n";
        return 3;
    }

    RunOptions opts;
    try {
        opts.extraArgs = splitOptions(with);
    } catch (const std::invalid_argument& e) {
        std::cerr << "coverify: error: --with: " << e.what() << "\n";
        return 2;
    }
    if (const std::string a = reservedOption(opts.extraArgs); !a.empty()) {
        std::cerr << "coverify: error: --with: '" << a << "' is not allowed (coverify writes the report itself)\n";
        return 2;
    }
    opts.boardDir = absolute(boardDir);
    opts.workDir = dirOf(absolute(tableFile));
    opts.jobs = jobs;
    opts.timeoutSeconds = timeout;
    opts.progress = !quiet;
    std::vector<RowResult> results;
    try {
        results = runTable(table, opts);
    } catch (const std::exception& e) {
        std::cerr << "coverify: error: " << e.what() << "\n";
        return 2;
    }

    if (!with.empty()) std::cout << "every row run with: " << with << "\n";
    printReport(std::cout, table, results);
    if (!junitFile.empty()) {
        std::ofstream os(junitFile);
        if (os) writeJunit(os, table, results);
        if (!os) {
            std::cerr << "coverify: error: cannot write " << junitFile << "\n";
            return 2;
        }
    }
    for (const auto& r : results)
        if (r.status != RowResult::Status::Pass) return 1;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {  // a bug or an exhausted machine, not bad input
        std::cerr << "coverify: internal error: " << e.what() << "\n";
    } catch (...) {
        std::cerr << "coverify: internal error\n";
    }
    return 2;
}
