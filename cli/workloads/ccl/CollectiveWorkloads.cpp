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
#include "host/ccl/CclOp.h"
#include "host/ccl/CclResults.h"
#include "host/ccl/CommGroups.h"
#include "host/ccl/MethodTable.h"
#include "host/ccl/TensorFiles.h"
#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cclsim::ccl {

namespace {

using golden::Op;

/// The --links default: the fewest user links between neighbours of any
/// group's order (tt-metal takes the fewest routing planes over the devices,
/// less the link a chip without PCIe needs for dispatch; our descriptors
/// mark that link, so user links are the planes left). Pairs without a link
/// (relayed hops) do not count. N300: 1; T3000: 1 (inside each N300 one of
/// the two links is reserved); Galaxy: 4.
unsigned defaultLinks(const ClusterDescriptor& d, const std::vector<std::vector<unsigned>>& groups, TopologyKind topo) {
    std::size_t fewest = 0;
    for (const auto& g : groups)
        for (std::size_t i = 0; i + 1 < g.size() || (topo == TopologyKind::Ring && g.size() > 2 && i < g.size()); ++i) {
            const std::size_t l = d.userLinksBetween(g[i], g[(i + 1) % g.size()]).size();
            if (l > 0 && (fewest == 0 || l < fewest)) fewest = l;
        }
    return unsigned(std::max<std::size_t>(1, fewest));
}

std::string sizeText(std::uint64_t b) {
    if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{}G", b >> 30);
    if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{}M", b >> 20);
    if (b >= (1ull << 10) && b % (1ull << 10) == 0) return fmt::format("{}K", b >> 10);
    return fmt::format("{}", b);
}

class Collective final : public CollectiveOp {
public:
    explicit Collective(Op op) : op_(op) {}

    void setSharing(const CclSpec::Sharing& sharing) override { sharing_ = sharing; }
    CclOp* op() override { return op_impl_.get(); }

    std::string name() const override { return opName(op_); }
    std::string description() const override {
        switch (op_) {
            case Op::AllGather: return "all-gather over a ring or line of chips (EDM + worker kernels), data checked";
            case Op::ReduceScatter: return "reduce-scatter (GCL operators and types) over a ring or line, data checked";
            case Op::AllReduce:
                return "all-reduce = reduce-scatter then all-gather (GCL operators and types), data checked";
            case Op::AllToAll: return "all-to-all over a ring or line of chips (relayed), data checked";
            case Op::Broadcast: return "broadcast from a root rank over a ring or line of chips, data checked";
        }
        return {};
    }

    bool reduces() const { return op_ == Op::ReduceScatter || op_ == Op::AllReduce; }

    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--chips", chips_, "replicas: the first N chips of the board's ring order (default: all)")
            ->check(CLI::Range(2u, 4096u));
        cmd.add_option("--order", order_,
                       "replicas: an explicit chip order (e.g. 0,4,5,1), or 'mesh' (the board's row-major mesh order: "
                       "consecutive groups are mesh rows, orthogonal groups columns) or 'ring' (the default)")
            ->delimiter(',');
        cmd.add_option("--topology", topology_, "ring or line")->check(CLI::IsMember({"ring", "line"}));
        cmd.add_option("--method", method_,
                       "collective method: clockwise_ring, anticlockwise_ring, bidirectional_ring_pair, "
                       "meet_in_middle_ring, broadcast (reductions), or auto (the rule table)")
            ->check(CLI::IsMember({"clockwise_ring", "anticlockwise_ring", "bidirectional_ring_pair",
                                   "meet_in_middle_ring", "broadcast", "auto"}));
        cmd.add_option("--methods", methods_,
                       "auto's rule table (default: collective_methods.yaml of the configuration directory, "
                       "platforms/ of the source tree)");
        cmd.add_option("--bidir", bidir_,
                       "shorthand for --method: off (clockwise_ring), halves (bidirectional_ring_pair) "
                       "or full (meet_in_middle_ring)")
            ->check(CLI::IsMember({"off", "halves", "full"}));
        cmd.add_option("--group", group_, "communication groups over the replicas: all, consecutive:K, orthogonal:K");
        cmd.add_option("--axis", axis_, "shorthand: one collective along every mesh row or column at once")
            ->check(CLI::IsMember({"row", "col"}));
        cmd.add_option("--size", size_, "S as nccl-tests defines it, in bytes (K/M/G suffixes)");
        cmd.add_option("--count", count_, "input elements per replica (instead of --size)")
            ->check(CLI::Range(1ull, 1ull << 34));
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
            ->check(CLI::Range(32u, 1u << 20));
        cmd.add_option("--packet", packet_, "EDM packet (message) bytes, a whole number of pages; 0: auto")
            ->check(CLI::Range(0u, 1u << 20));
        cmd.add_option("--links", links_,
                       "Ethernet links per hop (default: the fewest user links of any hop of the op, i.e. tt-metal's "
                       "routing planes less the link reserved for dispatch: n300 1, t3000 1, galaxy 4)")
            ->check(CLI::Range(1u, 16u));
        cmd.add_option("--edm-buffers", edmBuffers_,
                       "--impl edm: buffers (slots) per EDM channel (default 2, as "
                       "tt-metal's legacy all-gather)")
            ->check(CLI::Range(1u, 16u));
        cmd.add_option("--workers", workers_,
                       "worker units per link and direction (default: edm 4; fabric by "
                       "tt-metal's rule: 1 up to 4 KB per link, 2 up to 256 KB, else 4)")
            ->check(CLI::Range(1u, 64u));
        cmd.add_option("--impl", impl_,
                       "fabric (default: the packet fabric, as tt-metal's current all_gather_async, "
                       "reduce_scatter_minimal_async and all_to_all_async) or edm (the CCL guide's EDM streams)")
            ->check(CLI::IsMember({"edm", "fabric"}));
        if (op_ == Op::AllGather) {
            cmd.add_option("--dim", dim_, "gather dimension: 0 (blocks) or 1 (rows)")->check(CLI::Range(0u, 1u));
            cmd.add_option("--row-pages", rowPages_, "--dim 1: pages per rank row")->check(CLI::Range(1u, 1u << 30));
        }
        if (op_ == Op::Broadcast) cmd.add_option("--root", root_, "root rank (position in its group)");
        cmd.add_flag("--l1", l1_, "tensors in worker L1 (interleaved over the worker cores) instead of DRAM");
        cmd.add_option("--seed", seed_, "input data seed");
        cmd.add_flag("--sweep", sweep_, "sweep sizes from -b to -e by factor -f (one process per size)");
        cmd.add_option("-b,--minbytes", minBytes_, "sweep: first size (default 4K)");
        cmd.add_option("-e,--maxbytes", maxBytes_, "sweep: last size (default 64M)");
        cmd.add_option("-f,--stepfactor", stepFactor_, "sweep: size factor (default 2)")->check(CLI::Range(2u, 1024u));
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
                         {"l1", l1_},
                         {"seed", seed_},
                         {"sweep", sweep_},
                         {"inputs", inputs_},
                         {"dump_outputs", dump_}};
        p["methods"] = methods_.empty() ? configDir().shown(kMethodsFile) : methods_;
        if (reduces()) p["reduce_op"] = redop_;
        if (op_ == Op::AllGather) p["dim"] = dim_, p["row_pages"] = rowPages_;
        if (op_ == Op::Broadcast) p["root"] = root_;
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
            throw ConfigError(std::string(reduces() && !isDType(dtype_) ? "--dtype: " : "") + e.what());
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
        s.dim = dim_;
        s.rowPages = rowPages_;
        s.root = root_;
        s.l1Buffers = l1_;
        s.seed = seed_;
        s.data = rt.platform().options().storePayload;
        const std::uint64_t e = golden::elementBytes(s.dtype);
        // Element count: from the inputs, --count, or --size (nccl-tests S).
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
            const std::uint64_t unit = (op_ == Op::AllGather ? n : 1) * e;
            if (S % unit) {
                if (!sweep_)
                    throw ConfigError(
                        op_ == Op::AllGather
                            ? fmt::format("--size {} B (the gathered output) is not {} replicas x a whole number of "
                                          "{}-byte {} elements",
                                          S, n, e, golden::dtypeName(s.dtype))
                            : fmt::format("--size {} B is not a whole number of {}-byte {} elements", S, e,
                                          golden::dtypeName(s.dtype)));
                if (S < unit) {
                    skipped_ = fmt::format("below one element per rank");
                    return;
                }
            }
            s.count = S / unit;
        }
        // Implementation and worker count.
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
            s.method = !ringOfMore                                        ? golden::Method::Line
                       : op_ != Op::ReduceScatter && op_ != Op::AllReduce ? golden::Method::MeetInMiddle
                                                                          : golden::Method::BidirPair;
            if (methodRule_ != "given") methodRule_ = "impl fabric";
        }
        if (workers_) {
            s.workers = workers_;
        } else if (s.impl == CclSpec::Impl::Fabric && (op_ == Op::ReduceScatter || op_ == Op::AllReduce)) {
            // tt-metal reduce_scatter_minimal_async (default_workers): by the bytes
            // a link moves, input x (n-1)/n / links (/2 on a ring); ring: 1 up to
            // 4 KB, 2 below 1 MB, 4 up to 50 MB, else 8; line: 1, 2 below 0.5 MB,
            // 4 up to 4 MB, else 8.
            const bool ringOfMore = topo == TopologyKind::Ring && n >= 3;
            const double perLink = double(s.count * e) * (n - 1) / n / s.links / (ringOfMore ? 2 : 1);
            if (perLink <= 4096)
                s.workers = 1;
            else if (ringOfMore)
                s.workers = perLink < 1048576.0 ? 2 : perLink <= 50.0 * 1048576 ? 4 : 8;
            else
                s.workers = perLink < 500000.0 ? 2 : perLink <= 4000000.0 ? 4 : 8;
        } else if (s.impl == CclSpec::Impl::Fabric) {
            // tt-metal all_gather_async: 4 workers per direction when a link carries
            // more than 256 KB, 1 when it carries at most 4 KB, else 2. A link next
            // to a chip carries div_up(n-1, 2) slices of the input.
            const std::uint64_t perLink = s.count * e * ((n - 1 + 1) / 2);
            s.workers = perLink <= 4096 ? 1 : perLink <= 262144 ? 2 : 4;
        } else {
            // tt-metal's legacy all-gather (AllGatherConfig): 8 EDM channels per link on a
            // ring, half each way, 4 on a line, used both ways; one worker per channel.
            s.workers = 4;
        }
        // Consecutive and orthogonal groups whose members are not neighbours
        // are relayed through the chips in between.
        s.relay = axis_.empty() && groupSpec().kind != GroupKind::All;
        s.sharing = sharing_;
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
        Tick first = kNever, end = 0;
        nlohmann::json perChip = nlohmann::json::object(), perChipDispatch = nlohmann::json::object();
        for (unsigned c : chips) {
            first = std::min(first, rt.launchTime(c));
            end = std::max(end, rt.chipFinish(c));
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
        const std::uint64_t count = op_ == Op::AllGather ? s.count : op_ == Op::AllToAll ? s.count / n : s.count;
        return {{"op", name()},
                {"n_chips", n},
                {"groups", op.groups().size()},
                {"group", groupSpec().text()},
                {"orders", orders},
                {"relayed_hops", relayed},
                {"relay_chip_visits", relayChips},
                {"topology", topologyName(s.topology())},
                {"method", golden::methodName(s.method)},
                {"impl", s.impl == CclSpec::Impl::Fabric ? "fabric" : "edm"},
                {"method_rule", methodRule_},
                {"reduce_op", reduces() ? golden::redOpName(s.redop) : "none"},
                {"directions", op.directions()},
                {"links", s.links},
                {"workers", s.workers},
                {"packet_bytes", op.packetBytes()},
                {"page_bytes", s.pageBytes},
                {"size_bytes", sizeBytes},
                {"count", count},
                {"input_elements", s.count},
                {"output_elements", op.outputLayout().validElems},
                {"dtype", golden::dtypeName(s.dtype)},
                {"root", op_ == Op::Broadcast ? int(s.root) : -1},
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

    std::string summary(const nlohmann::json& r) const override {
        if (r.contains("skipped")) return fmt::format("{}: skipped ({})\n", name(), r["skipped"].get<std::string>());
        std::string out = fmt::format(
            "{} over {} {} of {} chips {}{}, {} link(s) per hop{}\n"
            "  {} worker unit(s) per link{}, {} worker cores per chip, {}\n",
            name(), r["groups"].get<unsigned>() > 1 ? fmt::format("{} x", r["groups"].get<unsigned>()) : "a",
            r["topology"].get<std::string>(), r["n_chips"].get<unsigned>(), r["orders"][0].dump(),
            r["groups"].get<unsigned>() > 1 ? fmt::format(" (first group; groups {})", r["group"].get<std::string>())
                                            : "",
            r["links"].get<unsigned>(),
            r["relayed_hops"].get<unsigned>()
                ? fmt::format(", {} hop(s) relayed through {} chip visit(s)", r["relayed_hops"].get<unsigned>(),
                              r["relay_chip_visits"].get<unsigned>())
                : "",
            r["workers"].get<unsigned>(), r["directions"].get<unsigned>() > 1 ? " and direction" : "",
            r["worker_cores_per_chip"].get<unsigned>(),
            r["impl"] == "fabric" && r["edm_channels_per_core"].get<unsigned>() == 0
                ? fmt::format("fabric packets of up to {} B payload", r["packet_bytes"].get<unsigned>())
                : fmt::format("EDM packet {} B, {} EDM channels per Ethernet core", r["packet_bytes"].get<unsigned>(),
                              r["edm_channels_per_core"].get<unsigned>()));
        out += tableHeader() + sweepRow(nlohmann::json{{"results", r}});
        out += fmt::format(
            "  impl {}, method {} ({}); busbw = algbw x {:.4f}; linkbw normalised by {}; time = device "
            "kernel time on chip {} (started last), kernels end to end {:.3f} us\n",
            r["impl"].get<std::string>(), r["method"].get<std::string>(),
            r["method_rule"] == "given" ? "given" : "auto: " + r["method_rule"].get<std::string>(),
            r["bus_factor"].get<double>(), r["linkbw_normalised_by"].get<std::string>(),
            r["measured_on_chip"].get<unsigned>(), r["end_to_end_us"].get<double>());
        out += fmt::format(
            "  with dispatch: end to end {:.3f} us (first enqueue to last program complete); dispatch of "
            "chip {} {:.3f} us ({} binaries, {} B, {} kernel groups), completion {:.3f} us\n",
            r["end_to_end_with_dispatch_us"].get<double>(), r["measured_on_chip"].get<unsigned>(),
            r["dispatch_us"].get<double>(), r["dispatch_binaries"].get<unsigned>(),
            r["dispatch_binary_bytes"].get<std::uint64_t>(), r["dispatch_kernel_groups"].get<unsigned>(),
            r["completion_us"].get<double>());
        return out;
    }

    // ---- sweeps --------------------------------------------------------------------

    std::size_t sweepPoints() const override { return sweep_ ? sweepSizes().size() : 0; }
    void selectSweepPoint(std::size_t i) override { sizeBytes_ = sweepSizes().at(i); }
    std::string sweepHeader() const override {
        return fmt::format(
                   "# {} sweep {} .. {} x{}: {} topology, method {}, {} link(s), {} worker(s), {}, page {} B, "
                   "packet {}\n",
                   name(), sizeText(minBytes()), sizeText(maxBytes()), stepFactor_, topology_,
                   bidir_.empty() ? method_ : "--bidir " + bidir_, links_, workers_ ? std::to_string(workers_) : "auto",
                   dtype_, pageBytes_, packet_ ? std::to_string(packet_) + " B" : "auto") +
               tableHeader();
    }
    std::string sweepRow(const nlohmann::json& report) const override {
        const nlohmann::json& r = report.at("results");
        if (r.contains("skipped"))
            return fmt::format("  {:>10}  (skipped: {})\n", r["size_bytes"].get<std::uint64_t>(),
                               r["skipped"].get<std::string>());
        return fmt::format(
            "  {:>10}  {:>12}  {:>6}  {:>10}  {:>4}  {:>10.2f}  {:>7.3f}  {:>7.3f}  {:>7.3f}  {:>5}  {}\n",
            r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(), r["dtype"].get<std::string>(),
            r["reduce_op"].get<std::string>(), r["root"].get<int>(), r["sim_time_us"].get<double>(),
            r["algbw_GBps"].get<double>(), r["busbw_GBps"].get<double>(), r["linkbw_GBps"].get<double>(),
            r["data_check"].get<std::string>(), r["method"].get<std::string>());
    }

    std::vector<std::string> sweepSeries(const std::vector<nlohmann::json>& reports) const override {
        std::vector<std::string> out;
        for (const nlohmann::json& rep : reports) {
            const nlohmann::json r = rep.value("results", nlohmann::json::object());
            // Not the method: --method auto picks one per size, and a sweep is one line.
            out.push_back(!r.contains("n_chips")
                              ? std::string()
                              : fmt::format("{} chips {}, {} link(s), {}", r["n_chips"].get<unsigned>(),
                                            r["topology"].get<std::string>(), r["links"].get<unsigned>(),
                                            r["impl"].get<std::string>()));
        }
        return out;
    }

    std::string csvHeader() const override {
        return "op,impl,n_chips,groups,topology,method,reduce_op,links,workers,packet_bytes,page_bytes,size_bytes,"
               "count,"
               "dtype,time_us,algbw_GBps,busbw_GBps,linkbw_GBps,data_check,wall_seconds,dispatch_us,"
               "end_to_end_with_dispatch_us";
    }
    std::string csvRow(const nlohmann::json& rep) const override {
        const nlohmann::json& r = rep.at("results");
        if (r.contains("skipped")) return {};
        return fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f},{},{:.3f},{:.4f},{:.4f}", name(),
            r["impl"].get<std::string>(), r["n_chips"].get<unsigned>(), r["groups"].get<unsigned>(),
            r["topology"].get<std::string>(), r["method"].get<std::string>(), r["reduce_op"].get<std::string>(),
            r["links"].get<unsigned>(), r["workers"].get<unsigned>(), r["packet_bytes"].get<unsigned>(),
            r["page_bytes"].get<unsigned>(), r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(),
            r["dtype"].get<std::string>(), r["sim_time_us"].get<double>(), r["algbw_GBps"].get<double>(),
            r["busbw_GBps"].get<double>(), r["linkbw_GBps"].get<double>(), r["data_check"].get<std::string>(),
            rep.value("wall_seconds", 0.0), r["dispatch_us"].get<double>(),
            r["end_to_end_with_dispatch_us"].get<double>());
    }

private:
    static std::string tableHeader() {
        return fmt::format(
            "# {:>10}  {:>12}  {:>6}  {:>10}  {:>4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}  {}\n"
            "# {:>10}  {:>12}  {:>6}  {:>10}  {:>4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}\n",
            "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "linkbw", "check", "method", "(B)",
            "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "(GB/s)", "");
    }

    static bool isDType(const std::string& s) {
        try {
            golden::parseDType(s);
            return true;
        } catch (const std::invalid_argument&) {
            return false;
        }
    }

    /// auto's rule table: --methods, else the one of the configuration directory.
    static constexpr const char* kMethodsFile = "collective_methods.yaml";
    std::string methodsFile() const { return methods_.empty() ? configDir().file(kMethodsFile) : methods_; }

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
    std::string impl_;  ///< empty: fabric (relayed groups: edm)
    unsigned dim_ = 0;
    unsigned rowPages_ = 1;
    unsigned root_ = 0;
    bool l1_ = false;
    std::uint64_t seed_ = 1;
    bool sweep_ = false;
    std::string minBytes_ = "4K", maxBytes_ = "64M";
    unsigned stepFactor_ = 2;

    std::uint64_t sizeBytes_ = 0;  ///< sweep point
    std::vector<unsigned> replicas_;
    std::vector<std::vector<unsigned>> groupIdx_;
    std::string methodRule_;
    std::string skipped_;
    std::unique_ptr<CclOp> op_impl_;
    CclCheck check_;
    CclSpec::Sharing sharing_;
};

}  // namespace

std::unique_ptr<Workload> makeAllGather() {
    return std::make_unique<Collective>(Op::AllGather);
}
std::unique_ptr<Workload> makeReduceScatter() {
    return std::make_unique<Collective>(Op::ReduceScatter);
}
std::unique_ptr<Workload> makeAllReduce() {
    return std::make_unique<Collective>(Op::AllReduce);
}
std::unique_ptr<Workload> makeAllToAll() {
    return std::make_unique<Collective>(Op::AllToAll);
}
std::unique_ptr<Workload> makeBroadcast() {
    return std::make_unique<Collective>(Op::Broadcast);
}

std::unique_ptr<CollectiveOp> makeCollective(const std::string& name) {
    for (Op op : {Op::AllGather, Op::ReduceScatter, Op::AllReduce, Op::AllToAll, Op::Broadcast})
        if (name == opName(op)) return std::make_unique<Collective>(op);
    return nullptr;
}

}  // namespace cclsim::ccl
