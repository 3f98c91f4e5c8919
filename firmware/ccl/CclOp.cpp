#include "firmware/ccl/CclOp.h"

#include "firmware/ccl/ccl_kernels.h"
#include "models/common/Report.h"
#include "models/pe/PeDma.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <set>

namespace cclsim::ccl {

using golden::Op;

const char* bidirName(BidirStyle b) {
    switch (b) {
        case BidirStyle::Off: return "off";
        case BidirStyle::Halves: return "halves";
        case BidirStyle::Full: return "full";
    }
    return "?";
}

BidirStyle parseBidir(const std::string& s) {
    if (s == "off") return BidirStyle::Off;
    if (s == "halves") return BidirStyle::Halves;
    if (s == "full") return BidirStyle::Full;
    throw ConfigError(fmt::format("--bidir {}: must be off, halves or full", s));
}

const char* opName(Op op) {
    switch (op) {
        case Op::AllGather: return "all_gather";
        case Op::ReduceScatter: return "reduce_scatter";
        case Op::AllReduce: return "all_reduce";
        case Op::AllToAll: return "all_to_all";
        case Op::Broadcast: return "broadcast";
    }
    return "?";
}

double busFactor(Op op, unsigned n) {
    switch (op) {
        case Op::AllReduce: return 2.0 * (n - 1) / n;
        case Op::AllGather:
        case Op::ReduceScatter:
        case Op::AllToAll: return double(n - 1) / n;
        case Op::Broadcast: return 1.0;
    }
    return 1.0;
}

namespace {

constexpr std::uint32_t kMaxAutoPacket = 16384;  // the guide's preferred EDM packet size

/// Worker cores of every chip, handed out in the architecture's order.
class CoreAllocator {
public:
    CoreAllocator(const ArchConfig& arch, unsigned chips) : arch_(arch), next_(chips, 0) {}
    CoreCoord take(unsigned chip, const CclSpec& s) {
        if (next_[chip] >= arch_.workers.size())
            throw ConfigError(fmt::format(
                "{} with {} link(s) x {} worker(s) needs more than the {} worker cores of chip {}; use fewer "
                "--workers or --links",
                opName(s.op), s.links, s.workers, arch_.workers.size(), chip));
        return arch_.workers[next_[chip]++];
    }
    unsigned maxUsed() const { return next_.empty() ? 0 : *std::max_element(next_.begin(), next_.end()); }

private:
    const ArchConfig& arch_;
    std::vector<unsigned> next_;
};

/// Key of a worker unit's stream: (position, unit, direction).
using StreamKey = std::array<unsigned, 3>;

/// The sender of a gather stream, for producers that feed it (all_reduce).
struct GatherSender {
    unsigned chip = 0;
    CoreCoord core;
    std::uint32_t ownReadySem = 0;
};

/// One worker unit's stream in one direction on one chip: the core that
/// pushes into the EDM towards the next chip and the core that pulls what the
/// previous chip sent (one core doing both for reduce-scatter), with the
/// message counts and the EDM ports `connectStreams` fills in.
struct Stream {
    ChunkSet cs;
    std::uint32_t sends = 0, recvs = 0;
    CoreCoord sender, receiver;
    std::uint32_t sem = 0;       ///< forward_sem / relay_sem / handoff_sem: the op's own semaphore
    std::uint32_t ownReadySem = 0;
    EdmPort out, in;
};

}  // namespace

struct CclOp::Impl {
    Runtime& rt;
    CclOp& op;
    const CclSpec& s;
    const ArchConfig& arch;
    CoreAllocator cores;
    unsigned n = 0;
    unsigned units = 0;

    Impl(Runtime& r, CclOp& o)
        : rt(r), op(o), s(o.spec_), arch(r.platform().descriptor().arch), cores(arch, r.platform().numChips()) {}

    // ---- small helpers ------------------------------------------------------

    static TensorArgs tensor(const Buffer& b) { return TensorArgs{b.base, b.dram ? 1u : 0u}; }

    UnitArgs unit(unsigned pos, const ChunkSet& cs, bool ring, std::uint32_t staging) const {
        UnitArgs u;
        u.page_bytes = s.pageBytes;
        u.pages_per_chunk = op.pagesPerChunk_;
        u.block_pages = std::uint32_t(op.blockPages_);
        u.chunk_first = cs.first;
        u.chunk_stride = cs.stride;
        u.ranks = n;
        u.rank = pos;
        u.ring = ring ? 1 : 0;
        u.staging = staging;
        return u;
    }

    std::uint32_t staging(unsigned chip, CoreCoord core, unsigned slots) {
        return rt.program(chip).allocateL1(core, slots * op.pagesPerChunk_ * s.pageBytes, 32);
    }

    void kernel(unsigned chip, CoreCoord core, const char* name, void (*entry)(), std::vector<std::uint32_t> args,
                unsigned noc) {
        KernelConfig kc;
        kc.noc = noc;
        kc.vc = unsigned(DmaVc::Comm);  // CCL traffic rides the communication VC
        Program& p = rt.program(chip);
        const KernelHandle k = p.createKernel(name, entry, core, kc);
        p.setRuntimeArgs(k, std::move(args));
    }

    const LinkDesc& linkOut(const CclTopology& t, unsigned pos, unsigned dir, unsigned u) const {
        const CclHop& h = dir == 0 ? t.hopAfter(pos) : t.hopBefore(pos);
        return *h.links[u % t.links];
    }

    unsigned neighbour(const CclTopology& t, unsigned pos, unsigned dir) const {
        return unsigned(downstream(pos, 1, dir, n, t.ring()));
    }

    /// An EDM channel pair from every stream that sends to the stream of the
    /// same unit and direction on the next chip, which must expect exactly as
    /// many messages (host and kernel schedules agree).
    void connectStreams(std::map<StreamKey, Stream>& st, const CclTopology& t, EdmFabric& fab, const char* what) {
        for (auto& [key, x] : st) {
            if (!x.sends) continue;
            const auto [pos, u, dir] = key;
            Stream& down = st.at({neighbour(t, pos, dir), u, dir});
            if (down.recvs != x.sends)
                throw std::logic_error(fmt::format("{} plan: position {} sends {} messages, its neighbour expects {}",
                                                   what, pos, x.sends, down.recvs));
            const EdmConnection c = fab.connect(linkOut(t, pos, dir, u), t.order[pos], x.sender, down.receiver, x.sends);
            x.out = c.sender;
            down.in = c.receiver;
        }
    }

    // ---- all_gather / broadcast (and all_reduce's gather phase) ----------------

    /// Sender and receiver kernels of every unit, position and direction.
    /// `ownFromOutput`: the own block is already in the output (all_reduce):
    /// senders wait for a producer's signal per chunk instead of copying it.
    std::map<StreamKey, GatherSender> buildGather(CclGroup& g, const GatherPlan& plan, bool halves,
                                                  bool ownFromOutput, EdmFabric& fab) {
        const CclTopology& t = g.topo;
        TensorSlicer slicer(std::uint32_t(op.blockPages_), op.pagesPerChunk_, units);
        std::map<StreamKey, Stream> st;
        for (unsigned pos = 0; pos < n; ++pos)
            for (unsigned u = 0; u < units; ++u)
                for (unsigned dir : op.dirs_) {
                    Stream x;
                    x.cs = halves ? slicer.unitHalf(u, dir) : slicer.unit(u);
                    x.sends = plan.blocks_sent(pos, dir) * x.cs.count;
                    x.recvs = plan.blocks_received(pos, dir) * x.cs.count;
                    const unsigned chip = t.order[pos];
                    if (x.sends) {
                        x.sender = cores.take(chip, s);
                        x.sem = rt.program(chip).createSemaphore(x.sender, 0, "forward_sem");
                        if (ownFromOutput)
                            x.ownReadySem = rt.program(chip).createSemaphore(x.sender, 0, "own_ready_sem");
                    }
                    if (x.recvs) x.receiver = cores.take(chip, s);
                    st[{pos, u, dir}] = x;
                }
        connectStreams(st, t, fab, "gather");
        GatherPlanArgs pa;
        pa.reach0 = plan.ring_reach[0];
        pa.reach1 = plan.ring_reach[1];
        pa.root = plan.root < 0 ? 0xffffffffu : std::uint32_t(plan.root);
        pa.row_pages = s.op == Op::AllGather && s.dim == 1 ? s.rowPages : 0;
        std::map<StreamKey, GatherSender> senders;
        for (auto& [key, x] : st) {
            const auto [pos, u, dir] = key;
            const unsigned chip = t.order[pos];
            const CclRank& r = g.ranks[pos];
            pa.dir = dir;
            if (x.sends) {
                GatherSenderArgs a;
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.sender, 2));
                a.plan = pa;
                a.input = tensor(r.input);
                a.output = tensor(r.output);
                a.edm = x.out;
                a.forward_sem = x.sem;
                a.own_from_output = ownFromOutput ? 1 : 0;
                a.own_ready_sem = x.ownReadySem;
                a.copy_own = ownFromOutput ? 0 : 1;
                kernel(chip, x.sender, "gather_sender", fw::ccl::gather_sender_main, pack_args(a), 0);
                senders[key] = GatherSender{chip, x.sender, x.ownReadySem};
            }
            if (x.recvs) {
                GatherReceiverArgs a;
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.receiver, 2));
                a.plan = pa;
                a.output = tensor(r.output);
                a.edm = x.in;
                // Blocks this position receives are forwarded by its own sender of the same unit/direction.
                a.sender_forward_sem = RemoteSem{x.sender.x, x.sender.y, x.sem};
                kernel(chip, x.receiver, "gather_receiver", fw::ccl::gather_receiver_main, pack_args(a), 1);
            }
        }
        return senders;
    }

    // ---- reduce_scatter (and all_reduce's reduce phase) ------------------------

    void buildReduce(CclGroup& g, bool allReduce, const std::map<StreamKey, GatherSender>& gather, EdmFabric& fab) {
        const CclTopology& t = g.topo;
        TensorSlicer slicer(std::uint32_t(op.blockPages_), op.pagesPerChunk_, units);
        const bool ring = t.ring();
        const std::vector<unsigned> movers = ring ? std::vector<unsigned>{0} : std::vector<unsigned>{0, 1};
        // One worker core per unit and mover: it pulls from the previous chip
        // and pushes to the next, so it is both ends of its stream.
        std::map<StreamKey, Stream> w;
        for (unsigned pos = 0; pos < n; ++pos)
            for (unsigned u = 0; u < units; ++u)
                for (unsigned dir : movers) {
                    Stream x;
                    x.cs = slicer.unit(u);
                    if (ring) {
                        x.sends = x.recvs = (n - 1) * x.cs.count;
                    } else {
                        const std::uint32_t steps = line_rs_steps(pos, dir, n);
                        const bool hasIn = dir == 0 ? pos > 0 : pos + 1 < n;  // ... and an own-fracture step
                        x.recvs = hasIn ? steps * x.cs.count : 0;
                        x.sends = (steps - (hasIn ? 1 : 0)) * x.cs.count;
                    }
                    if (!x.sends && !x.recvs) continue;
                    const unsigned chip = t.order[pos];
                    x.sender = x.receiver = cores.take(chip, s);
                    if (!ring && dir == 1) x.sem = rt.program(chip).createSemaphore(x.sender, 0, "handoff_sem");
                    w[{pos, u, dir}] = x;
                }
        connectStreams(w, t, fab, "reduce");
        for (auto& [key, x] : w) {
            const auto [pos, u, dir] = key;
            const unsigned chip = t.order[pos];
            const CclRank& r = g.ranks[pos];
            ReduceWorkerArgs a;
            a.unit = unit(pos, x.cs, ring, staging(chip, x.sender, 4));
            a.dir = dir;
            a.dtype = s.dtype == golden::DType::FP32 ? 1 : 0;
            a.input = tensor(r.input);
            a.output = tensor(r.output);
            a.output_block = allReduce ? pos : 0;
            a.has_in = x.recvs ? 1 : 0;
            a.has_out = x.sends ? 1 : 0;
            a.in = x.in;
            a.out = x.out;
            a.handoff_sem = x.sem;
            if (!ring && dir == 0 && pos > 0 && pos + 1 < n) {
                const Stream& left = w.at({pos, u, 1});
                a.peer_handoff = RemoteSem{left.sender.x, left.sender.y, left.sem};
            }
            // The worker that stores the finished slice feeds the gather phase.
            const bool finisher = ring || (dir == 1 && pos + 1 < n) || (dir == 0 && pos + 1 == n);
            if (allReduce && finisher) {
                for (unsigned d : op.dirs_) {
                    auto it = gather.find({pos, u, d});
                    if (it == gather.end()) continue;
                    a.notify_mask |= 1u << d;
                    a.notify[d] = RemoteSem{it->second.core.x, it->second.core.y, it->second.ownReadySem};
                }
                a.notify_alternate = op.bidir_ == BidirStyle::Halves && ring ? 1 : 0;
            }
            kernel(chip, x.sender, ring ? "reduce_ring_worker" : "reduce_line_worker",
                   ring ? fw::ccl::reduce_ring_worker_main : fw::ccl::reduce_line_worker_main, pack_args(a), 0);
        }
    }

    // ---- all_to_all --------------------------------------------------------------

    void buildAllToAll(CclGroup& g, EdmFabric& fab) {
        const CclTopology& t = g.topo;
        TensorSlicer slicer(std::uint32_t(op.blockPages_), op.pagesPerChunk_, units);
        AllToAllPlan plan;
        plan.ranks = n;
        plan.ring = t.ring();
        plan.ring_split = op.bidir_ == BidirStyle::Off ? n - 1 : n / 2;
        std::map<StreamKey, Stream> st;
        std::map<std::pair<unsigned, unsigned>, Buffer> scratch;  // (pos, dir)
        for (unsigned pos = 0; pos < n; ++pos) {
            const unsigned chip = t.order[pos];
            for (unsigned dir : op.dirs_) {
                const std::uint32_t relays = plan.relays(pos, dir);
                if (relays) scratch[{pos, dir}] = rt.program(chip).createBuffer(std::uint64_t(relays) * op.blockPages_, s.pageBytes, !s.l1Buffers);
                for (unsigned u = 0; u < units; ++u) {
                    Stream x;
                    x.cs = slicer.unit(u);
                    x.sends = plan.items_sent(pos, dir) * x.cs.count;
                    x.recvs = plan.items_received(pos, dir) * x.cs.count;
                    if (x.sends) {
                        x.sender = cores.take(chip, s);
                        x.sem = rt.program(chip).createSemaphore(x.sender, 0, "relay_sem");
                    }
                    if (x.recvs) x.receiver = cores.take(chip, s);
                    st[{pos, u, dir}] = x;
                }
            }
        }
        connectStreams(st, t, fab, "all_to_all");
        for (auto& [key, x] : st) {
            const auto [pos, u, dir] = key;
            const unsigned chip = t.order[pos];
            const CclRank& r = g.ranks[pos];
            AllToAllArgs a;
            a.dir = dir;
            a.ring_split = plan.ring_split;
            a.input = tensor(r.input);
            a.output = tensor(r.output);
            auto sc = scratch.find({pos, dir});
            if (sc != scratch.end()) a.scratch = tensor(sc->second);
            if (x.sends) {
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.sender, 2));
                a.edm = x.out;
                a.relay_sem = x.sem;
                // The first direction with a sender also copies the rank's own block.
                a.copy_local = 1;
                for (unsigned d : op.dirs_)
                    if (d < dir && st.at({pos, u, d}).sends) a.copy_local = 0;
                kernel(chip, x.sender, "all_to_all_sender", fw::ccl::all_to_all_sender_main, pack_args(a), 0);
            }
            if (x.recvs) {
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.receiver, 2));
                a.edm = x.in;
                a.relay_sem = 0;
                a.copy_local = 0;
                a.sender_relay_sem = RemoteSem{x.sender.x, x.sender.y, x.sem};
                kernel(chip, x.receiver, "all_to_all_receiver", fw::ccl::all_to_all_receiver_main, pack_args(a), 1);
            }
        }
    }

    // ---- sizing -------------------------------------------------------------------

    /// EDM channels on the busiest Ethernet core: streams per link end.
    unsigned channelsPerLinkEnd(bool ring) const {
        const unsigned w = s.workers;
        const unsigned dirs = unsigned(op.dirs_.size());
        unsigned per = 0;
        switch (s.op) {
            case Op::AllGather:
            case Op::Broadcast:
            case Op::AllToAll: per = dirs * w; break;
            case Op::ReduceScatter: per = (ring ? 1 : 2) * w; break;
            case Op::AllReduce: per = (ring ? 1 : 2) * w + dirs * w; break;
        }
        return ring && n == 2 ? 2 * per : per;
    }

    void choosePacket(bool ring) {
        const std::uint32_t page = s.pageBytes;
        const unsigned ch = channelsPerLinkEnd(ring);
        // Kernel region after the handshake word and the EDM's ack word; per
        // channel: buffer + its sync word + its semaphore.
        const std::uint32_t region = arch.erisc.kernelRegionEnd() - (arch.erisc.unreservedBase + 32);
        const std::uint32_t perChannel = region / ch;
        const std::uint32_t fit = perChannel > 32 ? (perChannel - 32) / page * page : 0;
        std::uint32_t packet = s.packetBytes;
        if (packet == 0) {
            packet = std::min(fit, std::max(page, kMaxAutoPacket / page * page));
            if (packet < page)
                throw ConfigError(fmt::format(
                    "{}: {} EDM channels per Ethernet core leave {} B each, less than one {} B page; use fewer "
                    "--workers", opName(s.op), ch, perChannel, page));
        } else {
            if (packet % page)
                throw ConfigError(fmt::format("--packet {}: must be a whole number of {} B pages", packet, page));
            if (packet > fit)
                throw ConfigError(fmt::format(
                    "--packet {}: {} EDM channels per Ethernet core ({} link(s) x {} worker(s)) fit at most {} B each "
                    "in the {} B kernel region", packet, ch, s.links, s.workers, fit, region));
        }
        op.pagesPerChunk_ = std::uint32_t(std::min<std::uint64_t>(packet / page, op.blockPages_));
    }
};

// ---- CclOp ---------------------------------------------------------------------

CclOp::~CclOp() = default;

CclOp::CclOp(Runtime& rt, const CclSpec& spec) : spec_(spec) {
    const ClusterDescriptor& d = rt.platform().descriptor();
    const CclSpec& s = spec_;
    if (s.groups.empty()) throw ConfigError("a collective needs a chip order");
    if (s.pageBytes == 0 || s.pageBytes % 32)
        throw ConfigError(fmt::format("--page-bytes {}: must be a non-zero multiple of 32", s.pageBytes));
    if (s.pageBytes % golden::elementBytes(s.dtype))
        throw ConfigError(fmt::format("--page-bytes {} does not hold whole {} elements", s.pageBytes,
                                      golden::dtypeName(s.dtype)));
    if (s.workers == 0) throw ConfigError("--workers must be at least 1");
    for (const auto& order : s.groups) groups_.push_back(CclGroup{buildTopology(d, order, s.topology, s.links), {}, {}});
    const unsigned n = unsigned(groups_.front().topo.size());
    for (const CclGroup& g : groups_)
        if (g.topo.size() != n) throw ConfigError("every group of a mesh-axis collective must have the same size");

    // Sizes (nccl-tests S) in whole pages per rank.
    if (s.sizeBytes == 0 || s.sizeBytes % s.pageBytes)
        throw ConfigError(fmt::format("--size {} B is not a whole number of {} B pages", s.sizeBytes, s.pageBytes));
    const std::uint64_t pages = s.sizeBytes / s.pageBytes;
    if (s.op != Op::Broadcast && pages % n)
        throw ConfigError(fmt::format("--size {} B = {} pages of {} B does not split into whole pages across {} ranks "
                                      "({} needs a multiple of {} B)",
                                      s.sizeBytes, pages, s.pageBytes, n, opName(s.op), std::uint64_t(n) * s.pageBytes));
    blockPages_ = s.op == Op::Broadcast ? pages : pages / n;
    if (blockPages_ > 0xffffffffull / n) throw ConfigError(fmt::format("--size {} B is too large", s.sizeBytes));
    if (s.op == Op::AllGather && s.dim == 1 && (s.rowPages == 0 || blockPages_ % s.rowPages))
        throw ConfigError(fmt::format("all_gather --dim 1: the {} pages per rank do not split into rows of {} pages "
                                      "(--row-pages)", blockPages_, s.rowPages));
    if (s.op == Op::AllGather && s.dim > 1) throw ConfigError(fmt::format("--dim {}: must be 0 or 1", s.dim));
    if (s.op == Op::Broadcast && s.root >= n)
        throw ConfigError(fmt::format("--root {}: the collective has ranks 0..{}", s.root, n - 1));

    const bool ring = s.topology == TopologyKind::Ring;
    bidir_ = ring ? s.bidir : BidirStyle::Full;
    if (s.op == Op::ReduceScatter && ring) {
        if (s.bidir != BidirStyle::Off)
            throw ConfigError("ring reduce_scatter runs in one direction (CCL guide); use --bidir off or --topology line");
        bidir_ = BidirStyle::Off;
    }
    dirs_ = bidir_ == BidirStyle::Off ? std::vector<unsigned>{0} : std::vector<unsigned>{0, 1};

    Impl impl(rt, *this);
    impl.n = n;
    impl.units = s.links * s.workers;
    impl.choosePacket(ring);
    fabric_ = std::make_unique<EdmFabric>(rt, edm::TerminationMode::MESSAGE_COUNT_REACHED, packetBytes());

    for (CclGroup& g : groups_) {
        golden::Collective& gc = g.golden;
        gc.op = s.op;
        gc.ring = ring;
        gc.chips = g.topo.order;
        gc.sizeBytes = s.sizeBytes;
        gc.pageBytes = s.pageBytes;
        gc.dtype = s.dtype;
        gc.seed = s.seed;
        gc.gatherDim = s.dim;
        gc.rowPages = s.rowPages;
        gc.root = s.root;
        for (unsigned pos = 0; pos < n; ++pos) {
            CclRank r;
            r.chip = g.topo.order[pos];
            Program& p = rt.program(r.chip);
            r.input = p.createBuffer(golden::inputPages(gc), s.pageBytes, !s.l1Buffers);
            r.output = p.createBuffer(golden::outputPages(gc), s.pageBytes, !s.l1Buffers);
            g.ranks.push_back(r);
        }

        GatherPlan gp;
        gp.ranks = n;
        gp.ring = ring;
        if (ring) {
            gp.ring_reach[0] = bidir_ == BidirStyle::Full ? n / 2 : n - 1;
            gp.ring_reach[1] = bidir_ == BidirStyle::Full ? (n - 1) / 2 : bidir_ == BidirStyle::Halves ? n - 1 : 0;
        }
        const bool halves = ring && bidir_ == BidirStyle::Halves;
        switch (s.op) {
            case Op::AllGather: impl.buildGather(g, gp, halves, false, *fabric_); break;
            case Op::Broadcast:
                gp.root = std::int32_t(s.root);
                impl.buildGather(g, gp, halves, false, *fabric_);
                break;
            case Op::ReduceScatter: impl.buildReduce(g, false, {}, *fabric_); break;
            case Op::AllReduce: {
                const auto senders = impl.buildGather(g, gp, halves, true, *fabric_);
                impl.buildReduce(g, true, senders, *fabric_);
                break;
            }
            case Op::AllToAll: impl.buildAllToAll(g, *fabric_); break;
        }
    }
    fabric_->build();
    maxCores_ = impl.cores.maxUsed();

    // The host loads every input (zero simulated time), as a test would.
    if (s.data) {
        std::vector<std::uint8_t> page(s.pageBytes);
        for (const CclGroup& g : groups_)
            for (unsigned pos = 0; pos < n; ++pos) {
                if (s.op == Op::Broadcast && pos != s.root) continue;
                for (std::uint64_t i = 0; i < g.ranks[pos].input.pages; ++i) {
                    golden::inputPage(g.golden, pos, i, page.data());
                    rt.writePage(g.ranks[pos].input, i, page.data());
                }
            }
    }
}

std::vector<unsigned> CclOp::chips() const {
    std::vector<unsigned> out;
    for (const CclGroup& g : groups_) out.insert(out.end(), g.topo.order.begin(), g.topo.order.end());
    return out;
}

double CclOp::expectedEthBytes() const {
    // Every EDM message carries its payload and sync word; each one is
    // acknowledged twice (first-level ack and done), 16 B each.
    return double(fabric_->messages()) * (double(packetBytes()) + 16.0 + 32.0);
}

double CclOp::busiestPairBytes(Platform& platform) const {
    // Bytes per neighbour pair and direction, over the links the op uses.
    std::map<std::pair<unsigned, unsigned>, std::array<double, 2>> pairs;
    std::set<const LinkDesc*> seen;
    for (const CclGroup& g : groups_)
        for (const CclHop& h : g.topo.hops)
            for (const LinkDesc* l : h.links) {
                if (!seen.insert(l).second) continue;
                const auto key = std::make_pair(std::min(l->a.chip, l->b.chip), std::max(l->a.chip, l->b.chip));
                const EthEndpoint& lo = l->a.chip == key.first ? l->a : l->b;
                const EthEndpoint& hi = l->a.chip == key.first ? l->b : l->a;
                pairs[key][0] += platform.chip(lo.chip).erisc(lo.chan).eth.stats().payloadBytes;
                pairs[key][1] += platform.chip(hi.chip).erisc(hi.chan).eth.stats().payloadBytes;
            }
    double best = 0;
    for (const auto& [key, b] : pairs) best = std::max(best, directions() == 2 ? b[0] + b[1] : std::max(b[0], b[1]));
    return best;
}

CclCheck CclOp::check(Runtime& rt) const {
    CclCheck c;
    if (!spec_.data) return c;
    std::vector<std::uint8_t> got(spec_.pageBytes), want(spec_.pageBytes);
    for (const CclGroup& g : groups_)
        for (unsigned pos = 0; pos < g.ranks.size(); ++pos) {
            const CclRank& r = g.ranks[pos];
            for (std::uint64_t i = 0; i < r.output.pages; ++i) {
                rt.readPage(r.output, i, got.data());
                golden::expectedOutputPage(g.golden, pos, i, want.data());
                ++c.pagesChecked;
                if (std::memcmp(got.data(), want.data(), spec_.pageBytes) == 0) continue;
                ++c.wrongPages;
                if (c.firstFailure.empty()) {
                    std::uint32_t b = 0;
                    while (got[b] == want[b]) ++b;
                    c.firstFailure = fmt::format(
                        "{}: chip {} (rank {}) output page {} byte {} is 0x{:02x}, the golden reference has 0x{:02x}",
                        opName(spec_.op), r.chip, pos, i, b, got[b], want[b]);
                }
            }
        }
    c.status = c.wrongPages ? "fail" : "pass";
    return c;
}

}  // namespace cclsim::ccl
