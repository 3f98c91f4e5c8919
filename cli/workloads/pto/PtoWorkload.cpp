#include "cli/workloads/pto/PtoWorkload.h"

#include "firmware/api/compute_api.h"
#include "firmware/api/kernel_api.h"
#include "firmware/pto/pto_args.h"
#include "firmware/pto/pto_kernels.h"
#include "golden/PtoGolden.h"
#include "host/ccl/TensorFiles.h"
#include "host/common/DataCodes.h"
#include "host/fabric/FabricBuilder.h"
#include "models/common/Report.h"
#include "models/common/Scoreboard.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>

namespace cclsim::pto {

namespace {

using namespace cclsim::fabric;

const char* kOps[] = {"put", "get", "put_async", "get_async", "notify", "broadcast", "scatter", "gather", "reduce"};
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

class Pto final : public Workload {
public:
    std::string name() const override { return "pto"; }
    std::string description() const override {
        return "PTO communication ops (TPUT/TGET/_ASYNC, TNOTIFY/TWAIT, TBROADCAST/TSCATTER/TGATHER/TREDUCE) over the "
               "fabric, one kernel per chip, data checked";
    }
    void addOptions(CLI::App& cmd) override {
        std::vector<std::string> ops(std::begin(kOps), std::end(kOps));
        cmd.add_option("--op", op_, "put, get, put_async, get_async, notify, broadcast, scatter, gather, reduce")
            ->check(CLI::IsMember(ops));
        cmd.add_option("--ranks", ranks_, "ranks: the first N chips of the board's ring order (default: all)")
            ->check(CLI::Range(1u, fw::pto::kMaxRanks));
        cmd.add_option("--root", root_, "the root (collectives) or initiator (point to point) rank");
        cmd.add_option("--peer", peer_, "point to point: the other rank (default: root + 1)");
        cmd.add_option("--fabric", fabric_, "ring (when the ranks close one) or line")
            ->check(CLI::IsMember({"ring", "line"}));
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
            ->check(CLI::Range(1u, 1000u));
        cmd.add_option("--inputs", inputs_,
                       "every rank's source tensor: FILE.json ({\"ranks\": [[...], ...]}) or DIR/");
        cmd.add_option("--dump-outputs", dump_, "every rank's destination tensor: FILE.json or DIR/");
        cmd.add_option("--seed", seed_, "input data seed");
        std::vector<std::string> mis(std::begin(kMisuse), std::end(kMisuse));
        cmd.add_option("--misuse", misuse_,
                       "provoke an API misuse the firmware must report: " + fmt::format("{}", fmt::join(mis, ", ")))
            ->check(CLI::IsMember(mis));
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

    void build(Runtime& rt) override {
        const ClusterDescriptor& d = rt.platform().descriptor();
        op_i_ = PtoOp(std::find(std::begin(kOps), std::end(kOps), op_) - std::begin(kOps));
        misuse_i_ = PtoMisuse(std::find(std::begin(kMisuse), std::end(kMisuse), misuse_) - std::begin(kMisuse));
        try {
            dtype_t_ = golden::parseDType(dtype_);
            redop_ = golden::parseRedOp(reduce_);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(e.what());
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
        if (isP2p() && peer_i_ == root_ && op_i_ == PtoOp::Notify)
            throw ConfigError("--op notify: the peer must differ from the root");
        if (misuse_i_ == PtoMisuse::NonRoot && isP2p())
            throw ConfigError("--misuse nonroot applies to the root-only ops (broadcast, scatter, gather, reduce)");
        if (misuse_i_ != PtoMisuse::None && peer_i_ == root_)
            throw ConfigError("--misuse needs a peer rank other than the root");

        std::tie(rows_, cols_) = parseShape(shape_, "--shape");
        std::tie(tileRows_, tileCols_) = parseShape(tile_, "--tile");
        validRow_i_ = parseValid(validRow_, "--valid-row");
        validCol_i_ = parseValid(validCol_, "--valid-col");
        const std::uint32_t e = std::uint32_t(golden::elementBytes(dtype_t_));
        const std::uint32_t rowBytes = (cols_ * e + 31) / 32 * 32;
        const std::uint32_t localRows = op_i_ == PtoOp::Scatter || op_i_ == PtoOp::Gather ? n * rows_ : rows_;

        // The fabric over the ranks.
        const bool closes = n >= 3 && n == d.ringOrder.size() && !d.ringOrder.empty();
        const std::string kind = fabric_.empty() ? (closes ? "ring" : "line") : fabric_;
        if (kind == "ring" && !closes)
            throw ConfigError(
                fmt::format("--fabric ring: the {} ranks do not close a ring (use all {} chips of the "
                            "ring order, or --fabric line)",
                            n, d.ringOrder.size()));
        if (n >= 2)
            fab_ = std::make_unique<FabricBuilder>(
                rt, makeTopology1d(kind == "ring" ? FabricKind::Ring : FabricKind::Line, chips_), FabricOptions{1, 0});
        fabricKind_ = n >= 2 ? kind : "none";

        // Per rank: kernel core, L1 (identical layout on every rank), DRAM tensors, fabric clients.
        const std::uint32_t tileBytes = tileRows_ * tileCols_ * e;
        std::vector<Rank> rs(n);
        for (unsigned r = 0; r < n; ++r) {
            Rank& k = rs[r];
            k.chip = chips_[r];
            const CoreCoord near = fab_ ? firstRouterCore(*fab_, k.chip) : CoreCoord{1, 1};
            k.core = freeWorkerNear(rt, k.chip, near, {});
            Program& p = rt.program(k.chip);
            k.tile[0] = p.allocateL1(k.core, std::max<std::uint32_t>(tileBytes, 32), 32);
            k.tile[1] = p.allocateL1(k.core, std::max<std::uint32_t>(tileBytes, 32), 32);
            k.tile[2] = p.allocateL1(k.core, std::max<std::uint32_t>(tileBytes, 32), 32);
            k.signal = p.createSemaphore(k.core, 0, "pto_signal");
            k.groupWord = p.createSemaphore(k.core, 0, "pto_group");
            k.replySem = p.allocateL1(k.core, 16 * 8, 16);
            p.markControl(k.core, k.replySem, 16 * 8);
            k.fence = p.allocateL1(k.core, 32, 16);
            p.markControl(k.core, k.fence, 32);
            k.stamps = p.allocateL1(k.core, 32, 16);
            p.markControl(k.core, k.stamps, 32);
            k.group = p.createBuffer(rows_, rowBytes, true);
            k.local = p.createBuffer(localRows, rowBytes, true);
            KernelConfig kc;
            kc.vc = 1;  // communication: vc_comm
            k.kernel = p.createKernel(fmt::format("pto_rank{}", r), fw::pto::pto_bench_main, k.core, kc);
            if (fab_)
                for (Dir dir : {Dir::E, Dir::W})
                    if (fab_->topology().neighbour(k.chip, dir)) {
                        k.client[unsigned(dir)] = fab_->addClient(k.chip, k.core, dir, 0);
                        k.hasClient[unsigned(dir)] = true;
                    }
        }
        for (const Rank& k : rs)
            if (k.signal != rs[0].signal || k.groupWord != rs[0].groupWord)
                throw std::logic_error("pto: signal words differ between ranks");
        if (fab_) fab_->build();

        // Inputs: every rank's source tensor.
        const bool srcIsLocal =
            op_i_ == PtoOp::Put || op_i_ == PtoOp::PutAsync || op_i_ == PtoOp::Broadcast || op_i_ == PtoOp::Scatter;
        const std::uint64_t srcRows = srcIsLocal ? localRows : rows_;
        const std::uint64_t srcElems = srcRows * cols_;
        std::vector<golden::Tensor> inputs;
        if (!inputs_.empty()) {
            inputs = ccl::loadInputs(inputs_, dtype_t_, n);
            if (inputs[0].size() != srcElems * e)
                throw ConfigError(
                    fmt::format("--inputs {}: {} elements per rank, the {} source tensor holds {} ({}x{})", inputs_,
                                inputs[0].size() / e, op_, srcElems, srcRows, cols_));
        } else {
            for (unsigned r = 0; r < n; ++r) {
                inputs.emplace_back(srcElems * e);
                golden::fillInput(seed_, chips_[r], dtype_t_, redop_, 0, srcElems, inputs.back().data());
            }
        }
        sources_ = inputs;
        for (unsigned r = 0; r < n; ++r) writeRows(rt, srcIsLocal ? rs[r].local : rs[r].group, inputs[r], e);

        // Arguments.
        for (unsigned r = 0; r < n; ++r) {
            const Rank& k = rs[r];
            PtoKernelArgs a;
            a.op = std::uint32_t(op_i_);
            a.misuse = std::uint32_t(misuse_i_);
            a.rank = r;
            a.ranks = n;
            a.root = root_;
            a.peer = peer_i_;
            a.dtype = std::uint32_t(cclsim::dtypeCode(dtype_t_));
            a.redop = std::uint32_t(cclsim::reduceCode(redop_));
            a.ping_pong = pingPong_ ? 1 : 0;
            a.tile_rows = tileRows_;
            a.tile_cols = tileCols_;
            a.valid_row = validRow_i_;
            a.valid_col = validCol_i_;
            for (unsigned i = 0; i < 3; ++i) a.tile[i] = k.tile[i];
            a.signal = k.signal;
            a.stamps = k.stamps;
            a.repeat = repeat_;
            for (unsigned q = 0; q < n; ++q) a.group_base[q] = rs[q].group.base;
            a.group_rows = rows_;
            a.group_cols = cols_;
            a.group_row_bytes = rowBytes;
            a.local_base = k.local.base;
            a.local_rows = localRows;
            a.local_cols = cols_;
            a.local_row_bytes = rowBytes;
            for (unsigned q = 0; q < n; ++q) {
                a.peer_xy[q] = packXY(rs[q].core.x, rs[q].core.y);
                if (q != r && fab_) {
                    const Route route = fab_->route(k.chip, rs[q].chip);
                    a.peer_dir[q] = unsigned(route.first());
                    PacketHeader h = fab_->header(k.chip, rs[q].chip);
                    fab_->setReadReply(h, k.chip, rs[q].chip);
                    std::memcpy(a.header[q], h.words, sizeof h.words);
                }
            }
            a.group_word = k.groupWord;
            a.reply_sem = k.replySem;
            a.fence = k.fence;
            a.max_payload = fab_ ? fab_->maxPayloadBytes() : 0;
            a.read_max = fab_ ? fab_->readMaxBytes() : 0;
            for (unsigned dir = 0; dir < 2; ++dir)
                if (k.hasClient[dir]) {
                    a.has_conn[dir] = 1;
                    a.conn[dir] = fab_->connection(k.client[dir]);
                }
            rt.program(k.chip).setRuntimeArgs(k.kernel, fw::pack_layout_args(a, kPtoArgsEnd));
        }
        ranks_v_ = std::move(rs);
        rowBytes_ = rowBytes;
        localRows_ = localRows;
    }

    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const ArchConfig& arch = rt.platform().descriptor().arch;
        const double cycleNs = ticksToNs(arch.cycles(1));
        const std::uint32_t e = std::uint32_t(golden::elementBytes(dtype_t_));
        const unsigned n = unsigned(ranks_v_.size());
        auto stamp = [&](const Rank& k, unsigned i) {
            const CoreRef c{k.chip, k.core};
            return double(std::uint64_t(rt.readL1(c, k.stamps + 8 * i)) |
                          (std::uint64_t(rt.readL1(c, k.stamps + 8 * i + 4)) << 32)) *
                   cycleNs;
        };
        const Rank& root = ranks_v_[root_];
        const double t0 = stamp(root, 0), t2 = stamp(root, 2);
        const double opNs = (t2 - t0) / repeat_;
        // Bytes one operation moves over the fabric (or the NoC, same rank).
        const std::uint64_t tensorBytes = std::uint64_t(rows_) * cols_ * e;
        std::uint64_t bytes = 0;
        switch (op_i_) {
            case PtoOp::Put:
            case PtoOp::Get:
            case PtoOp::PutAsync:
            case PtoOp::GetAsync: bytes = tensorBytes; break;
            case PtoOp::Notify: bytes = 4; break;
            default: bytes = tensorBytes * (n - 1); break;
        }
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
                         {"bytes", bytes},
                         {"op_time_us", opNs / 1000.0},
                         {"bandwidth_GBps", opNs > 0 ? double(bytes) / opNs : 0.0}};
        if (isP2p()) {
            r["peer"] = peer_i_;
            r["hops"] = fab_ && peer_i_ != root_ ? fab_->route(root.chip, ranks_v_[peer_i_].chip).size() : 0;
        }
        if (op_i_ == PtoOp::PutAsync || op_i_ == PtoOp::GetAsync) r["issue_us"] = (stamp(root, 1) - t0) / 1000.0;
        if (op_i_ == PtoOp::Notify) r["one_way_us"] = opNs / 2000.0;
        if (op_i_ == PtoOp::Put && peer_i_ != root_)
            r["delivered_us"] = (stamp(ranks_v_[peer_i_], 3) - t0) / 1000.0;  // put + notify seen by the peer
        if (op_i_ == PtoOp::Reduce) r["reduce"] = golden::redOpName(redop_);
        check(rt, r);
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
    struct Rank {
        unsigned chip = 0;
        CoreCoord core;
        std::uint32_t tile[3] = {};
        std::uint32_t signal = 0, groupWord = 0, replySem = 0, fence = 0, stamps = 0;
        Buffer group, local;
        KernelHandle kernel;
        ClientId client[2];
        bool hasClient[2] = {false, false};
    };

    bool isP2p() const {
        return op_i_ == PtoOp::Put || op_i_ == PtoOp::Get || op_i_ == PtoOp::PutAsync || op_i_ == PtoOp::GetAsync ||
               op_i_ == PtoOp::Notify;
    }

    static CoreCoord firstRouterCore(const FabricBuilder& f, unsigned chip) {
        for (const RouterInfo& r : f.routers())
            if (r.chip == chip) return r.core;
        return CoreCoord{1, 1};
    }

    void writeRows(Runtime& rt, const Buffer& b, const golden::Tensor& t, std::uint32_t e) {
        std::vector<std::uint8_t> page(b.pageBytes, 0);
        const std::uint64_t rowData = std::uint64_t(cols_) * e;
        for (std::uint64_t row = 0; row < b.pages; ++row) {
            std::fill(page.begin(), page.end(), 0);
            std::memcpy(page.data(), t.data() + row * rowData, rowData);
            rt.writePage(b, row, page.data());
        }
    }
    golden::Tensor readRows(Runtime& rt, const Buffer& b, std::uint32_t e) const {
        const std::uint64_t rowData = std::uint64_t(cols_) * e;
        golden::Tensor out(b.pages * rowData);
        std::vector<std::uint8_t> page(b.pageBytes);
        for (std::uint64_t row = 0; row < b.pages; ++row) {
            rt.readPage(b, row, page.data());
            std::memcpy(out.data() + row * rowData, page.data(), rowData);
        }
        return out;
    }

    /// Every rank's destination tensor against the golden reference (zeros where nothing lands).
    void check(Runtime& rt, nlohmann::json& r) {
        const unsigned n = unsigned(ranks_v_.size());
        const std::uint32_t e = std::uint32_t(golden::elementBytes(dtype_t_));
        const bool dstIsGroup =
            op_i_ == PtoOp::Put || op_i_ == PtoOp::PutAsync || op_i_ == PtoOp::Broadcast || op_i_ == PtoOp::Scatter;
        std::vector<golden::Tensor> got, want;
        for (unsigned q = 0; q < n; ++q) {
            got.push_back(readRows(rt, dstIsGroup ? ranks_v_[q].group : ranks_v_[q].local, e));
            want.emplace_back(got.back().size(), 0);
        }
        switch (op_i_) {
            case PtoOp::Put:
            case PtoOp::PutAsync: want[peer_i_] = sources_[root_]; break;
            case PtoOp::Get:
            case PtoOp::GetAsync: want[root_] = sources_[peer_i_]; break;
            case PtoOp::Broadcast:
                for (unsigned q = 0; q < n; ++q)
                    want[q] = golden::ptoScatterPart(sources_[root_], 0, rows_, cols_, dtype_t_);
                break;
            case PtoOp::Scatter:
                for (unsigned q = 0; q < n; ++q)
                    want[q] = golden::ptoScatterPart(sources_[root_], q, rows_, cols_, dtype_t_);
                break;
            case PtoOp::Gather: want[root_] = golden::ptoGather(sources_); break;
            case PtoOp::Reduce: want[root_] = golden::ptoReduce(sources_, root_, redop_, dtype_t_); break;
            case PtoOp::Notify: break;
        }
        std::uint64_t checked = 0, wrong = 0;
        std::string first;
        if (op_i_ == PtoOp::Notify) {
            // The peer's signal was set to the last round, the root's counted every round.
            const std::uint32_t peerSig =
                rt.readL1(CoreRef{ranks_v_[peer_i_].chip, ranks_v_[peer_i_].core}, ranks_v_[peer_i_].signal);
            const std::uint32_t rootSig =
                rt.readL1(CoreRef{ranks_v_[root_].chip, ranks_v_[root_].core}, ranks_v_[root_].signal);
            checked = 2;
            if (peerSig != repeat_ || rootSig != repeat_) {
                wrong = 1;
                first = fmt::format("signals: peer {} root {}, expected {} each", peerSig, rootSig, repeat_);
            }
        } else if (rt.platform().chip(ranks_v_[0].chip).core(ranks_v_[0].core)->l1.storesPayload()) {
            for (unsigned q = 0; q < n; ++q)
                for (std::size_t i = 0; i < got[q].size(); i += e) {
                    ++checked;
                    if (std::memcmp(got[q].data() + i, want[q].data() + i, e) == 0) continue;
                    if (wrong++ == 0)
                        first = fmt::format("{}: rank {} (chip {}) element {} is {}, the golden reference has {}", op_,
                                            q, ranks_v_[q].chip, i / e, golden::toDouble(dtype_t_, got[q].data() + i),
                                            golden::toDouble(dtype_t_, want[q].data() + i));
                }
        }
        check_ = checked == 0 ? "off" : wrong ? "fail" : "pass";
        r["data_check"] = check_;
        r["elements_checked"] = checked;
        r["wrong_elements"] = wrong;
        if (check_ != "off") rt.scoreboard().record(checked * e, wrong == 0, first);
        if (!dump_.empty()) ccl::writeOutputs(dump_, got, dtype_t_);
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
    std::uint32_t rowBytes_ = 0, localRows_ = 0;
    std::vector<unsigned> chips_;
    std::string fabricKind_;
    std::unique_ptr<FabricBuilder> fab_;
    std::vector<Rank> ranks_v_;
    std::vector<golden::Tensor> sources_;
    std::string check_ = "off";
};

}  // namespace

std::unique_ptr<Workload> makePto() {
    return std::make_unique<Pto>();
}

}  // namespace cclsim::pto
