// A workload of a board executable: options, program construction, report.
//
// The executables (sc_main/) own the command line and the run loop; a
// workload contributes its options, builds programs on a Runtime before
// simulation starts, and turns the finished run (and whatever its kernels
// left in L1) into the `results` object of the JSON report.
#pragma once

#include "cli/Options.h"
#include "models/common/Trace.h"
#include "runtime/ConfigDir.h"
#include "runtime/Runtime.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim {

class Workload {
public:
    virtual ~Workload() = default;

    virtual std::string name() const = 0;
    virtual std::string description() const = 0;
    /// Register this workload's options on its subcommand.
    virtual void addOptions(Options& cmd) = 0;
    /// Every option in effect (the report's "params").
    virtual nlohmann::json params() const = 0;
    /// Create programs, kernels and arguments. Throw ConfigError on bad input.
    virtual void build(Runtime& rt) = 0;
    /// Results of a completed run (the report's "results").
    virtual nlohmann::json results(Runtime& rt, const RunResult& run) = 0;
    /// Human-readable lines for the terminal report.
    virtual std::string summary(const nlohmann::json& results) const = 0;
    /// "pass"/"fail"/"off" for workloads that check data; "off" otherwise.
    virtual std::string dataCheck(Runtime& rt) const;
    /// May --fast-forward run with data? Only where a skipped packet would
    /// not have changed any byte (a benchmark that sends the same bytes to
    /// the same buffer every time); elsewhere a skip leaves its packets'
    /// bytes unmoved, so the run is refused without --no-data.
    virtual bool fastForwardKeepsData() const { return false; }
    /// Why this configuration cannot run without payloads (empty: it can).
    /// A protocol that reads bytes another core sent (a sequence number in
    /// a ping's payload, a group hash read over the fabric) waits forever
    /// under --no-data, so such runs are refused with this reason.
    virtual std::string needsPayload() const { return {}; }
    /// The workload's own signals, the first group of its GTKWave save file
    /// (IPCQ queues, PTO signals, the fabric's routers); empty: the save
    /// file opens on the links' utilisation.
    virtual TraceFile::Focus traceFocus() const { return {}; }

    /// Sweeps run each point in its own process (SystemC elaborates once per process).
    virtual std::size_t sweepPoints() const { return 0; }
    virtual void selectSweepPoint(std::size_t /*i*/) {}
    virtual std::string sweepHeader() const { return {}; }
    virtual std::string sweepRow(const nlohmann::json& /*report*/) const { return {}; }
    /// The plot series (--plot) of each point's report, in point order; empty:
    /// one series named by the workload.
    virtual std::vector<std::string> sweepSeries(const std::vector<nlohmann::json>& /*reports*/) const { return {}; }

    /// Extra top-level keys of the JSON report (taken from the results).
    virtual void decorate(nlohmann::json& /*report*/) const {}
    /// Fraction of the work done, for progress lines on long runs (< 0: unknown).
    virtual double progress(Runtime& /*rt*/) const { return -1; }
    /// CSV output (--csv): the header line and one line per report; an empty
    /// header means the workload has no CSV form.
    virtual std::string csvHeader() const { return {}; }
    virtual std::string csvRow(const nlohmann::json& /*report*/) const { return {}; }

    /// Where the configuration files the workload's options default to are
    /// (ccl.yaml, collective_methods.yaml): set by the executable once the
    /// command line is parsed, before params() and build().
    void setConfigDir(ConfigDir dir) { configDir_ = std::move(dir); }
    const ConfigDir& configDir() const { return configDir_; }

private:
    ConfigDir configDir_;
};

/// Trace-name patterns (TraceFile::Focus, globMatch: `*` any text, `#`
/// digits) that several workloads show first.
namespace focus {
/// The fabric's routers on the Ethernet cores: the worker connection's
/// state, the packets each sent and received, and the router's waypoint.
inline const std::vector<std::string> kRouters = {"*.eth#.erisc.worker_conn", "*.eth#.erisc.tx_packets",
                                                  "*.eth#.erisc.rx_packets", "*.eth#.erisc.waypoint"};
/// The EDM's channels: each channel's state and the semaphores between the
/// workers and the EDM.
inline const std::vector<std::string> kEdmChannels = {"*.ch#_state",     "*edm_ch#_tx_sem", "*edm_ch#_rx_sem",
                                                      "*edm_tx_sem",     "*edm_rx_sem",     "*edm_tx_sem_eth#",
                                                      "*edm_rx_sem_eth#"};
/// PE_IPCQ: every queue's head, tail and the peer's cached pointers, and
/// each core's wait state.
inline const std::vector<std::string> kIpcq = {"*.pe_ipcq.*"};
/// The fabric microbenchmarks' view: the routers alone.
inline TraceFile::Focus routers() {
    return {"fabric routers", kRouters};
}
}  // namespace focus

/// Makes a fresh workload (a plain function, or a lambda bound to a registry
/// entry such as one collective).
using WorkloadFactory = std::function<std::unique_ptr<Workload>()>;

/// "4096", "4K", "1M", "1G", "2KiB", "64MB" -> bytes (K/M/G are powers of
/// 1024); ConfigError naming `option` otherwise.
std::uint64_t parseBytes(const std::string& text, const std::string& option);

}  // namespace cclsim
