// The pto workload: its options, their checks (in the flags' terms) and the
// report. The program (ranks, fabric, staging tiles, kernels, arguments)
// and the golden check are host/pto/PtoProgram.
#include "cli/workloads/pto/PtoWorkload.h"

#include "host/ccl/CclTopology.h"
#include "host/ccl/TensorFiles.h"
#include "host/pto/PtoProgram.h"
#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace cclsim::pto {

namespace {

const char* kMisuse[] = {"none", "nonroot", "group", "overlap", "small-dst", "no-dst", "remote-wait"};

/// "ROWSxCOLS" -> (rows, cols).
std::pair<std::uint32_t, std::uint32_t> parseShape(const std::string& s, const char* option) {
    const auto x = s.find('x');
    try {
        if (x != std::string::npos) {
            std::size_t a = 0, b = 0;
            const unsigned long r = std::stoul(s.substr(0, x), &a), c = std::stoul(s.substr(x + 1), &b);
            if (a == x && b == s.size() - x - 1 && r > 0 && c > 0 && r < (1u << 20) && c < (1u << 20))
                return {std::uint32_t(r), std::uint32_t(c)};
        }
    } catch (const std::exception&) {
    }
    throw ConfigError(fmt::format("{} {}: expected ROWSxCOLS, e.g. 64x256", option, s));
}

/// "N" or "dynamic" -> N (0 = dynamic).
std::uint32_t parseValid(const std::string& s, const char* option) {
    if (s == "dynamic") return fw::pto::kDynamic;
    try {
        std::size_t used = 0;
        const unsigned long v = std::stoul(s, &used);
        if (used == s.size() && v > 0) return std::uint32_t(v);
    } catch (const std::exception&) {
    }
    throw ConfigError(fmt::format("{} {}: expected a positive count or 'dynamic'", option, s));
}

class PtoWorkload final : public Workload {
public:
    std::string name() const override { return "pto"; }
    std::string description() const override {
        return "PTO communication ops (TPUT/TGET/_ASYNC, TNOTIFY/TWAIT, TBROADCAST/TSCATTER/TGATHER/TREDUCE) over the "
               "fabric, one kernel per chip, data checked";
    }
    std::string needsPayload() const override {
        return "every rank reads its peers' ParallelGroup hash over the fabric before its first op, and the ops' data "
               "is checked";
    }
    void addOptions(Options& cmd) override {
        std::vector<std::string> ops;
        for (unsigned i = 0; i <= unsigned(PtoOp::Reduce); ++i) ops.push_back(ptoOpName(PtoOp(i)));
        cmd.add_option("--op", op_, "put, get, put_async, get_async, notify, broadcast, scatter, gather, reduce")
            ->check(opt::IsMember(ops));
        cmd.add_option("--ranks", ranks_, "ranks: the first N chips of the board's ring order (default: all)")
            ->check(opt::Range(1u, fw::pto::kMaxRanks));
        cmd.add_option("--root", root_, "the root (collectives) or initiator (point to point) rank");
        cmd.add_option("--peer", peer_, "point to point: the other rank (default: root + 1)");
        cmd.add_option("--fabric", fabric_, "ring (when the ranks close one) or line")
            ->check(opt::IsMember({"ring", "line"}));
        cmd.add_option("--shape", shape_,
                       "each rank's GlobalTensor, ROWSxCOLS (scatter source / gather output: ranks x ROWS rows)");
        cmd.add_option("--tile", tile_, "the UB staging tile, ROWSxCOLS");
        cmd.add_option("--valid-row", validRow_, "rows per chunk: a number (static: must divide the rows) or dynamic");
        cmd.add_option("--valid-col", validCol_,
                       "columns per chunk: a number (static: must divide the columns) or dynamic");
        cmd.add_flag("--ping-pong", pingPong_, "two staging tiles: load the next chunk while the current one moves");
        cmd.add_option("--reduce", reduce_,
                       "reduce: sum, max, min (or mean, mul, square_add, logical_and, logical_or)");
        cmd.add_option("--dtype", dtype_, "bf16, fp16, fp32, int32, uint32, int64, uint64, bool (or the GCL names)");
        cmd.add_option("--repeat", repeat_, "operations back to back (the time is per operation)")
            ->check(opt::Range(1u, 1000u));
        cmd.add_option("--inputs", inputs_,
                       "every rank's source tensor: FILE.json ({\"ranks\": [[...], ...]}) or DIR/");
        cmd.add_option("--dump-outputs", dump_, "every rank's destination tensor: FILE.json or DIR/");
        cmd.add_option("--seed", seed_, "input data seed");
        std::vector<std::string> mis(std::begin(kMisuse), std::end(kMisuse));
        cmd.add_option("--misuse", misuse_,
                       "provoke an API misuse the firmware must report: " + fmt::format("{}", fmt::join(mis, ", ")))
            ->check(opt::IsMember(mis));
    }
    TraceFile::Focus traceFocus() const override {
        // Each rank's signal and published group word, its kernel's waypoint
        // (and those of the fabric's muxes and read relays), the relays'
        // request and reply counts, and the routers.
        std::vector<std::string> patterns = {"*.pto_signal", "*.pto_group", "*.w#_#.brisc.waypoint", "*.read_requests",
                                             "*.read_replies"};
        patterns.insert(patterns.end(), focus::kRouters.begin(), focus::kRouters.end());
        return {"PTO ranks and routers", patterns};
    }
    nlohmann::json params() const override {
        return {{"op", op_},
                {"ranks", ranks_},
                {"root", root_},
                {"peer", peer_},
                {"fabric", fabric_},
                {"shape", shape_},
                {"tile", tile_},
                {"valid_row", validRow_},
                {"valid_col", validCol_},
                {"ping_pong", pingPong_},
                {"reduce", reduce_},
                {"dtype", dtype_},
                {"repeat", repeat_},
                {"inputs", inputs_},
                {"seed", seed_},
                {"misuse", misuse_}};
    }

    void build(Runtime& rt) override { program_.build(rt, resolve(rt.platform().descriptor())); }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const PtoResult res = program_.read(rt);
        const unsigned n = unsigned(chips_.size());
        const double opNs = res.opNs;
        nlohmann::json r{{"op", op_},
                         {"ranks", n},
                         {"chips", chips_},
                         {"root", root_},
                         {"fabric", fabricKind_},
                         {"dtype", golden::dtypeName(dtype_t_)},
                         {"shape", {rows_, cols_}},
                         {"tile", {tileRows_, tileCols_}},
                         {"valid_row", validRow_i_ ? nlohmann::json(validRow_i_) : nlohmann::json("dynamic")},
                         {"valid_col", validCol_i_ ? nlohmann::json(validCol_i_) : nlohmann::json("dynamic")},
                         {"ping_pong", pingPong_},
                         {"repeat", repeat_},
                         {"bytes", res.bytes},
                         {"op_time_us", opNs / 1000.0},
                         {"bandwidth_GBps", opNs > 0 ? double(res.bytes) / opNs : 0.0}};
        if (isPointToPoint(op_i_)) {
            r["peer"] = peer_i_;
            r["hops"] = res.hops;
        }
        if (op_i_ == PtoOp::PutAsync || op_i_ == PtoOp::GetAsync) r["issue_us"] = res.issueNs / 1000.0;
        if (op_i_ == PtoOp::Notify) r["one_way_us"] = opNs / 2000.0;
        if (op_i_ == PtoOp::Put && peer_i_ != root_) r["delivered_us"] = res.deliveredNs / 1000.0;
        if (op_i_ == PtoOp::Reduce) r["reduce"] = golden::redOpName(redop_);
        check_ = res.check.status;
        r["data_check"] = check_;
        r["elements_checked"] = res.check.checked;
        r["wrong_elements"] = res.check.wrong;
        if (!dump_.empty()) ccl::writeOutputs(dump_, res.outputs, dtype_t_);
        return r;
    }

    std::string dataCheck(Runtime&) const override { return check_; }

    std::string summary(const nlohmann::json& r) const override {
        std::string out = fmt::format(
            "pto {} over {} rank(s) {} ({} fabric), root {}{}: {}{} tensor {}x{}, tile {}x{} (valid {} x {}){}\n",
            r["op"].get<std::string>(), r["ranks"].get<unsigned>(), r["chips"].dump(), r["fabric"].get<std::string>(),
            r["root"].get<unsigned>(),
            r.contains("peer")
                ? fmt::format(", peer {} ({} hop(s))", r["peer"].get<unsigned>(), r["hops"].get<unsigned>())
                : "",
            r["dtype"].get<std::string>(), r.contains("reduce") ? " (" + r["reduce"].get<std::string>() + ")" : "",
            rows_, cols_, tileRows_, tileCols_, r["valid_row"].dump(), r["valid_col"].dump(),
            pingPong_ ? ", ping-pong" : "");
        out += fmt::format("  per operation: {:.3f} us, {} B, {:.3f} GB/s", r["op_time_us"].get<double>(),
                           r["bytes"].get<std::uint64_t>(), r["bandwidth_GBps"].get<double>());
        if (r.contains("issue_us")) out += fmt::format("; call returned after {:.3f} us", r["issue_us"].get<double>());
        if (r.contains("one_way_us")) out += fmt::format("; one way {:.3f} us", r["one_way_us"].get<double>());
        if (r.contains("delivered_us"))
            out += fmt::format("; the peer saw the notification at {:.3f} us", r["delivered_us"].get<double>());
        out += fmt::format("\n  data check: {} ({} elements)\n", r["data_check"].get<std::string>(),
                           r["elements_checked"].get<std::uint64_t>());
        return out;
    }

    void decorate(nlohmann::json& rep) const override {
        for (const char* k : {"op_time_us", "bandwidth_GBps"})
            if (rep["results"].contains(k)) rep[k] = rep["results"][k];
    }

private:
    /// The options as the program's parameters, checked in the order the
    /// flags are documented; ConfigError naming the flag.
    PtoParams resolve(const ClusterDescriptor& d) {
        for (unsigned i = 0; i <= unsigned(PtoOp::Reduce); ++i)
            if (op_ == ptoOpName(PtoOp(i))) op_i_ = PtoOp(i);
        misuse_i_ = PtoMisuse(std::find(std::begin(kMisuse), std::end(kMisuse), misuse_) - std::begin(kMisuse));
        try {
            dtype_t_ = golden::parseDType(dtype_);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string("--dtype: ") + e.what());
        }
        try {
            redop_ = golden::parseRedOp(reduce_);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string("--reduce: ") + e.what());
        }
        if (op_i_ == PtoOp::Reduce && !golden::supports(redop_, dtype_t_))
            throw ConfigError(fmt::format("--reduce {} does not support --dtype {}; {} takes: {}", reduce_, dtype_,
                                          reduce_, golden::supportedTypes(redop_)));
        // Ranks: the first N chips of the ring order.
        std::vector<unsigned> order = d.ringOrder;
        if (order.empty())
            for (unsigned c = 0; c < d.chips.size(); ++c) order.push_back(c);
        const unsigned n = ranks_ ? ranks_ : unsigned(order.size());
        if (n > order.size())
            throw ConfigError(fmt::format("--ranks {}: the board's ring order has {} chips", n, order.size()));
        if (n < 2 && op_i_ != PtoOp::Put && op_i_ != PtoOp::Get)
            throw ConfigError(fmt::format("--ranks {}: {} needs at least two ranks", n, op_));
        chips_.assign(order.begin(), order.begin() + n);
        if (root_ >= n) throw ConfigError(fmt::format("--root {}: there are {} ranks", root_, n));
        peer_i_ = peer_ < 0 ? (root_ + 1) % n : unsigned(peer_);
        if (peer_i_ >= n) throw ConfigError(fmt::format("--peer {}: there are {} ranks", peer_, n));
        if (isPointToPoint(op_i_) && peer_i_ == root_ && op_i_ == PtoOp::Notify)
            throw ConfigError("--op notify: the peer must differ from the root");
        if (misuse_i_ == PtoMisuse::NonRoot && isPointToPoint(op_i_))
            throw ConfigError("--misuse nonroot applies to the root-only ops (broadcast, scatter, gather, reduce)");
        if (op_i_ == PtoOp::Notify && misuse_i_ != PtoMisuse::None && misuse_i_ != PtoMisuse::RemoteWait)
            throw ConfigError(
                fmt::format("--misuse {}: notify moves no tensor and stages no tile (only remote-wait "
                            "applies to it)",
                            misuse_));
        if (misuse_i_ == PtoMisuse::Overlap && !pingPong_ && op_i_ != PtoOp::Reduce)
            throw ConfigError(
                fmt::format("--misuse overlap overlaps the ping and pong staging tiles, and {} without --ping-pong "
                            "stages through one tile: add --ping-pong (reduce always uses two)",
                            op_));
        if (misuse_i_ != PtoMisuse::None && peer_i_ == root_)
            throw ConfigError("--misuse needs a peer rank other than the root");

        std::tie(rows_, cols_) = parseShape(shape_, "--shape");
        std::tie(tileRows_, tileCols_) = parseShape(tile_, "--tile");
        validRow_i_ = parseValid(validRow_, "--valid-row");
        validCol_i_ = parseValid(validCol_, "--valid-col");

        // The fabric over the ranks.
        bool closes = n >= 3 && n == d.ringOrder.size() && !d.ringOrder.empty();
        // A ring asked of fewer ranks than the board: chips that close one
        // (on a mesh, a snake around a block of it), rank r on the r-th.
        if (fabric_ == "ring" && !closes && n >= 3) {
            std::string how;
            const std::vector<unsigned> ring = ccl::closedRingOfSize(d, n, &how);
            if (ring.empty())
                throw ConfigError(fmt::format("--fabric ring --ranks {}: {} (use --fabric line)", n, how));
            chips_ = ring;
            closes = true;
        }
        const std::string kind = fabric_.empty() ? (closes ? "ring" : "line") : fabric_;
        if (kind == "ring" && !closes)
            throw ConfigError(fmt::format("--fabric ring: {} ranks do not close a ring (use --fabric line)", n));
        fabricKind_ = n >= 2 ? kind : "none";

        PtoParams p;
        p.op = op_i_;
        p.misuse = misuse_i_;
        p.chips = chips_;
        p.root = root_;
        p.peer = peer_i_;
        p.ring = kind == "ring";
        p.rows = rows_;
        p.cols = cols_;
        p.tileRows = tileRows_;
        p.tileCols = tileCols_;
        p.validRow = validRow_i_;
        p.validCol = validCol_i_;
        p.pingPong = pingPong_;
        p.dtype = dtype_t_;
        p.redop = redop_;
        p.repeat = repeat_;
        p.inputs = inputs_;
        p.seed = seed_;
        return p;
    }

    std::string op_ = "put";
    unsigned ranks_ = 0, root_ = 0;
    int peer_ = -1;
    std::string fabric_;
    std::string shape_ = "64x256", tile_ = "16x256";
    std::string validRow_ = "dynamic", validCol_ = "dynamic";
    bool pingPong_ = false;
    std::string reduce_ = "sum", dtype_ = "fp32";
    unsigned repeat_ = 1;
    std::string inputs_, dump_;
    std::uint64_t seed_ = 1;
    std::string misuse_ = "none";

    PtoOp op_i_ = PtoOp::Put;
    PtoMisuse misuse_i_ = PtoMisuse::None;
    golden::DType dtype_t_ = golden::DType::FP32;
    golden::RedOp redop_ = golden::RedOp::Add;
    unsigned peer_i_ = 1;
    std::uint32_t rows_ = 0, cols_ = 0, tileRows_ = 0, tileCols_ = 0, validRow_i_ = 0, validCol_i_ = 0;
    std::vector<unsigned> chips_;
    std::string fabricKind_;
    PtoProgram program_;
    std::string check_ = "off";
};

}  // namespace

std::unique_ptr<Workload> makePto() {
    return std::make_unique<PtoWorkload>();
}

}  // namespace cclsim::pto
