#include "host/ccl/CclOp.h"

#include "firmware/ccl/ccl_kernels.h"
#include "host/ccl/CclOpError.h"
#include "host/common/DataCodes.h"
#include "host/fabric/FabricBuilder.h"
#include "models/common/Report.h"
#include "models/pe/PeDma.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <map>
#include <set>

namespace cclsim::ccl {

using golden::Op;

std::uint64_t sizeBytesOf(Op op, std::uint64_t count, unsigned n, golden::DType t) {
    const std::uint64_t e = golden::elementBytes(t);
    switch (op) {
        case Op::AllGather: return count * n * e;  // the output
        default: return count * e;
    }
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
/// Pages a fabric gather worker reads per batch (its staging holds two
/// batches): a firmware buffer choice, like the CB depth of tt-metal's reader.
constexpr std::uint32_t kGatherBatchPages = 4;

/// Little-endian bytes of an element as hex (most significant first).
std::string hexOf(const std::uint8_t* p, std::size_t n) {
    std::string out;
    for (std::size_t i = n; i-- > 0;) out += fmt::format("{:02x}", p[i]);
    return out;
}

/// Worker cores of every chip, handed out in the architecture's order (or
/// the op's own cores when it shares the chips with other ops).
class CoreAllocator {
public:
    CoreAllocator(const ArchConfig& arch, unsigned chips, const std::vector<CoreCoord>& own)
        : pool_(own.empty() ? arch.workers : own), own_(!own.empty()), next_(chips, 0) {}
    CoreCoord take(unsigned chip, const CclSpec& s) {
        if (next_[chip] >= pool_.size())
            throw CclOpError(
                "workers",
                fmt::format("{} with {} link(s) x {} worker(s) needs more than the {} worker cores {}of chip {}{}; use "
                            "fewer {} or {}{}",
                            opName(s.op), s.links, s.workers, pool_.size(),
                            own_ ? fmt::format("given to it ({}) ", specRef("cores")) : "", chip,
                            s.relay ? " (relayed hops take a worker per stream on every chip they cross)" : "",
                            specRef("workers"), specRef("links"), own_ ? ", or give it more " + specRef("cores") : ""));
        return pool_[next_[chip]++];
    }
    unsigned maxUsed() const { return next_.empty() ? 0 : *std::max_element(next_.begin(), next_.end()); }

private:
    std::vector<CoreCoord> pool_;
    bool own_;
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
    std::uint32_t sem = 0;  ///< forward_sem / relay_sem / handoff_sem: the op's own semaphore
    std::uint32_t ownReadySem = 0;
    EdmPort out, in;
};

}  // namespace

/// Kernels that signal a semaphore of their position when they finish (the
/// broadcast method's reducers wait for all of them).
struct DoneSignals {
    std::vector<RemoteSem> sem;
    std::vector<std::uint32_t> count;
    RemoteSem signal(unsigned pos) {
        ++count.at(pos);
        return sem.at(pos);
    }
};

/// How the op's method runs on a ring of n chips (or a line): the directions
/// and reach of the gather streams, the reduce movers' plans, the page range
/// each direction moves.
struct MethodPlan {
    struct Range {
        std::uint32_t first = 0, pages = 0;
        bool operator==(const Range& o) const { return first == o.first && pages == o.pages; }
    };
    std::vector<unsigned> gatherDirs;
    std::uint32_t gatherReach[2] = {0, 0};
    std::vector<unsigned> reduceDirs;
    ReducePlan reduce[2];        ///< the plan of each direction's reduce mover
    Range range[2];              ///< pages of a block each direction moves
    std::uint32_t a2aSplit = 0;  ///< AllToAllPlan::ring_split

    MethodPlan(golden::Method m, unsigned n, bool ring, std::uint64_t blockPages) {
        using golden::Method;
        const std::uint32_t B = std::uint32_t(blockPages);
        range[0] = range[1] = Range{0, B};
        const std::uint32_t h = n / 2;  // ceil((n - 1) / 2)
        std::uint32_t r0 = 0, r1 = 0;   // reduce reach
        switch (m) {
            case Method::Clockwise:
                gatherDirs = {0};
                gatherReach[0] = n - 1;
                r0 = n - 1;
                a2aSplit = n - 1;
                break;
            case Method::Anticlockwise:
                gatherDirs = {1};
                gatherReach[1] = n - 1;
                r1 = n - 1;
                a2aSplit = 0;
                break;
            case Method::BidirPair:
                gatherDirs = {0, 1};
                gatherReach[0] = gatherReach[1] = n - 1;
                range[0] = Range{0, (B + 1) / 2};
                range[1] = Range{(B + 1) / 2, B - (B + 1) / 2};
                a2aSplit = n / 2;
                break;
            case Method::MeetInMiddle:
            case Method::Broadcast:
            case Method::Line:
                gatherDirs = {0, 1};
                gatherReach[0] = h;
                gatherReach[1] = n - 1 - h;
                r0 = h;
                r1 = n - 1 - h;
                a2aSplit = n / 2;
                break;
        }
        for (unsigned d = 0; d < 2; ++d) {
            reduce[d].ranks = n;
            reduce[d].ring = ring;
            reduce[d].ring_reach[0] = m == Method::BidirPair ? (d == 0 ? n - 1 : 0) : r0;
            reduce[d].ring_reach[1] = m == Method::BidirPair ? (d == 1 ? n - 1 : 0) : r1;
        }
        for (unsigned d = 0; d < 2; ++d) {
            const bool used = !ring || (m == Method::BidirPair ? true : (d == 0 ? r0 : r1) > 0);
            if (used && range[d].pages > 0) reduceDirs.push_back(d);
        }
        // A gather direction with an empty range (a one-page block split in two) is not used.
        std::vector<unsigned> g;
        for (unsigned d : gatherDirs)
            if (range[d].pages > 0) g.push_back(d);
        gatherDirs = g;
    }
};

struct CclOp::Impl {
    Runtime& rt;
    CclOp& op;
    const CclSpec& s;
    const ArchConfig& arch;
    CoreAllocator cores;
    unsigned n = 0;
    unsigned units = 0;
    std::unique_ptr<MethodPlan> plan;
    std::uint32_t blockPages = 0;  ///< B of the streams being built (the broadcast method gathers whole inputs)
    /// Relay workers of relayed hops, created after every stream is connected.
    struct Relay {
        unsigned chip;
        CoreCoord core;
        EdmPort in, out;
        std::uint32_t messages;
    };
    std::deque<Relay> relays_;  ///< a deque: connectStreams keeps pointers to its elements

    Impl(Runtime& r, CclOp& o)
        : rt(r),
          op(o),
          s(o.spec_),
          arch(r.platform().descriptor().arch),
          cores(arch, r.platform().numChips(), o.spec_.sharing.cores) {}

    // ---- small helpers ------------------------------------------------------

    static TensorArgs tensor(const Buffer& b) { return TensorArgs{b.base, b.dram ? 1u : 0u}; }

    UnitArgs unit(unsigned pos, const ChunkSet& cs, bool ring, std::uint32_t staging, MethodPlan::Range r) const {
        UnitArgs u;
        u.page_bytes = s.pageBytes;
        u.pages_per_chunk = op.pagesPerChunk_;
        u.block_pages = blockPages;
        u.range_first = r.first;
        u.range_pages = r.pages;
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
        kc.waitTimeout =
            s.impl == CclSpec::Impl::Edm ? KernelConfig::WaitTimeout::Edm : KernelConfig::WaitTimeout::Fabric;
        Program& p = rt.program(chip);
        const KernelHandle k = p.createKernel(name, entry, core, kc);
        p.setRuntimeArgs(k, std::move(args));
    }

    /// The hop a stream of `pos` takes in direction `dir`, as (link, sending
    /// chip) per segment in travel order (one segment unless relayed).
    std::vector<std::pair<const LinkDesc*, unsigned>> route(const CclTopology& t, unsigned pos, unsigned dir,
                                                            unsigned u) const {
        const CclHop& h = dir == 0 ? t.hopAfter(pos) : t.hopBefore(pos);
        std::vector<std::pair<const LinkDesc*, unsigned>> out;
        for (std::size_t k = 0; k < h.segments.size(); ++k) {
            const std::size_t seg = dir == 0 ? k : h.segments.size() - 1 - k;
            const unsigned from = dir == 0 ? h.path[seg] : h.path[seg + 1];
            out.emplace_back(h.segments[seg][u % t.links], from);
        }
        return out;
    }

    unsigned neighbour(const CclTopology& t, unsigned pos, unsigned dir) const {
        return unsigned(downstream(pos, 1, dir, n, t.ring()));
    }

    /// An EDM channel pair from every stream that sends to the stream of the
    /// same unit and direction on the next chip, which must expect exactly as
    /// many messages (host and kernel schedules agree). A relayed hop chains
    /// channels through an edm_relay worker on every chip in between.
    void connectStreams(std::map<StreamKey, Stream>& st, const CclTopology& t, EdmFabric& fab, const char* what) {
        for (auto& [key, x] : st) {
            if (!x.sends) continue;
            const auto [pos, u, dir] = key;
            Stream& down = st.at({neighbour(t, pos, dir), u, dir});
            if (down.recvs != x.sends)
                throw std::logic_error(fmt::format("{} plan: position {} sends {} messages, its neighbour expects {}",
                                                   what, pos, x.sends, down.recvs));
            const auto segs = route(t, pos, dir, u);
            CoreCoord from = x.sender;
            EdmPort* fromPort = &x.out;
            for (std::size_t k = 0; k < segs.size(); ++k) {
                const bool last = k + 1 == segs.size();
                const unsigned next = last ? 0 : (segs[k + 1].second);
                const CoreCoord to = last ? down.receiver : cores.take(next, s);
                const EdmConnection c = fab.connect(*segs[k].first, segs[k].second, from, to, x.sends);
                *fromPort = c.sender;
                if (last) {
                    down.in = c.receiver;
                    break;
                }
                // The relay on chip `next`: in from this segment, out into the next.
                relays_.push_back(Relay{next, to, c.receiver, {}, x.sends});
                from = to;
                fromPort = &relays_.back().out;
            }
        }
    }

    /// Create the relay workers (after every stream is connected).
    void buildRelays(std::uint32_t payload) {
        for (const Relay& r : relays_) {
            EdmRelayArgs a;
            a.in = r.in;
            a.out = r.out;
            a.messages = r.messages;
            a.bytes = payload;
            a.staging = rt.program(r.chip).allocateL1(r.core, 2 * payload, 32);
            kernel(r.chip, r.core, "edm_relay", fw::ccl::edm_relay_main, pack_args(a), 0);
        }
        relays_.clear();
    }

    // ---- all_gather / broadcast (and all_reduce's gather phase) ----------------

    /// Sender and receiver kernels of every unit, position and direction.
    /// `ownFromOutput`: the own block is already in the output (all_reduce):
    /// senders wait for a producer's signal per chunk instead of copying it.
    /// `into` (per position) replaces the output tensor and `done` (per
    /// position) is signalled by every kernel when it finishes (the broadcast
    /// method); `range` replaces the method's page ranges.
    std::map<StreamKey, GatherSender> buildGather(CclGroup& g, const GatherPlan& gp, bool ownFromOutput, EdmFabric& fab,
                                                  const std::vector<Buffer>* into = nullptr,
                                                  DoneSignals* done = nullptr,
                                                  const MethodPlan::Range* range = nullptr) {
        const CclTopology& t = g.topo;
        std::map<StreamKey, Stream> st;
        for (unsigned pos = 0; pos < n; ++pos)
            for (unsigned u = 0; u < units; ++u)
                for (unsigned dir : plan->gatherDirs) {
                    Stream x;
                    x.cs =
                        TensorSlicer(range ? range->pages : plan->range[dir].pages, op.pagesPerChunk_, units).unit(u);
                    x.sends = gp.blocks_sent(pos, dir) * x.cs.count;
                    x.recvs = gp.blocks_received(pos, dir) * x.cs.count;
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
        pa.reach0 = gp.ring_reach[0];
        pa.reach1 = gp.ring_reach[1];
        pa.root = gp.root < 0 ? 0xffffffffu : std::uint32_t(gp.root);
        pa.row_pages = s.op == Op::AllGather && s.dim == 1 ? s.rowPages : 0;
        std::map<StreamKey, GatherSender> senders;
        for (auto& [key, x] : st) {
            const auto [pos, u, dir] = key;
            const unsigned chip = t.order[pos];
            const CclRank& r = g.ranks[pos];
            pa.dir = dir;
            const MethodPlan::Range rg = range ? *range : plan->range[dir];
            const Buffer& output = into ? (*into)[pos] : r.output;
            if (x.sends) {
                GatherSenderArgs a;
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.sender, 2), rg);
                a.plan = pa;
                a.input = tensor(r.input);
                a.output = tensor(output);
                if (done) a.done = done->signal(pos);
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
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.receiver, 2), rg);
                a.plan = pa;
                a.output = tensor(output);
                if (done) a.done = done->signal(pos);
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
        const bool ring = t.ring();
        // One worker core per unit and mover direction: it pulls from the
        // previous chip and pushes to the next, so it is both ends of its stream.
        std::map<StreamKey, Stream> w;
        for (unsigned pos = 0; pos < n; ++pos)
            for (unsigned u = 0; u < units; ++u)
                for (unsigned dir : plan->reduceDirs) {
                    const ReducePlan& rp = plan->reduce[dir];
                    Stream x;
                    x.cs = TensorSlicer(plan->range[dir].pages, op.pagesPerChunk_, units).unit(u);
                    x.sends = rp.sends(pos, dir) * x.cs.count;
                    x.recvs = rp.recvs(pos, dir) * x.cs.count;
                    bool any = false;
                    rp.for_each_step(pos, dir, [&](std::uint32_t, bool, bool) { any = true; });
                    if (!any || !x.cs.count) continue;
                    const unsigned chip = t.order[pos];
                    x.sender = x.receiver = cores.take(chip, s);
                    if (dir == 1 && rp.handoff(pos))
                        x.sem = rt.program(chip).createSemaphore(x.sender, 0, "handoff_sem");
                    w[{pos, u, dir}] = x;
                }
        connectStreams(w, t, fab, "reduce");
        for (auto& [key, x] : w) {
            const auto [pos, u, dir] = key;
            const unsigned chip = t.order[pos];
            const CclRank& r = g.ranks[pos];
            const ReducePlan& rp = plan->reduce[dir];
            const MethodPlan::Range range = plan->range[dir];
            ReduceWorkerArgs a;
            a.unit = unit(pos, x.cs, ring, staging(chip, x.sender, 4), range);
            a.dir = dir;
            a.reach0 = rp.ring_reach[0];
            a.reach1 = rp.ring_reach[1];
            a.redop = std::uint32_t(reduceCode(s.redop));
            a.dtype = std::uint32_t(dtypeCode(s.dtype));
            a.group_size = n;
            a.input = tensor(r.input);
            a.output = tensor(r.output);
            a.output_block = allReduce ? pos : 0;
            a.in = x.in;
            a.out = x.out;
            a.handoff_sem = x.sem;
            if (dir == 0 && rp.handoff(pos)) {
                const Stream& other = w.at({pos, u, 1});
                a.peer_handoff = RemoteSem{other.sender.x, other.sender.y, other.sem};
            }
            // The mover that stores the own fracture feeds the gather senders of its range.
            if (allReduce && rp.finisher(pos) == dir)
                for (unsigned d : plan->gatherDirs) {
                    auto it = gather.find({pos, u, d});
                    if (it == gather.end() || !(plan->range[d] == range)) continue;
                    a.notify_mask |= 1u << d;
                    a.notify[d] = RemoteSem{it->second.core.x, it->second.core.y, it->second.ownReadySem};
                }
            kernel(chip, x.sender, "reduce_worker", fw::ccl::reduce_worker_main, pack_args(a), 0);
        }
    }

    // ---- all_to_all --------------------------------------------------------------

    /// `into` / `done` as for buildGather (the broadcast method's exchange of fractures).
    void buildAllToAll(CclGroup& g, EdmFabric& fab, const std::vector<Buffer>* into = nullptr,
                       DoneSignals* done = nullptr) {
        const CclTopology& t = g.topo;
        TensorSlicer slicer(std::uint32_t(op.blockPages_), op.pagesPerChunk_, units);
        AllToAllPlan ap;
        ap.ranks = n;
        ap.ring = t.ring();
        ap.ring_split = plan->a2aSplit;
        const MethodPlan::Range whole{0, std::uint32_t(op.blockPages_)};
        std::map<StreamKey, Stream> st;
        std::map<std::pair<unsigned, unsigned>, Buffer> scratch;  // (pos, dir)
        for (unsigned pos = 0; pos < n; ++pos) {
            const unsigned chip = t.order[pos];
            for (unsigned dir : op.dirs_) {
                const std::uint32_t relays = ap.relays(pos, dir);
                if (relays)
                    scratch[{pos, dir}] = rt.program(chip).createBuffer(std::uint64_t(relays) * op.blockPages_,
                                                                        s.pageBytes, !s.l1Buffers);
                for (unsigned u = 0; u < units; ++u) {
                    Stream x;
                    x.cs = slicer.unit(u);
                    x.sends = ap.items_sent(pos, dir) * x.cs.count;
                    x.recvs = ap.items_received(pos, dir) * x.cs.count;
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
            a.ring_split = ap.ring_split;
            a.input = tensor(r.input);
            a.output = tensor(into ? (*into)[pos] : r.output);
            auto sc = scratch.find({pos, dir});
            if (sc != scratch.end()) a.scratch = tensor(sc->second);
            if (x.sends) {
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.sender, 2), whole);
                a.edm = x.out;
                a.relay_sem = x.sem;
                // The first direction with a sender also copies the rank's own block.
                a.copy_local = 1;
                for (unsigned d : op.dirs_)
                    if (d < dir && st.at({pos, u, d}).sends) a.copy_local = 0;
                if (done) a.done = done->signal(pos);
                kernel(chip, x.sender, "all_to_all_sender", fw::ccl::all_to_all_sender_main, pack_args(a), 0);
            }
            if (x.recvs) {
                a.unit = unit(pos, x.cs, t.ring(), staging(chip, x.receiver, 2), whole);
                a.edm = x.in;
                a.relay_sem = 0;
                a.copy_local = 0;
                a.sender_relay_sem = RemoteSem{x.sender.x, x.sender.y, x.sem};
                a.done = done ? done->signal(pos) : RemoteSem{};
                kernel(chip, x.receiver, "all_to_all_receiver", fw::ccl::all_to_all_receiver_main, pack_args(a), 1);
            }
        }
    }

    // ---- the broadcast method (reduce_scatter, all_reduce) ---------------------------

    /// Every rank's whole input to every rank (an all-gather of whole inputs:
    /// rank s's input in block s of every rank's scratch), then a local
    /// reduction in rank order on every rank. Every gather kernel signals its
    /// rank's reducer when it is done.
    /// An exchange over a packet fabric on the group's ring (or line): every
    /// sending rank's input goes into its block of every rank's destination
    /// (fabric_exchange_main). Per rank W worker kernels share the pages, one
    /// per direction (or one for both directions), each with its own fabric
    /// connection (a mux shares a router's worker channel when it has several
    /// clients); a page is multicast along its direction — on a ring the first
    /// div_up(n-1, 2) ranks one way and the rest the other, on a line to each
    /// end — or unicast where the ranks' buffers differ.
    struct ExchangePlan {
        int root = -1;                             ///< the only sender (broadcast); -1: every rank
        const std::vector<Buffer>* dst = nullptr;  ///< destination per position
        std::uint32_t rowPages = 0;                ///< all_gather dim 1
        unsigned workers = 1;
        bool kernelPerDirection = true;  ///< false: one kernel per worker serves both directions
        std::uint32_t batch = 1;         ///< pages a worker reads per batch
        /// Semaphores of the kernels that consume the destination (the broadcast
        /// method's reducers): their counts are set here. Null: one kernel per
        /// rank waits until every stream reaching it has landed.
        DoneSignals* external = nullptr;
        const char* kernelName = "fabric_exchange";
        bool allToAll = false;  ///< input block q to rank q only (unicast)
    };

    /// Build the exchange; "" on success, else why the group cannot use the fabric.
    std::string buildFabricExchange(CclGroup& g, const ExchangePlan& x) {
        using namespace cclsim::fabric;
        const CclTopology& t = g.topo;
        for (const CclHop& h : t.hops)
            if (h.relayed()) return fmt::format("relayed groups run on the EDM streams ({})", specRef("impl", "edm"));
        if (n > kMaxExchangeRanks) return fmt::format("at most {} ranks", kMaxExchangeRanks);
        const bool ring = t.ring() && n >= 3;
        if (s.sharing.fabric || s.sharing.edm)
            throw CclOpError(
                "impl",
                fmt::format("{} (method {}) runs a packet fabric of its own, which cannot share the "
                            "Ethernet cores with other ops; run the ops with {} (a reduction: or "
                            "another {})",
                            opName(s.op), golden::methodName(s.method), specRef("impl", "edm"), specRef("method")));
        auto fab = std::make_unique<FabricBuilder>(
            rt, makeTopology1d(ring ? FabricKind::Ring : FabricKind::Line, t.order), FabricOptions{1, 0});
        if (s.pageBytes > fab->maxPayloadBytes())
            return fmt::format("a {} B page does not fit the fabric's {} B packet payload", s.pageBytes,
                               fab->maxPayloadBytes());
        const unsigned W = x.workers;
        const std::vector<Buffer>& dst = *x.dst;
        auto range = [&](unsigned pos, unsigned d) -> std::uint32_t {
            if (ring) return d == 0 ? n / 2 : n - 1 - n / 2;
            return d == 0 ? n - 1 - pos : pos;
        };
        auto sends = [&](unsigned pos) { return x.root < 0 || int(pos) == x.root; };
        // Done semaphores: the consumers', or one waiter kernel's per rank.
        std::vector<RemoteSem> done(n);
        std::vector<CoreCoord> waiter(n);
        for (unsigned pos = 0; pos < n; ++pos) {
            if (x.external) {
                done[pos] = x.external->sem[pos];
                continue;
            }
            waiter[pos] = cores.take(t.order[pos], s);
            done[pos] = RemoteSem{waiter[pos].x, waiter[pos].y,
                                  rt.program(t.order[pos]).createSemaphore(waiter[pos], 0, "gather_done")};
        }
        // Multicast needs every rank's destination and semaphore at the same addresses.
        bool same = !x.allToAll;
        for (unsigned q = 1; q < n; ++q)
            same = same && dst[q].base == dst[0].base && done[q].x == done[0].x && done[q].y == done[0].y &&
                   done[q].addr == done[0].addr;
        struct K {
            unsigned pos;
            CoreCoord core;
            KernelHandle handle;
            FabricExchangeArgs a;
            std::vector<unsigned> dirs;
            ClientId client[2];
        };
        std::vector<K> ks;
        for (unsigned pos = 0; pos < n; ++pos) {
            const unsigned chip = t.order[pos];
            std::vector<unsigned> dirs;
            for (unsigned d : {0u, 1u})
                if (sends(pos) && range(pos, d) > 0) dirs.push_back(d);
            // Streams that land here: W per other sending rank, W own copies.
            std::uint32_t expected = sends(pos) ? W : 0;
            for (unsigned o = 0; o < n; ++o)
                if (o != pos && sends(o)) expected += W;
            if (x.external) x.external->count[pos] = expected;
            std::vector<std::vector<unsigned>> kernelDirs;
            if (x.kernelPerDirection)
                for (unsigned d : dirs) kernelDirs.push_back({d});
            else if (!dirs.empty())
                kernelDirs.push_back(dirs);
            bool first = true;
            for (std::size_t kd = 0; kd < kernelDirs.size(); ++kd)
                for (unsigned w = 0; w < W; ++w) {
                    K k;
                    k.pos = pos;
                    k.dirs = kernelDirs[kd];
                    k.core = first && !x.external ? waiter[pos] : cores.take(chip, s);
                    k.a.worker = w;
                    k.a.workers = W;
                    k.a.own_copy = kd == 0 ? 1 : 0;
                    k.a.wait_count = first && !x.external ? expected : 0;
                    for (unsigned d : k.dirs) k.a.mcast_range[d] = same ? range(pos, d) : 0;
                    first = false;
                    ks.push_back(k);
                }
            if (first && !x.external) {  // a rank that only receives
                K k;
                k.pos = pos;
                k.core = waiter[pos];
                k.a.send = 0;
                k.a.own_copy = 0;
                k.a.wait_count = expected;
                ks.push_back(k);
            }
        }
        for (K& k : ks) {
            const unsigned chip = t.order[k.pos];
            Program& p = rt.program(chip);
            KernelConfig kc;
            kc.vc = unsigned(DmaVc::Comm);
            kc.waitTimeout = KernelConfig::WaitTimeout::Fabric;
            k.a.batch = x.batch;
            k.a.staging = p.allocateL1(k.core, 2 * x.batch * s.pageBytes, 32);
            k.handle = p.createKernel(x.kernelName, fw::ccl::fabric_exchange_main, k.core, kc);
            for (unsigned d : k.dirs) k.client[d] = fab->addClient(chip, k.core, Dir(d), 0);
        }
        fab->build();
        for (K& k : ks) {
            FabricExchangeArgs& a = k.a;
            const unsigned chip = t.order[k.pos];
            a.pos = k.pos;
            a.ranks = n;
            a.a2a = x.allToAll ? 1 : 0;
            a.page_bytes = s.pageBytes;
            a.pages = std::uint32_t(op.blockPages_);
            a.block = x.root < 0 ? k.pos : 0;
            a.blocks = x.root < 0 ? n : 1;
            a.row_pages = x.rowPages;
            a.input = tensor(g.ranks[k.pos].input);
            a.scratch_dram = dst[k.pos].dram ? 1 : 0;
            for (unsigned q = 0; q < n; ++q) {
                a.chip[q] = t.order[q];
                a.scratch_base[q] = dst[q].base;
                a.done_xy[q] = packXY(done[q].x, done[q].y);
                a.done_addr[q] = done[q].addr;
                if (q == k.pos) continue;
                const Route r = fab->route(chip, t.order[q]);
                a.dir[q] = unsigned(r.first());
                a.hops[q] = r.size();
            }
            for (unsigned d : k.dirs) {
                a.has_conn[d] = 1;
                a.conn[d] = fab->connection(k.client[d]);
            }
            rt.program(chip).setRuntimeArgs(k.handle, pack_args(a));
        }
        op.packetFabrics_.push_back(std::move(fab));
        return {};
    }

    /// --impl fabric broadcast (and the broadcast method): W workers per
    /// direction multicast the pages into every rank's output. (The fabric
    /// all-gather is buildFabricRing: one-hop readers and writers.)
    void buildFabricGather(CclGroup& g, int root) {
        std::vector<Buffer> outputs;
        for (const CclRank& r : g.ranks) outputs.push_back(r.output);
        ExchangePlan x;
        x.root = root;
        x.dst = &outputs;
        x.rowPages = s.op == Op::AllGather && s.dim == 1 ? s.rowPages : 0;
        x.workers = s.workers;
        x.batch = kGatherBatchPages;
        x.kernelName = "gather_fabric";
        const std::string why = buildFabricExchange(g, x);
        if (!why.empty()) throw CclOpError("impl", fmt::format("{}: {}", specRef("impl", "fabric"), why));
    }

    /// --impl fabric all-gather, reduce-scatter and all-reduce as tt-metal's
    /// current ops build them (all_gather_async, reduce_scatter_minimal_async,
    /// all-reduce = the two in sequence): per link and direction W workers,
    /// each a reader and a writer on one core (fabric_ring_kernels.cpp), a mux
    /// in front of the router when W > 1, one-hop unicasts and worker
    /// store-and-forward. Sets the golden reduction order it follows.
    void buildFabricRing(CclGroup& g) {
        using namespace cclsim::fabric;
        namespace rs = cclsim::ccl::ring_step;
        const CclTopology& t = g.topo;
        for (const CclHop& h : t.hops)
            if (h.relayed())
                throw CclOpError("impl", fmt::format("{}: relayed groups run on the EDM streams ({})",
                                                     specRef("impl", "fabric"), specRef("impl", "edm")));
        const bool ring = t.ring() && n >= 3;
        // The op's own fabric, or the persistent one it shares with other ops.
        std::unique_ptr<FabricBuilder> own;
        FabricBuilder* fab = s.sharing.fabric;
        if (fab) {
            const FabricTopology& ft = fab->topology();
            if (ft.order != t.order || (ft.kind == FabricKind::Ring) != ring)
                throw CclOpError("impl",
                                 fmt::format("{} {}: the shared fabric runs over the chips {} as a {}, this op "
                                             "over {} as a {}; ops sharing the fabric use one chip order and "
                                             "topology (or use {})",
                                             opName(s.op), specRef("impl", "fabric"), fmt::join(ft.order, ","),
                                             ft.kind == FabricKind::Ring ? "ring" : "line", fmt::join(t.order, ","),
                                             ring ? "ring" : "line", specRef("impl", "edm")));
            if (fab->planes() < s.links)
                throw CclOpError("links", fmt::format("{}: {} but the shared fabric has {} routing plane(s)",
                                                      opName(s.op), specRef("links", s.links), fab->planes()));
        } else {
            own = std::make_unique<FabricBuilder>(
                rt, makeTopology1d(ring ? FabricKind::Ring : FabricKind::Line, t.order), FabricOptions{s.links, 0});
            fab = own.get();
        }
        const std::uint32_t payload = fab->maxPayloadBytes();
        if (s.pageBytes > payload)
            throw CclOpError("page_bytes", fmt::format("{}: a {} B page does not fit the fabric's {} B packet payload",
                                                       specRef("impl", "fabric"), s.pageBytes, payload));
        // tt-metal: scatter writes carry at most two pages per packet.
        const std::uint32_t ppp = std::min<std::uint32_t>(2, payload / s.pageBytes);
        const std::uint32_t G = ppp < 4 ? 4 * ppp : 8;  // reduce-scatter tile_granularity
        const std::uint32_t B = std::uint32_t(op.blockPages_);
        const unsigned W = s.workers, U = s.links * s.workers;
        const bool reduces = s.op == Op::ReduceScatter || s.op == Op::AllReduce;
        const bool gathers = s.op == Op::AllGather || s.op == Op::AllReduce;
        auto at = [&](long p) { return unsigned(((p % long(n)) + long(n)) % long(n)); };
        auto rangeOf = [&](unsigned u) { return MethodPlan::Range{u * B / U, (u + 1) * B / U - u * B / U}; };
        g.golden.method = ring ? golden::Method::BidirPair : golden::Method::Line;
        g.golden.pairWorkers = ring ? U : 0;
        g.golden.pairChunkPages = G;

        // Intermediate tensors of the reduce-scatter (a block per rank; a line has one per direction).
        std::vector<Buffer> inter[2];
        if (reduces)
            for (unsigned pos = 0; pos < n; ++pos)
                for (unsigned d = 0; d < (ring ? 1u : 2u); ++d)
                    inter[d].push_back(
                        rt.program(t.order[pos]).createBuffer(std::uint64_t(n) * B, s.pageBytes, !s.l1Buffers));
        if (reduces && ring) inter[1] = inter[0];

        struct K {
            unsigned pos = 0, phase = 0, dir = 0, unit = 0;  // phase 0 reduce-scatter, 1 all-gather
            CoreCoord core;
            FabricRingArgs a;
            bool sends = false;
            ClientId client;
            std::uint32_t recvSem = 0, finalL = 0, finalR = 0, startSem = 0;
            KernelHandle reader;
        };
        std::vector<K> ks;
        std::map<std::array<unsigned, 4>, std::size_t> index;  // (phase, pos, dir, unit) -> ks
        auto pagesOf = [&](const FabricRingArgs& a) {
            std::uint32_t c = 0;
            for_each_ring_page(a.range_first, a.range_pages, a.split != 0, a.takes_first != 0, a.granularity,
                               [&](std::uint32_t) { ++c; });
            return c;
        };
        auto addStep = [](FabricRingArgs& a, std::uint32_t kind, std::uint32_t block, std::uint32_t dst,
                          std::uint32_t sel = 0) {
            if (a.steps >= kMaxRingSteps)
                throw CclOpError("impl",
                                 fmt::format("{}: too many ranks for one worker's steps", specRef("impl", "fabric")));
            a.kind[a.steps] = kind, a.block[a.steps] = block, a.dst[a.steps] = dst, a.sem_sel[a.steps] = sel;
            ++a.steps;
        };
        auto common = [&](K& k) {
            FabricRingArgs& a = k.a;
            const CclRank& r = g.ranks[k.pos];
            const MethodPlan::Range range = rangeOf(k.unit);
            a.page_bytes = s.pageBytes;
            a.pages_per_packet = ppp;
            a.block_pages = B;
            a.range_first = range.first;
            a.range_pages = range.pages;
            a.granularity = G;
            a.input = tensor(r.input);
            a.output = tensor(r.output);
            a.chip = t.order[k.pos];
            a.redop = std::uint32_t(reduceCode(s.redop));
            a.dtype = std::uint32_t(dtypeCode(s.dtype));
        };

        // ---- reduce-scatter phase ----
        if (reduces)
            for (unsigned pos = 0; pos < n; ++pos)
                for (unsigned d : {0u, 1u})
                    for (unsigned u = 0; u < U; ++u) {
                        K k;
                        k.pos = pos, k.phase = 0, k.dir = d, k.unit = u;
                        common(k);
                        FabricRingArgs& a = k.a;
                        a.group_size = n;
                        a.source = a.input;
                        a.landing = tensor(inter[d][pos]);
                        a.land_blocks = n;
                        a.out_block = s.op == Op::AllReduce ? pos : 0;
                        a.out_blocks = s.op == Op::AllReduce ? n : 1;
                        const unsigned chunksCap = ring ? 80 : 20;  // tt-metal default_chunks_per_sync
                        if (ring) {
                            a.split = 1;
                            a.takes_first = d == 0;
                            for (unsigned i = 0; i < n; ++i) {
                                const unsigned b = d == 0 ? at(long(pos) - 1 - i) : at(long(pos) + 1 + i);
                                if (i + 1 < n)
                                    addStep(a, i == 0 ? rs::kSrcOwn : rs::kSrcReduce, b, rs::kDstSend);
                                else
                                    addStep(a, rs::kSrcReduce, b, rs::kDstLocal);
                            }
                            a.has_r = d == 1;  // the final fold of the anticlockwise side: g(x_f) (+) R
                            k.sends = true;
                        } else {
                            // Line: E carries the blocks ahead, W those behind; W stores the own block.
                            a.landing2 = tensor(inter[0][pos]);
                            if (d == 0) {
                                if (pos + 1 >= n) continue;
                                for (unsigned b = pos + 1; b < n; ++b)
                                    addStep(a, pos == 0 ? rs::kSrcOwn : rs::kSrcReduce, b, rs::kDstSend,
                                            b == pos + 1 ? 1u : 0u);
                                k.sends = true;
                            } else {
                                for (unsigned i = 0; i < pos; ++i) {
                                    const unsigned b = pos - 1 - i;
                                    addStep(a, pos + 1 == n ? rs::kSrcOwn : rs::kSrcReduce, b, rs::kDstSend,
                                            b + 1 == pos ? 2u : 0u);
                                }
                                k.sends = pos > 0;
                                addStep(a, rs::kSrcFinal, pos, rs::kDstLocal);
                                a.has_l = pos > 0;
                                a.has_r = pos + 1 < n;
                            }
                        }
                        const std::uint32_t mine = pagesOf(a);
                        const std::uint32_t chunks =
                            std::min<std::uint32_t>(chunksCap, std::max<std::uint32_t>(1, mine / G / 2));
                        a.sync_pages = chunks * G;
                        index[{0, pos, d, u}] = ks.size();
                        ks.push_back(k);
                    }

        // ---- all-gather phase ----
        const unsigned TE = n / 2, TW = n - 1 - TE;  // ring reach: div_up(n-1, 2) one way, the rest the other
        auto reach = [&](unsigned pos, unsigned d) { return ring ? (d == 0 ? TE : TW) : (d == 0 ? n - 1 - pos : pos); };
        auto arriving = [&](unsigned pos, unsigned d) { return ring ? reach(pos, d) : (d == 0 ? pos : n - 1 - pos); };
        if (gathers)
            for (unsigned pos = 0; pos < n; ++pos) {
                const unsigned copyDir = reach(pos, 0) > 0 ? 0 : 1;
                for (unsigned d : {0u, 1u})
                    for (unsigned u = 0; u < U; ++u) {
                        if (reach(pos, d) == 0 && arriving(pos, d) == 0) continue;
                        K k;
                        k.pos = pos, k.phase = 1, k.dir = d, k.unit = u;
                        common(k);
                        FabricRingArgs& a = k.a;
                        const Buffer& out = g.ranks[pos].output;
                        a.landing = tensor(out);
                        a.land_blocks = n;
                        a.land_row_pages = s.op == Op::AllGather && s.dim == 1 ? s.rowPages : 0;
                        a.out_blocks = n;
                        a.out_row_pages = a.land_row_pages;
                        a.out_same_block = 1;
                        if (s.op == Op::AllReduce) {
                            a.source = tensor(out);  // the reduce-scatter left the own block there
                        } else {
                            a.source = a.input;
                            a.source_single = 1;
                        }
                        if (reach(pos, d) > 0) {
                            addStep(a, rs::kSrcOwn, pos,
                                    rs::kDstSend | (d == copyDir && s.op == Op::AllGather ? rs::kDstLocal : 0u));
                            k.sends = true;
                        }
                        const unsigned in = arriving(pos, d);
                        for (unsigned kk = 1; kk <= in; ++kk) {
                            const unsigned b = d == 0 ? at(long(pos) - kk) : at(long(pos) + kk);
                            const bool onward = ring ? kk < reach(pos, d) : reach(pos, d) > 0;
                            if (onward) {  // else it only lands here
                                addStep(a, rs::kSrcRecv, b, rs::kDstSend);
                                k.sends = true;
                            }
                        }
                        a.sync_pages = 0;                                          // tt-metal: one increment per slice
                        a.recv_count = in * ring_syncs(pagesOf(a), a.sync_pages);  // every block that arrives
                        index[{1, pos, d, u}] = ks.size();
                        ks.push_back(k);
                    }
            }

        // ---- cores, buffers, semaphores, kernels, fabric clients ----
        for (K& k : ks) {
            const unsigned chip = t.order[k.pos];
            Program& p = rt.program(chip);
            k.core = cores.take(chip, s);
            FabricRingArgs& a = k.a;
            const std::uint32_t slot = ppp * s.pageBytes;
            a.cb_slots = k.phase == 0 ? std::max<std::uint32_t>(3, 3 * G / ppp) : 3;  // tt-metal: triple buffering
            a.cb = p.allocateL1(k.core, a.cb_slots * slot, 32);
            a.scratch = p.allocateL1(k.core, 2 * slot, 32);
            a.cb_filled = p.createSemaphore(k.core, 0, "cb_filled");
            a.cb_freed = p.createSemaphore(k.core, 0, "cb_freed");
            k.recvSem = p.createSemaphore(k.core, 0, "out_ready_sem");
            a.recv_sem = k.recvSem;
            if (k.phase == 0 && !ring && k.dir == 1) {
                k.finalL = a.final_l_sem = p.createSemaphore(k.core, 0, "final_l_sem");
                k.finalR = a.final_r_sem = p.createSemaphore(k.core, 0, "final_r_sem");
            }
            if (k.phase == 1 && s.op == Op::AllReduce) {
                k.startSem = a.start_sem = p.createSemaphore(k.core, 0, "reduced_sem");
                a.start_count = 0;
            }
            KernelConfig rc;
            rc.processor = "ncrisc";
            rc.noc = 0;
            rc.vc = unsigned(DmaVc::Comm);
            rc.waitTimeout = KernelConfig::WaitTimeout::Fabric;
            a.role = 0;
            k.reader = p.createKernel(k.phase ? "ag_fabric_reader" : "rs_fabric_reader",
                                      fw::ccl::fabric_ring_reader_main, k.core, rc);
            if (k.sends) k.client = fab->addClient(chip, k.core, k.dir == 0 ? Dir::E : Dir::W, k.unit / W);
        }
        // all_reduce: the all-gather readers of a unit wait for the reduce-scatter writers that store its pages.
        if (s.op == Op::AllReduce)
            for (K& k : ks) {
                if (k.phase != 0) continue;
                const bool stores = ring || k.dir == 1;
                if (!stores) continue;
                unsigned slotIdx = 0;
                for (unsigned d : {0u, 1u}) {
                    auto it = index.find({1, k.pos, d, k.unit});
                    if (it == index.end()) continue;
                    K& ag = ks[it->second];
                    ++ag.a.start_count;
                    k.a.done_xy[slotIdx] = packXY(ag.core.x, ag.core.y);
                    k.a.done_sem[slotIdx] = ag.startSem;
                    ++slotIdx;
                }
            }
        if (own) own->build();
        // The writers need the fabric's connections: created now, or (a
        // shared fabric) once the caller has built it after the last op.
        auto writers = [&g, fab, ks = std::move(ks), index = std::move(index), inter, ring, nn = n, rtp = &rt,
                        stream = s.sharing.stream]() mutable {
            const CclTopology& t = g.topo;
            Runtime& rt = *rtp;
            auto at = [nn](long p) { return unsigned(((p % long(nn)) + long(nn)) % long(nn)); };
            for (K& k : ks) {
                FabricRingArgs& a = k.a;
                const unsigned next = k.dir == 0 ? at(long(k.pos) + 1) : at(long(k.pos) - 1);
                a.next_chip = t.order[next];
                if (k.sends) {
                    a.has_conn = 1;
                    a.conn = fab->connection(k.client);
                    if (k.phase == 0) {
                        a.next_landing = inter[k.dir][next].base;
                        auto nk = index.find({0, next, k.dir, k.unit});
                        if (nk != index.end()) {
                            a.next_sem_xy[0] = packXY(ks[nk->second].core.x, ks[nk->second].core.y);
                            a.next_sem[0] = ks[nk->second].recvSem;
                        }
                        if (!ring) {
                            const K& w = ks[index.at({0, next, 1, k.unit})];  // the next chip's storing worker
                            a.next_sem_xy[1] = a.next_sem_xy[2] = packXY(w.core.x, w.core.y);
                            a.next_sem[1] = w.finalL;
                            a.next_sem[2] = w.finalR;
                            if (k.dir == 0) a.next_landing = inter[0][next].base;
                        }
                    } else {
                        a.next_landing = g.ranks[next].output.base;
                        const K& nk = ks[index.at({1, next, k.dir, k.unit})];
                        a.next_sem_xy[0] = packXY(nk.core.x, nk.core.y);
                        a.next_sem[0] = nk.recvSem;
                    }
                }
                const unsigned chip = t.order[k.pos];
                Program& p = rt.program(chip);
                FabricRingArgs reader = a;
                reader.role = 0 | stream << 8;
                FabricRingArgs writer = a;
                writer.role = 1 | stream << 8;
                KernelConfig wc;
                wc.noc = 1;
                wc.vc = unsigned(DmaVc::Comm);
                wc.waitTimeout = KernelConfig::WaitTimeout::Fabric;
                const KernelHandle wh = p.createKernel(k.phase ? "ag_fabric_writer" : "rs_fabric_writer",
                                                       fw::ccl::fabric_ring_writer_main, k.core, wc);
                p.setRuntimeArgs(wh, pack_args(writer));
                p.setRuntimeArgs(k.reader, pack_args(reader));
            }
        };
        if (own) {
            writers();
            op.packetFabrics_.push_back(std::move(own));
        } else {
            op.afterFabric_.push_back(std::move(writers));
        }
    }

    /// --impl fabric all_to_all (tt-metal all_to_all_async): per rank W
    /// workers share every block's pages and unicast block q to rank q the
    /// shorter way round; one kernel per rank waits for every stream.
    void buildFabricAllToAll(CclGroup& g) {
        std::vector<Buffer> outputs;
        for (const CclRank& r : g.ranks) outputs.push_back(r.output);
        ExchangePlan x;
        x.dst = &outputs;
        x.workers = s.workers;
        x.kernelPerDirection = false;  // a worker sends each block its own way
        x.allToAll = true;
        x.kernelName = "all_to_all_fabric";
        const std::string why = buildFabricExchange(g, x);
        if (!why.empty()) throw CclOpError("impl", fmt::format("{}: {}", specRef("impl", "fabric"), why));
    }

    void buildBroadcastMethod(CclGroup& g, EdmFabric& fab) {
        const CclTopology& t = g.topo;
        const bool allReduce = s.op == Op::AllReduce;
        const std::uint32_t segment = std::uint32_t(op.blockPages_);  // a whole input
        std::vector<Buffer> scratch;
        DoneSignals done;
        std::vector<CoreCoord> reducer;
        for (unsigned pos = 0; pos < n; ++pos) {
            const unsigned chip = t.order[pos];
            Program& p = rt.program(chip);
            scratch.push_back(p.createBuffer(std::uint64_t(n) * segment, s.pageBytes, !s.l1Buffers));
            reducer.push_back(cores.take(chip, s));
            done.sem.push_back(
                RemoteSem{reducer.back().x, reducer.back().y, p.createSemaphore(reducer.back(), 0, "done_sem")});
            done.count.push_back(0);
        }
        const MethodPlan::Range whole{0, segment};
        ExchangePlan x;
        x.dst = &scratch;
        x.kernelPerDirection = false;  // one kernel per rank multicasts both ways
        x.external = &done;            // the reducers wait
        if (!buildFabricExchange(g, x).empty()) {
            // Pages larger than a fabric packet: the ring all-gather's streams instead.
            GatherPlan gp;
            gp.ranks = n;
            gp.ring = t.ring();
            gp.ring_reach[0] = plan->gatherReach[0];
            gp.ring_reach[1] = plan->gatherReach[1];
            buildGather(g, gp, false, fab, &scratch, &done, &whole);
        }
        const std::uint64_t F = g.golden.fracture();
        for (unsigned pos = 0; pos < n; ++pos) {
            const unsigned chip = t.order[pos];
            LocalReduceArgs a;
            a.unit = unit(pos, TensorSlicer(segment, op.pagesPerChunk_, 1).unit(0), t.ring(),
                          staging(chip, reducer[pos], n + 1), whole);
            a.redop = std::uint32_t(reduceCode(s.redop));
            a.dtype = std::uint32_t(dtypeCode(s.dtype));
            a.group_size = n;
            a.gathered = tensor(scratch[pos]);
            a.output = tensor(g.ranks[pos].output);
            a.segment_pages = segment;
            a.done_sem = done.sem[pos].addr;
            a.done_count = done.count[pos];  // every gather kernel of the rank
            a.extract = allReduce ? 0 : 1;
            a.elem_bytes = std::uint32_t(golden::elementBytes(s.dtype));
            a.frac_first = std::uint32_t(std::min<std::uint64_t>(pos * F, g.golden.count));
            a.frac_elems = std::uint32_t(std::min<std::uint64_t>(F, g.golden.count - a.frac_first));
            kernel(chip, reducer[pos], "local_reduce", fw::ccl::local_reduce_main, pack_args(a), 0);
        }
    }

    // ---- sizing -------------------------------------------------------------------

    /// EDM channels on the busiest Ethernet core: streams per link end.
    unsigned channelsPerLinkEnd() const {
        const unsigned w = s.workers;
        const unsigned gather = unsigned(plan->gatherDirs.size()) * w;
        const unsigned reduce = unsigned(plan->reduceDirs.size()) * w;
        unsigned per = 0;
        switch (s.op) {
            case Op::AllGather:
            case Op::Broadcast: per = gather; break;
            case Op::AllToAll: per = unsigned(op.dirs_.size()) * w; break;
            case Op::ReduceScatter: per = reduce; break;
            case Op::AllReduce: per = reduce + gather; break;
        }
        if (s.method == golden::Method::Broadcast && (s.op == Op::ReduceScatter || s.op == Op::AllReduce))
            per = unsigned(op.dirs_.size()) * w;  // the exchange only
        // A link carries the streams of every hop that crosses it: both hops of
        // a ring of two, and relayed hops of other groups.
        std::map<const LinkDesc*, unsigned> uses;
        unsigned most = 1;
        for (const CclGroup& g : op.groups_)
            for (const CclHop& h : g.topo.hops)
                for (const auto& seg : h.segments)
                    for (const LinkDesc* l : seg) most = std::max(most, ++uses[l]);
        return per * most;
    }

    void choosePacket() {
        const std::uint32_t page = s.pageBytes;
        if (s.impl == CclSpec::Impl::Fabric && s.method != golden::Method::Broadcast) {
            // No EDM: the fabric's packets carry up to two pages (scatter
            // writes); --packet sizes EDM messages only. A page too large for
            // the fabric's payload is refused when the fabric is built.
            const std::uint32_t fits = std::max<std::uint32_t>(1, arch.fabric.maxPayloadBytes / page);
            op.pagesPerChunk_ =
                std::uint32_t(std::min<std::uint64_t>(std::min<std::uint32_t>(2, fits), op.blockPages_));
            return;
        }
        const unsigned ch = std::max(1u, channelsPerLinkEnd());
        const unsigned slots = s.impl == CclSpec::Impl::Edm ? s.edmBuffers : 1;  // EDM channels only
        // Kernel region after the handshake word and the EDM's ack word; per
        // channel: its semaphore and `slots` slots of payload + sync word.
        // Ops sharing the Ethernet cores' EDMs split the region between them.
        const std::uint32_t region =
            (arch.erisc.kernelRegionEnd() - (arch.erisc.unreservedBase + 32)) / std::max(1u, s.sharing.edmShare);
        const std::uint32_t perChannel = region / ch;
        const std::uint32_t perSlot = perChannel > 16 ? (perChannel - 16) / slots : 0;
        const std::uint32_t fit = perSlot > 16 ? (perSlot - 16) / page * page : 0;
        std::uint32_t packet = s.packetBytes;
        if (packet == 0) {
            packet = std::min(fit, std::max(page, kMaxAutoPacket / page * page));
            if (packet < page)
                throw CclOpError(
                    "edm_buffers",
                    fmt::format("{}: {} EDM channels of {} buffer(s) per Ethernet core leave {} B per "
                                "buffer, less than one {} B page; use fewer {} or {}",
                                opName(s.op), ch, slots, perSlot, page, specRef("workers"), specRef("edm_buffers")));
        } else {
            if (packet % page)
                throw CclOpError("packet_bytes", fmt::format("{}: must be a whole number of {} B pages",
                                                             specRef("packet_bytes", packet), page));
            if (packet > fit)
                throw CclOpError(
                    "packet_bytes",
                    fmt::format("{}: {} EDM channels per Ethernet core ({} link(s) x {} worker(s)) of {} "
                                "buffer(s) fit at most {} B per buffer in the {} B kernel region",
                                specRef("packet_bytes", packet), ch, s.links, s.workers, slots, fit, region));
        }
        // Chunks never span blocks.
        op.pagesPerChunk_ = std::uint32_t(std::min<std::uint64_t>(packet / page, op.blockPages_));
    }
};

// ---- CclOp ---------------------------------------------------------------------

CclOp::~CclOp() = default;

CclOp::CclOp(Runtime& rt, const CclSpec& spec) : spec_(spec) {
    const ClusterDescriptor& d = rt.platform().descriptor();
    const CclSpec& s = spec_;
    using golden::Method;
    if (s.groups.empty()) throw CclOpError("groups", "a collective needs a chip order");
    const std::uint32_t e = std::uint32_t(golden::elementBytes(s.dtype));
    if (s.pageBytes == 0 || s.pageBytes % 32)
        throw CclOpError("page_bytes",
                         fmt::format("{}: must be a non-zero multiple of 32", specRef("page_bytes", s.pageBytes)));
    if (s.pageBytes % e)
        throw CclOpError("page_bytes", fmt::format("{} does not hold whole {} elements",
                                                   specRef("page_bytes", s.pageBytes), golden::dtypeName(s.dtype)));
    if (s.workers == 0) throw CclOpError("workers", fmt::format("{} must be at least 1", specRef("workers")));
    if (s.edmBuffers < 1 || s.edmBuffers > edm::kMaxBuffersPerChannel)
        throw CclOpError("edm_buffers", fmt::format("{}: must be 1..{}", specRef("edm_buffers", s.edmBuffers),
                                                    edm::kMaxBuffersPerChannel));
    const bool reduces = s.op == Op::ReduceScatter || s.op == Op::AllReduce;
    if (reduces && !golden::supports(s.redop, s.dtype))
        throw CclOpError(
            "redop", fmt::format("{} does not support {}: {} takes {}", specRef("redop", golden::redOpName(s.redop)),
                                 specRef("dtype", golden::dtypeName(s.dtype)), golden::redOpName(s.redop),
                                 golden::supportedTypes(s.redop)));
    std::map<const LinkDesc*, unsigned> linkLoad;  // relayed hops of all groups spread over the links
    for (const auto& order : s.groups)
        groups_.push_back(CclGroup{buildTopology(d, order, s.topology(), s.links, s.relay, &linkLoad), {}, {}, {}});
    const unsigned n = unsigned(groups_.front().topo.size());
    for (const CclGroup& g : groups_)
        if (g.topo.size() != n) throw CclOpError("groups", "every group of a collective must have the same size");
    // The fabric implementation moves data between neighbours only: relayed
    // groups run on the EDM unless the user asked for the fabric (an error below).
    for (const CclGroup& g : groups_)
        for (const CclHop& h : g.topo.hops)
            if (h.relayed() && spec_.impl == CclSpec::Impl::Fabric && !spec_.implGiven) spec_.impl = CclSpec::Impl::Edm;

    // Shapes (GCL user guide 3.3) and their page layouts.
    const std::uint64_t E = s.count;
    if (E == 0) throw CclOpError("count", fmt::format("{}: the input has no elements", opName(s.op)));
    if (s.op == Op::AllToAll && E % n)
        throw CclOpError("count", fmt::format("all_to_all: the input's first dimension must equal the {} replicas: {} "
                                              "elements do not split into {} equal blocks",
                                              n, E, n));
    std::uint64_t K = E, inBlocks = 1, outBlocks = 1;
    switch (s.op) {
        case Op::AllGather: outBlocks = n; break;
        case Op::ReduceScatter: K = (E + n - 1) / n, inBlocks = n; break;
        case Op::AllReduce: K = (E + n - 1) / n, inBlocks = outBlocks = n; break;
        case Op::AllToAll: K = E / n, inBlocks = outBlocks = n; break;
        case Op::Broadcast: break;
    }
    const std::uint32_t P = s.pageBytes / e;
    blockPages_ = (K + P - 1) / P;
    if (blockPages_ * std::max(inBlocks, outBlocks) > 0xffffffffull)
        throw CclOpError("count", fmt::format("{} elements is too large", E));
    inLayout_ =
        BlockLayout{inBlocks, K, s.op == Op::ReduceScatter || s.op == Op::AllReduce ? E : inBlocks * K, s.pageBytes, e};
    outLayout_ = BlockLayout{outBlocks, K, s.op == Op::AllReduce ? E : outBlocks * K, s.pageBytes, e};
    if (s.method == Method::Broadcast && reduces) {
        // Whole inputs travel: one contiguous block; all_reduce's output too.
        blockPages_ = (E + P - 1) / P;
        inLayout_ = BlockLayout{1, E, E, s.pageBytes, e};
        if (s.op == Op::AllReduce) outLayout_ = BlockLayout{1, E, E, s.pageBytes, e};
        if (E > 0xffffffffull) throw CclOpError("count", fmt::format("{} elements is too large", E));
    }
    if (s.op == Op::AllGather && s.dim == 1) {
        const std::uint64_t row = std::uint64_t(s.rowPages) * P;
        if (s.rowPages == 0 || K % row)
            throw CclOpError("row_pages", fmt::format("all_gather {}: the {} elements per rank do not split into rows "
                                                      "of {} pages ({} elements; {})",
                                                      specRef("dim", 1), K, s.rowPages, row, specRef("row_pages")));
        outLayout_ = BlockLayout{1, n * K, n * K, s.pageBytes, e};  // rows interleave: pages in order are the output
    }
    if (s.op == Op::AllGather && s.dim > 1)
        throw CclOpError("dim", fmt::format("{}: must be 0 or 1", specRef("dim", s.dim)));
    if (s.op == Op::Broadcast && s.root >= n)
        throw CclOpError("root", fmt::format("{}: the collective has ranks 0..{}", specRef("root", s.root), n - 1));
    if (s.method == Method::Line && s.topology() != TopologyKind::Line) throw std::logic_error("line method on a ring");

    const bool ring = s.topology() == TopologyKind::Ring;
    Impl impl(rt, *this);
    impl.n = n;
    impl.units = s.links * s.workers;
    impl.plan = std::make_unique<MethodPlan>(s.method, n, ring, blockPages_);
    const MethodPlan& mp = *impl.plan;
    const bool viaBroadcast = s.method == Method::Broadcast && reduces;
    dirs_ = s.op == Op::AllToAll || viaBroadcast ? (s.method == Method::Clockwise       ? std::vector<unsigned>{0}
                                                    : s.method == Method::Anticlockwise ? std::vector<unsigned>{1}
                                                                                        : std::vector<unsigned>{0, 1})
            : s.op == Op::ReduceScatter          ? mp.reduceDirs
                                                 : mp.gatherDirs;
    impl.blockPages = std::uint32_t(blockPages_);
    impl.choosePacket();
    if (s.sharing.edm) {
        fabric_ = s.sharing.edm;
        if (fabric_->buffersPerChannel() != s.edmBuffers)
            throw CclOpError("edm_buffers",
                             fmt::format("{}: {} but the ops sharing the EDMs use {}", opName(s.op),
                                         specRef("edm_buffers", s.edmBuffers), fabric_->buffersPerChannel()));
    } else {
        ownEdm_ =
            std::make_unique<EdmFabric>(rt, edm::TerminationMode::MESSAGE_COUNT_REACHED, packetBytes(), s.edmBuffers);
        fabric_ = ownEdm_.get();
    }
    fabric_->beginOp(packetBytes(), s.sharing.stream);

    for (CclGroup& g : groups_) {
        golden::Collective& gc = g.golden;
        gc.op = s.op;
        gc.redop = s.redop;
        gc.dtype = s.dtype;
        gc.method = s.method;
        gc.ranks = n;
        gc.count = E;
        gc.pageElements = P;
        gc.root = s.root;
        gc.gatherDim = s.dim;
        gc.rowElements = std::uint64_t(s.rowPages) * P;
        for (unsigned pos = 0; pos < n; ++pos) {
            CclRank r;
            r.chip = g.topo.order[pos];
            Program& p = rt.program(r.chip);
            r.input = p.createBuffer(inLayout_.pages(), s.pageBytes, !s.l1Buffers);
            r.output = p.createBuffer(outLayout_.pages(), s.pageBytes, !s.l1Buffers);
            g.ranks.push_back(r);
        }

        GatherPlan gp;
        gp.ranks = n;
        gp.ring = ring;
        gp.ring_reach[0] = mp.gatherReach[0];
        gp.ring_reach[1] = mp.gatherReach[1];
        switch (s.op) {
            case Op::AllGather:
                if (s.impl == CclSpec::Impl::Fabric) {
                    impl.buildFabricRing(g);
                    break;
                }
                impl.buildGather(g, gp, false, *fabric_);
                break;
            case Op::Broadcast:
                if (s.impl == CclSpec::Impl::Fabric) {
                    impl.buildFabricGather(g, int(s.root));
                    break;
                }
                gp.root = std::int32_t(s.root);
                impl.buildGather(g, gp, false, *fabric_);
                break;
            case Op::ReduceScatter:
                if (s.impl == CclSpec::Impl::Fabric && !viaBroadcast)
                    impl.buildFabricRing(g);
                else if (viaBroadcast)
                    impl.buildBroadcastMethod(g, *fabric_);
                else
                    impl.buildReduce(g, false, {}, *fabric_);
                break;
            case Op::AllReduce: {
                if (s.impl == CclSpec::Impl::Fabric && !viaBroadcast) {
                    impl.buildFabricRing(g);
                    break;
                }
                if (viaBroadcast) {
                    impl.buildBroadcastMethod(g, *fabric_);
                    break;
                }
                const auto senders = impl.buildGather(g, gp, true, *fabric_);
                impl.buildReduce(g, true, senders, *fabric_);
                break;
            }
            case Op::AllToAll:
                if (s.impl == CclSpec::Impl::Fabric)
                    impl.buildFabricAllToAll(g);
                else
                    impl.buildAllToAll(g, *fabric_);
                break;
        }
    }
    impl.buildRelays(fabric_->payloadBytes());
    if (ownEdm_) ownEdm_->build();  // a shared one: built by the caller after the last op
    maxCores_ = impl.cores.maxUsed();

    // The inputs: the user's, or generated; the host loads them (zero
    // simulated time), as a test would.
    if (!s.inputs.empty() && s.inputs.size() != groups_.size())
        throw std::logic_error("CclSpec: inputs for a different number of groups");
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        CclGroup& g = groups_[gi];
        for (unsigned pos = 0; pos < n; ++pos) {
            if (!s.inputs.empty()) {
                const golden::Tensor& t = s.inputs[gi].at(pos);
                if (t.size() != E * e)
                    throw CclOpError("inputs",
                                     fmt::format("input of rank {}: {} elements, expected {}", pos, t.size() / e, E));
                g.inputs.push_back(t);
            } else if (s.data) {
                // Timing mode stores and checks no payload: no input to make.
                g.inputs.push_back(golden::makeInput(g.golden, s.seed, g.ranks[pos].chip));
            }
        }
        if (!s.data) continue;
        for (unsigned pos = 0; pos < n; ++pos) {
            if (s.op == Op::Broadcast && pos != s.root) continue;
            const Buffer& b = g.ranks[pos].input;
            inLayout_.toPages(g.inputs[pos],
                              [&](std::uint64_t page, const std::uint8_t* bytes) { rt.writePage(b, page, bytes); });
        }
    }
}

void CclOp::finishBuild() {
    for (auto& f : afterFabric_) f();
    afterFabric_.clear();
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
            for (const auto& seg : h.segments)
                for (const LinkDesc* l : seg) {
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

std::vector<std::vector<golden::Tensor>> CclOp::outputs(Runtime& rt) const {
    std::vector<std::vector<golden::Tensor>> out;
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        out.emplace_back();
        for (unsigned pos = 0; pos < groups_[gi].ranks.size(); ++pos) out.back().push_back(rankOutput(rt, gi, pos));
    }
    return out;
}

golden::Tensor CclOp::rankOutput(Runtime& rt, std::size_t group, unsigned pos) const {
    const CclRank& r = groups_.at(group).ranks.at(pos);
    return outLayout_.fromPages([&](std::uint64_t page, std::uint8_t* bytes) { rt.readPage(r.output, page, bytes); });
}

CclCheck CclOp::check(Runtime& rt) const {
    CclCheck c;
    if (!spec_.data) return c;
    const std::size_t e = golden::elementBytes(spec_.dtype);
    // One rank at a time (its output read back, its golden output made): a
    // check holds two output tensors, not two copies of every rank's.
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        const CclGroup& g = groups_[gi];
        golden::forEachExpectedOutput(g.golden, g.inputs, [&](unsigned pos, const golden::Tensor& b) {
            const golden::Tensor a = rankOutput(rt, gi, pos);
            if (a.size() != b.size())
                throw std::logic_error(
                    fmt::format("output of rank {}: {} B, the golden reference has {} B", pos, a.size(), b.size()));
            if (std::memcmp(a.data(), b.data(), a.size()) == 0) {  // the usual case: all equal
                c.elementsChecked += a.size() / e;
                return;
            }
            for (std::size_t i = 0; i < a.size(); i += e) {
                ++c.elementsChecked;
                if (std::memcmp(&a[i], &b[i], e) == 0) continue;
                ++c.wrongElements;
                if (c.firstFailure.empty())
                    c.firstFailure = fmt::format(
                        "{}: chip {} (rank {}) output element {} is {} (0x{}), the golden reference has {} (0x{})",
                        opName(spec_.op), g.ranks[pos].chip, pos, i / e, golden::toDouble(spec_.dtype, &a[i]),
                        hexOf(&a[i], e), golden::toDouble(spec_.dtype, &b[i]), hexOf(&b[i], e));
            }
        });
    }
    c.status = c.wrongElements ? "fail" : "pass";
    return c;
}

}  // namespace cclsim::ccl
