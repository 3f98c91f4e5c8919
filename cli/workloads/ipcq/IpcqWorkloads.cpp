// The PE_IPCQ workloads: options, reports and CSV of ipcq_allreduce
// (ProcessGroup::init_process_group + all_reduce) and of ipcq_latency (T5;
// its program is host/ipcq/IpcqLatency).
#include "cli/workloads/ipcq/IpcqWorkloads.h"

#include "host/ipcq/IpcqLatency.h"
#include "host/ipcq/ProcessGroup.h"
#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>

namespace cclsim::ipcq {

namespace {

std::FILE* openTrace(const std::string& path) {
    if (path.empty()) return nullptr;
    if (path == "-") return stdout;
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw ConfigError(fmt::format("--ccl-trace: cannot write '{}'", path));
    return f;
}

/// Op time of a group: from the latest kernel start (after dispatch) of its chips to its last rank's finish.
double groupTimeNs(Runtime& rt, const ProcessGroup& pg) {
    Tick start = 0, end = 0;
    for (unsigned c : pg.chips()) start = std::max(start, rt.launchTime(c));
    for (const KernelContext* k : rt.kernels())
        for (const RankInfo& r : pg.ranks())
            if (!k->persistent() && k->core().chipId() == r.chip && k->core().coord() == r.core)
                end = std::max(end, k->finishedAt());
    return ticksToNs(end - std::min(start, end));
}

nlohmann::json groupJson(const ProcessGroup& pg) {
    const GroupConfig& c = pg.config();
    nlohmann::json fab = nullptr;
    if (const fabric::FabricBuilder* f = pg.fabric())
        fab = {{"topology", fabric::fabricKindName(f->topology().kind)},
               {"planes", f->planes()},
               {"routers", f->routers().size()},
               {"muxes", f->muxCount()},
               {"header_bytes", f->headerBytes()}};
    Tick lo = kNever, hi = 0;
    for (const RankInfo& r : pg.ranks())
        for (const auto& [d, nb] : pg.neighbors()[r.rank]) {
            const Tick t = pg.creditLatency(r.rank, d);
            if (!t) continue;
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
    unsigned perChip = 0;
    for (const RankInfo& r : pg.ranks()) perChip += r.chip == pg.ranks().front().chip;
    return {{"algorithm", c.algorithm},
            {"kernel", c.kernel.value},
            {"topology", topologyName(pg.topology())},
            {"world_size", pg.world_size()},
            {"chips", pg.chips()},
            {"ranks_per_chip", perChip},
            {"buffer_kind", bufferKindName(pg.ranks().front().bufferKind)},
            {"backpressure", backpressureName(c.backpressure.value)},
            {"n_slots", c.nSlots.value},
            {"slot_size", c.slotSize.value},
            {"credit_return_mode", creditModeName(c.creditMode.value)},
            {"ipcq_credit_size_bytes", c.creditBytes.value},
            {"strict_validation", c.strict.value},
            {"cross_chip_links", pg.crossChipLinks()},
            {"fabric", fab},
            {"credit_latency_ns_min", lo == kNever ? 0.0 : ticksToNs(lo)},
            {"credit_latency_ns_max", ticksToNs(hi)}};
}

class IpcqAllReduce final : public IpcqAllReduceOp {
public:
    /// --ccl, else the ccl.yaml of the configuration directory.
    std::string cclFile() const override { return ccl_.empty() ? configDir().file("ccl.yaml") : ccl_; }
    void setSharing(fabric::FabricBuilder* fabric, unsigned stream) override {
        sharedFabric_ = fabric;
        stream_ = stream;
    }
    void finishBuild() override { pg_->finishInit(); }
    const ProcessGroup* group() const override { return pg_.get(); }

    std::string name() const override { return "ipcq_allreduce"; }
    std::string description() const override {
        return "all-reduce (sum) by worker-core kernels over PE_IPCQ queues, algorithm from ccl.yaml, data checked";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--ccl", ccl_,
                       "ccl.yaml (default: the one of the configuration directory, platforms/ of the source tree)");
        cmd.add_option("--algorithm", algorithm_, "an entry of the file's algorithms (default: defaults.algorithm)");
        cmd.add_option("--size", size_, "tensor bytes per rank, K/M suffixes (default: world_size x n_elem elements)");
        cmd.add_option("--dtype", dtype_, "bf16 or fp32")->check(opt::IsMember({"bf16", "fp32"}));
        cmd.add_option("--seed", seed_, "input data seed");
        cmd.add_option("--ccl-trace", trace_,
                       "CCL trace: one line per send/recv (rank, t, dir, nbytes) to FILE, - "
                       "for stdout");
        cmd.add_flag("--pointer-dump", dump_, "print every queue's pointers after the run");
        cmd.add_option("--ipcq-checks", checks_, "check the IPCQ invariants I1, I2, I5, I6 while running (on/off)")
            ->check(opt::IsMember({"on", "off"}));
    }
    TraceFile::Focus traceFocus() const override { return {"PE_IPCQ queues and waits", focus::kIpcq}; }
    nlohmann::json params() const override {
        return {{"ccl", ccl_.empty() ? configDir().shown("ccl.yaml") : ccl_},
                {"algorithm", algorithm_},
                {"size", size_},
                {"dtype", dtype_},
                {"seed", seed_},
                {"ccl_trace", trace_},
                {"pointer_dump", dump_},
                {"ipcq_checks", checks_}};
    }

    void build(Runtime& rt) override {
        GroupOptions o;
        o.trace = traceFile_ = openTrace(trace_);
        o.checkInvariants = checks_ == "on";
        o.sharedFabric = sharedFabric_;
        o.stream = stream_;
        pg_ = ProcessGroup::init_process_group(rt, cclFile(), algorithm_, o);
        const golden::DType t = golden::parseDType(dtype_);
        const std::uint64_t bytes =
            size_.empty() ? std::uint64_t(pg_->world_size()) * pg_->config().nElem.value * golden::elementBytes(t)
                          : parseBytes(size_, "--size");
        if (bytes == 0 || bytes > 0xffffffffull)
            throw ConfigError(fmt::format(
                "--size {}: a tensor of {} B; the IPCQ all-reduce takes 1 B to 4 GiB per rank", size_, bytes));
        pg_->all_reduce(bytes, t, seed_);
        data_ = rt.platform().options().storePayload;
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        if (traceFile_ && traceFile_ != stdout) std::fclose(traceFile_);
        traceFile_ = nullptr;
        const ProcessGroup& pg = *pg_;
        const double ns = groupTimeNs(rt, pg);
        const std::uint64_t bytes = pg.shape().tensorBytes;
        const unsigned n = pg.world_size();
        const double algbw = double(bytes) / ns;
        const double factor = 2.0 * (n - 1) / n;  // nccl-tests all_reduce
        if (data_) {
            failure_ = pg.check();
            status_ = failure_.empty() ? "pass" : "fail";
            rt.scoreboard().record(bytes * n, failure_.empty(), failure_);
        }
        nlohmann::json r = groupJson(pg);
        r["op"] = "all_reduce";
        r["size_bytes"] = bytes;
        r["count"] = bytes / pg.shape().elemBytes();
        r["dtype"] = golden::dtypeName(pg.shape().dtype);
        r["sim_time_us"] = ns / 1000.0;
        r["end_to_end_with_dispatch_us"] = ticksToNs(rt.endToEndWithDispatch(pg.chips())) / 1000.0;
        r["algbw_GBps"] = algbw;
        r["busbw_GBps"] = algbw * factor;
        r["bus_factor"] = factor;
        r["sends"] = pg.totalSends();
        r["data_check"] = status_;
        if (!failure_.empty()) r["data_check_failure"] = failure_;
        if (dump_) r["pointer_dump"] = pg.pointerDump();
        return r;
    }
    std::string dataCheck(Runtime&) const override { return status_; }
    void decorate(nlohmann::json& rep) const override {
        const nlohmann::json& r = rep["results"];
        for (const char* k : {"algorithm", "world_size", "buffer_kind", "backpressure", "size_bytes", "sim_time_us",
                              "algbw_GBps", "busbw_GBps"})
            if (r.contains(k)) rep[k] = r[k];
    }

    std::string summary(const nlohmann::json& r) const override {
        std::string out = fmt::format(
            "ipcq all_reduce '{}' ({}, {} topology): {} ranks on chips {} ({} per chip), buffer_kind {}, backpressure "
            "{}, {} slots x {} B, credits {}\n",
            r["algorithm"].get<std::string>(), r["kernel"].get<std::string>(), r["topology"].get<std::string>(),
            r["world_size"].get<unsigned>(), r["chips"].dump(), r["ranks_per_chip"].get<unsigned>(),
            r["buffer_kind"].get<std::string>(), r["backpressure"].get<std::string>(), r["n_slots"].get<unsigned>(),
            r["slot_size"].get<unsigned>(), r["credit_return_mode"].get<std::string>());
        if (!r["fabric"].is_null())
            out += fmt::format("  {} cross-chip links over a {} fabric ({} plane(s), {} routers, {} muxes)\n",
                               r["cross_chip_links"].get<unsigned>(), r["fabric"]["topology"].get<std::string>(),
                               r["fabric"]["planes"].get<unsigned>(), r["fabric"]["routers"].get<unsigned>(),
                               r["fabric"]["muxes"].get<unsigned>());
        out += tableHeader() + row(r);
        out += fmt::format("  busbw = algbw x {:.4f}; {} sends; fast-path credit latency {:.0f}..{:.0f} ns\n",
                           r["bus_factor"].get<double>(), r["sends"].get<std::uint64_t>(),
                           r["credit_latency_ns_min"].get<double>(), r["credit_latency_ns_max"].get<double>());
        if (r.contains("data_check_failure"))
            out += "  data check: " + r["data_check_failure"].get<std::string>() + "\n";
        if (r.contains("pointer_dump")) out += r["pointer_dump"].get<std::string>();
        return out;
    }

    std::string csvHeader() const override {
        return "algorithm,kernel,topology,world_size,chips,buffer_kind,backpressure,n_slots,slot_size,credit_return_"
               "mode,"
               "size_bytes,count,dtype,time_us,algbw_GBps,busbw_GBps,data_check,wall_seconds";
    }
    std::string csvRow(const nlohmann::json& rep) const override {
        const nlohmann::json& r = rep.at("results");
        return fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{},{:.3f}", r["algorithm"].get<std::string>(),
            r["kernel"].get<std::string>(), r["topology"].get<std::string>(), r["world_size"].get<unsigned>(),
            r["chips"].size(), r["buffer_kind"].get<std::string>(), r["backpressure"].get<std::string>(),
            r["n_slots"].get<unsigned>(), r["slot_size"].get<unsigned>(), r["credit_return_mode"].get<std::string>(),
            r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(), r["dtype"].get<std::string>(),
            r["sim_time_us"].get<double>(), r["algbw_GBps"].get<double>(), r["busbw_GBps"].get<double>(),
            r["data_check"].get<std::string>(), rep.value("wall_seconds", 0.0));
    }

private:
    static std::string tableHeader() {
        return fmt::format(
            "# {:>10}  {:>10}  {:>5}  {:>5}  {:>10}  {:>7}  {:>7}  {:>5}\n"
            "# {:>10}  {:>10}  {:>5}  {:>5}  {:>10}  {:>7}  {:>7}  {:>5}\n",
            "size", "count", "type", "redop", "time", "algbw", "busbw", "check", "(B)", "(elements)", "", "", "(us)",
            "(GB/s)", "(GB/s)", "");
    }
    static std::string row(const nlohmann::json& r) {
        return fmt::format("  {:>10}  {:>10}  {:>5}  {:>5}  {:>10.2f}  {:>7.3f}  {:>7.3f}  {:>5}\n",
                           r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(),
                           r["dtype"].get<std::string>(), "sum", r["sim_time_us"].get<double>(),
                           r["algbw_GBps"].get<double>(), r["busbw_GBps"].get<double>(),
                           r["data_check"].get<std::string>());
    }
    std::string ccl_, algorithm_, size_, dtype_ = "bf16", trace_, checks_ = "on";
    std::uint64_t seed_ = 1;
    bool dump_ = false;
    bool data_ = true;
    std::FILE* traceFile_ = nullptr;
    std::unique_ptr<ProcessGroup> pg_;
    std::string status_ = "off", failure_;
    fabric::FabricBuilder* sharedFabric_ = nullptr;
    unsigned stream_ = 0;
};

// ---- T5 latency ----------------------------------------------------------------

class IpcqLatencyWorkload final : public Workload {
public:
    std::string name() const override { return "ipcq_latency"; }
    std::string description() const override {
        return "T5: one IPCQ send/recv between neighbouring ranks vs the raw PE_DMA write of the same bytes";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--peer", peer_, "same_chip (adjacent cores) or eth_hop (the next chip, one Ethernet hop)")
            ->check(opt::IsMember({"same_chip", "eth_hop"}));
        cmd.add_option("--bytes", bytes_, "payload bytes (default: a bf16 32x32 tile)")->check(opt::Range(16u, 65536u));
        cmd.add_option("--samples", samples_, "measured round trips per phase")->check(opt::Range(1u, 100000u));
        cmd.add_option("--buffer-kind", kind_, "tcm, hbm or sram")->check(opt::IsMember({"tcm", "hbm", "sram"}));
        cmd.add_option("--backpressure", bp_, "poll or sleep")->check(opt::IsMember({"poll", "sleep"}));
        cmd.add_option("--credit-return-mode", credit_, "fast_path or fabric")
            ->check(opt::IsMember({"fast_path", "fabric"}));
        cmd.add_option("--compute-stream", stream_,
                       "bytes per write of a concurrent vc_compute stream from the "
                       "initiator's core to DRAM (0: none)")
            ->check(opt::Range(0u, 65536u));
        cmd.add_option("--vc-weights", weights_, "PE_DMA weights vc_compute:vc_comm, e.g. 80:20");
    }
    TraceFile::Focus traceFocus() const override { return {"PE_IPCQ queues and waits", focus::kIpcq}; }
    nlohmann::json params() const override {
        return {{"peer", peer_},
                {"bytes", bytes_},
                {"samples", samples_},
                {"buffer_kind", kind_},
                {"backpressure", bp_},
                {"credit_return_mode", credit_},
                {"compute_stream", stream_},
                {"vc_weights", weights_}};
    }

    void build(Runtime& rt) override {
        IpcqLatencyParams p;
        p.ethHop = peer_ == "eth_hop";
        p.bytes = bytes_;
        p.samples = samples_;
        p.bufferKind = *parseBufferKind(kind_);
        p.backpressure = bp_ == "poll" ? Backpressure::Poll : Backpressure::Sleep;
        p.creditMode = credit_ == "fabric" ? CreditMode::Fabric : CreditMode::FastPath;
        p.computeStreamBytes = stream_;
        if (!weights_.empty()) {
            const auto colon = weights_.find(':');
            try {
                if (colon == std::string::npos) throw std::invalid_argument(weights_);
                p.vcComputeWeight = std::stod(weights_.substr(0, colon));
                p.vcCommWeight = std::stod(weights_.substr(colon + 1));
            } catch (const std::exception&) {
                throw ConfigError(fmt::format("--vc-weights {}: expected COMPUTE:COMM, e.g. 80:20", weights_));
            }
            if (!(*p.vcComputeWeight > 0) || !(*p.vcCommWeight > 0))
                throw ConfigError(fmt::format("--vc-weights {}: weights must be positive", weights_));
        }
        latency_.build(rt, p);
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const IpcqLatencyResult l = latency_.read(rt);
        nlohmann::json r = groupJson(*latency_.group());
        r["peer"] = peer_;
        r["bytes"] = bytes_;
        r["samples"] = samples_;
        r["compute_stream"] = stream_;
        r["vc_weights"] = weights_.empty() ? "arch default" : weights_;
        r["raw_write_ns"] = l.rawWriteNs;
        r["ipcq_ns"] = l.ipcqNs;
        r["ipcq_overhead_ns"] = l.ipcqNs - l.rawWriteNs;
        r["ipcq_copy_ns"] = l.ipcqCopyNs;
        r["ipcq_copy_overhead_ns"] = l.ipcqCopyNs - l.rawWriteNs;
        r["credit_latency_ns"] = l.creditLatencyNs;
        return r;
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "ipcq_latency: {} B between ranks on {} ({} buffers, backpressure {}, credits {}){}\n"
            "  one-way latency (half the round trip, {} samples):\n"
            "    raw PE_DMA write + arrival flag   {:8.1f} ns\n"
            "    IPCQ send / recv (return_slot)    {:8.1f} ns   overhead {:+.1f} ns\n"
            "    IPCQ send / recv_to (copy_to_dst) {:8.1f} ns   overhead {:+.1f} ns (copy out + credit emit)\n"
            "  fast-path credit latency {:.1f} ns\n",
            r["bytes"].get<unsigned>(),
            r["peer"] == "same_chip" ? "adjacent cores of one chip" : "chips one Ethernet hop apart",
            r["buffer_kind"].get<std::string>(), r["backpressure"].get<std::string>(),
            r["credit_return_mode"].get<std::string>(),
            r["compute_stream"].get<unsigned>()
                ? fmt::format(", under a vc_compute stream of {} B writes, weights {}",
                              r["compute_stream"].get<unsigned>(), r["vc_weights"].get<std::string>())
                : std::string(),
            r["samples"].get<unsigned>(), r["raw_write_ns"].get<double>(), r["ipcq_ns"].get<double>(),
            r["ipcq_overhead_ns"].get<double>(), r["ipcq_copy_ns"].get<double>(),
            r["ipcq_copy_overhead_ns"].get<double>(), r["credit_latency_ns"].get<double>());
    }
    std::string csvHeader() const override {
        return "peer,bytes,buffer_kind,backpressure,credit_return_mode,compute_stream,vc_weights,raw_ns,ipcq_ns,"
               "overhead_ns,ipcq_copy_ns,copy_overhead_ns,credit_latency_ns";
    }
    std::string csvRow(const nlohmann::json& rep) const override {
        const nlohmann::json& r = rep.at("results");
        return fmt::format(
            "{},{},{},{},{},{},{},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f}", r["peer"].get<std::string>(),
            r["bytes"].get<unsigned>(), r["buffer_kind"].get<std::string>(), r["backpressure"].get<std::string>(),
            r["credit_return_mode"].get<std::string>(), r["compute_stream"].get<unsigned>(),
            r["vc_weights"].get<std::string>(), r["raw_write_ns"].get<double>(), r["ipcq_ns"].get<double>(),
            r["ipcq_overhead_ns"].get<double>(), r["ipcq_copy_ns"].get<double>(),
            r["ipcq_copy_overhead_ns"].get<double>(), r["credit_latency_ns"].get<double>());
    }

private:
    std::string peer_ = "same_chip", kind_ = "tcm", bp_ = "poll", credit_ = "fast_path", weights_;
    unsigned bytes_ = 2048, samples_ = 100, stream_ = 0;
    IpcqLatency latency_;
};

}  // namespace

std::unique_ptr<Workload> makeIpcqAllReduce() {
    return std::make_unique<IpcqAllReduce>();
}
std::unique_ptr<IpcqAllReduceOp> makeIpcqAllReduceOp() {
    return std::make_unique<IpcqAllReduce>();
}
std::unique_ptr<Workload> makeIpcqLatency() {
    return std::make_unique<IpcqLatencyWorkload>();
}

}  // namespace cclsim::ipcq
