#include "host/ipcq/ProcessGroup.h"

#include "host/common/DataCodes.h"
#include "models/common/Report.h"
#include "models/pe/IpcqEdge.h"
#include "models/pe/PeCore.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace cclsim::ipcq {

namespace {

std::vector<std::uint32_t> words(fabric::FabricConnectionArgs a) {
    std::vector<std::uint32_t> out;
    auto put = [&out](std::uint32_t& f) { out.push_back(f); };
    a.visit(put);
    return out;
}

std::vector<std::uint32_t> words(const fabric::PacketHeader& h) {
    return std::vector<std::uint32_t>(h.words, h.words + fabric::hdr::kWords);
}

int manhattan(CoreCoord a, CoreCoord b) {
    return std::abs(int(a.x) - int(b.x)) + std::abs(int(a.y) - int(b.y));
}

/// Index of the endpoint nearest `core` (lowest index on a tie).
unsigned nearest(const std::vector<CoreCoord>& endpoints, CoreCoord core) {
    unsigned best = 0;
    for (unsigned i = 1; i < endpoints.size(); ++i)
        if (manhattan(endpoints[i], core) < manhattan(endpoints[best], core)) best = i;
    return best;
}

fabric::FabricKind kindOf(const std::string& s) {
    if (s == "line") return fabric::FabricKind::Line;
    if (s == "ring") return fabric::FabricKind::Ring;
    if (s == "torus") return fabric::FabricKind::Torus;
    return fabric::FabricKind::Mesh;
}

}  // namespace

void ProcessGroup::fail(const std::string& where, const std::string& what) const {
    throw ConfigError(fmt::format("{}: {}", where.empty() ? cfg_.file : where, what));
}

std::unique_ptr<ProcessGroup> ProcessGroup::init_process_group(Runtime& rt, const std::string& cclFile,
                                                               const std::string& algorithm, const GroupOptions& opts) {
    const IpcqConfig cfg = loadIpcqConfig(cclFile);
    return std::make_unique<ProcessGroup>(rt, resolve(cfg, algorithm, algorithm.empty() ? "" : "--algorithm"), opts);
}

ProcessGroup::ProcessGroup(Runtime& rt, GroupConfig cfg, const GroupOptions& opts)
    : rt_(rt), cfg_(std::move(cfg)), opts_(opts) {
    // 1. The algorithm and its topology.
    if (!cfg_.kernel.value.empty()) {
        algo_ = findAlgorithm(cfg_.kernel.value);
        if (!algo_) {
            std::string have;
            for (const std::string& n : algorithmNames()) have += std::string(have.empty() ? "" : ", ") + n;
            fail(cfg_.kernel.where,
                 fmt::format("kernel '{}' is not a registered IPCQ algorithm (registered: {}); name one of them, or "
                             "add the kernel in C++ with its neighbours (a custom topology's neighbors() is part of "
                             "the C++ algorithm: docs/extending.md, An IPCQ algorithm)",
                             cfg_.kernel.value, have));
        }
    }
    const std::optional<TopologyKind> topo = parseTopology(cfg_.topology.value);
    if (!topo)
        fail(cfg_.topology.where, fmt::format("unknown topology '{}' (ring_1d, ring_1d_unidir, mesh_2d, tree_binary, "
                                              "none or custom)",
                                              cfg_.topology.value));
    topology_ = *topo;
    if (algo_ && std::find(algo_->topologies.begin(), algo_->topologies.end(), topology_) == algo_->topologies.end()) {
        std::string ok;
        for (TopologyKind k : algo_->topologies) ok += std::string(ok.empty() ? "" : ", ") + topologyName(k);
        fail(cfg_.topology.where,
             fmt::format("algorithm '{}' runs on {}, not on topology '{}'", algo_->name, ok, cfg_.topology.value));
    }
    if (algo_) shape_.params = algo_->params;
    for (const auto& [key, v] : cfg_.params) {
        if (!algo_ || !shape_.params.count(key)) {
            std::string ok;
            if (algo_)
                for (const auto& [k, d] : algo_->params) ok += std::string(ok.empty() ? "" : ", ") + k;
            fail(v.where, fmt::format("algorithm '{}' has no parameter '{}' (it takes: {})",
                                      algo_ ? algo_->name : cfg_.kernel.value, key, ok.empty() ? "none" : ok));
        }
        shape_.params[key] = v.value;
    }
    shape_.topology = topology_;
    shape_.slotSize = cfg_.slotSize.value;
    // 2.-6.
    place();
    buildNeighbors();
    allocateRings();
    buildFabric();
    if (!opts_.sharedFabric) install();  // else finishInit(), once the shared fabric is built
    rt_.addDiagnostic([this] { return pointerDump() + waitForReport(); });
}

ProcessGroup::~ProcessGroup() = default;

void ProcessGroup::place() {
    const ClusterDescriptor& d = rt_.platform().descriptor();
    const ArchConfig& arch = d.arch;
    const Placement& p = cfg_.placement;
    const std::string where = cfg_.placementGiven ? p.where : cfg_.file;
    std::vector<RankInfo> all;
    std::set<std::pair<unsigned, CoreCoord>> used;
    auto add = [&](unsigned chip, CoreCoord core, BufferKind kind, const std::string& at) {
        if (chip >= d.chips.size())
            fail(at, fmt::format("chip {} does not exist on {} ({} chips)", chip, d.name, d.chips.size()));
        if (std::find(arch.workers.begin(), arch.workers.end(), core) == arch.workers.end())
            fail(at, fmt::format("core {} is not a worker core of {}", core.str(), arch.name));
        if (!used.insert({chip, core}).second)
            fail(at, fmt::format("chip {} core {} holds two ranks", chip, core.str()));
        RankInfo r;
        r.rank = unsigned(all.size());
        r.chip = chip;
        r.core = core;
        r.bufferKind = kind;
        all.push_back(r);
    };
    if (!p.ranks.empty()) {
        for (const RankSpec& s : p.ranks) add(s.chip, s.core, s.bufferKind.value_or(cfg_.bufferKind.value), s.where);
    } else {
        std::vector<unsigned> chips = p.chips;
        if (chips.empty()) chips = d.ringOrder;
        if (chips.empty())
            for (unsigned c = 0; c < d.chips.size(); ++c) chips.push_back(c);
        std::vector<CoreCoord> cores = p.cores;
        if (cores.empty()) {
            std::vector<CoreCoord> w = arch.workers;
            std::sort(w.begin(), w.end());  // row by row from y = 1
            if (p.coresPerChip > w.size())
                fail(where, fmt::format("cores_per_chip {} but a {} chip has {} worker cores", p.coresPerChip,
                                        arch.name, w.size()));
            cores.assign(w.begin(), w.begin() + p.coresPerChip);
        }
        for (unsigned c : chips)
            for (unsigned i = 0; i < p.coresPerChip; ++i) add(c, cores[i], cfg_.bufferKind.value, where);
    }
    // world_size: algorithm > defaults > the placement.
    unsigned ws = unsigned(all.size());
    if (cfg_.worldSize.given) {
        ws = cfg_.worldSize.value;
        if (ws > all.size())
            fail(cfg_.worldSize.where,
                 fmt::format("world_size {} but the placement offers {} ranks ({}); add chips "
                             "or cores_per_chip",
                             ws, all.size(), p.ranks.empty() ? "chips x cores_per_chip" : "placement.ranks"));
    }
    if (ws < 2)
        fail(cfg_.worldSize.given ? cfg_.worldSize.where : where,
             fmt::format("a process group needs at least 2 ranks, has {}", ws));
    all.resize(ws);
    ranks_ = std::move(all);
    shape_.worldSize = ws;
    // I4: one buffer kind for the whole group (first cut of docs/design/pe-ipcq.md#i4).
    for (const RankInfo& r : ranks_)
        if (r.bufferKind != ranks_.front().bufferKind)
            fail(where, fmt::format("I4 buffer_kind consistency: rank {} uses {} but rank {} uses {} (all ranks of a "
                                    "process group share one buffer_kind)",
                                    ranks_.front().rank, bufferKindName(ranks_.front().bufferKind), r.rank,
                                    bufferKindName(r.bufferKind)));
    const BufferKind kind = ranks_.front().bufferKind;
    if (kind == BufferKind::Hbm && !arch.hasDram())
        fail(cfg_.bufferKind.where, fmt::format("buffer_kind hbm but {} has no DRAM", arch.name));
    if (kind == BufferKind::Sram && !arch.sram.present())
        fail(cfg_.bufferKind.where, fmt::format("buffer_kind sram but {} has no sram section (the chip-shared SRAM "
                                                "pool)",
                                                arch.file));
}

void ProcessGroup::buildNeighbors() {
    const unsigned n = world_size();
    const std::string& where = cfg_.topology.where;
    try {
        if (topology_ == TopologyKind::Mesh2d) {
            shape_.mesh = meshShape(n, cfg_.rows.given ? std::optional<unsigned>(cfg_.rows.value) : std::nullopt,
                                    cfg_.cols.given ? std::optional<unsigned>(cfg_.cols.value) : std::nullopt);
        } else if (cfg_.rows.given || cfg_.cols.given) {
            fail(cfg_.rows.given ? cfg_.rows.where : cfg_.cols.where, "rows and cols apply to topology mesh_2d only");
        }
        neighbors_ = builtinNeighbors(topology_, n, shape_.mesh);
    } catch (const std::invalid_argument& e) {
        fail(where, fmt::format("topology {} with world_size {}: {}", topologyName(topology_), n, e.what()));
    }
    if (algo_) neighbors_ = applyNeighborsHook(*algo_, std::move(neighbors_), shape_.params);
    if (topology_ == TopologyKind::None && (!algo_ || !algo_->neighbors))
        fail(where, fmt::format("topology {} leaves the neighbour map empty: the algorithm must supply a neighbors() "
                                "hook",
                                cfg_.topology.value));
    const std::string err = checkSymmetry(neighbors_);
    if (!err.empty()) fail(where, err);
    for (unsigned r = 0; r < n; ++r)
        if (neighbors_[r].empty()) fail(where, fmt::format("rank {} has no neighbour in the map", r));
}

void ProcessGroup::allocateRings() {
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    const std::uint64_t ringBytes = std::uint64_t(cfg_.nSlots.value) * cfg_.slotSize.value;
    rings_.assign(world_size(), {});
    // Every rank's rings first (docs/design/pe-ipcq.md#d2-5): the tables need every endpoint.
    for (RankInfo& ri : ranks_) {
        Program& prog = rt_.program(ri.chip);
        const BankMap& banks = rt_.platform().chip(ri.chip).banks();
        for (const auto& [d, nb] : neighbors_[ri.rank]) {
            const IpcqDir from = *landingDirection(neighbors_, ri.rank, d);
            if (!neighbors_[nb.peer].at(from).canSend) continue;  // nobody sends into it
            Ring ring;
            IpcqEndpoint& ep = ring.ep;
            ep.rank = ri.rank;
            ep.chip = ri.chip;
            ep.core = ri.core;
            ep.buffer_kind = ri.bufferKind;
            ep.n_slots = cfg_.nSlots.value;
            ep.slot_size = cfg_.slotSize.value;
            try {
                switch (ri.bufferKind) {
                    case BufferKind::Tcm:
                        ep.memory = ri.core;
                        ep.rx_base = prog.allocateL1(ri.core, std::uint32_t(ringBytes), 32);
                        break;
                    case BufferKind::Hbm: {
                        ring.bank = nearest(banks.dramEndpoint, ri.core);
                        ring.offset = prog.allocateDramRegion(ringBytes);
                        ep.memory = banks.dramEndpoint[ring.bank];
                        ep.rx_base = banks.dramOffset[ring.bank] + ring.offset;
                        break;
                    }
                    case BufferKind::Sram: {
                        ring.bank = nearest(banks.sramEndpoint, ri.core);
                        ring.offset = prog.allocateSram(ring.bank, ringBytes);
                        ep.memory = banks.sramEndpoint[ring.bank];
                        ep.rx_base = std::uint64_t(ring.bank) * banks.sramBankBytes + ring.offset;
                        break;
                    }
                }
            } catch (const ConfigError& e) {
                fail(cfg_.nSlots.given ? cfg_.nSlots.where : cfg_.file,
                     fmt::format("rank {} (chip {} core {}): its {} ring of {} x {} B does not fit: {}", ri.rank,
                                 ri.chip, ri.core.str(), bufferKindName(ri.bufferKind), cfg_.nSlots.value,
                                 cfg_.slotSize.value, e.what()));
            }
            rings_[ri.rank][unsigned(d)] = ring;
        }
        ri.scratch = prog.allocateL1(ri.core, cfg_.slotSize.value, 32);
    }
    (void)arch;
}

std::vector<unsigned> ProcessGroup::chips() const {
    std::vector<unsigned> out;
    for (const RankInfo& r : ranks_)
        if (std::find(out.begin(), out.end(), r.chip) == out.end()) out.push_back(r.chip);
    return out;
}

void ProcessGroup::buildFabric() {
    const ClusterDescriptor& d = rt_.platform().descriptor();
    bool cross = false;
    for (const RankInfo& r : ranks_)
        for (const auto& [dir, nb] : neighbors_[r.rank]) cross |= ranks_[nb.peer].chip != r.chip;
    if (!cross) return;
    const std::vector<unsigned> order = chips();
    auto adjacent = [&](unsigned a, unsigned b) { return !d.userLinksBetween(a, b).empty(); };
    std::string kind = cfg_.fabric.value;
    if (kind == "auto") {
        bool chain = true;
        for (std::size_t i = 0; i + 1 < order.size(); ++i) chain &= adjacent(order[i], order[i + 1]);
        if (chain && order.size() >= 3 && adjacent(order.back(), order.front()))
            kind = "ring";
        else if (chain)
            kind = "line";
        else
            kind = "mesh";
    }
    fabric::FabricTopology topo;
    try {
        if (kind == "mesh" || kind == "torus")
            topo = fabric::topologyFromOptions(d, kind, {});
        else
            topo = fabric::makeTopology1d(kindOf(kind), order);
        for (unsigned c : order)
            if (!topo.contains(c)) throw ConfigError(fmt::format("chip {} is not part of the {} fabric", c, kind));
        // As many routing planes as the busiest (chip, first hop) has clients:
        // routers on planes nobody uses would only cost simulation time.
        const bool yFirst = d.arch.fabric.routeYFirst;
        std::map<std::pair<unsigned, unsigned>, unsigned> clients;
        unsigned busiest = 1;
        for (const RankInfo& r : ranks_)
            for (const auto& [dir, nb] : neighbors_[r.rank]) {
                const unsigned peerChip = ranks_[nb.peer].chip;
                if (peerChip == r.chip) continue;
                const unsigned first = unsigned(fabric::route(topo, r.chip, peerChip, yFirst).first());
                const unsigned n = (nb.canSend ? 1 : 0) + (cfg_.creditMode.value == CreditMode::Fabric ? 1 : 0);
                busiest = std::max(busiest, clients[{r.chip, first}] += n);
            }
        if (opts_.sharedFabric) {
            fab_ = opts_.sharedFabric;
            for (unsigned c : order)
                if (!fab_->topology().contains(c))
                    throw ConfigError(fmt::format("chip {} is not part of the shared fabric", c));
        } else {
            fabric::FabricOptions fo;
            fo.maxPlanes = busiest;
            fabric_ = std::make_unique<fabric::FabricBuilder>(rt_, topo, fo);
            fab_ = fabric_.get();
        }
    } catch (const ConfigError& e) {
        fail(
            cfg_.fabric.given ? cfg_.fabric.where : cfg_.file,
            fmt::format("the ranks' chips ({}) need a packet fabric ({}): {}", fmt::join(order, ", "), kind, e.what()));
    }
    if (cfg_.slotSize.value > fab_->maxPayloadBytes())
        fail(cfg_.slotSize.given ? cfg_.slotSize.where : cfg_.file,
             fmt::format("slot_size {} B exceeds the fabric's largest payload ({} B): a cross-chip send is one packet",
                         cfg_.slotSize.value, fab_->maxPayloadBytes()));
    // One client per cross-chip sending direction (and per credit direction
    // in fabric credit mode), spread over the routing planes.
    std::map<std::pair<unsigned, unsigned>, unsigned> perRouter;
    auto addClient = [&](const RankInfo& r, unsigned peerChip) {
        const fabric::Dir first = fab_->route(r.chip, peerChip).first();
        const unsigned plane = perRouter[{r.chip, unsigned(first)}]++ % fab_->planes();
        return fab_->addClient(r.chip, r.core, first, plane);
    };
    for (const RankInfo& r : ranks_) {
        for (const auto& [dir, nb] : neighbors_[r.rank]) {
            const unsigned peerChip = ranks_[nb.peer].chip;
            if (peerChip == r.chip) continue;
            ++crossChipLinks_;
            if (nb.canSend) txClients_[{r.rank, unsigned(dir)}] = addClient(r, peerChip);
            if (cfg_.creditMode.value == CreditMode::Fabric && rings_[r.rank][unsigned(dir)])
                creditClients_[{r.rank, unsigned(dir)}] = addClient(r, peerChip);
        }
    }
    if (fabric_) fabric_->build();
}

void ProcessGroup::finishInit() {
    if (installed_) throw std::logic_error("ProcessGroup::finishInit twice");
    if (fab_ && !fab_->built()) throw std::logic_error("ProcessGroup::finishInit before the shared fabric is built");
    install();
}

Tick ProcessGroup::pathLatency(unsigned fromChip, CoreCoord from, unsigned toChip, CoreCoord to,
                               std::uint32_t bytes) const {
    Platform& pf = rt_.platform();
    const ArchConfig& arch = pf.descriptor().arch;
    const NocConfig& noc = arch.noc;
    // Per-node overheads + per-hop latency + bytes over the path's bottleneck
    // (docs/design/pe-ipcq.md#d9 compute_path_latency_ns), from the same parameters as data traffic.
    // A credit takes the shorter of the two NoCs (NoC0 +x/+y, NoC1 -y/-x).
    auto nocHop = [&](unsigned chip, CoreCoord a, CoreCoord b) {
        return std::min(pf.chip(chip).noc(0).unloadedLatency(a, b), pf.chip(chip).noc(1).unloadedLatency(a, b));
    };
    if (fromChip == toChip) return nocHop(fromChip, from, to) + transferTicks(bytes, noc.linkBytesPerNs);
    const fabric::Route r = fab_->route(fromChip, toChip);
    const EthConfig& eth = arch.erisc.eth;
    const std::uint32_t wire = bytes + fab_->headerBytes();
    Tick t = 0;
    unsigned chip = fromChip;
    CoreCoord at = from;
    for (fabric::Dir dir : r.hops) {
        const fabric::RouterInfo& ri = fab_->router(chip, 0, dir);
        t += nocHop(chip, at, ri.core);
        t += arch.cycles(arch.fabric.routerPacketCycles) + eth.deliveryLatency(wire) +
             transferTicks(double(wire + eth.packetOverheadBytes), eth.lineBytesPerNs);
        chip = ri.peerChip;
        at = arch.ethCores.at(ri.peerChannel);
    }
    return t + nocHop(toChip, at, to);
}

void ProcessGroup::readRing(const Ring& r, std::uint64_t seq, std::uint32_t n, std::uint8_t* out) const {
    Chip& chip = rt_.platform().chip(r.ep.chip);
    const std::uint64_t inRing = (seq % r.ep.n_slots) * std::uint64_t(r.ep.slot_size);
    switch (r.ep.buffer_kind) {
        case BufferKind::Tcm:
            chip.worker(r.ep.core)->l1.readBytes(std::uint32_t(r.ep.rx_base + inRing), n, out);
            return;
        case BufferKind::Hbm: chip.dramRead(r.bank, r.offset + inRing, n, out); return;
        case BufferKind::Sram: chip.sramRead(r.bank, r.offset + inRing, n, out); return;
    }
}

void ProcessGroup::install() {
    installed_ = true;
    Platform& pf = rt_.platform();
    const bool data = pf.options().storePayload;
    IpcqPolicy policy;
    policy.backpressure = cfg_.backpressure.value;
    policy.credit = cfg_.creditMode.value;
    policy.strict = cfg_.strict.value;
    policy.trace = opts_.trace;
    creditLatency_.assign(world_size(), std::vector<Tick>(kIpcqDirs, 0));
    // One checker per directed link, shared by the sender's tx and the receiver's rx.
    std::map<std::pair<unsigned, unsigned>, IpcqEdge*> edgeInto;  // (receiver rank, its direction)
    for (const RankInfo& r : ranks_)
        for (const auto& [d, nb] : neighbors_[r.rank]) {
            const std::optional<Ring>& ring = rings_[r.rank][unsigned(d)];
            if (!ring || !opts_.checkInvariants) continue;
            const IpcqDir from = *landingDirection(neighbors_, r.rank, d);
            IpcqEdge::SlotHasher hasher;
            if (data) {
                const Ring* rp = &*ring;
                hasher = [this, rp](std::uint64_t seq, std::uint32_t n) {
                    static thread_local std::vector<std::uint8_t> b;
                    b.resize(n);
                    readRing(*rp, seq, n, b.data());
                    return IpcqEdge::hash(b.data(), n);
                };
            }
            edges_.push_back(std::make_unique<IpcqEdge>(
                fmt::format("ipcq.rank{}.{}->rank{}.{}", nb.peer, ipcqDirName(from), r.rank, ipcqDirName(d)),
                cfg_.nSlots.value, std::move(hasher)));
            edgeInto[{r.rank, unsigned(d)}] = edges_.back().get();
        }
    for (const RankInfo& r : ranks_) {
        PeCore& core = *pf.chip(r.chip).worker(r.core);
        core.ipcq.setPolicy(policy);
        if (cfg_.vcCompute.given || cfg_.vcComm.given || cfg_.vcChunk.given) {
            const PeDmaConfig& dc = core.dma.config();
            core.dma.setVcWeights(cfg_.vcCompute.given ? cfg_.vcCompute.value : dc.computeWeight,
                                  cfg_.vcComm.given ? cfg_.vcComm.value : dc.commWeight,
                                  cfg_.vcChunk.given ? cfg_.vcChunk.value : dc.chunkBytes);
        }
        for (const auto& [d, nb] : neighbors_[r.rank]) {
            const RankInfo& peer = ranks_[nb.peer];
            const IpcqDir back = *landingDirection(neighbors_, r.rank, d);
            PeCore& peerCore = *pf.chip(peer.chip).worker(peer.core);
            IpcqQueuePair q;
            q.direction = d;
            q.canSend = nb.canSend;
            if (nb.canSend) q.peer = rings_[peer.rank][unsigned(back)]->ep;
            if (rings_[r.rank][unsigned(d)]) q.self = rings_[r.rank][unsigned(d)]->ep;
            q.peerHeadReg = nocaddr::encode(peer.core.x, peer.core.y, peerCore.ipcq.headReg(back));
            q.peerTailReg = nocaddr::encode(peer.core.x, peer.core.y, peerCore.ipcq.tailReg(back));
            q.crossChip = peer.chip != r.chip;
            if (q.crossChip) {
                if (nb.canSend) {
                    q.txConnection = words(fab_->connection(txClients_.at({r.rank, unsigned(d)})));
                    q.txHeader = words(fabric::PacketHeader(fab_->header(r.chip, peer.chip)).set_stream(opts_.stream));
                }
                if (creditClients_.count({r.rank, unsigned(d)})) {
                    q.creditConnection = words(fab_->connection(creditClients_.at({r.rank, unsigned(d)})));
                    q.creditHeader =
                        words(fabric::PacketHeader(fab_->header(r.chip, peer.chip)).set_stream(opts_.stream));
                }
            }
            if (q.self.n_slots) {
                // Fast-path credit: the path from us back to the sender.
                q.creditLatency = pathLatency(r.chip, r.core, peer.chip, peer.core, cfg_.creditBytes.value);
                creditLatency_[r.rank][unsigned(d)] = q.creditLatency;
                q.creditWire = IpcqCreditWire{&pf.eq, &peerCore.l1, &peerCore.activity(), peerCore.ipcq.tailReg(back)};
            }
            const auto rx = edgeInto.find({r.rank, unsigned(d)});
            if (rx != edgeInto.end()) q.rx = rx->second;
            const auto tx = edgeInto.find({peer.rank, unsigned(back)});
            if (nb.canSend && tx != edgeInto.end()) q.tx = tx->second;
            core.ipcq.install(r.rank, q);
        }
    }
}

PeIpcq& ProcessGroup::ipcqOf(unsigned rank) const {
    const RankInfo& r = ranks_.at(rank);
    return rt_.platform().chip(r.chip).worker(r.core)->ipcq;
}

Tick ProcessGroup::creditLatency(unsigned rank, IpcqDir d) const {
    return creditLatency_.at(rank).at(unsigned(d));
}

void ProcessGroup::launch(const std::string& name, const std::function<void()>& entry,
                          const std::function<std::vector<std::uint32_t>(unsigned)>& args) {
    if (launched_) throw std::logic_error("ProcessGroup: kernels launched twice");
    launched_ = true;
    for (RankInfo& r : ranks_) {
        KernelConfig kc;
        kc.vc = 1;  // vc_comm: communication kernels
        kc.waitTimeout = KernelConfig::WaitTimeout::Ipcq;
        Program& prog = rt_.program(r.chip);
        r.kernel = prog.createKernel(name, entry, r.core, kc);
        prog.setRuntimeArgs(r.kernel, args(r.rank));
    }
}

void ProcessGroup::all_reduce(std::uint64_t bytes, golden::DType dtype, std::uint64_t seed) {
    if (!algo_) throw ConfigError("all_reduce: the process group has no algorithm kernel");
    shape_.tensorBytes = bytes;
    shape_.dtype = dtype;
    dtype_ = dtype;
    seed_ = seed;
    if (bytes == 0 || bytes > 0xffffffffull) throw ConfigError(fmt::format("all_reduce: tensor of {} B", bytes));
    if (bytes % shape_.elemBytes())
        throw ConfigError(
            fmt::format("all_reduce: {} B is not a whole number of {} elements", bytes, golden::dtypeName(dtype)));
    std::string why = algo_->checkSize ? algo_->checkSize(shape_) : "";
    const std::uint64_t perElem = std::uint64_t(world_size()) * shape_.elemBytes();
    if (!why.empty() && bytes == perElem * cfg_.nElem.value) {
        // The size came from n_elem: say which n_elem would split.
        AlgoShape probe = shape_;
        for (std::uint64_t k = 1; k <= 4096; ++k) {
            probe.tensorBytes = perElem * k;
            if (algo_->checkSize(probe).empty()) {
                why += fmt::format(
                    "; n_elem: {} of {} does not: make n_elem a multiple of {} (or the data type "
                    "wider)",
                    cfg_.nElem.value, golden::dtypeName(dtype), k);
                break;
            }
        }
    }
    if (!why.empty()) fail(cfg_.entryWhere, fmt::format("algorithm '{}': {}", cfg_.algorithm, why));
    const bool data = rt_.platform().options().storePayload;
    for (RankInfo& r : ranks_) {
        Program& prog = rt_.program(r.chip);
        try {
            r.tensor = prog.allocateL1(r.core, std::uint32_t(bytes), 32);
        } catch (const ConfigError& e) {
            throw ConfigError(
                fmt::format("all_reduce: rank {}'s {} B tensor does not fit in its L1 next to its IPCQ "
                            "buffers: {}",
                            r.rank, bytes, e.what()));
        }
        if (data) {
            const std::vector<std::uint8_t> x = golden::rankTensor(seed, r.rank, dtype, bytes);
            rt_.platform().chip(r.chip).worker(r.core)->l1.writeBytes(r.tensor, std::uint32_t(bytes), x.data());
        }
    }
    launch(cfg_.algorithm, algo_->kernel, [&](unsigned rank) {
        TensorArgs t;
        t.tensor = ranks_[rank].tensor;
        t.bytes = std::uint32_t(bytes);
        t.dtype = std::uint32_t(dtypeCode(dtype));
        t.piece = cfg_.slotSize.value;
        t.scratch = ranks_[rank].scratch;
        return algo_->kernelArgs(shape_, rank, t);
    });
}

std::string ProcessGroup::check() const {
    if (!algo_ || !algo_->golden) return "no golden result";
    golden::Tensors x;
    for (const RankInfo& r : ranks_) x.push_back(golden::rankTensor(seed_, r.rank, dtype_, shape_.tensorBytes));
    const std::vector<std::uint8_t> want = algo_->golden(x, shape_);
    std::vector<std::uint8_t> got(shape_.tensorBytes);
    const std::size_t e = shape_.elemBytes();
    for (const RankInfo& r : ranks_) {
        rt_.platform().chip(r.chip).worker(r.core)->l1.readBytes(r.tensor, std::uint32_t(got.size()), got.data());
        for (std::size_t i = 0; i < got.size(); i += e) {
            if (std::memcmp(&got[i], &want[i], e) == 0) continue;
            std::uint32_t g = 0, w = 0;
            std::memcpy(&g, &got[i], e);
            std::memcpy(&w, &want[i], e);
            std::size_t bad = 0;
            for (std::size_t j = 0; j < got.size(); j += e) bad += std::memcmp(&got[j], &want[j], e) != 0;
            return fmt::format(
                "rank {} (chip {} core {}): element {} (byte {}) is 0x{:0{}x}, expected 0x{:0{}x}; {} "
                "of {} elements differ",
                r.rank, r.chip, r.core.str(), i / e, i, g, 2 * e, w, 2 * e, bad, got.size() / e);
        }
    }
    return {};
}

std::uint64_t ProcessGroup::totalSends() const {
    std::uint64_t n = 0;
    for (const auto& e : edges_) n += e->sends();
    return n;
}

std::string ProcessGroup::pointerDump() const {
    std::string out =
        fmt::format("  IPCQ pointer dump, process group '{}' ({} ranks, {} topology, buffer_kind {}):\n",
                    cfg_.algorithm, world_size(), topologyName(topology_), bufferKindName(ranks_.front().bufferKind));
    for (const RankInfo& r : ranks_) out += ipcqOf(r.rank).pointerDump();
    return out;
}

std::string ProcessGroup::waitForReport() const {
    // The kernel of each rank.
    std::vector<const KernelContext*> kern(world_size(), nullptr);
    for (const KernelContext* k : rt_.kernels())
        for (const RankInfo& r : ranks_)
            if (!k->persistent() && k->core().chipId() == r.chip && k->core().coord() == r.core) kern[r.rank] = k;
    // Edges: rank -> the ranks it waits for.
    std::vector<std::vector<unsigned>> waitsFor(world_size());
    std::string lines, finishedPeers;
    for (const RankInfo& r : ranks_) {
        const KernelContext* k = kern[r.rank];
        if (!k || k->state() == KernelContext::State::Done) continue;
        const PeIpcq& p = ipcqOf(r.rank);
        const IpcqWait w = p.wait();
        auto peerOf = [&](IpcqDir d) { return neighbors_[r.rank].at(d).peer; };
        auto describe = [&](unsigned peer, const std::string& what) {
            waitsFor[r.rank].push_back(peer);
            const KernelContext* pk = kern[peer];
            const bool done = pk && pk->state() == KernelContext::State::Done;
            lines +=
                fmt::format("    rank {} -> rank {}: {}{}\n", r.rank, peer, what, done ? " (it has finished)" : "");
            if (done)
                finishedPeers +=
                    fmt::format("  rank {} waits for rank {}, which has finished: {}\n", r.rank, peer, what);
        };
        switch (w.kind) {
            case IpcqWait::Send: {
                const unsigned peer = peerOf(w.dir);
                describe(peer,
                         fmt::format("send {} blocked, its ring is full (rank {} must recv {})", ipcqDirName(w.dir),
                                     peer, ipcqDirName(*landingDirection(neighbors_, r.rank, w.dir))));
                break;
            }
            case IpcqWait::Recv: {
                const unsigned peer = peerOf(w.dir);
                describe(peer, fmt::format("recv {} waits for data (rank {} must send {})", ipcqDirName(w.dir), peer,
                                           ipcqDirName(*landingDirection(neighbors_, r.rank, w.dir))));
                break;
            }
            case IpcqWait::RecvAny:
                for (IpcqDir d : p.directions())
                    describe(peerOf(d),
                             fmt::format("recv (any direction) waits for data, e.g. from {}", ipcqDirName(d)));
                break;
            case IpcqWait::Fabric:
                lines += fmt::format("    rank {}: waits for a fabric slot ({})\n", r.rank, ipcqDirName(w.dir));
                break;
            case IpcqWait::None:
                lines += fmt::format("    rank {}: blocked outside IPCQ calls (waypoint {})\n", r.rank, k->waypoint());
                break;
        }
    }
    if (lines.empty()) return {};
    std::string out = "  IPCQ wait-for graph (rank -> the rank it waits for):\n" + lines;
    // A cycle: follow wait edges (depth-first) until a rank repeats.
    std::vector<int> state(world_size(), 0);  // 0 new, 1 on stack, 2 done
    std::vector<unsigned> stack;
    std::vector<unsigned> cycle;
    std::function<bool(unsigned)> dfs = [&](unsigned u) {
        state[u] = 1;
        stack.push_back(u);
        for (unsigned v : waitsFor[u]) {
            if (state[v] == 1) {
                auto it = std::find(stack.begin(), stack.end(), v);
                cycle.assign(it, stack.end());
                cycle.push_back(v);
                return true;
            }
            if (state[v] == 0 && dfs(v)) return true;
        }
        stack.pop_back();
        state[u] = 2;
        return false;
    };
    for (unsigned r = 0; r < world_size() && cycle.empty(); ++r)
        if (state[r] == 0) dfs(r);
    if (!cycle.empty()) out += fmt::format("  IPCQ deadlock cycle: rank {}\n", fmt::join(cycle, " -> rank "));
    out += finishedPeers;
    return out;
}

}  // namespace cclsim::ipcq
