// Host side of the collective workloads: options -> CclSpec -> CclOp, and
// the run -> nccl-tests-style report.
//
// Time is measured on the last chip to start, as the CCL guide recommends
// (programs start at different times; earlier chips wait for their
// neighbours): op time = when that chip's last kernel finished minus its
// dispatch time. algbw = S / time, busbw = algbw x the nccl-tests factor,
// linkbw = payload bytes through the busiest neighbour pair / (time x links
// x directions used).
#include "firmware/ccl/CollectiveWorkloads.h"

#include "firmware/ccl/CclOp.h"
#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cclsim::ccl {

namespace {

using golden::Op;

std::string sizeText(std::uint64_t b) {
    if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{}G", b >> 30);
    if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{}M", b >> 20);
    if (b >= (1ull << 10) && b % (1ull << 10) == 0) return fmt::format("{}K", b >> 10);
    return fmt::format("{}", b);
}

class Collective final : public Workload {
public:
    explicit Collective(Op op) : op_(op) {}

    std::string name() const override { return opName(op_); }
    std::string description() const override {
        switch (op_) {
            case Op::AllGather: return "all-gather over a ring or line of chips (EDM + worker kernels), data checked";
            case Op::ReduceScatter: return "reduce-scatter (sum) over a ring or line of chips, data checked";
            case Op::AllReduce: return "all-reduce = reduce-scatter then all-gather in one op, data checked";
            case Op::AllToAll: return "all-to-all over a ring or line of chips (relayed), data checked";
            case Op::Broadcast: return "broadcast from a root rank over a ring or line of chips, data checked";
        }
        return {};
    }

    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--chips", chips_, "use the first N chips of the board's ring order (default: all)")
            ->check(CLI::Range(2u, 4096u));
        cmd.add_option("--order", order_, "explicit chip order, e.g. 0,4,5,1")->delimiter(',');
        cmd.add_option("--topology", topology_, "ring or line")->check(CLI::IsMember({"ring", "line"}));
        cmd.add_option("--axis", axis_, "run one collective along every mesh row or column at once")
            ->check(CLI::IsMember({"row", "col"}));
        cmd.add_option("--size", size_, "S as nccl-tests defines it, in bytes (K/M/G suffixes)");
        cmd.add_option("--dtype", dtype_, "bf16 or fp32")->check(CLI::IsMember({"bf16", "fp32"}));
        cmd.add_option("--page-bytes", pageBytes_, "tensor page size (default: a bf16 32x32 tile)")
            ->check(CLI::Range(32u, 1u << 20));
        cmd.add_option("--packet", packet_, "EDM packet (message) bytes, a whole number of pages; 0: auto")
            ->check(CLI::Range(0u, 1u << 20));
        cmd.add_option("--links", links_, "Ethernet links per hop")->check(CLI::Range(1u, 16u));
        cmd.add_option("--workers", workers_, "worker units per link and direction")->check(CLI::Range(1u, 64u));
        cmd.add_option("--bidir", bidir_, "ring directions: off, halves (split each block) or full (whole block "
                                          "halfway each way)")
            ->check(CLI::IsMember({"off", "halves", "full"}));
        if (op_ == Op::AllGather) {
            cmd.add_option("--dim", dim_, "gather dimension: 0 (blocks) or 1 (rows)")->check(CLI::Range(0u, 1u));
            cmd.add_option("--row-pages", rowPages_, "--dim 1: pages per rank row")->check(CLI::Range(1u, 1u << 30));
        }
        if (op_ == Op::Broadcast) cmd.add_option("--root", root_, "root rank (position in the order)");
        cmd.add_flag("--l1", l1_, "tensors in worker L1 (interleaved over the worker cores) instead of DRAM");
        cmd.add_option("--seed", seed_, "input data seed");
        cmd.add_flag("--sweep", sweep_, "sweep sizes from -b to -e by factor -f (one process per size)");
        cmd.add_option("-b,--minbytes", minBytes_, "sweep: first size (default 4K)");
        cmd.add_option("-e,--maxbytes", maxBytes_, "sweep: last size (default 64M)");
        cmd.add_option("-f,--stepfactor", stepFactor_, "sweep: size factor (default 2)")->check(CLI::Range(2u, 1024u));
    }

    nlohmann::json params() const override {
        nlohmann::json p{{"op", name()},          {"chips", chips_},       {"order", order_},
                         {"topology", topology_}, {"axis", axis_},         {"size", size_},
                         {"dtype", dtype_},       {"page_bytes", pageBytes_}, {"packet", packet_},
                         {"links", links_},       {"workers", workers_},   {"bidir", bidirUsed()},
                         {"l1", l1_},             {"seed", seed_},         {"sweep", sweep_}};
        if (op_ == Op::AllGather) p["dim"] = dim_, p["row_pages"] = rowPages_;
        if (op_ == Op::Broadcast) p["root"] = root_;
        if (sweep_) p["minbytes"] = minBytes_, p["maxbytes"] = maxBytes_, p["stepfactor"] = stepFactor_;
        return p;
    }

    void build(Runtime& rt) override {
        const ClusterDescriptor& d = rt.platform().descriptor();
        CclSpec s;
        s.op = op_;
        s.topology = topology_ == "line" ? TopologyKind::Line : TopologyKind::Ring;
        s.groups = groups(d);
        s.links = links_;
        s.workers = workers_;
        s.dtype = golden::parseDType(dtype_);
        s.pageBytes = pageBytes_;
        s.packetBytes = packet_;
        s.bidir = parseBidir(bidirUsed());
        s.dim = dim_;
        s.rowPages = rowPages_;
        s.root = root_;
        s.l1Buffers = l1_;
        s.seed = seed_;
        s.data = rt.platform().options().storePayload;
        s.sizeBytes = sizeBytes_ ? sizeBytes_ : parseBytes(size_, "--size");
        if (sweep_) {
            // As nccl-tests: round the size down to what splits into whole pages per rank.
            const std::uint64_t n = s.groups.front().size();
            const std::uint64_t unit = (op_ == Op::Broadcast ? 1 : n) * s.pageBytes;
            s.sizeBytes = s.sizeBytes / unit * unit;
            if (s.sizeBytes == 0) {
                skipped_ = fmt::format("below one {} B page per rank", s.pageBytes);
                return;
            }
        }
        op_impl_ = std::make_unique<CclOp>(rt, s);
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        if (!op_impl_) return {{"op", name()}, {"skipped", skipped_}, {"size_bytes", sizeBytes_}};
        const CclOp& op = *op_impl_;
        const CclSpec& s = op.spec();
        const std::vector<unsigned> chips = op.chips();
        // Measured on the chip that started last (CCL guide, "Measuring Op Performance").
        unsigned last = chips.front();
        for (unsigned c : chips)
            if (rt.dispatchTime(c) > rt.dispatchTime(last)) last = c;
        const Tick t0 = rt.dispatchTime(last);
        const double ns = ticksToNs(rt.chipFinish(last) - t0);
        Tick first = kNever, end = 0;
        nlohmann::json perChip = nlohmann::json::object();
        for (unsigned c : chips) {
            first = std::min(first, rt.dispatchTime(c));
            end = std::max(end, rt.chipFinish(c));
            perChip[std::to_string(c)] = ticksToNs(rt.chipFinish(c) - rt.dispatchTime(c)) / 1000.0;
        }
        const unsigned n = op.ranks();
        const double algbw = double(s.sizeBytes) / ns;  // bytes per ns == GB/s
        const double linkbw = op.busiestPairBytes(rt.platform()) / (ns * s.links * op.directions());
        check_ = op.check(rt);
        if (check_.status != "off")
            rt.scoreboard().record(check_.pagesChecked * s.pageBytes, check_.wrongPages == 0, check_.firstFailure);
        nlohmann::json orders = nlohmann::json::array();
        for (const CclGroup& g : op.groups()) orders.push_back(g.topo.order);
        const std::uint64_t elems = s.sizeBytes / golden::elementBytes(s.dtype);
        const std::uint64_t count = op_ == Op::AllReduce || op_ == Op::Broadcast ? elems : elems / n;
        return {{"op", name()},
                {"n_chips", n},
                {"groups", op.groups().size()},
                {"orders", orders},
                {"topology", topologyName(s.topology)},
                {"bidir", bidirName(op.bidir())},
                {"directions", op.directions()},
                {"links", s.links},
                {"workers", s.workers},
                {"packet_bytes", op.packetBytes()},
                {"page_bytes", s.pageBytes},
                {"size_bytes", s.sizeBytes},
                {"count", count},
                {"dtype", golden::dtypeName(s.dtype)},
                {"root", op_ == Op::Broadcast ? int(s.root) : -1},
                {"sim_time_us", ns / 1000.0},
                {"end_to_end_us", ticksToNs(end - first) / 1000.0},
                {"measured_on_chip", last},
                {"chip_time_us", perChip},
                {"algbw_GBps", algbw},
                {"busbw_GBps", algbw * busFactor(op_, n)},
                {"bus_factor", busFactor(op_, n)},
                {"linkbw_GBps", linkbw},
                {"linkbw_normalised_by", fmt::format("{} link(s) x {} direction(s)", s.links, op.directions())},
                {"data_check", check_.status},
                {"pages_checked", check_.pagesChecked},
                {"wrong_pages", check_.wrongPages},
                {"worker_cores_per_chip", op.workerCoresPerChip()},
                {"edm_channels_per_core", op.edmChannelsPerCore()}};
    }

    std::string dataCheck(Runtime&) const override { return check_.status; }

    void decorate(nlohmann::json& rep) const override {
        const nlohmann::json& r = rep["results"];
        for (const char* k : {"op", "n_chips", "topology", "links", "packet_bytes", "size_bytes", "sim_time_us",
                              "algbw_GBps", "busbw_GBps", "linkbw_GBps"})
            if (r.contains(k)) rep[k] = r[k];
    }

    double progress(Runtime& rt) const override {
        if (!op_impl_) return -1;
        return std::min(1.0, rt.platform().ethStats().payloadBytes / op_impl_->expectedEthBytes());
    }

    std::string summary(const nlohmann::json& r) const override {
        if (r.contains("skipped")) return fmt::format("{}: skipped ({})\n", name(), r["skipped"].get<std::string>());
        std::string out = fmt::format(
            "{} over {} {} of {} chips {}{}, {} link(s) per hop{}\n"
            "  {} worker unit(s) per link{}, {} worker cores per chip, EDM packet {} B, {} EDM channels per Ethernet "
            "core\n",
            name(), r["groups"].get<unsigned>() > 1 ? fmt::format("{} x", r["groups"].get<unsigned>()) : "a",
            r["topology"].get<std::string>(), r["n_chips"].get<unsigned>(), r["orders"][0].dump(),
            r["groups"].get<unsigned>() > 1 ? " (first group)" : "", r["links"].get<unsigned>(),
            r["topology"] == "ring" ? fmt::format(", bidirectional {}", r["bidir"].get<std::string>()) : "",
            r["workers"].get<unsigned>(), r["directions"].get<unsigned>() > 1 ? " and direction" : "",
            r["worker_cores_per_chip"].get<unsigned>(), r["packet_bytes"].get<unsigned>(),
            r["edm_channels_per_core"].get<unsigned>());
        out += tableHeader() + sweepRow(nlohmann::json{{"results", r}});
        out += fmt::format("  busbw = algbw x {:.4f}; linkbw normalised by {}; time measured on chip {} (started "
                           "last), end to end {:.3f} us\n",
                           r["bus_factor"].get<double>(), r["linkbw_normalised_by"].get<std::string>(),
                           r["measured_on_chip"].get<unsigned>(), r["end_to_end_us"].get<double>());
        return out;
    }

    // ---- sweeps --------------------------------------------------------------------

    std::size_t sweepPoints() const override { return sweep_ ? sweepSizes().size() : 0; }
    void selectSweepPoint(std::size_t i) override { sizeBytes_ = sweepSizes().at(i); }
    std::string sweepHeader() const override {
        return fmt::format("# {} sweep {} .. {} x{}: {} topology, {} link(s), {} worker(s), {}, page {} B, packet {}\n",
                           name(), sizeText(minBytes()), sizeText(maxBytes()), stepFactor_, topology_, links_,
                           workers_, dtype_, pageBytes_, packet_ ? std::to_string(packet_) + " B" : "auto") +
               tableHeader();
    }
    std::string sweepRow(const nlohmann::json& report) const override {
        const nlohmann::json& r = report.at("results");
        if (r.contains("skipped"))
            return fmt::format("  {:>10}  (skipped: {})\n", r["size_bytes"].get<std::uint64_t>(),
                               r["skipped"].get<std::string>());
        return fmt::format("  {:>10}  {:>12}  {:>6}  {:>6}  {:>4}  {:>10.2f}  {:>7.3f}  {:>7.3f}  {:>7.3f}  {:>5}\n",
                           r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(),
                           r["dtype"].get<std::string>(), op_ == Op::ReduceScatter || op_ == Op::AllReduce ? "sum" : "none",
                           r["root"].get<int>(), r["sim_time_us"].get<double>(), r["algbw_GBps"].get<double>(),
                           r["busbw_GBps"].get<double>(), r["linkbw_GBps"].get<double>(),
                           r["data_check"].get<std::string>());
    }

    std::string csvHeader() const override {
        return "op,n_chips,topology,bidir,links,workers,packet_bytes,page_bytes,size_bytes,count,dtype,time_us,"
               "algbw_GBps,busbw_GBps,linkbw_GBps,data_check,wall_seconds";
    }
    std::string csvRow(const nlohmann::json& rep) const override {
        const nlohmann::json& r = rep.at("results");
        if (r.contains("skipped")) return {};
        return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f},{},{:.3f}", name(),
                           r["n_chips"].get<unsigned>(), r["topology"].get<std::string>(), r["bidir"].get<std::string>(),
                           r["links"].get<unsigned>(), r["workers"].get<unsigned>(), r["packet_bytes"].get<unsigned>(),
                           r["page_bytes"].get<unsigned>(), r["size_bytes"].get<std::uint64_t>(),
                           r["count"].get<std::uint64_t>(), r["dtype"].get<std::string>(),
                           r["sim_time_us"].get<double>(), r["algbw_GBps"].get<double>(), r["busbw_GBps"].get<double>(),
                           r["linkbw_GBps"].get<double>(), r["data_check"].get<std::string>(),
                           rep.value("wall_seconds", 0.0));
    }

private:
    static std::string tableHeader() {
        return fmt::format("# {:>10}  {:>12}  {:>6}  {:>6}  {:>4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}\n"
                           "# {:>10}  {:>12}  {:>6}  {:>6}  {:>4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}\n",
                           "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "linkbw", "check",
                           "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "(GB/s)", "");
    }

    std::string bidirUsed() const {
        if (!bidir_.empty()) return bidir_;
        switch (op_) {
            case Op::ReduceScatter: return "off";
            case Op::AllGather:
            case Op::AllReduce: return "halves";
            case Op::AllToAll:
            case Op::Broadcast: return "full";
        }
        return "halves";
    }

    std::uint64_t minBytes() const { return parseBytes(minBytes_, "-b"); }
    std::uint64_t maxBytes() const { return parseBytes(maxBytes_, "-e"); }
    std::vector<std::uint64_t> sweepSizes() const {
        std::vector<std::uint64_t> out;
        const std::uint64_t hi = maxBytes();
        for (std::uint64_t b = std::max<std::uint64_t>(1, minBytes()); b <= hi; b *= stepFactor_) out.push_back(b);
        if (out.empty()) throw ConfigError(fmt::format("-b {} is larger than -e {}", minBytes_, maxBytes_));
        return out;
    }

    std::vector<std::vector<unsigned>> groups(const ClusterDescriptor& d) const {
        if (!axis_.empty()) {
            if (!order_.empty() || chips_)
                throw ConfigError("--axis runs along the board's mesh: it takes no --order or --chips");
            return meshGroups(d, axis_);
        }
        if (!order_.empty()) {
            if (chips_ && chips_ != order_.size())
                throw ConfigError(fmt::format("--chips {} but --order lists {} chips", chips_, order_.size()));
            return {order_};
        }
        std::vector<unsigned> base = d.ringOrder;
        if (base.empty())
            for (unsigned c = 0; c < d.chips.size(); ++c) base.push_back(c);
        const unsigned n = chips_ ? chips_ : unsigned(base.size());
        if (n > base.size())
            throw ConfigError(fmt::format("--chips {}: the board's ring order has {} chips", n, base.size()));
        return {std::vector<unsigned>(base.begin(), base.begin() + n)};
    }

    Op op_;
    unsigned chips_ = 0;
    std::vector<unsigned> order_;
    std::string topology_ = "ring";
    std::string axis_;
    std::string size_ = "1M";
    std::string dtype_ = "bf16";
    unsigned pageBytes_ = 2048;
    unsigned packet_ = 0;
    unsigned links_ = 1;
    unsigned workers_ = 4;
    std::string bidir_;
    unsigned dim_ = 0;
    unsigned rowPages_ = 1;
    unsigned root_ = 0;
    bool l1_ = false;
    std::uint64_t seed_ = 1;
    bool sweep_ = false;
    std::string minBytes_ = "4K", maxBytes_ = "64M";
    unsigned stepFactor_ = 2;

    std::uint64_t sizeBytes_ = 0;  ///< sweep point
    std::string skipped_;
    std::unique_ptr<CclOp> op_impl_;
    CclCheck check_;
};

}  // namespace

std::unique_ptr<Workload> makeAllGather() { return std::make_unique<Collective>(Op::AllGather); }
std::unique_ptr<Workload> makeReduceScatter() { return std::make_unique<Collective>(Op::ReduceScatter); }
std::unique_ptr<Workload> makeAllReduce() { return std::make_unique<Collective>(Op::AllReduce); }
std::unique_ptr<Workload> makeAllToAll() { return std::make_unique<Collective>(Op::AllToAll); }
std::unique_ptr<Workload> makeBroadcast() { return std::make_unique<Collective>(Op::Broadcast); }

}  // namespace cclsim::ccl
