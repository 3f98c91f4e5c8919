// One run of a workload on a board (RunSession.h).
#include "cli/RunSession.h"

#include "cli/ReportBuilder.h"
#include "models/common/ConfigError.h"
#include "models/eth/FaultPlan.h"
#include "models/noc/NocPacketTrace.h"

#include <fmt/format.h>

#include <filesystem>
#include <sys/resource.h>

namespace cclsim {

namespace {

double peakRssMiB() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
}

/// Keep a platform that has run until the process ends, reachable from a
/// static (leak checkers do not report it) and never destroyed.
void keepUntilExit(std::unique_ptr<Platform> p) {
    static std::vector<Platform*> kept;
    kept.push_back(p.release());
}

}  // namespace

RunSession::RunSession(const BoardInfo& board, Workload& workload, const GlobalOptions& options)
    : board_(board), workload_(workload), options_(options) {}

RunSession::~RunSession() = default;

RunReport RunSession::run(RunObserver& observer) {
    elaborate(observer);
    build();
    const RunResult r = simulate(observer);
    return report(r, observer);
}

ClusterDescriptor RunSession::loadDescriptor(const BoardInfo& board, const GlobalOptions& options) {
    const std::string cluster = options.cluster.empty() ? options.configs.file(board.descriptor) : options.cluster;
    // A tt-metal cluster descriptor names no arch file: the configuration directory's.
    const std::string archDir = (std::filesystem::path(options.configs.shown("arch"))).string();
    ClusterDescriptor desc = loadClusterDescriptor(cluster, options.arch, options.torus, archDir);
    if (options.aiclkMhz > 0) desc.arch = loadArchConfig(desc.arch.file, options.aiclkMhz);
    if (options.fabricPayload) {
        if (!desc.arch.fabric.present)
            throw ConfigError(
                fmt::format("--fabric-payload: the chip architecture {} has no `fabric:` section", desc.arch.file));
        if (options.fabricPayload % 16)
            throw ConfigError(
                fmt::format("--fabric-payload {}: must be a multiple of 16 (Ethernet words)", options.fabricPayload));
        desc.arch.fabric.maxPayloadBytes = options.fabricPayload;
    }
    return desc;
}

std::vector<Tick> RunSession::dispatchTimes(const GlobalOptions& options, unsigned chips) {
    std::vector<Tick> t(chips, 0);
    for (unsigned c = 0; c < chips; ++c) t[c] = nsToTicks(options.skewNs * c);
    for (const std::string& s : options.starts) {
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

void RunSession::elaborate(RunObserver& observer) {
    desc_ = loadDescriptor(board_, options_);
    PlatformOptions po;
    po.storePayload = !options_.noData;
    po.traceAllCores = options_.traceAll;
    if (!options_.faults.empty()) po.faults = loadFaultPlan(options_.faults);
    po.skipLinksWithRetrain = options_.skipLinksWithRetrain;
    if (options_.noData)
        if (const std::string why = workload_.needsPayload(); !why.empty())
            throw ConfigError(fmt::format("--no-data cannot run {}: {}", workload_.name(), why));
    if (options_.fastForward && !options_.noData && !workload_.fastForwardKeepsData())
        throw ConfigError(fmt::format(
            "--fast-forward needs --no-data for {}: a skipped packet's bytes are not moved, so the data check "
            "could not pass (eth_bandwidth and fabric_bandwidth, whose packets repeat the same bytes, run with data)",
            workload_.name()));
    if (options_.fastForward && !options_.faults.empty())
        throw ConfigError(
            "--fast-forward cannot be combined with --faults: a skip assumes the measured rate holds, and a fault "
            "inside a skipped stretch would not be seen");
    po.fastForward = options_.fastForward;
    if (options_.skipLinksWithRetrain && options_.faults.empty())
        throw ConfigError("--skip-links-with-retrain needs --faults: only a fault plan makes a link retrain");
    // A run that reaches the report keeps its platform until the process ends
    // (keepUntilExit(), above): destroying a SystemC hierarchy costs time
    // quadratic in its modules (each module's removal scans SystemC's module
    // registry), 14% of the instructions of a 1 MiB Galaxy all-gather, for
    // nothing, as the process exits right after the report. A run that fails
    // in its set-up (bad options found by the workload's host code) destroys
    // it with the session, so the process may elaborate again.
    owned_ = std::make_unique<Platform>(board_.name.c_str(), desc_, po);
    platform_ = owned_.get();
    excluded_ = platform_->excludedLinks();
    if (!excluded_.empty()) observer.linksSkipped(excluded_);
}

void RunSession::build() {
    runtime_.emplace(*platform_);
    const auto starts = dispatchTimes(options_, platform_->numChips());
    for (unsigned c = 0; c < platform_->numChips(); ++c) runtime_->setDispatchTime(c, starts[c]);
    workload_.build(*runtime_);
    runtime_->launch();
}

RunResult RunSession::simulate(RunObserver& observer) {
    if (!options_.vcd.empty()) {
        trace_ = std::make_unique<TraceFile>(options_.vcd);
        trace_->setSampleWindow(nsToTicks(options_.traceWindowNs));
        platform_->trace(*trace_);
        trace_->begin();
    }
    RunOptions ro;
    ro.maxSimTime = nsToTicks(options_.maxSimUs * 1000.0);
    observer.simulationStarts();
    const std::function<double()> fractionDone = [this] { return workload_.progress(*runtime_); };
    ro.progress = [&observer, &fractionDone](Tick t) { observer.progress(t, fractionDone); };
    RunResult r = runNoticingLoss(ro);
    flushNocPacketTraces();  // complete before a report reader (or a sweep point's _exit) sees them
    keepUntilExit(std::move(owned_));
    observer.simulationEnds();
    closeTrace();
    return r;
}

RunResult RunSession::runNoticingLoss(const RunOptions& ro) {
    try {
        return runtime_->run(ro);
    } catch (const std::exception& e) {
        // Firmware that trips over what a fault did to its data (a dropped
        // packet leaves a stale header in a slot) stops the run: with a loss
        // on the links, that is the fault's doing.
        const FaultInjector* f = platform_->faults();
        if (!f || !f->lostAnything()) throw;
        RunResult r;
        r.completed = false;
        r.report = fmt::format("firmware stopped at {:.3f} ns: {}\n", ticksToNs(now()), e.what());
        return r;
    }
}

void RunSession::closeTrace() {
    if (!trace_) return;
    trace_->close();
    const std::string& vcd = options_.vcd;
    const std::string gtkw = vcd.substr(0, vcd.rfind('.') == std::string::npos ? vcd.size() : vcd.rfind('.')) + ".gtkw";
    trace_->setFocus(workload_.traceFocus());
    trace_->writeGtkw(gtkw);
}

RunReport RunSession::report(const RunResult& run, RunObserver& observer) {
    const nlohmann::json p = params();
    ReportBuilder rb(board_.name, workload_.name(), p, ticksToNs(run.lastKernelFinish), run.wallSeconds, peakRssMiB());
    if (const FaultInjector* faults = platform_->faults()) {
        rb.addLinkHealth(faults->health());
        if (options_.skipLinksWithRetrain) rb.addSkippedLinks(excluded_);
        observer.linkHealth(faults->health());
    }
    // Every failure's report carries its exit code, as a run refused up front does.
    auto done = [&rb](const RunOutcome& outcome) {
        if (outcome.exitCode() != 0) rb.report()["exit_code"] = outcome.exitCode();
        return RunReport{std::move(rb.report()), outcome};
    };
    if (!run.completed) return done(rb.stopped(run.report, lossDiagnosis()));
    rb.addResults(workload_.results(*runtime_, run));
    workload_.decorate(rb.report());
    rb.addStats(platform_->ethStats(), platform_->eq.fired(), run.wallSeconds);
    if (const FastForward* ff = platform_->fastForward()) rb.addFastForward(*ff);
    const std::string verdict = workload_.dataCheck(*runtime_);
    std::string firstFailure;
    std::optional<std::string> loss;
    if (verdict == "fail") {
        firstFailure = runtime_->scoreboard().firstFailure();
        loss = lossDiagnosis();
    }
    return done(rb.checked(verdict, firstFailure, loss));
}

nlohmann::json RunSession::params() const {
    nlohmann::json params = workload_.params();
    params["cluster"] = desc_.file;
    params["arch"] = desc_.arch.file;
    params["aiclk_mhz"] = desc_.arch.aiclkMhz;
    if (desc_.arch.fabric.present) params["fabric_payload_bytes"] = desc_.arch.fabric.maxPayloadBytes;
    params["no_data"] = options_.noData;
    params["fast_forward"] = options_.fastForward;
    params["skew_ns"] = options_.skewNs;
    params["start"] = options_.starts;
    params["max_sim_us"] = options_.maxSimUs;
    params["torus"] = options_.torus;
    params["faults"] = options_.faults;
    params["skip_links_with_retrain"] = options_.skipLinksWithRetrain;
    return params;
}

std::optional<std::string> RunSession::lossDiagnosis() const {
    const FaultInjector* faults = platform_->faults();
    if (!faults || !faults->lostAnything()) return std::nullopt;
    return faults->diagnosis();
}

}  // namespace cclsim
