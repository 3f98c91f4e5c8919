#include "tools/sweep/SweepRun.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace cclsim::sweep {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream os(p, std::ios::binary);
    os << text;
    os.close();
    if (!os) throw SweepError(fmt::format("cannot write '{}'", p.string()));
}

nlohmann::json readManifest(const std::string& dir) {
    const fs::path m = fs::path(dir) / "sweep.json";
    if (!fs::exists(m))
        throw SweepError(
            fmt::format("'{}' is not a sweep directory (no sweep.json; write one with sweep SPEC "
                        "--emit-slurm/--emit-parallel DIR)",
                        dir));
    try {
        nlohmann::json j = nlohmann::json::parse(readText(m));
        if (!j.contains("points") || !j["points"].is_array()) throw SweepError("no points");
        return j;
    } catch (const std::exception& e) {
        throw SweepError(fmt::format("{}: not a sweep manifest: {}", m.string(), e.what()));
    }
}

/// The last non-empty lines of a point's log, for its failure message.
std::string logTail(const fs::path& log) {
    std::istringstream is(readText(log));
    std::vector<std::string> lines;
    for (std::string l; std::getline(is, l);)
        if (!l.empty()) lines.push_back(l);
    for (const std::string& l : lines)
        if (l.find("error") != std::string::npos) return l;
    std::string out;
    for (std::size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out;
}

enum class Kind { Collective, Bandwidth, Latency, Other };

Kind kindOf(const nlohmann::json& results) {
    if (results.contains("busbw_GBps")) return Kind::Collective;
    if (results.contains("payload_GBps_per_direction") || results.contains("payload_GBps")) return Kind::Bandwidth;
    if (results.contains("round_trip_ns")) return Kind::Latency;
    return Kind::Other;
}

const nlohmann::json* firstResults(const nlohmann::json& merged) {
    for (const nlohmann::json& p : merged["points"])
        if (p.contains("report") && p["report"].contains("results") && p["report"]["results"].is_object() &&
            !p["report"]["results"].contains("skipped"))
            return &p["report"]["results"];
    return nullptr;
}

std::string csvField(const nlohmann::json& v) {
    std::string s = v.is_string() ? v.get<std::string>() : v.is_null() ? std::string() : v.dump();
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

bool isWallKey(const std::string& k) {
    return k.find("wall") != std::string::npos || k == "peak_rss_mib";
}

}  // namespace

std::string shellQuote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=+@%") ==
                          std::string::npos)
        return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

void writeSweepDir(const SweepSpec& spec, const std::string& dirIn, const std::string& boardExe,
                   const std::string& workDir) {
    const fs::path dir = fs::absolute(dirIn).lexically_normal();
    if (fs::exists(dir) && !fs::is_directory(dir))
        throw SweepError(fmt::format("'{}' exists and is not a directory", dir.string()));
    if (fs::exists(dir) && !fs::is_empty(dir) && !fs::exists(dir / "sweep.json"))
        throw SweepError(
            fmt::format("'{}' is not empty and not a sweep directory: give a new or empty directory", dir.string()));
    fs::remove_all(dir / "points");  // a previous sweep's results must not be merged into this one
    fs::create_directories(dir / "points");
    nlohmann::json m{{"cclsim_sweep", 1},        {"spec", fs::absolute(spec.file).lexically_normal().string()},
                     {"board", spec.board},      {"workload", spec.workload},
                     {"board_exe", boardExe},    {"work_dir", workDir},
                     {"swept", spec.sweptKeys()}};
    nlohmann::json fixed = nlohmann::json::object();
    for (const OptionValue& v : spec.fixed) fixed[v.key] = v.flag ? "true" : v.omit ? "false" : v.value;
    m["fixed"] = fixed;
    nlohmann::json points = nlohmann::json::array();
    std::string jobs;
    const std::vector<std::string> keys = spec.sweptKeys();
    for (std::size_t i = 0; i < spec.points(); ++i) {
        const fs::path stem = dir / "points" / std::to_string(i);
        std::string cmd = "cd " + shellQuote(workDir) + " && rm -f " + shellQuote(stem.string() + ".json") + " " +
                          shellQuote(stem.string() + ".rc") + " && " + shellQuote(boardExe) + " " +
                          shellQuote(spec.workload);
        for (const std::string& a : optionArgs(spec.pointOptions(i))) cmd += " " + shellQuote(a);
        cmd += " --quiet --json " + shellQuote(stem.string() + ".json") + " > " + shellQuote(stem.string() + ".log") +
               " 2>&1; echo $? > " + shellQuote(stem.string() + ".rc");
        nlohmann::json opts = nlohmann::json::object();
        const auto values = spec.pointValues(i);
        for (std::size_t k = 0; k < keys.size(); ++k) opts[keys[k]] = values[k];
        points.push_back({{"index", i}, {"options", opts}, {"command", cmd}});
        jobs += cmd + "\n";
    }
    m["points"] = points;
    writeText(dir / "sweep.json", m.dump(2) + "\n");
    writeText(dir / "jobs.txt", jobs);
}

std::string writeSlurmScript(const std::string& dirIn) {
    const fs::path dir = fs::absolute(dirIn).lexically_normal();
    const nlohmann::json m = readManifest(dir.string());
    const std::size_t n = m["points"].size();
    std::string s = "#!/bin/bash\n";
    s += fmt::format("# cclsim sweep: {} point(s) of {} {} (spec {}), one per Slurm array task.\n", n,
                     m["board"].get<std::string>(), m["workload"].get<std::string>(), m["spec"].get<std::string>());
    s += "# Each task runs line SLURM_ARRAY_TASK_ID+1 of jobs.txt: the board with --json points/<task>.json.\n";
    s += "# The nodes must see this directory and the build at the same paths (a shared file system).\n";
    s += fmt::format("# Submit: sbatch {}   then merge: sweep --merge {}\n", (dir / "sweep.sbatch").string(),
                     dir.string());
    if (n > 1000)
        s += "# Note: more than 1000 tasks: Slurm's MaxArraySize (default 1001) must be raised in slurm.conf.\n";
    s += "#SBATCH --job-name=cclsim-sweep\n";
    s += fmt::format("#SBATCH --array=0-{}\n", n - 1);
    s += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    s += fmt::format("#SBATCH --output={}/points/%a.slurm.out\n", dir.string());
    s += fmt::format("line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {})\n", shellQuote((dir / "jobs.txt").string()));
    s += "[ -n \"$line\" ] || { echo \"cclsim sweep: no job line for task $SLURM_ARRAY_TASK_ID\" >&2; exit 2; }\n";
    s += "exec /bin/sh -c \"$line\"\n";
    const fs::path p = dir / "sweep.sbatch";
    writeText(p, s);
    fs::permissions(p, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    return p.string();
}

namespace {
// Points run in process groups of their own (so that a timeout kills the
// board, not only its shell); a Ctrl-C on the terminal then reaches only the
// sweep tool, which kills the points it started and stops.
volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int sig) {
    gInterrupted = sig;
}
}  // namespace

void runLocal(const std::string& dir, unsigned jobs, bool quiet, double timeoutSeconds) {
    using Clock = std::chrono::steady_clock;
    const nlohmann::json m = readManifest(dir);
    const std::size_t n = m["points"].size();
    struct Running {
        std::size_t point;
        Clock::time_point start;
        bool timedOut = false;
    };
    std::map<pid_t, Running> running;
    std::size_t next = 0, finished = 0;
    gInterrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    struct sigaction oldInt {
    }, oldTerm{};
    sigaction(SIGINT, &sa, &oldInt);
    sigaction(SIGTERM, &sa, &oldTerm);
    const auto restore = [&] {
        sigaction(SIGINT, &oldInt, nullptr);
        sigaction(SIGTERM, &oldTerm, nullptr);
    };
    while (finished < n) {
        if (gInterrupted) {
            for (const auto& [pid, r] : running) kill(-pid, SIGKILL);
            for (const auto& [pid, r] : running) waitpid(pid, nullptr, 0);
            restore();
            throw std::runtime_error(
                fmt::format("interrupted: {} of {} point(s) finished; the reports so far are in {}", finished, n, dir));
        }
        while (running.size() < std::max(1u, jobs) && next < n) {
            const std::string cmd = m["points"][next]["command"].get<std::string>();
            std::fflush(stdout);
            std::fflush(stderr);
            const pid_t pid = fork();
            if (pid < 0) throw std::runtime_error("sweep: fork failed");
            if (pid == 0) {
                setpgid(0, 0);
                execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
                _exit(127);
            }
            setpgid(pid, pid);
            running[pid] = Running{next++, Clock::now()};
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno != EINTR) throw std::runtime_error("sweep: waitpid failed");
        if (pid <= 0) {
            if (timeoutSeconds > 0)
                for (auto& [p, r] : running)
                    if (!r.timedOut && std::chrono::duration<double>(Clock::now() - r.start).count() > timeoutSeconds) {
                        kill(-p, SIGKILL);
                        r.timedOut = true;
                    }
            usleep(20000);
            continue;
        }
        const auto it = running.find(pid);
        if (it == running.end()) continue;
        ++finished;
        const fs::path stem = fs::path(dir) / "points" / std::to_string(it->second.point);
        if (it->second.timedOut) {
            // The shell was killed with the board: the exit code and the reason are ours to write.
            writeText(stem.string() + ".rc", "124\n");
            std::ofstream(stem.string() + ".log", std::ios::app) << fmt::format(
                "cclsim sweep: error: the point took longer than --timeout {} s and was killed\n", timeoutSeconds);
        }
        if (!quiet) {
            const std::string code = fs::exists(stem.string() + ".rc") ? readText(stem.string() + ".rc") : "?\n";
            const double wall = std::chrono::duration<double>(Clock::now() - it->second.start).count();
            std::cerr << fmt::format("sweep: [{}/{}] point {} {} ({:.1f} s)\n", finished, n, it->second.point,
                                     code == "0\n"         ? "ok"
                                     : it->second.timedOut ? "timed out"
                                                           : "failed, exit " + code.substr(0, code.size() - 1),
                                     wall);
        }
        running.erase(it);
    }
    restore();
}

nlohmann::json mergeSweepDir(const std::string& dir) {
    const nlohmann::json m = readManifest(dir);
    nlohmann::json out{{"board", m["board"]},
                       {"workload", m["workload"]},
                       {"spec", m["spec"]},
                       {"swept", m["swept"]},
                       {"fixed", m["fixed"]}};
    nlohmann::json points = nlohmann::json::array();
    for (const nlohmann::json& p : m["points"]) {
        const std::size_t i = p["index"].get<std::size_t>();
        const fs::path stem = fs::path(dir) / "points" / std::to_string(i);
        nlohmann::json q{{"index", i}, {"options", p["options"]}};
        const bool hasJson = fs::exists(stem.string() + ".json"), hasRc = fs::exists(stem.string() + ".rc");
        nlohmann::json rep;
        std::string unreadable;
        if (hasJson) {
            try {
                rep = nlohmann::json::parse(readText(stem.string() + ".json"));
            } catch (const std::exception& e) {
                unreadable = fmt::format("unreadable report {}.json: {}", stem.string(), e.what());
            }
        }
        int code = -1;
        if (hasRc) {
            try {
                code = std::stoi(readText(stem.string() + ".rc"));
            } catch (const std::exception&) {
                code = -1;
            }
        }
        if (!hasJson && !hasRc) {
            q["status"] = "missing";
            q["exit_code"] = nullptr;
            q["error"] = "the point did not run (no report, no exit code)";
        } else {
            if (code < 0) {  // no exit code file: what the report says
                code = !unreadable.empty()                     ? 4
                       : rep.contains("exit_code")             ? rep["exit_code"].get<int>()
                       : rep.contains("error")                 ? 5
                       : rep.value("data_check", "") == "fail" ? 1
                                                               : 0;
            }
            if (code == 0 && (!unreadable.empty() || !hasJson)) code = 4;
            q["status"] = code == 0 ? "ok" : "failed";
            q["exit_code"] = code;
            if (code != 0) {
                q["error"] = !unreadable.empty()     ? unreadable
                             : rep.contains("error") ? rep["error"].get<std::string>()
                             : rep.contains("data_check_failure")
                                 ? "data check failed: " + rep["data_check_failure"].get<std::string>()
                                 : logTail(stem.string() + ".log");
            }
            if (rep.is_object() && rep.contains("results")) q["report"] = rep;
        }
        points.push_back(q);
    }
    out["points"] = points;
    return out;
}

std::string mergedCsv(const nlohmann::json& merged) {
    std::vector<std::string> cols;
    std::set<std::string> seen;
    for (const nlohmann::json& p : merged["points"]) {
        if (!p.contains("report")) continue;
        for (const auto& [k, v] : p["report"]["results"].items())
            if (v.is_primitive() && !isWallKey(k) && k != "data_check" && k != "sim_time_ns" && seen.insert(k).second)
                cols.push_back(k);
    }
    std::string out = "point";
    for (const auto& k : merged["swept"]) out += "," + csvField(k);
    out += ",status,exit_code,data_check,sim_time_ns";
    for (const auto& c : cols) out += "," + csvField(c);
    out += "\n";
    for (const nlohmann::json& p : merged["points"]) {
        out += std::to_string(p["index"].get<std::size_t>());
        for (const auto& k : merged["swept"]) out += "," + csvField(p["options"][k.get<std::string>()]);
        out += "," + csvField(p["status"]) + "," + csvField(p["exit_code"]);
        const nlohmann::json rep = p.value("report", nlohmann::json::object());
        out += "," + csvField(rep.value("data_check", nlohmann::json())) + "," +
               csvField(rep.value("sim_time_ns", nlohmann::json()));
        const nlohmann::json res = rep.value("results", nlohmann::json::object());
        for (const auto& c : cols) out += "," + csvField(res.value(c, nlohmann::json()));
        out += "\n";
    }
    return out;
}

std::string mergedTable(const nlohmann::json& merged) {
    const nlohmann::json* first = firstResults(merged);
    std::vector<std::string> heads;
    for (const char* k :
         {"size_bytes", "sim_time_us", "algbw_GBps", "busbw_GBps", "linkbw_GBps", "payload_GBps_per_direction",
          "payload_GBps", "framing_limit_pct", "round_trip_ns", "per_hop_ns", "one_way_ns"})
        if (first && first->contains(k)) heads.push_back(k);
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> h{"point"};
    for (const auto& k : merged["swept"]) h.push_back(k.get<std::string>());
    h.push_back("status");
    h.push_back("check");
    if (heads.empty()) h.push_back("sim_time_ns");
    for (const auto& k : heads) h.push_back(k);
    rows.push_back(h);
    for (const nlohmann::json& p : merged["points"]) {
        std::vector<std::string> r{std::to_string(p["index"].get<std::size_t>())};
        for (const auto& k : merged["swept"]) r.push_back(p["options"][k.get<std::string>()].get<std::string>());
        r.push_back(p["status"] == "failed" ? fmt::format("exit {}", p["exit_code"].get<int>())
                                            : p["status"].get<std::string>());
        const nlohmann::json rep = p.value("report", nlohmann::json::object());
        r.push_back(rep.value("data_check", "-"));
        const nlohmann::json res = rep.value("results", nlohmann::json::object());
        auto cell = [](const nlohmann::json& v) {
            if (v.is_number_float()) return fmt::format("{:.3f}", v.get<double>());
            if (v.is_null()) return std::string("-");
            return v.is_string() ? v.get<std::string>() : v.dump();
        };
        if (heads.empty()) r.push_back(cell(rep.value("sim_time_ns", nlohmann::json())));
        for (const auto& k : heads) r.push_back(cell(res.value(k, nlohmann::json())));
        rows.push_back(r);
    }
    std::vector<std::size_t> w(h.size(), 0);
    for (const auto& r : rows)
        for (std::size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], r[c].size());
    std::string out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string line = i == 0 ? "#" : " ";
        for (std::size_t c = 0; c < rows[i].size(); ++c) line += fmt::format(" {:>{}}", rows[i][c], w[c]);
        out += line + "\n";
    }
    for (const nlohmann::json& p : merged["points"])
        if (p.contains("error"))
            out += fmt::format("  point {} {}: {}\n", p["index"].get<std::size_t>(), p["status"].get<std::string>(),
                               p["error"].get<std::string>());
    return out;
}

std::vector<std::string> mergedSeries(const nlohmann::json& merged) {
    const nlohmann::json* first = firstResults(merged);
    std::set<std::string> x;
    const Kind kind = first ? kindOf(*first) : Kind::Other;
    const std::vector<std::string> swept = merged["swept"].get<std::vector<std::string>>();
    const bool sweepsHops = std::find(swept.begin(), swept.end(), "hops") != swept.end();
    if (kind == Kind::Collective) x = {"size", "count"};
    if (kind == Kind::Bandwidth) x = {"packet"};
    if (kind == Kind::Latency) x = {merged["workload"] == "ring_ping" && sweepsHops ? "hops" : "packet"};
    std::vector<std::string> out;
    for (const nlohmann::json& p : merged["points"]) {
        std::string label;
        for (const std::string& k : swept)
            if (!x.count(k))
                label += fmt::format("{}{}={}", label.empty() ? "" : ", ", k, p["options"][k].get<std::string>());
        out.push_back(label);
    }
    return out;
}

std::vector<nlohmann::json> mergedReports(const nlohmann::json& merged) {
    std::vector<nlohmann::json> out;
    for (const nlohmann::json& p : merged["points"])
        out.push_back(p.contains("report") && p["status"] == "ok"
                          ? p["report"]
                          : nlohmann::json{{"error", p.value("error", "failed")}});
    return out;
}

int mergedExitCode(const nlohmann::json& merged) {
    int worst = 0;
    for (const nlohmann::json& p : merged["points"]) {
        if (p["status"] == "missing") return 6;
        if (p["status"] == "failed") worst = std::max(worst, p["exit_code"].get<int>());
    }
    return worst;
}

}  // namespace cclsim::sweep
