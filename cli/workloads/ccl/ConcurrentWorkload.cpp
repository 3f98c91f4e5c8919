// Host side of the concurrent workload: op specs -> one CollectiveOp (or
// IPCQ all-reduce) each, sharing one EDM per Ethernet core or one persistent
// fabric; per-op times and the per-op split of every link direction.
//
// Build order (all before Runtime::launch):
//   1. declare a stream per op on every Ethernet subsystem (per-op counters
//      and VCD signals);
//   2. --impl fabric: the shared fabric's routers over the board's ring;
//      --impl edm: one EdmFabric whose EDMs every op adds channels to;
//   3. PE_IPCQ groups: ranks where ccl.yaml places them, rings, fabric
//      clients and kernels; their cores are reserved;
//   4. each collective builds its tensors, worker kernels and fabric clients
//      on its own cores (ops are built one after the other; buffers come from
//      each chip's allocator, so they never overlap);
//   5. the shared EDMs or fabric are built (the fabric's muxes take worker
//      cores no op uses), then the ops create what needs the fabric's
//      connections (collective writers, IPCQ tables).
//
// Time of an op: from the launch on the op's chip that started last to when
// the op's last worker kernel finished (the EDMs and routers are shared and
// not the op's). The link split: payload and wire bytes each stream sent on
// each link direction, and its wire time (wire bytes at line rate) as a
// share of the span from the first launch to the last op's end.
#include "cli/workloads/ccl/ConcurrentWorkload.h"

#include "cli/workloads/ccl/CollectiveWorkloads.h"
#include "cli/workloads/ipcq/IpcqWorkloads.h"
#include "host/ccl/CorePlacement.h"
#include "host/fabric/FabricBuilder.h"
#include "host/ipcq/ProcessGroup.h"
#include "models/common/Report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

namespace cclsim::ccl {

namespace {

struct OpEntry {
    std::string text;                             ///< the spec as given
    std::unique_ptr<CollectiveOp> coll;           ///< a collective, or
    std::unique_ptr<ipcq::IpcqAllReduceOp> ipcq;  ///< a PE_IPCQ all-reduce (its ranks placed by ccl.yaml)
    std::string cores;                            ///< --cores as given ("" = default share)
    unsigned first = 0, last = 0;                 ///< worker indices
    unsigned stream = 0;
    Workload& w() { return coll ? static_cast<Workload&>(*coll) : *ipcq; }
    std::string where() const { return fmt::format("--op {} '{}'", stream, text); }
};

class Concurrent final : public Workload {
public:
    std::string name() const override { return "concurrent"; }
    std::string description() const override {
        return "several collectives (and PE_IPCQ all-reduces) at once on the same chips and links, each on its own "
               "cores, data checked, with the per-op split of every link";
    }

    void addOptions(Options& cmd) override {
        cmd.add_option("--op", specs_,
                       "one op, repeatable: a collective and its options, e.g. \"all_gather --size 1M\" or "
                       "\"reduce_scatter --size 256K --cores 32-63\" (--cores: its worker cores, indices in the "
                       "arch's worker order; default: an equal share per op), or \"ipcq_allreduce [--size S] "
                       "[--ccl FILE]\" (ranks placed by ccl.yaml; --impl fabric)")
            ->required();
        cmd.add_option("--impl", impl_,
                       "how every op moves data: fabric (one persistent fabric shared by every op, the default) or "
                       "edm (one EDM per Ethernet core with every op's channels)")
            ->check(opt::IsMember({"fabric", "edm"}));
        cmd.add_option("--topology", topology_, "ring or line: the shared fabric's, and every op's default")
            ->check(opt::IsMember({"ring", "line"}));
        cmd.add_option("--links", links_,
                       "routing planes of the shared fabric (default: the fewest user links "
                       "between neighbours of the ring)")
            ->check(opt::Range(1u, 16u));
    }

    nlohmann::json params() const override {
        return {{"ops", specs_}, {"impl", impl_}, {"topology", topology_}, {"links", links_}};
    }

    void build(Runtime& rt) override {
        Platform& pf = rt.platform();
        const ClusterDescriptor& d = pf.descriptor();
        if (specs_.size() > fabric::hdr::kMaxStream)
            throw ConfigError(
                fmt::format("--op given {} times: at most {} ops run at once", specs_.size(), fabric::hdr::kMaxStream));
        // 1. Parse every op's spec with its own workload's options.
        for (std::size_t i = 0; i < specs_.size(); ++i) ops_.push_back(parseSpec(i, specs_[i]));
        // Two PE_IPCQ all-reduces that read one ccl.yaml place their ranks on
        // the same cores.
        std::map<std::string, const OpEntry*> byCcl;
        for (const OpEntry& e : ops_) {
            if (!e.ipcq) continue;
            std::error_code ec;
            const std::string file = e.ipcq->cclFile();
            const auto canonical = std::filesystem::weakly_canonical(file, ec);
            const auto [it, fresh] = byCcl.emplace(ec ? file : canonical.string(), &e);
            if (!fresh)
                throw ConfigError(fmt::format(
                    "{}: {} places its PE_IPCQ ranks by the same ccl.yaml ({}), on the same cores; give one "
                    "of them --ccl FILE placing its ranks on other cores",
                    e.where(), it->second->where(), it->first));
        }
        // 2. Streams on every Ethernet subsystem, then what the ops share.
        for (unsigned c = 0; c < pf.numChips(); ++c)
            for (unsigned ch = 0; ch < d.arch.ethCores.size(); ++ch)
                pf.chip(c).erisc(ch).eth.declareStreams(unsigned(ops_.size()));
        std::unique_ptr<EdmFabric> edm;
        std::unique_ptr<fabric::FabricBuilder> fab;
        if (impl_ == "edm") {
            edm = std::make_unique<EdmFabric>(rt, edm::TerminationMode::MESSAGE_COUNT_REACHED, 16, 2);
        } else {
            std::vector<unsigned> order = d.ringOrder;
            if (order.empty())
                for (unsigned c = 0; c < d.chips.size(); ++c) order.push_back(c);
            const bool ring = topology_ == "ring" && order.size() >= 3;
            unsigned planes = links_;
            if (!planes) {
                std::size_t fewest = 0;
                for (std::size_t i = 0; i + 1 < order.size() || (ring && i < order.size()); ++i) {
                    const std::size_t l = d.userLinksBetween(order[i], order[(i + 1) % order.size()]).size();
                    if (l > 0 && (fewest == 0 || l < fewest)) fewest = l;
                }
                planes = unsigned(std::max<std::size_t>(1, fewest));
            }
            fab = std::make_unique<fabric::FabricBuilder>(
                rt, fabric::makeTopology1d(ring ? fabric::FabricKind::Ring : fabric::FabricKind::Line, order),
                fabric::FabricOptions{planes, 0});
        }
        // 3. PE_IPCQ groups first: ccl.yaml places their ranks, whose cores
        //    the collectives then keep clear of.
        std::set<unsigned> ipcqCores;
        for (OpEntry& e : ops_) {
            if (!e.ipcq) continue;
            e.ipcq->setSharing(fab.get(), e.stream);
            try {
                e.w().build(rt);
            } catch (const ConfigError& err) {
                throw ConfigError(fmt::format("{}: {}", e.where(), err.what()));
            }
            for (const ipcq::RankInfo& r : e.ipcq->group()->ranks()) {
                const auto it = std::find(d.arch.workers.begin(), d.arch.workers.end(), r.core);
                if (it != d.arch.workers.end()) ipcqCores.insert(unsigned(it - d.arch.workers.begin()));
            }
        }
        std::vector<OpCores> placed;
        std::vector<OpEntry*> colls;
        for (OpEntry& e : ops_)
            if (e.coll) placed.push_back(OpCores{e.where(), e.cores}), colls.push_back(&e);
        placeOpCores(placed, d.arch.workers, ipcqCores, "the PE_IPCQ ranks (ccl.yaml placement)");
        for (std::size_t i = 0; i < colls.size(); ++i)
            colls[i]->first = placed[i].first, colls[i]->last = placed[i].last;
        // 4. Each collective on its own cores, tagged with its stream.
        for (OpEntry* e : colls) {
            CclSpec::Sharing sh;
            sh.edm = edm.get();
            sh.fabric = fab.get();
            for (unsigned k = e->first; k <= e->last; ++k) sh.cores.push_back(d.arch.workers[k]);
            sh.stream = e->stream;
            sh.edmShare = unsigned(colls.size());
            e->coll->setSharing(sh);
            try {
                e->coll->build(rt);
            } catch (const ConfigError& err) {
                throw ConfigError(fmt::format("{}: {}", e->where(), err.what()));
            }
            if (!e->coll->op())
                throw ConfigError(fmt::format("{}: the size is below one element per rank", e->where()));
        }
        // 5. The shared EDMs or fabric, then what waits for its connections.
        if (edm) edm->build();
        if (fab) {
            fab->build();
            for (OpEntry& e : ops_) {
                if (e.coll) e.coll->op()->finishBuild();
                if (e.ipcq) e.ipcq->finishBuild();
            }
        }
        edm_ = std::move(edm);
        fabric_ = std::move(fab);
    }

    nlohmann::json results(Runtime& rt, const RunResult& run) override {
        nlohmann::json ops = nlohmann::json::array();
        Tick spanStart = kNever, spanEnd = 0;
        check_ = "pass";
        for (OpEntry& e : ops_) {
            nlohmann::json r = opResult(rt, run, e, spanStart, spanEnd);
            if (r["data_check"] == "fail")
                check_ = "fail";
            else if (r["data_check"] == "off" && check_ == "pass")
                check_ = "off";
            ops.push_back(r);
        }
        const double span = ticksToNs(spanEnd - spanStart);
        const nlohmann::json lj = linkSplit(rt.platform(), ops, span);
        return {{"impl", impl_},
                {"ops", ops},
                {"span_us", span / 1000.0},
                {"span_note", "from the first chip's launch to the last op's end"},
                {"links", lj},
                {"data_check", check_},
                {"shared", impl_ == "edm" ? fmt::format("one EDM per Ethernet core, up to {} channels on one",
                                                        edm_ ? edm_->maxChannels() : 0)
                                          : fmt::format("one fabric, {} router(s), {} mux(es)",
                                                        fabric_ ? fabric_->routers().size() : 0,
                                                        fabric_ ? fabric_->muxCount() : 0)}};
    }

    std::string dataCheck(Runtime&) const override { return check_; }

    void decorate(nlohmann::json& rep) const override {
        const nlohmann::json& r = rep["results"];
        if (r.contains("span_us")) rep["span_us"] = r["span_us"];
    }

    std::string summary(const nlohmann::json& r) const override {
        std::string out = fmt::format("concurrent: {} op(s) at once, impl {} ({}), each on its own worker cores\n",
                                      r["ops"].size(), r["impl"].get<std::string>(), r["shared"].get<std::string>());
        out += fmt::format("# {:>2}  {:<15} {:>10}  {:>7}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}  {}\n", "op", "name",
                           "size(B)", "cores", "time(us)", "algbw", "busbw", "linkbw", "check", "spec");
        for (const nlohmann::json& o : r["ops"])
            out += fmt::format("  {:>2}  {:<15} {:>10}  {:>7}  {:>10.2f}  {:>7.3f}  {:>7.3f}  {:>7}  {:>5}  {}\n",
                               o["stream"].get<unsigned>(), o["op"].get<std::string>(),
                               o["size_bytes"].get<std::uint64_t>(), o["cores"].get<std::string>(),
                               o["sim_time_us"].get<double>(), o["algbw_GBps"].get<double>(),
                               o["busbw_GBps"].get<double>(),
                               o.contains("linkbw_GBps") ? fmt::format("{:.3f}", o["linkbw_GBps"].get<double>()) : "-",
                               o["data_check"].get<std::string>(), o["spec"].get<std::string>());
        out += fmt::format(
            "  links (per direction: payload KiB of each op, its share of the link's time over the "
            "{:.2f} us span; op0 = untagged control):\n",
            r["span_us"].get<double>());
        for (const nlohmann::json& l : r["links"]) {
            std::string row = fmt::format("    {}/eth{} -> {}/eth{}: {:6.1f}% busy, {:6.3f} GB/s of {:.1f} |",
                                          l["from_chip"].get<unsigned>(), l["from_chan"].get<unsigned>(),
                                          l["to_chip"].get<unsigned>(), l["to_chan"].get<unsigned>(),
                                          100.0 * l["busy_share_of_span"].get<double>(),
                                          l["payload_GBps_over_span"].get<double>(), l["line_rate_GBps"].get<double>());
            for (const nlohmann::json& s : l["streams"])
                row += fmt::format("  op{} {:.1f} KiB {:.1f}%", s["stream"].get<unsigned>(),
                                   s["payload_bytes"].get<double>() / 1024.0, 100.0 * s["share_of_span"].get<double>());
            out += row + "\n";
        }
        return out;
    }

private:
    /// One op's results with its own time (from the launch of its last chip
    /// to its last worker kernel), bandwidths and, for a collective, linkbw
    /// from its own bytes; widens [spanStart, spanEnd] to the op's.
    nlohmann::json opResult(Runtime& rt, const RunResult& run, OpEntry& e, Tick& spanStart, Tick& spanEnd) {
        Platform& pf = rt.platform();
        const ClusterDescriptor& d = pf.descriptor();
        nlohmann::json r = e.w().results(rt, run);  // data check, shape, dispatch
        // The op's own time: its worker kernels (a PE_IPCQ group: its
        // ranks), from the launch of its last chip.
        std::vector<unsigned> chips;
        std::set<CoreCoord> cores;
        if (e.coll) {
            chips = e.coll->op()->chips();
            for (unsigned k = e.first; k <= e.last; ++k) cores.insert(d.arch.workers[k]);
        } else {
            chips = e.ipcq->group()->chips();
            for (const ipcq::RankInfo& rk : e.ipcq->group()->ranks()) cores.insert(rk.core);
        }
        const std::set<unsigned> chipSet(chips.begin(), chips.end());
        Tick t0 = 0, end = 0, first = kNever;
        for (unsigned c : chips) t0 = std::max(t0, rt.launchTime(c)), first = std::min(first, rt.launchTime(c));
        bool done = true;
        for (const KernelContext* k : rt.kernels()) {
            if (!chipSet.count(k->core().chipId()) || !cores.count(k->core().coord()) || k->persistent()) continue;
            if (k->state() != KernelContext::State::Done)
                done = false;
            else
                end = std::max(end, k->finishedAt());
        }
        if (!done) end = run.lastKernelFinish;
        spanStart = std::min(spanStart, first);
        spanEnd = std::max(spanEnd, end);
        const double ns = ticksToNs(end - t0);
        const double algbw = double(r["size_bytes"].get<std::uint64_t>()) / ns;
        r["op"] = e.coll ? r["op"].get<std::string>() : "ipcq_allreduce";
        r["stream"] = e.stream;
        r["spec"] = e.text;
        r["cores"] = e.coll ? fmt::format("{}-{}", e.first, e.last) : "ccl.yaml";
        r["sim_time_us"] = ns / 1000.0;
        r["algbw_GBps"] = algbw;
        r["busbw_GBps"] = algbw * r["bus_factor"].get<double>();
        if (e.coll) {
            // linkbw from this op's own bytes on its busiest neighbour pair.
            std::map<std::pair<unsigned, unsigned>, double> pairs;
            std::set<const LinkDesc*> seen;
            for (const CclGroup& g : e.coll->op()->groups())
                for (const CclHop& h : g.topo.hops)
                    for (const auto& seg : h.segments)
                        for (const LinkDesc* l : seg) {
                            if (!seen.insert(l).second) continue;
                            const auto key = std::minmax(l->a.chip, l->b.chip);
                            const auto& sa = pf.chip(l->a.chip).erisc(l->a.chan).eth.streamStats();
                            const auto& sb = pf.chip(l->b.chip).erisc(l->b.chan).eth.streamStats();
                            pairs[{key.first, key.second}] += sa[e.stream].payloadBytes + sb[e.stream].payloadBytes;
                        }
            double busiest = 0;
            for (const auto& [k, b] : pairs) busiest = std::max(busiest, b);
            const unsigned nlinks = r["links"].get<unsigned>(), dirs = r["directions"].get<unsigned>();
            r["linkbw_GBps"] = busiest / (ns * nlinks * dirs);
            r["linkbw_normalised_by"] = fmt::format("{} link(s) x {} direction(s)", nlinks, dirs);
            r.erase("chip_time_us");  // per chip finish of every op's kernels: not this op's
            r.erase("end_to_end_us");
        }
        return r;
    }

    /// The split of every link direction the ops used: each stream's bytes
    /// and wire time, as shares of the span of `span` ns.
    static nlohmann::json linkSplit(Platform& pf, const nlohmann::json& ops, double span) {
        const ClusterDescriptor& d = pf.descriptor();
        const double line = d.arch.erisc.eth.lineBytesPerNs;
        nlohmann::json lj = nlohmann::json::array();
        // Every user link of the board, in descriptor order; those no stream used are left out below.
        std::vector<const LinkDesc*> sorted;
        for (const LinkDesc& l : d.links)
            if (!l.dispatch) sorted.push_back(&l);
        for (const LinkDesc* l : sorted)
            for (int dir = 0; dir < 2; ++dir) {
                const EthEndpoint& from = dir ? l->b : l->a;
                const EthEndpoint& to = dir ? l->a : l->b;
                const auto& st = pf.chip(from.chip).erisc(from.chan).eth.streamStats();
                double total = 0, wire = 0;
                Tick busy = 0;
                nlohmann::json per = nlohmann::json::array();
                for (std::size_t k = 0; k < st.size(); ++k) {
                    total += st[k].payloadBytes;
                    wire += st[k].wireBytes;
                    busy += st[k].wireTicks;
                }
                if (total == 0) continue;
                for (std::size_t k = 0; k < st.size(); ++k) {
                    const double opNs = k ? ops[k - 1]["sim_time_us"].get<double>() * 1000.0 : span;
                    per.push_back({{"stream", k},
                                   {"op", k ? ops[k - 1]["op"].get<std::string>() : "untagged"},
                                   {"commands", st[k].commands},
                                   {"payload_bytes", st[k].payloadBytes},
                                   {"wire_bytes", st[k].wireBytes},
                                   {"wire_time_us", ticksToNs(st[k].wireTicks) / 1000.0},
                                   {"share_of_span", span > 0 ? ticksToNs(st[k].wireTicks) / span : 0.0},
                                   {"share_of_busy", busy ? double(st[k].wireTicks) / double(busy) : 0.0},
                                   {"payload_GBps_over_op_time", opNs > 0 ? st[k].payloadBytes / opNs : 0.0}});
                }
                lj.push_back({{"from_chip", from.chip},
                              {"from_chan", from.chan},
                              {"to_chip", to.chip},
                              {"to_chan", to.chan},
                              {"payload_bytes", total},
                              {"wire_bytes", wire},
                              {"busy_share_of_span", span > 0 ? ticksToNs(busy) / span : 0.0},
                              {"payload_GBps_over_span", span > 0 ? total / span : 0.0},
                              {"line_rate_GBps", line},
                              {"streams", per}});
            }
        return lj;
    }

    OpEntry parseSpec(std::size_t i, const std::string& text) const {
        OpEntry e;
        e.text = text;
        e.stream = unsigned(i + 1);
        const std::string where = fmt::format("--op {} '{}'", i + 1, text);
        std::istringstream in(text);
        std::string opName;
        in >> opName;
        std::string rest;
        std::getline(in, rest);
        if (opName == "ipcq_allreduce") {
            // PE_IPCQ rides the packet fabric; its ranks are placed by ccl.yaml.
            if (impl_ != "fabric")
                throw ConfigError(
                    fmt::format("{}: PE_IPCQ sends over the packet fabric; run the ops with --impl "
                                "fabric",
                                where));
            e.ipcq = ipcq::makeIpcqAllReduceOp();
            try {
                Options::parseLine(
                    opName, [&](Options& cmd) { e.ipcq->addOptions(cmd); }, rest);
            } catch (const OptionsError& err) {
                throw ConfigError(
                    fmt::format("{}: {} (ipcq_allreduce takes its ranks' cores from ccl.yaml)", where, err.what()));
            }
            e.ipcq->setConfigDir(configDir());
            return e;
        }
        e.coll = makeCollective(opName);
        if (!e.coll)
            throw ConfigError(
                fmt::format("{}: unknown op '{}'; give one of all_gather, reduce_scatter, all_reduce, "
                            "all_to_all, broadcast or ipcq_allreduce, followed by its options",
                            where, opName));
        // The run's implementation and topology, unless the spec gives them
        // (then they must be the run's: one fabric or one set of EDMs).
        auto gives = [&](const char* opt) {
            return (" " + rest + " ").find(std::string(" ") + opt) != std::string::npos;
        };
        std::string args = rest;
        if (!gives("--impl")) args += " --impl " + impl_;
        if (!gives("--topology")) args += " --topology " + topology_;
        try {
            Options::parseLine(
                opName,
                [&](Options& cmd) {
                    e.coll->addOptions(cmd);
                    cmd.add_option("--cores", e.cores, "worker cores of this op");
                },
                args);
        } catch (const OptionsError& err) {
            throw ConfigError(fmt::format("{}: {}", where, err.what()));
        }
        const nlohmann::json p = e.coll->params();
        if (p.value("sweep", false))
            throw ConfigError(fmt::format("{}: --sweep is not an option of a concurrent op", where));
        if (p["impl"] != impl_)
            throw ConfigError(
                fmt::format("{}: --impl {} but the run's ops share --impl {}; give --impl once, outside "
                            "the --op specs",
                            where, p["impl"].get<std::string>(), impl_));
        if (p["topology"] != topology_)
            throw ConfigError(
                fmt::format("{}: --topology {} but the run's is {}; give --topology once, outside the "
                            "--op specs",
                            where, p["topology"].get<std::string>(), topology_));
        e.coll->setConfigDir(configDir());
        return e;
    }

    std::vector<std::string> specs_;
    std::string impl_ = "fabric";
    std::string topology_ = "ring";
    unsigned links_ = 0;
    std::vector<OpEntry> ops_;
    std::unique_ptr<EdmFabric> edm_;
    std::unique_ptr<fabric::FabricBuilder> fabric_;
    std::string check_ = "off";
};

}  // namespace

std::unique_ptr<Workload> makeConcurrent() {
    return std::make_unique<Concurrent>();
}

}  // namespace cclsim::ccl
