// Host side of the collective workloads: options -> CclSpec -> CclOp, and
// the run -> nccl-tests-style report.
//
// Time is measured on the last chip to start, as the CCL guide recommends
// (programs start at different times; earlier chips wait for their
// neighbours): op time = when that chip's last kernel finished minus when
// its kernels started (device kernel time, after dispatch). algbw = S / time,
// busbw = algbw x the nccl-tests factor, linkbw = payload bytes through the
// busiest neighbour pair / (time x links x directions used).
//
// The report also gives the op end to end with dispatch (runtime/Dispatch.h):
// from the first host enqueue to the last chip's program completion as its
// dispatcher sees it, and the dispatch of the chip that started last.
#include "cli/workloads/ccl/CollectiveWorkloads.h"

#include "cli/workloads/ccl/CclFlags.h"
#include "cli/workloads/ccl/CollectiveDefaults.h"
#include "cli/workloads/ccl/CollectiveReport.h"
#include "host/ccl/CclOp.h"
#include "host/ccl/CclResults.h"
#include "host/ccl/CommGroups.h"
#include "host/ccl/MethodTable.h"
#include "host/ccl/TensorFiles.h"
#include "host/ccl/factory/FabricDirectReduceScatter.h"
#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cclsim::ccl {

namespace {

using golden::Op;

class Collective final : public CollectiveOp {
public:
    explicit Collective(const CollectiveDef& def) : def_(def), op_(def.op) {}

    void setSharing(const CclSpec::Sharing& sharing) override { sharing_ = sharing; }
    CclOp* op() override { return op_impl_.get(); }

    std::string name() const override { return opName(op_); }
    std::string description() const override { return def_.description; }

    bool reduces() const { return def_.reduces; }

    void addOptions(Options& cmd) override {
        cmd.add_option("--chips", chips_, "replicas: the first N chips of the board's ring order (default: all)")
            ->check(opt::Range(2u, 4096u));
        cmd.add_option("--order", order_,
                       "replicas: an explicit chip order (e.g. 0,4,5,1), or 'mesh' (the board's row-major mesh order: "
                       "consecutive groups are mesh rows, orthogonal groups columns) or 'ring' (the default)")
            ->delimiter(',');
        cmd.add_option("--topology", topology_, "ring or line")->check(opt::IsMember({"ring", "line"}));
        cmd.add_option("--method", method_,
                       "collective method: clockwise_ring, anticlockwise_ring, bidirectional_ring_pair, "
                       "meet_in_middle_ring, broadcast (reductions), or auto (the rule table)")
            ->check(opt::IsMember({"clockwise_ring", "anticlockwise_ring", "bidirectional_ring_pair",
                                   "meet_in_middle_ring", "broadcast", "auto"}));
        cmd.add_option("--methods", methods_,
                       "auto's rule table (default: collective_methods.yaml of the configuration directory, "
                       "platforms/ of the source tree)");
        cmd.add_option("--bidir", bidir_,
                       "shorthand for --method: off (clockwise_ring), halves (bidirectional_ring_pair) "
                       "or full (meet_in_middle_ring)")
            ->check(opt::IsMember({"off", "halves", "full"}));
        cmd.add_option("--group", group_, "communication groups over the replicas: all, consecutive:K, orthogonal:K");
        cmd.add_option("--axis", axis_, "shorthand: one collective along every mesh row or column at once")
            ->check(opt::IsMember({"row", "col"}));
        cmd.add_option("--size", size_, "S as nccl-tests defines it, in bytes (K/M/G suffixes)");
        cmd.add_option("--count", count_, "input elements per replica (instead of --size)")
            ->check(opt::Range(1ull, 1ull << 34));
        cmd.add_option("--dtype", dtype_,
                       "bf16, fp16, fp32, int32, uint32, int64, uint64, bool (or float, half, int, "
                       "unsigned_int, long_long, unsigned_long_long)");
        if (reduces())
            cmd.add_option("--op", redop_,
                           "reduction operator: add, mean, mul, min, max, square_add, logical_and, "
                           "logical_or");
        cmd.add_option("--inputs", inputs_,
                       "inputs per replica: FILE.json ({\"ranks\": [[...], ...]}) or DIR/ of "
                       "rank<r>.npy");
        cmd.add_option("--dump-outputs", dump_, "write every replica's output: FILE.json, or DIR/ for .npy files");
        cmd.add_option("--page-bytes", pageBytes_, "tensor page size (default: a bf16 32x32 tile)")
            ->check(opt::Range(32u, 1u << 20));
        cmd.add_option("--packet", packet_, "EDM packet (message) bytes, a whole number of pages; 0: auto")
            ->check(opt::Range(0u, 1u << 20));
        cmd.add_option("--links", links_,
                       "Ethernet links per hop (default: the fewest user links of any hop of the op, i.e. tt-metal's "
                       "routing planes less the link reserved for dispatch: n300 1, t3000 1, galaxy 4)")
            ->check(opt::Range(1u, 16u));
        cmd.add_option("--edm-buffers", edmBuffers_,
                       "--impl edm: buffers (slots) per EDM channel (default 2, as "
                       "tt-metal's legacy all-gather)")
            ->check(opt::Range(1u, 16u));
        cmd.add_option("--edm-credit-txq", edmCreditTxq_,
                       "--impl edm: tx_cmd_q of the EDMs' acks (default 0, as tt-metal's EDM on Wormhole, where only "
                       "tx_cmd_q 0 is open to kernels; 1: the reserved queue, for experiments)")
            ->check(opt::Range(0u, 1u));
        cmd.add_option("--workers", workers_,
                       "worker units per link and direction (default: edm 4; fabric by "
                       "tt-metal's rule: 1 up to 4 KB per link, 2 up to 256 KB, else 4; a line all_gather 1)")
            ->check(opt::Range(1u, 64u));
        cmd.add_option("--impl", impl_,
                       "fabric (default: the packet fabric, as tt-metal's current all_gather_async, "
                       "reduce_scatter_minimal_async and all_to_all_async) or edm (the CCL guide's EDM streams)")
            ->check(opt::IsMember({"edm", "fabric"}));
        if (def_.gatherDim) {
            cmd.add_option("--dim", dim_, "gather dimension: 0 (blocks) or 1 (rows)")->check(opt::Range(0u, 1u));
            cmd.add_option("--row-pages", rowPages_, "--dim 1: pages per rank row")->check(opt::Range(1u, 1u << 30));
        }
        if (def_.rooted) cmd.add_option("--root", root_, "root rank (position in its group)");
        cmd.add_flag("--l1", l1_, "tensors in worker L1 (interleaved over the worker cores) instead of DRAM");
        cmd.add_flag("--persistent-buffers", persistent_,
                     "--impl fabric all_gather, reduce_scatter, all_reduce: the output and intermediate buffers were "
                     "allocated before the op (tt-metal's persistent buffers), so it starts without its start "
                     "barrier across the chips");
        if (reduces())
            cmd.add_option("--rs-algorithm", rsAlgorithm_,
                           "--impl fabric on a ring: the reduce-scatter (all_reduce: its first op) as tt-metal's "
                           "ring op (store and forward), its direct one-shot op (every block straight to its "
                           "owner), or auto (default: tt-metal's dispatch, direct up to 512 KiB of input per chip "
                           "without --workers or --persistent-buffers)")
                ->check(opt::IsMember({"auto", "ring", "direct"}));
        cmd.add_option("--layout", layout_,
                       "the input's and output's memory config: interleaved (DRAM, or L1 with --l1), "
                       "height_sharded, width_sharded, block_sharded (L1 shards, one per core) or dram_sharded "
                       "(width shards over the DRAM banks)")
            ->check(opt::IsMember({"interleaved", "height_sharded", "width_sharded", "block_sharded", "dram_sharded"}));
        cmd.add_option("--shard-grid", shardGrid_,
                       "sharded layouts: RxC shards (cores, or DRAM banks), row-major from the first worker core "
                       "(default: height/width 1x8, block 2x4, dram_sharded every bank)");
        cmd.add_option("--shard-spec", shardSpec_,
                       "sharded layouts: the input's shard shape HxW in pages (default: W 1, H spread over the "
                       "grid); the output keeps W, its H spreads its rows over the grid");
        cmd.add_option("--seed", seed_, "input data seed");
        cmd.add_flag("--sweep", sweep_, "sweep sizes from -b to -e by factor -f (one process per size)");
        cmd.add_option("-b,--minbytes", minBytes_, "sweep: first size (default 4K)");
        cmd.add_option("-e,--maxbytes", maxBytes_, "sweep: last size (default 64M)");
        cmd.add_option("-f,--stepfactor", stepFactor_, "sweep: size factor (default 2)")->check(opt::Range(2u, 1024u));
    }

    nlohmann::json params() const override {
        nlohmann::json p{{"op", name()},
                         {"chips", chips_},
                         {"order", order_},
                         {"topology", topology_},
                         {"method", method_},
                         {"bidir", bidir_},
                         {"group", group_},
                         {"axis", axis_},
                         {"size", size_},
                         {"count", count_},
                         {"dtype", dtype_},
                         {"page_bytes", pageBytes_},
                         {"packet", packet_},
                         {"links", links_},
                         {"workers", workers_},
                         {"impl", impl_},
                         {"edm_buffers", edmBuffers_},
                         {"edm_credit_txq", edmCreditTxq_},
                         {"l1", l1_},
                         {"persistent_buffers", persistent_},
                         {"rs_algorithm", rsAlgorithm_},
                         {"layout", layout_},
                         {"shard_grid", shardGrid_},
                         {"shard_spec", shardSpec_},
                         {"seed", seed_},
                         {"sweep", sweep_},
                         {"inputs", inputs_},
                         {"dump_outputs", dump_}};
        p["methods"] = methods_.empty() ? configDir().shown(kMethodsFile) : methods_;
        if (reduces()) p["reduce_op"] = redop_;
        if (def_.gatherDim) p["dim"] = dim_, p["row_pages"] = rowPages_;
        if (def_.rooted) p["root"] = root_;
        if (sweep_) p["minbytes"] = minBytes_, p["maxbytes"] = maxBytes_, p["stepfactor"] = stepFactor_;
        return p;
    }

    void build(Runtime& rt) override {
        const ClusterDescriptor& d = rt.platform().descriptor();
        CclSpec s;
        s.op = op_;
        try {
            s.dtype = golden::parseDType(dtype_);
            if (reduces()) s.redop = golden::parseRedOp(redop_);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string(isDType(dtype_) ? "--op: " : "--dtype: ") + e.what());
        }
        if (reduces() && !golden::supports(s.redop, s.dtype))
            throw ConfigError(fmt::format("--op {} does not support --dtype {} ({}); {} takes: {}", redop_, dtype_,
                                          golden::gclTypeName(s.dtype), redop_, golden::supportedTypes(s.redop)));
        // Replicas and groups.
        replicas_ = replicaOrder(d);
        groupIdx_ = groupIndices(d);
        for (const auto& g : groupIdx_) {
            s.groups.emplace_back();
            for (unsigned r : g) s.groups.back().push_back(replicas_[r]);
        }
        const unsigned n = unsigned(s.groups.front().size());
        const TopologyKind topo = topology_ == "line" ? TopologyKind::Line : TopologyKind::Ring;
        s.links = links_ ? links_ : defaultLinks(d, s.groups, topo);
        s.pageBytes = pageBytes_;
        s.packetBytes = packet_;
        s.edmBuffers = edmBuffers_;
        s.edmCreditTxq = edmCreditTxq_;
        s.dim = dim_;
        s.rowPages = rowPages_;
        s.root = root_;
        s.l1Buffers = l1_;
        s.persistentBuffers = persistent_;
        s.sharding = sharding();
        s.seed = seed_;
        s.data = rt.platform().options().storePayload;
        if (!resolveCount(s, n)) return;  // a sweep point below one element per rank
        resolveMethod(s, topo, n);
        if (persistent_) {
            const bool ring =
                s.op == golden::Op::AllGather || s.op == golden::Op::ReduceScatter || s.op == golden::Op::AllReduce;
            if (!ring || s.impl != CclSpec::Impl::Fabric || s.method == golden::Method::Broadcast)
                throw ConfigError(fmt::format(
                    "--persistent-buffers: only the fabric all_gather, reduce_scatter and all_reduce start with a "
                    "barrier (this run: {} with --impl {})",
                    name(), s.impl == CclSpec::Impl::Fabric ? "fabric" : "edm"));
        }
        s.workers = workers_ ? workers_
                             : defaultWorkers(reduces(), s.impl, s.count * golden::elementBytes(s.dtype), n, s.links,
                                              topo, s.op == golden::Op::AllGather);
        // all_reduce's second op, the all-gather of the reduce-scatter's
        // blocks, by all_gather's rule for its input; --workers counts on a
        // ring (the line's multicast all-gather runs one worker per link).
        if (s.op == golden::Op::AllReduce && s.impl == CclSpec::Impl::Fabric) {
            s.agWorkers = workers_ && !multicastAllGather(topo, n)
                              ? workers_
                              : defaultWorkers(false, s.impl, (s.count + n - 1) / n * golden::elementBytes(s.dtype), n,
                                               s.links, topo, true);
        }
        // Consecutive and orthogonal groups whose members are not neighbours
        // are relayed through the chips in between.
        s.relay = axis_.empty() && groupSpec().kind != GroupKind::All;
        s.sharing = sharing_;
        if (reduces() && rsAlgorithm_ == "direct") {
            const std::string why = ccl::directReduceScatterUnfit(s, topo, n);
            if (!why.empty()) throw ConfigError(fmt::format("--rs-algorithm direct: {}", withFlags(why)));
            s.directRs = true;
        } else if (reduces() && rsAlgorithm_ == "auto") {
            s.directRs = ccl::directReduceScatterAuto(s, topo, n, workers_ != 0);
        }
        if (s.directRs) s.workers = 1;  // the direct op: one worker core per link
        try {
            op_impl_ = std::make_unique<CclOp>(rt, s);
        } catch (const CclOpError& e) {
            throw asFlagError(e);  // the op's terms -> the options the user gave
        }
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        if (!op_impl_) return {{"op", name()}, {"skipped", skipped_}, {"size_bytes", sizeBytes_}};
        const CclOp& op = *op_impl_;
        const CclSpec& s = op.spec();
        const std::vector<unsigned> chips = op.chips();
        // Measured on the chip that started last (CCL guide, "Measuring Op Performance").
        unsigned last = chips.front();
        for (unsigned c : chips)
            if (rt.launchTime(c) > rt.launchTime(last)) last = c;
        const Tick t0 = rt.launchTime(last);
        const double ns = ticksToNs(rt.chipFinish(last) - t0);
        Tick first = kNever, end = 0, slowest = 0;
        nlohmann::json perChip = nlohmann::json::object(), perChipDispatch = nlohmann::json::object();
        for (unsigned c : chips) {
            first = std::min(first, rt.launchTime(c));
            end = std::max(end, rt.chipFinish(c));
            slowest = std::max(slowest, rt.chipFinish(c) - rt.launchTime(c));
            perChip[std::to_string(c)] = ticksToNs(rt.chipFinish(c) - rt.launchTime(c)) / 1000.0;
            perChipDispatch[std::to_string(c)] = ticksToNs(rt.launchTime(c) - rt.dispatchTime(c)) / 1000.0;
        }
        const DispatchPlan& plan = rt.dispatchPlan(last);
        const unsigned n = op.ranks();
        const std::uint64_t sizeBytes = sizeBytesOf(op_, s.count, n, s.dtype);
        const double algbw = double(sizeBytes) / ns;  // bytes per ns == GB/s
        const double linkbw = busiestPairBytes(op, rt.platform()) / (ns * s.links * op.directions());
        const EthConfig& eth = rt.platform().descriptor().arch.erisc.eth;  // the links' framing limit (plots)
        check_ = checkOutputs(rt, op);
        if (check_.status != "off")
            rt.scoreboard().record(check_.elementsChecked * golden::elementBytes(s.dtype), check_.wrongElements == 0,
                                   check_.firstFailure);
        if (!dump_.empty()) {
            // Back to replica order.
            const auto outs = readOutputs(rt, op);
            std::vector<golden::Tensor> byReplica(replicas_.size());
            for (std::size_t gi = 0; gi < groupIdx_.size(); ++gi)
                for (std::size_t p = 0; p < groupIdx_[gi].size(); ++p) byReplica[groupIdx_[gi][p]] = outs[gi][p];
            writeOutputs(dump_, byReplica, s.dtype);
        }
        nlohmann::json orders = nlohmann::json::array();
        unsigned relayed = 0, relayChips = 0;
        for (const CclGroup& g : op.groups()) {
            orders.push_back(g.topo.order);
            for (const CclHop& h : g.topo.hops)
                if (h.relayed()) {
                    ++relayed;
                    relayChips += unsigned(h.path.size()) - 2;
                }
        }
        const std::uint64_t count = def_.ncclCount(s.count, n);
        return {{"op", name()},
                {"n_chips", n},
                {"groups", op.groups().size()},
                {"group", groupSpec().text()},
                {"orders", orders},
                {"replicas", replicas_},
                {"replica_orders", replicaOrders(op)},
                {"replica_choice", replicaChoice_},
                {"layout", ccl::layoutName(s.sharding.layout)},
                {"input_shards", ccl::describe(s.sharding, op.groups()[0].ranks[0].input.shard)},
                {"output_shards", ccl::describe(s.sharding, op.groups()[0].ranks[0].output.shard)},
                {"relayed_hops", relayed},
                {"relay_chip_visits", relayChips},
                {"topology", topologyName(s.topology())},
                {"method", golden::methodName(s.method)},
                {"impl", s.impl == CclSpec::Impl::Fabric ? "fabric" : "edm"},
                {"method_rule", methodRule_},
                {"rs_algorithm", !reduces() || s.impl != CclSpec::Impl::Fabric || s.method == golden::Method::Broadcast
                                     ? "none"
                                 : s.directRs ? "direct"
                                              : "ring"},
                {"reduce_op", reduces() ? golden::redOpName(s.redop) : "none"},
                {"directions", op.directions()},
                {"links", s.links},
                {"workers", s.workers},
                {"all_gather_workers", s.agWorkers ? s.agWorkers : s.workers},
                {"packet_bytes", op.packetBytes()},
                {"page_bytes", s.pageBytes},
                {"size_bytes", sizeBytes},
                {"count", count},
                {"input_elements", s.count},
                {"output_elements", op.outputLayout().validElems},
                {"dtype", golden::dtypeName(s.dtype)},
                {"root", def_.rooted ? int(s.root) : -1},
                {"sim_time_us", ns / 1000.0},
                {"end_to_end_us", ticksToNs(end - first) / 1000.0},
                {"dispatch_us", ticksToNs(plan.launch()) / 1000.0},
                {"completion_us", ticksToNs(plan.completion) / 1000.0},
                {"end_to_end_with_dispatch_us", ticksToNs(rt.endToEndWithDispatch(chips)) / 1000.0},
                {"chip_dispatch_us", perChipDispatch},
                {"dispatch_binaries", plan.binaries},
                {"dispatch_binary_bytes", plan.binaryBytes},
                {"dispatch_kernel_groups", plan.kernelGroups},
                {"measured_on_chip", last},
                {"chip_time_us", perChip},
                // The largest of them: tt-metal's CCL benchmark's time (the
                // largest device kernel duration of the chips).
                {"max_chip_time_us", ticksToNs(slowest) / 1000.0},
                {"algbw_GBps", algbw},
                {"busbw_GBps", algbw * busFactor(op_, n)},
                {"bus_factor", busFactor(op_, n)},
                {"linkbw_GBps", linkbw},
                {"linkbw_normalised_by", fmt::format("{} link(s) x {} direction(s)", s.links, op.directions())},
                {"line_rate_GBps", eth.lineBytesPerNs},
                {"framing_limit_GBps", eth.lineBytesPerNs * op.packetBytes() / eth.wireBytes(op.packetBytes())},
                {"data_check", check_.status},
                {"elements_checked", check_.elementsChecked},
                {"wrong_elements", check_.wrongElements},
                {"worker_cores_per_chip", op.workerCoresPerChip()},
                {"edm_channels_per_core", op.edmChannelsPerCore()},
                {"edm_buffers_per_channel", op.edmBuffersPerChannel()}};
    }

    std::string dataCheck(Runtime&) const override { return check_.status; }

    void decorate(nlohmann::json& rep) const override {
        const nlohmann::json& r = rep["results"];
        for (const char* k :
             {"op", "n_chips", "topology", "method", "links", "packet_bytes", "size_bytes", "sim_time_us", "algbw_GBps",
              "busbw_GBps", "linkbw_GBps", "dispatch_us", "end_to_end_with_dispatch_us"})
            if (r.contains(k)) rep[k] = r[k];
    }

    double progress(Runtime& rt) const override {
        if (!op_impl_) return -1;
        return std::min(1.0, rt.platform().ethStats().payloadBytes / expectedEthBytes(*op_impl_));
    }

    std::string summary(const nlohmann::json& r) const override { return collectiveSummary(name(), r); }

    // ---- sweeps --------------------------------------------------------------------

    std::size_t sweepPoints() const override { return sweep_ ? sweepSizes().size() : 0; }
    void selectSweepPoint(std::size_t i) override { sizeBytes_ = sweepSizes().at(i); }
    std::string sweepHeader() const override {
        return fmt::format(
                   "# {} sweep {} .. {} x{}: {} topology, method {}, {} link(s), {} worker(s), {}, page {} B, "
                   "packet {}\n",
                   name(), collectiveSizeText(minBytes()), collectiveSizeText(maxBytes()), stepFactor_, topology_,
                   bidir_.empty() ? method_ : "--bidir " + bidir_, links_, workers_ ? std::to_string(workers_) : "auto",
                   dtype_, pageBytes_, packet_ ? std::to_string(packet_) + " B" : "auto") +
               collectiveTableHeader();
    }
    std::string sweepRow(const nlohmann::json& report) const override { return collectiveSweepRow(report); }
    std::vector<std::string> sweepSeries(const std::vector<nlohmann::json>& reports) const override {
        return collectiveSweepSeries(reports);
    }
    std::string csvHeader() const override { return collectiveCsvHeader(); }
    std::string csvRow(const nlohmann::json& rep) const override { return collectiveCsvRow(name(), rep); }

private:
    static bool isDType(const std::string& s) {
        try {
            golden::parseDType(s);
            return true;
        } catch (const std::invalid_argument&) {
            return false;
        }
    }

    /// The element count: from the inputs, --count, or --size (nccl-tests
    /// S). False: a sweep point below one element per rank (skipped).
    bool resolveCount(CclSpec& s, unsigned n) {
        const std::uint64_t e = golden::elementBytes(s.dtype);
        if (!inputs_.empty()) {
            if (count_ || !size_.empty())
                throw ConfigError("--inputs gives the element count: leave out --count and --size");
            const auto all = loadInputs(inputs_, s.dtype, unsigned(replicas_.size()));
            s.count = all.front().size() / e;
            for (const auto& g : groupIdx_) {
                s.inputs.emplace_back();
                for (unsigned r : g) s.inputs.back().push_back(all[r]);
            }
        } else if (count_) {
            if (!size_.empty()) throw ConfigError("give --count or --size, not both");
            s.count = count_;
        } else {
            const std::uint64_t S = sizeBytes_ ? sizeBytes_ : parseBytes(size_.empty() ? "1M" : size_, "--size");
            const std::uint64_t unit = (def_.sizeCountsOutput ? n : 1) * e;
            if (S % unit) {
                if (!sweep_)
                    throw ConfigError(
                        def_.sizeCountsOutput
                            ? fmt::format("--size {} B (the gathered output) is not {} replicas x a whole number of "
                                          "{}-byte {} elements",
                                          S, n, e, golden::dtypeName(s.dtype))
                            : fmt::format("--size {} B is not a whole number of {}-byte {} elements", S, e,
                                          golden::dtypeName(s.dtype)));
                if (S < unit) {
                    skipped_ = fmt::format("below one element per rank");
                    return false;
                }
            }
            s.count = S / unit;
        }
        return true;
    }

    /// The implementation and the method: given, or from the rule table;
    /// the fabric implementation has one structure per topology.
    void resolveMethod(CclSpec& s, TopologyKind topo, unsigned n) {
        const std::uint64_t e = golden::elementBytes(s.dtype);
        s.impl = impl_ == "edm" ? CclSpec::Impl::Edm : CclSpec::Impl::Fabric;
        s.implGiven = !impl_.empty();
        // The method: given, or from the rule table.
        const std::string m = !bidir_.empty() ? (bidir_ == "off"      ? "clockwise_ring"
                                                 : bidir_ == "halves" ? "bidirectional_ring_pair"
                                                                      : "meet_in_middle_ring")
                                              : method_;
        if (!bidir_.empty() && method_ != "auto") throw ConfigError("give --method or --bidir, not both");
        if (topo == TopologyKind::Line && m != "auto")
            throw ConfigError(fmt::format("--method {}: a line of chips has one method (line); leave out --method", m));
        if (m == "auto") {
            const MethodTable table = loadMethodTable(methodsFile());
            const MethodChoice c = chooseMethod(table, op_, groupSpec().kind, topo, n, s.count * e);
            s.method = c.method;
            methodRule_ = c.rule;
        } else {
            s.method = topo == TopologyKind::Line ? golden::Method::Line : golden::parseMethod(m);
            const std::string why = methodFits(s.method, op_, topo);
            if (!why.empty()) throw ConfigError(fmt::format("--method {}: {}", m, withFlags(why)));
            methodRule_ = "given";
        }
        if (topo == TopologyKind::Line) s.method = golden::Method::Line;
        // The fabric implementation has one structure per topology (the GCL
        // methods are EDM schedules); the broadcast method stays a choice.
        if (methodRule_ == "given" && topo == TopologyKind::Ring && s.method != golden::Method::Broadcast) {
            // A GCL method names an EDM schedule: without --impl it picks the EDM.
            if (s.implGiven && s.impl == CclSpec::Impl::Fabric)
                throw ConfigError(
                    fmt::format("--method {} is an EDM schedule: use --impl edm (the fabric "
                                "implementation runs its own structure, or --method broadcast)",
                                m));
            s.impl = CclSpec::Impl::Edm;
        }
        if (s.impl == CclSpec::Impl::Fabric && s.method != golden::Method::Broadcast) {
            const bool ringOfMore = topo == TopologyKind::Ring && n >= 3;
            s.method = !ringOfMore  ? golden::Method::Line
                       : !reduces() ? golden::Method::MeetInMiddle
                                    : golden::Method::BidirPair;
            if (methodRule_ != "given") methodRule_ = "impl fabric";
        }
    }

    /// auto's rule table: --methods, else the one of the configuration directory.
    static constexpr const char* kMethodsFile = "collective_methods.yaml";
    std::string methodsFile() const { return methods_.empty() ? configDir().file(kMethodsFile) : methods_; }

    /// --layout, --shard-grid, --shard-spec.
    ccl::TensorSharding sharding() const {
        ccl::TensorSharding t;
        t.layout = ccl::parseLayout(layout_);
        if (!t.sharded()) {
            if (!shardGrid_.empty() || !shardSpec_.empty())
                throw ConfigError(
                    fmt::format("--shard-grid and --shard-spec need a sharded --layout (not {})", layout_));
            return t;
        }
        if (l1_)
            throw ConfigError(
                fmt::format("--l1 places interleaved tensors; --layout {} says where the tensors are", layout_));
        auto pair = [](const std::string& text, const char* flag, const char* what) {
            const auto x = text.find('x');
            std::size_t a = 0, b = 0;
            unsigned long u = 0, v = 0;
            try {
                if (x == std::string::npos) throw std::invalid_argument(text);
                u = std::stoul(text.substr(0, x), &a);
                v = std::stoul(text.substr(x + 1), &b);
            } catch (const std::exception&) {
                a = 0;
            }
            if (a == 0 || a != x || b != text.size() - x - 1 || u < 1 || v < 1 || u > 1u << 20 || v > 1u << 20)
                throw ConfigError(
                    fmt::format("{} {}: expected {} as two whole numbers >= 1 (e.g. 2x4)", flag, text, what));
            return std::make_pair(unsigned(u), unsigned(v));
        };
        if (!shardGrid_.empty()) std::tie(t.gridRows, t.gridCols) = pair(shardGrid_, "--shard-grid", "RxC");
        if (!shardSpec_.empty()) std::tie(t.shardRows, t.shardCols) = pair(shardSpec_, "--shard-spec", "HxW pages");
        return t;
    }

    GroupSpec groupSpec() const { return group_.empty() ? GroupSpec{} : parseGroup(group_); }

    std::uint64_t minBytes() const { return parseBytes(minBytes_, "-b"); }
    std::uint64_t maxBytes() const { return parseBytes(maxBytes_, "-e"); }
    std::vector<std::uint64_t> sweepSizes() const {
        std::vector<std::uint64_t> out;
        const std::uint64_t hi = maxBytes();
        for (std::uint64_t b = std::max<std::uint64_t>(1, minBytes()); b <= hi; b *= stepFactor_) out.push_back(b);
        if (out.empty()) throw ConfigError(fmt::format("-b {} is larger than -e {}", minBytes_, maxBytes_));
        return out;
    }

    /// Each group's ring or line as replica indices (positions in --order or
    /// the chosen replicas), beside the chip ids of "orders".
    nlohmann::json replicaOrders(const CclOp& op) const {
        nlohmann::json out = nlohmann::json::array();
        for (const CclGroup& g : op.groups()) {
            nlohmann::json idx = nlohmann::json::array();
            for (unsigned chip : g.topo.order)
                idx.push_back(std::find(replicas_.begin(), replicas_.end(), chip) - replicas_.begin());
            out.push_back(idx);
        }
        return out;
    }

    /// The replicas (chips) in replica order: --order, the first --chips of
    /// the board's ring order, or (--axis) the board's mesh order.
    std::vector<unsigned> replicaOrder(const ClusterDescriptor& d) const {
        if (!axis_.empty()) {
            if (!order_.empty() || chips_ || !group_.empty())
                throw ConfigError("--axis runs along the board's mesh: it takes no --order, --chips or --group");
            if (!d.mesh) throw ConfigError(fmt::format("--axis {}: cluster '{}' describes no mesh", axis_, d.name));
            return d.meshOrder;
        }
        if (order_.size() == 1 && order_[0] == "mesh") {
            if (!d.mesh) throw ConfigError(fmt::format("--order mesh: cluster '{}' describes no mesh", d.name));
            if (chips_ && chips_ != d.meshOrder.size())
                throw ConfigError(fmt::format("--chips {} but --order mesh has {} chips", chips_, d.meshOrder.size()));
            return d.meshOrder;
        }
        if (!order_.empty() && !(order_.size() == 1 && order_[0] == "ring")) {
            std::vector<unsigned> chips;
            for (const std::string& t : order_) {
                std::size_t used = 0;
                unsigned long v = 0;
                try {
                    v = std::stoul(t, &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (used != t.size() || t.empty())
                    throw ConfigError(fmt::format("--order: '{}' is not a chip id (give ids, mesh or ring)", t));
                chips.push_back(unsigned(v));
            }
            if (chips_ && chips_ != chips.size())
                throw ConfigError(fmt::format("--chips {} but --order lists {} chips", chips_, chips.size()));
            return chips;
        }
        std::vector<unsigned> base = d.ringOrder;
        if (base.empty())
            for (unsigned c = 0; c < d.chips.size(); ++c) base.push_back(c);
        const unsigned n = chips_ ? chips_ : unsigned(base.size());
        if (n > base.size())
            throw ConfigError(fmt::format("--chips {}: the board's ring order has {} chips", n, base.size()));
        // A ring of fewer chips than the board: chips that close one (on a
        // mesh, a snake around a block of it) when the first n do not.
        const GroupSpec spec = groupSpec();
        if (n < base.size() && topology_ == "ring" && spec.kind == GroupKind::All) {
            std::string how;
            const std::vector<unsigned> ring = ccl::closedRingOfSize(d, n, &how);
            if (!ring.empty()) {
                if (!std::equal(ring.begin(), ring.end(), base.begin()))
                    replicaChoice_ = fmt::format("--chips {}: {}", n, how);
                return ring;
            }
        }
        // Consecutive groups on a ring: when runs of K chips of the ring
        // order do not close rings (their closing hop would be relayed), a
        // tiling of the mesh by blocks of K chips that do, each block one
        // group.
        if (n == base.size() && topology_ == "ring" && spec.kind == GroupKind::Consecutive && spec.size >= 3 &&
            spec.size < n && n % spec.size == 0) {
            bool closed = true;
            for (unsigned g = 0; g < n / spec.size && closed; ++g)
                closed = d.linksAround(
                    std::vector<unsigned>(base.begin() + g * spec.size, base.begin() + (g + 1) * spec.size));
            std::string how;
            if (!closed)
                if (std::vector<unsigned> tiled = ccl::ringTilingOfSize(d, spec.size, &how); !tiled.empty()) {
                    replicaChoice_ = fmt::format("--group {}: {}", spec.text(), how);
                    return tiled;
                }
        }
        return std::vector<unsigned>(base.begin(), base.begin() + n);
    }

    /// Groups as replica indices (--axis: the mesh rows or columns).
    std::vector<std::vector<unsigned>> groupIndices(const ClusterDescriptor& d) const {
        if (!axis_.empty()) {
            const unsigned rows = (*d.mesh)[0], cols = (*d.mesh)[1];
            return commGroups(rows * cols, GroupSpec{axis_ == "row" ? GroupKind::Consecutive : GroupKind::Orthogonal,
                                                     axis_ == "row" ? cols : rows});
        }
        return commGroups(unsigned(replicas_.size()), groupSpec());
    }

    const CollectiveDef& def_;
    Op op_;
    unsigned chips_ = 0;
    std::vector<std::string> order_;
    std::string topology_ = "ring";
    std::string method_ = "auto";
    std::string methods_;
    std::string bidir_;
    std::string group_;
    std::string axis_;
    std::string size_;
    std::uint64_t count_ = 0;
    std::string dtype_ = "bf16";
    std::string redop_ = "add";
    std::string inputs_, dump_;
    unsigned pageBytes_ = 2048;
    unsigned packet_ = 0;
    unsigned links_ = 0;    ///< 0: the fewest user links of any hop
    unsigned workers_ = 0;  ///< 0: the implementation's default
    unsigned edmBuffers_ = 2;
    unsigned edmCreditTxq_ = 0;
    std::string impl_;  ///< empty: fabric (relayed groups: edm)
    unsigned dim_ = 0;
    unsigned rowPages_ = 1;
    unsigned root_ = 0;
    bool l1_ = false;
    bool persistent_ = false;
    std::string rsAlgorithm_ = "auto";
    std::string layout_ = "interleaved";
    std::string shardGrid_, shardSpec_;
    std::uint64_t seed_ = 1;
    bool sweep_ = false;
    std::string minBytes_ = "4K", maxBytes_ = "64M";
    unsigned stepFactor_ = 2;

    std::uint64_t sizeBytes_ = 0;  ///< sweep point
    std::vector<unsigned> replicas_;
    mutable std::string replicaChoice_;  ///< how --chips chose its ring (replicaOrder())
    std::vector<std::vector<unsigned>> groupIdx_;
    std::string methodRule_;
    std::string skipped_;
    std::unique_ptr<CclOp> op_impl_;
    CclCheck check_;
    CclSpec::Sharing sharing_;
};

}  // namespace

std::vector<WorkloadFactory> collectiveWorkloads() {
    std::vector<WorkloadFactory> out;
    for (const CollectiveDef* def : collectives())
        out.emplace_back([def]() -> std::unique_ptr<Workload> { return std::make_unique<Collective>(*def); });
    return out;
}

std::unique_ptr<CollectiveOp> makeCollective(const std::string& name) {
    const CollectiveDef* def = findCollective(name);
    return def ? std::make_unique<Collective>(*def) : nullptr;
}

}  // namespace cclsim::ccl
