// The process pool of a sweep (SweepPool.h).
#include "cli/SweepPool.h"

#include "cli/RunOutcome.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace cclsim {

SweepPool::SweepPool(std::size_t points, std::size_t jobs) : points_(points), jobs_(jobs), done_(points) {}

std::vector<PointResult> SweepPool::run(const PointJob& job, const PointDone& done) {
    std::size_t next = 0, shown = 0;
    while (shown < points_) {
        while (running_.size() < jobs_ && next < points_) {
            running_.emplace(next, start(next, job));
            ++next;
        }
        collect();
        for (; shown < points_ && done_[shown]; ++shown) done(shown, *done_[shown]);
    }
    std::vector<PointResult> out;
    for (auto& r : done_) out.push_back(std::move(*r));
    return out;
}

SweepPool::Process SweepPool::start(std::size_t point, const PointJob& job) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error(fmt::format("sweep point {}: pipe failed", point));
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(fmt::format("sweep point {}: fork failed", point));
    if (pid == 0) {
        close(fds[0]);
        for (const auto& [j, p] : running_) close(p.fd);  // the other points' pipes are not ours
        const PointResult r = job(point);
        const std::string out = r.report.dump();
        std::size_t off = 0;
        while (off < out.size()) {
            const ssize_t n = write(fds[1], out.data() + off, out.size() - off);
            if (n <= 0) break;
            off += std::size_t(n);
        }
        close(fds[1]);
        _exit(r.exitCode);
    }
    close(fds[1]);
    return Process{pid, fds[0], {}};
}

void SweepPool::collect() {
    std::vector<pollfd> fds;
    std::vector<std::size_t> which;
    for (const auto& [i, p] : running_) {
        fds.push_back(pollfd{p.fd, POLLIN, 0});
        which.push_back(i);
    }
    if (poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) return;
        throw std::runtime_error("sweep: poll failed");
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
        if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        Process& p = running_.at(which[k]);
        char tmp[65536];
        const ssize_t got = read(p.fd, tmp, sizeof tmp);
        if (got > 0) {
            p.output.append(tmp, std::size_t(got));
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        done_[which[k]] = finish(which[k], p);
        running_.erase(which[k]);
    }
}

PointResult SweepPool::finish(std::size_t point, Process& p) {
    close(p.fd);
    int status = 0;
    waitpid(p.pid, &status, 0);
    return readPoint(point, status, p.output);
}

PointResult SweepPool::readPoint(std::size_t point, int waitStatus, const std::string& output) {
    int code = WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : RunOutcome::kExitSimulationError;
    // A point that exited 0 without a readable report did not run as it says.
    const int failed = code == RunOutcome::kExitOk ? RunOutcome::kExitSimulationError : code;
    if (output.empty()) {
        const std::string why = WIFSIGNALED(waitStatus)
                                    ? fmt::format("sweep point {} crashed (signal {})", point, WTERMSIG(waitStatus))
                                    : fmt::format("sweep point {} wrote no report", point);
        return PointResult{nlohmann::json{{"error", why}}, failed};
    }
    try {
        return PointResult{nlohmann::json::parse(output), code};
    } catch (const nlohmann::json::exception& e) {
        return PointResult{
            nlohmann::json{{"error", fmt::format("sweep point {}: unreadable report: {}", point, e.what())}}, failed};
    }
}

std::string SweepPool::failureLine(std::size_t point, const PointResult& result) {
    const nlohmann::json& rep = result.report;
    // A failed point's report says why in "error", but for a data check that
    // failed (its report is complete).
    const std::string why = rep.contains("error")
                                ? rep["error"].get<std::string>()
                                : RunOutcome::dataCheckFailed(rep.value("data_check_failure", "")).message();
    const auto eol = why.find('\n');
    return fmt::format("sweep point {} failed (exit {}): {}{}\n", point, result.exitCode, why.substr(0, eol),
                       eol == std::string::npos ? "" : " ...");
}

}  // namespace cclsim
