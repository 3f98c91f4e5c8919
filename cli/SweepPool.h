// The process pool of a sweep (--sweep, -j N): every point runs in a child
// process of its own, because SystemC elaborates once per process.
//
//   parent                                  child of point i
//   pipe(), fork()  ----------------------> job(i): run the point
//   poll() the pipes of up to N children    write its JSON report to the pipe
//   read until EOF, waitpid() <------------ _exit(the point's exit code)
//   hand results on in point order
//
// Points finish in any order; the pool hands each result on (rows, failure
// lines) as soon as every point before it has finished, so the output is in
// point order whatever -j is. How a child ended and what it wrote become one
// PointResult (readPoint): a child that crashed or wrote no readable report
// is a simulation error (exit 4) unless it exited with a failure of its own.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cclsim {

/// A finished sweep point: its JSON report and its exit code.
struct PointResult {
    nlohmann::json report;
    int exitCode = 0;
};

class SweepPool {
public:
    /// Runs point i in the child process; exceptions are its own to map.
    using PointJob = std::function<PointResult(std::size_t point)>;
    /// Sees each point's result, in point order.
    using PointDone = std::function<void(std::size_t point, const PointResult& result)>;

    /// A pool for `points` points, `jobs` (>= 1) of them at once.
    SweepPool(std::size_t points, std::size_t jobs);
    SweepPool(const SweepPool&) = delete;
    SweepPool& operator=(const SweepPool&) = delete;

    /// Run every point, `done` in point order as they finish; every result,
    /// in point order.
    std::vector<PointResult> run(const PointJob& job, const PointDone& done);

    /// What a point's process came to, from its waitpid() status and what it
    /// wrote on its pipe.
    static PointResult readPoint(std::size_t point, int waitStatus, const std::string& output);
    /// The line on stderr for a failed point: its exit code and the first line
    /// of why (the whole of it is in the JSON report).
    static std::string failureLine(std::size_t point, const PointResult& result);

private:
    /// A point running in its own process: its report arrives on a pipe.
    struct Process {
        pid_t pid = -1;
        int fd = -1;
        std::string output;
    };

    Process start(std::size_t point, const PointJob& job);
    /// Wait for output from any running point; reap those that finished.
    void collect();
    PointResult finish(std::size_t point, Process& p);

    std::size_t points_;
    std::size_t jobs_;
    std::map<std::size_t, Process> running_;
    std::vector<std::optional<PointResult>> done_;
};

}  // namespace cclsim
