#include "tools/coverify/RowRunner.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace cclsim::coverify {

namespace {

using Clock = std::chrono::steady_clock;

// Rows run in their own process groups, so a Ctrl-C on the terminal reaches
// only the runner: it kills the rows it started and stops.
volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int sig) {
    gInterrupted = sig;
}

struct Running {
    std::size_t row;
    Clock::time_point start;
    std::string json;
    std::string log;
    bool timedOut = false;
};

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// What a board printed about its failure: its first line that mentions an
/// error (a usage error prints the usage after it), else its last `n`
/// non-empty lines joined with " | ".
std::string failureText(const std::string& text, int n) {
    std::vector<std::string> lines;
    std::istringstream is(text);
    std::string l;
    while (std::getline(is, l)) {
        if (l.empty()) continue;
        std::string lower = l;
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find("error") != std::string::npos) return l;
        lines.push_back(l);
    }
    std::string out;
    for (std::size_t i = lines.size() > static_cast<std::size_t>(n) ? lines.size() - n : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out;
}

std::string shellQuote(const std::string& s) {
    if (!s.empty() && s.find_first_of(" \t'\"\\$`*?;&|<>()") == std::string::npos) return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// fork + exec `argv` in its own process group, stdout and stderr to `log`.
pid_t spawn(const std::vector<std::string>& argv, const std::string& workDir, const std::string& log) {
    std::vector<char*> cargv;
    cargv.reserve(argv.size() + 1);
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);  // so that a timeout kills the board and anything it started
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        if (!workDir.empty() && chdir(workDir.c_str()) != 0) {
            std::fprintf(stderr, "coverify: cannot enter %s: %s\n", workDir.c_str(), std::strerror(errno));
            _exit(127);
        }
        execv(cargv[0], cargv.data());
        std::fprintf(stderr, "coverify: cannot run %s: %s\n", cargv[0], std::strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);  // also here, so the group exists before any kill
    return pid;
}

}  // namespace

std::vector<std::string> boardsIn(const std::string& dir) {
    std::vector<std::string> boards;
    DIR* d = opendir(dir.c_str());
    if (!d) return boards;
    while (const dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.empty() || name[0] == '.' || name == "coverify") continue;
        std::string path = dir;
        path += '/';
        path += name;
        struct stat st {};
        if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0)
            boards.push_back(name);
    }
    closedir(d);
    std::sort(boards.begin(), boards.end());
    return boards;
}

std::vector<RowResult> runTable(const Table& table, const RunOptions& options) {
    std::vector<RowResult> results(table.rows.size());
    // The rows' reports and logs go to a private directory ($TMPDIR or /tmp).
    const char* tmpEnv = std::getenv("TMPDIR");
    const std::string tmpPattern = std::string(tmpEnv && *tmpEnv ? tmpEnv : "/tmp") + "/cclsim_coverify_XXXXXX";
    std::vector<char> pattern(tmpPattern.begin(), tmpPattern.end());
    pattern.push_back('\0');
    const char* tmpDir = mkdtemp(pattern.data());
    if (!tmpDir)
        throw std::runtime_error("cannot create a temporary directory " + tmpPattern + ": " + std::strerror(errno));

    std::deque<std::size_t> pending;
    for (std::size_t i = 0; i < table.rows.size(); ++i) pending.push_back(i);
    std::map<pid_t, Running> running;
    const auto timeout = std::chrono::duration<double>(options.timeoutSeconds);
    const unsigned jobs = std::max(1u, options.jobs);
    std::size_t finished = 0;

    auto finish = [&](const Running& run, int status) {
        const Row& row = table.rows[run.row];
        RowResult& res = results[run.row];
        const std::string text = readFile(run.json);
        nlohmann::json report;
        if (!text.empty()) {
            try {
                report = nlohmann::json::parse(text);
            } catch (const nlohmann::json::exception&) {
                report = nullptr;
            }
        }
        int code = -1;
        if (WIFEXITED(status)) code = WEXITSTATUS(status);
        const std::string command = res.command;
        if (run.timedOut) {
            res.status = RowResult::Status::Error;
            res.message = "timed out after " + std::to_string(static_cast<int>(options.timeoutSeconds)) +
                          " s (raise it with --timeout)";
        } else if (!WIFEXITED(status)) {
            res.status = RowResult::Status::Error;
            res.message = std::string("the board was killed by signal ") +
                          (WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "?");
        } else {
            res = judgeRow(row, code, report);
            if (res.status == RowResult::Status::Error && !(report.is_object() && report.contains("error"))) {
                const std::string t = failureText(readFile(run.log), 3);
                if (!t.empty()) res.message += " (output: " + t + ")";
            }
        }
        res.command = command;
        res.wallSeconds = std::chrono::duration<double>(Clock::now() - run.start).count();
        std::remove(run.json.c_str());
        std::remove(run.log.c_str());
        ++finished;
        if (options.progress)
            std::cerr << "coverify: [" << finished << "/" << table.rows.size() << "] line " << row.line << " "
                      << (res.status == RowResult::Status::Pass   ? "pass"
                          : res.status == RowResult::Status::Fail ? "FAIL"
                                                                  : "ERROR")
                      << " (" << static_cast<int>(res.wallSeconds * 10) / 10.0 << " s)\n";
    };

    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    struct sigaction oldInt {
    }, oldTerm{};
    sigaction(SIGINT, &sa, &oldInt);
    sigaction(SIGTERM, &sa, &oldTerm);

    while (!pending.empty() || !running.empty()) {
        if (gInterrupted) {
            for (const auto& [p, run] : running) {
                kill(-p, SIGKILL);
                waitpid(p, nullptr, 0);
                std::remove(run.json.c_str());
                std::remove(run.log.c_str());
            }
            rmdir(tmpDir);
            std::cerr << "coverify: interrupted; stopped the rows still running\n";
            std::_Exit(128 + gInterrupted);
        }
        while (!pending.empty() && running.size() < jobs) {
            const std::size_t i = pending.front();
            pending.pop_front();
            const Row& row = table.rows[i];
            Running run;
            run.row = i;
            run.json = std::string(tmpDir) + "/row" + std::to_string(row.line) + ".json";
            run.log = std::string(tmpDir) + "/row" + std::to_string(row.line) + ".log";
            std::vector<std::string> argv{options.boardDir + "/" + row.board, row.workload};
            argv.insert(argv.end(), row.args.begin(), row.args.end());
            argv.insert(argv.end(), options.extraArgs.begin(), options.extraArgs.end());
            argv.push_back("--json");
            argv.push_back(run.json);
            std::string command;
            for (std::size_t k = 0; k + 2 < argv.size(); ++k)  // without our --json
                command += (command.empty() ? "" : " ") + shellQuote(k == 0 ? row.board : argv[k]);
            results[i].command = command;
            run.start = Clock::now();
            running.emplace(spawn(argv, options.workDir, run.log), run);
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            const auto it = running.find(pid);
            if (it != running.end()) {
                finish(it->second, status);
                running.erase(it);
            }
            continue;
        }
        if (pid < 0 && errno != EINTR && errno != ECHILD) throw std::runtime_error("waitpid failed");
        const auto now = Clock::now();
        for (auto& [p, run] : running)
            if (!run.timedOut && now - run.start > timeout) {
                run.timedOut = true;
                kill(-p, SIGKILL);
            }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
    rmdir(tmpDir);
    return results;
}

}  // namespace cclsim::coverify
