#include "firmware/api/pto_api.h"

#include "firmware/api/api_internal.h"
#include "firmware/api/dataflow_api.h"
#include "firmware/api/fabric_api.h"

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

namespace cclsim::fw::pto {

namespace {

using fabric::PacketHeader;

constexpr std::uint32_t kReplySlots = 8;            ///< reply counters (16 B each) from PtoEndpoint::reply_sem
constexpr std::uint32_t kPublishPollCycles = 1000;  ///< between reads of a peer's unpublished group word
constexpr std::uint32_t kPublishPolls = 2000;       ///< ~2 ms for a peer to publish its group

struct Chunk {
    std::uint32_t r0, c0, nr, nc;
};

/// A get in flight: chunks of (src rows src_row0.., dst rows dst_row0..) through 1 or 2 tiles.
struct GetOp {
    GlobalTensor dst, src;
    std::uint32_t dst_row0 = 0, src_row0 = 0;
    std::vector<Chunk> chunks;
    Tile tiles[2];
    unsigned ntiles = 1;
    std::uint32_t slot = 0;
    std::vector<std::uint32_t> target;  ///< replies after chunk i's requests (cumulative)
    std::uint32_t issued = 0, stored = 0;
    bool finished = false;
};

struct Pending {
    bool isGet = false;
    bool local = false;  ///< a put to this rank: completes at the write barrier
    std::uint32_t slot = 0, target = 0;
    std::unique_ptr<GetOp> get;
    bool done = false;
};

struct Ctx {
    PtoEndpoint ep;
    ParallelGroup group;
    std::uint32_t hash = 0;
    WorkerToFabricEdmSender tx[2];
    std::uint32_t slotBusy = 0;  ///< bit per reply slot
    std::uint32_t verified = 0;  ///< bit per rank whose group matched
    std::vector<Pending> pending;
};

std::map<const KernelContext*, Ctx>& contexts() {
    static std::map<const KernelContext*, Ctx> c;
    return c;
}

Ctx& me(const char* api) {
    KernelContext& k = detail::ctx();
    auto it = contexts().find(&k);
    if (it == contexts().end()) CCLSIM_ERROR(k.name(), "{}: call pto_init first", api);
    return it->second;
}

[[noreturn]] void fail(const std::string& msg) {
    CCLSIM_ERROR(detail::ctx().name(), "{}", msg);
    throw std::logic_error(msg);  // not reached: CCLSIM_ERROR throws
}

std::uint32_t ebytes(const GlobalTensor& t) {
    return dtype_bytes(t.dtype);
}

std::uint64_t dramAddr(const GlobalTensor& t, std::uint32_t row, std::uint32_t byteOff) {
    return get_noc_addr(row, InterleavedAddrGen<true>{t.base, t.row_bytes}, byteOff);
}

std::uint64_t peerL1(const Ctx& c, std::uint32_t rank, std::uint32_t addr) {
    const std::uint32_t xy = c.ep.peer_xy[rank];
    return get_noc_addr(xy >> 16, xy & 0xffff, addr);
}

WorkerToFabricEdmSender& txTo(Ctx& c, std::uint32_t rank) {
    const std::uint32_t d = c.ep.peer_dir[rank];
    if (d > 1 || !c.ep.has_conn[d]) fail(fmt::format("PTO: no fabric connection towards rank {}", rank));
    return c.tx[d];
}

// ---- reply slots -------------------------------------------------------------------------------------

std::uint32_t acquireSlot(Ctx& c, const char* api) {
    for (std::uint32_t s = 0; s < kReplySlots; ++s)
        if (!(c.slotBusy & (1u << s))) {
            c.slotBusy |= 1u << s;
            const std::uint32_t addr = c.ep.reply_sem + 16 * s;
            noc_semaphore_set(addr, 0);
            return addr;
        }
    fail(fmt::format("{}: more than {} operations in flight (Wait() for some first)", api, kReplySlots - 1));
}
void releaseSlot(Ctx& c, std::uint32_t addr) {
    c.slotBusy &= ~(1u << ((addr - c.ep.reply_sem) / 16));
}

// ---- fabric primitives ----------------------------------------------------------------------------------

void fabricWrite(Ctx& c, std::uint32_t rank, std::uint64_t dst, std::uint32_t src, std::uint32_t bytes) {
    WorkerToFabricEdmSender& tx = txTo(c, rank);
    for (std::uint32_t off = 0; off < bytes; off += c.ep.max_payload) {
        const std::uint32_t n = std::min(c.ep.max_payload, bytes - off);
        PacketHeader h = c.ep.header[rank];
        tx.send_packet(h.to_noc_unicast_write(dst + off, n), src + off, n);
    }
}

/// Request `bytes` at `src` on `rank` into local L1 `dst`; returns the replies to expect.
std::uint32_t fabricRead(Ctx& c, std::uint32_t rank, std::uint64_t src, std::uint32_t dst, std::uint32_t bytes,
                         std::uint32_t slot) {
    WorkerToFabricEdmSender& tx = txTo(c, rank);
    std::uint32_t n = 0;
    for (std::uint32_t off = 0; off < bytes; off += c.ep.read_max, ++n) {
        const std::uint32_t len = std::min(c.ep.read_max, bytes - off);
        PacketHeader h = c.ep.header[rank];
        tx.send_packet(h.to_noc_unicast_read(src + off, len, get_noc_addr(dst + off), get_noc_addr(slot), 1), 0, 0);
    }
    return n;
}

// ---- checks ---------------------------------------------------------------------------------------------

void checkTensor(const char* api, const char* role, const GlobalTensor& t, const Ctx& c) {
    if (t.rank >= c.ep.ranks)
        fail(fmt::format("{}: {} tensor on rank {}, the group has {} ranks", api, role, t.rank, c.ep.ranks));
    if (t.base == kNoBuffer)
        fail(fmt::format("{}: {} tensor on rank {} is uninitialised (no buffer)", api, role, t.rank));
    if (t.rows == 0 || t.cols == 0)
        fail(fmt::format("{}: {} tensor on rank {} is empty ({}x{})", api, role, t.rank, t.rows, t.cols));
    if (t.row_bytes < t.cols * ebytes(t))
        fail(fmt::format("{}: {} tensor on rank {}: rows of {} B cannot hold {} elements", api, role, t.rank,
                         t.row_bytes, t.cols));
}

void checkFits(const char* api, const GlobalTensor& dst, std::uint32_t rows, std::uint32_t cols,
               const GlobalTensor& src) {
    if (dst.dtype != src.dtype) fail(fmt::format("{}: destination and source data types differ", api));
    if (dst.rows < rows || dst.cols != cols)
        fail(
            fmt::format("{}: destination tensor on rank {} is {}x{}, too small for {}x{} (improperly sized "
                        "destination)",
                        api, dst.rank, dst.rows, dst.cols, rows, cols));
}

void checkTiles(const char* api, const Tile* t, unsigned n, std::uint32_t e) {
    KernelContext& k = detail::ctx();
    for (unsigned i = 0; i < n; ++i) {
        if (t[i].rows == 0 || t[i].cols == 0) fail(fmt::format("{}: staging tile {} is empty", api, i));
        detail::checkLocal(k, api, t[i].addr, std::uint64_t(t[i].rows) * t[i].cols * e);
        if (t[i].valid_row > t[i].rows || t[i].valid_col > t[i].cols)
            fail(fmt::format("{}: tile valid size {}x{} exceeds the tile's {}x{}", api, t[i].valid_row, t[i].valid_col,
                             t[i].rows, t[i].cols));
    }
    if (n == 2) {
        const std::uint64_t a0 = t[0].addr, a1 = a0 + std::uint64_t(t[0].rows) * t[0].cols * e;
        const std::uint64_t b0 = t[1].addr, b1 = b0 + std::uint64_t(t[1].rows) * t[1].cols * e;
        if (a0 < b1 && b0 < a1)
            fail(fmt::format("{}: ping tile [0x{:x}, 0x{:x}) and pong tile [0x{:x}, 0x{:x}) overlap in UB", api, a0, a1,
                             b0, b1));
        if (t[0].rows != t[1].rows || t[0].cols != t[1].cols || t[0].valid_row != t[1].valid_row ||
            t[0].valid_col != t[1].valid_col)
            fail(fmt::format("{}: ping and pong tiles differ in shape", api));
    }
}

/// 2D sliding over rows x cols with the tile's valid sizes.
std::vector<Chunk> slide(const char* api, std::uint32_t rows, std::uint32_t cols, const Tile& t) {
    const std::uint32_t vr = t.valid_row ? t.valid_row : t.rows, vc = t.valid_col ? t.valid_col : t.cols;
    if (t.valid_row && rows % vr)
        fail(fmt::format("{}: static valid row {} does not divide the tensor's {} rows (use a dynamic valid row)", api,
                         vr, rows));
    if (t.valid_col && cols % vc)
        fail(
            fmt::format("{}: static valid column {} does not divide the tensor's {} columns (use a dynamic valid "
                        "column)",
                        api, vc, cols));
    std::vector<Chunk> out;
    for (std::uint32_t r = 0; r < rows; r += vr)
        for (std::uint32_t c = 0; c < cols; c += vc)
            out.push_back({r, c, std::min(vr, rows - r), std::min(vc, cols - c)});
    return out;
}

/// Compare the peer's published group hash with ours (once per peer).
void verifyPeer(Ctx& c, const char* api, std::uint32_t rank) {
    if (rank == c.ep.rank || (c.verified & (1u << rank))) return;
    const std::uint32_t slot = acquireSlot(c, api);
    std::uint32_t seen = 0;
    for (std::uint32_t poll = 0; poll < kPublishPolls; ++poll) {
        noc_semaphore_set(slot, 0);
        // Into the second half of the landing zone: read-backs of puts in flight use the first.
        fabricRead(c, rank, peerL1(c, rank, c.ep.group_word), c.ep.fence + 16, 4, slot);
        noc_semaphore_wait_min(slot, 1);
        seen = l1_read_u32(c.ep.fence + 16);
        if (seen != 0) break;
        spin_cycles(kPublishPollCycles);  // not published yet
    }
    releaseSlot(c, slot);
    if (seen == 0)
        fail(fmt::format("{}: rank {} never published its ParallelGroup (did its kernel call pto_init?)", api, rank));
    if (seen != c.hash)
        fail(
            fmt::format("{}: mismatched ParallelGroup: rank {} holds a group with hash 0x{:08x}, this rank (rank {}) "
                        "0x{:08x}; every rank must call with the same group",
                        api, rank, seen, c.ep.rank, c.hash));
    c.verified |= 1u << rank;
}

// ---- chunk movement ---------------------------------------------------------------------------------------

void loadChunk(const GlobalTensor& src, std::uint32_t row0, const Chunk& k, const Tile& t) {
    const std::uint32_t e = ebytes(src), pitch = t.cols * e;
    for (std::uint32_t i = 0; i < k.nr; ++i)
        noc_async_read(dramAddr(src, row0 + k.r0 + i, k.c0 * e), t.addr + i * pitch, k.nc * e);
}

/// Send a chunk held in `t` to dst rows row0 + ... (dst on this rank: the NoC).
void storeChunk(Ctx& c, const GlobalTensor& dst, std::uint32_t row0, const Chunk& k, const Tile& t) {
    const std::uint32_t e = ebytes(dst), pitch = t.cols * e;
    for (std::uint32_t i = 0; i < k.nr; ++i) {
        const std::uint64_t to = dramAddr(dst, row0 + k.r0 + i, k.c0 * e);
        if (dst.rank == c.ep.rank)
            noc_async_write(t.addr + i * pitch, to, k.nc * e);
        else
            fabricWrite(c, dst.rank, to, t.addr + i * pitch, k.nc * e);
    }
}

/// Request a chunk of src (remote or local) into `t`; returns the replies to expect (0: local, read barrier).
std::uint32_t requestChunk(Ctx& c, const GlobalTensor& src, std::uint32_t row0, const Chunk& k, const Tile& t,
                           std::uint32_t slot) {
    if (src.rank == c.ep.rank) {
        loadChunk(src, row0, k, t);
        return 0;
    }
    const std::uint32_t e = ebytes(src), pitch = t.cols * e;
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < k.nr; ++i)
        n += fabricRead(c, src.rank, dramAddr(src, row0 + k.r0 + i, k.c0 * e), t.addr + i * pitch, k.nc * e, slot);
    return n;
}

/// Put the chunks of local src (rows from src_row0) to rows from dst_row0 of every tensor in dsts, through the tiles.
void putRows(Ctx& c, const std::vector<GlobalTensor>& dsts, std::uint32_t dst_row0, const GlobalTensor& src,
             std::uint32_t src_row0, const std::vector<Chunk>& chunks, const Tile* tiles, unsigned ntiles) {
    if (chunks.empty()) return;
    loadChunk(src, src_row0, chunks[0], tiles[0]);
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const Tile& t = tiles[i % ntiles];
        noc_async_read_barrier();  // chunk i is in its tile
        if (ntiles == 2 && i + 1 < chunks.size()) {
            noc_async_writes_flushed();                                   // the other tile's packets have left L1
            loadChunk(src, src_row0, chunks[i + 1], tiles[(i + 1) % 2]);  // overlaps the sends below
        }
        for (const GlobalTensor& d : dsts) storeChunk(c, d, dst_row0, chunks[i], t);
        if (ntiles == 1 && i + 1 < chunks.size()) {
            noc_async_writes_flushed();
            loadChunk(src, src_row0, chunks[i + 1], tiles[0]);
        }
    }
    noc_async_writes_flushed();
}

/// After a put's last packet to `dst.rank`: a read-back of its last written
/// word travels behind the writes; returns the replies to expect on `slot`.
std::uint32_t fence(Ctx& c, const GlobalTensor& dst, std::uint32_t lastRow, std::uint32_t slot) {
    if (dst.rank == c.ep.rank) return 0;
    const std::uint32_t bytes = std::min<std::uint32_t>(16, dst.cols * ebytes(dst));
    return fabricRead(c, dst.rank, dramAddr(dst, lastRow, 0), c.ep.fence, bytes, slot);
}

void issueGet(Ctx& c, GetOp& g) {
    const std::uint32_t i = g.issued++;
    const std::uint32_t before = g.target.empty() ? 0 : g.target.back();
    g.target.push_back(before + requestChunk(c, g.src, g.src_row0, g.chunks[i], g.tiles[i % g.ntiles], g.slot));
}

void startGet(Ctx& c, GetOp& g) {
    if (g.chunks.empty()) return;
    issueGet(c, g);
    if (g.ntiles == 2 && g.chunks.size() > 1) issueGet(c, g);
}

/// Move a get forward; true when complete. `block`: wait for replies.
bool stepGet(Ctx& c, GetOp& g, bool block) {
    while (!g.finished) {
        if (g.stored == g.chunks.size()) {
            noc_async_write_barrier();
            g.finished = true;
            break;
        }
        const std::uint32_t i = g.stored;
        if (g.src.rank == c.ep.rank) {
            noc_async_read_barrier();
        } else if (block) {
            noc_semaphore_wait_min(g.slot, g.target[i]);
        } else if (l1_read_u32(g.slot) < g.target[i]) {
            return false;
        }
        const Chunk& k = g.chunks[i];
        const Tile& t = g.tiles[i % g.ntiles];
        const std::uint32_t e = ebytes(g.dst), pitch = t.cols * e;
        for (std::uint32_t r = 0; r < k.nr; ++r)
            noc_async_write(t.addr + r * pitch, dramAddr(g.dst, g.dst_row0 + k.r0 + r, k.c0 * e), k.nc * e);
        ++g.stored;
        if (g.issued < g.chunks.size()) {
            noc_async_writes_flushed();  // the tile the next request lands in has been stored
            issueGet(c, g);
        }
    }
    return true;
}

std::unique_ptr<GetOp> makeGet(Ctx& c, const char* api, const GlobalTensor& dst, std::uint32_t dst_row0,
                               const GlobalTensor& src, std::uint32_t src_row0, std::uint32_t rows, const Tile* tiles,
                               unsigned ntiles) {
    auto g = std::make_unique<GetOp>();
    g->dst = dst;
    g->src = src;
    g->dst_row0 = dst_row0;
    g->src_row0 = src_row0;
    g->chunks = slide(api, rows, src.cols, tiles[0]);
    g->ntiles = ntiles;
    for (unsigned i = 0; i < ntiles; ++i) g->tiles[i] = tiles[i];
    g->slot = acquireSlot(c, api);
    return g;
}

void getRows(Ctx& c, const char* api, const GlobalTensor& dst, std::uint32_t dst_row0, const GlobalTensor& src,
             std::uint32_t src_row0, std::uint32_t rows, const Tile* tiles, unsigned ntiles) {
    auto g = makeGet(c, api, dst, dst_row0, src, src_row0, rows, tiles, ntiles);
    startGet(c, *g);
    stepGet(c, *g, true);
    releaseSlot(c, g->slot);
}

// ---- op bodies ---------------------------------------------------------------------------------------------

void checkPointToPoint(Ctx& c, const char* api, const GlobalTensor& dst, const GlobalTensor& src, const Tile* tiles,
                       unsigned ntiles, bool put) {
    checkTensor(api, "source", src, c);
    checkTensor(api, "destination", dst, c);
    checkFits(api, dst, src.rows, src.cols, src);
    if (put && src.rank != c.ep.rank)
        fail(fmt::format("{}: the source must be this rank's GM (rank {}), not rank {}", api, c.ep.rank, src.rank));
    if (!put && dst.rank != c.ep.rank)
        fail(
            fmt::format("{}: the destination must be this rank's GM (rank {}), not rank {}", api, c.ep.rank, dst.rank));
    checkTiles(api, tiles, ntiles, ebytes(src));
    verifyPeer(c, api, put ? dst.rank : src.rank);
}

AsyncEvent putImpl(const char* api, const GlobalTensor& dst, const GlobalTensor& src, const Tile* tiles,
                   unsigned ntiles, bool wait) {
    Ctx& c = me(api);
    checkPointToPoint(c, api, dst, src, tiles, ntiles, true);
    putRows(c, {dst}, 0, src, 0, slide(api, src.rows, src.cols, tiles[0]), tiles, ntiles);
    Pending p;
    p.local = dst.rank == c.ep.rank;
    p.slot = acquireSlot(c, api);
    p.target = fence(c, dst, src.rows - 1, p.slot);
    if (wait) {
        if (p.local)
            noc_async_write_barrier();
        else
            noc_semaphore_wait_min(p.slot, p.target);
        releaseSlot(c, p.slot);
        return AsyncEvent{};
    }
    c.pending.push_back(std::move(p));
    return AsyncEvent{std::uint32_t(c.pending.size() - 1)};
}

AsyncEvent getImpl(const char* api, const GlobalTensor& dst, const GlobalTensor& src, const Tile* tiles,
                   unsigned ntiles, bool wait) {
    Ctx& c = me(api);
    checkPointToPoint(c, api, dst, src, tiles, ntiles, false);
    if (wait) {
        getRows(c, api, dst, 0, src, 0, src.rows, tiles, ntiles);
        return AsyncEvent{};
    }
    Pending p;
    p.isGet = true;
    p.get = makeGet(c, api, dst, 0, src, 0, src.rows, tiles, ntiles);
    startGet(c, *p.get);
    c.pending.push_back(std::move(p));
    return AsyncEvent{std::uint32_t(c.pending.size() - 1)};
}

void checkRoot(Ctx& c, const char* api, const ParallelGroup& g) {
    if (g.GetSize() != c.ep.ranks)
        fail(fmt::format("{}: the ParallelGroup has {} ranks, the fabric endpoint {}", api, g.GetSize(), c.ep.ranks));
    if (c.ep.rank != g.GetRootIdx())
        fail(fmt::format("{}: called on rank {}, but only the group's root (rank {}) may call it", api, c.ep.rank,
                         g.GetRootIdx()));
    if (g.hash() != c.hash)
        fail(fmt::format("{}: the ParallelGroup differs from the one this rank published at pto_init", api));
    for (std::uint32_t r = 0; r < g.GetSize(); ++r) checkTensor(api, "group", g.tensor(r), c);
    for (std::uint32_t r = 0; r < g.GetSize(); ++r) verifyPeer(c, api, r);
}

/// Fence every rank in `ranks` (puts of a collective), then wait.
void fenceAll(Ctx& c, const char* api, const std::vector<GlobalTensor>& dsts, std::uint32_t lastRow) {
    const std::uint32_t slot = acquireSlot(c, api);
    std::uint32_t n = 0;
    for (const GlobalTensor& d : dsts) n += fence(c, d, lastRow, slot);
    noc_semaphore_wait_min(slot, n);
    noc_async_write_barrier();
    releaseSlot(c, slot);
}

bool compare(std::int32_t v, std::int32_t ref, WaitCmp cmp) {
    switch (cmp) {
        case WaitCmp::EQ: return v == ref;
        case WaitCmp::NE: return v != ref;
        case WaitCmp::GT: return v > ref;
        case WaitCmp::GE: return v >= ref;
        case WaitCmp::LT: return v < ref;
        case WaitCmp::LE: return v <= ref;
    }
    return false;
}

const char* cmpName(WaitCmp cmp) {
    static const char* n[] = {"EQ", "NE", "GT", "GE", "LT", "LE"};
    return unsigned(cmp) < 6 ? n[unsigned(cmp)] : "?";
}

void checkSignal(Ctx& c, const char* api, const Signal& s) {
    if (s.rank >= c.ep.ranks)
        fail(fmt::format("{}: signal on rank {}, the group has {} ranks", api, s.rank, c.ep.ranks));
    if (s.addr % 4) fail(fmt::format("{}: signal address 0x{:x} is not 4-byte aligned", api, s.addr));
    if (s.count == 0) fail(fmt::format("{}: empty signal tensor", api));
}

}  // namespace

// ---- ParallelGroup --------------------------------------------------------------------------------------------

ParallelGroup::ParallelGroup(std::uint32_t size, std::uint32_t root, const GlobalTensor* tensors)
    : size_(size), root_(root) {
    if (size == 0 || size > kMaxRanks) fail(fmt::format("ParallelGroup: {} ranks (1..{})", size, kMaxRanks));
    if (root >= size) fail(fmt::format("ParallelGroup: root {} is not one of the {} ranks", root, size));
    for (std::uint32_t r = 0; r < size; ++r) tensors_[r] = tensors[r];
}

std::uint32_t ParallelGroup::hash() const {
    std::uint32_t h = 2166136261u;
    auto mix = [&h](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 16777619u;
    };
    mix(size_);
    mix(root_);
    for (std::uint32_t r = 0; r < size_; ++r) {
        const GlobalTensor& t = tensors_[r];
        mix(t.rank), mix(t.base), mix(t.row_bytes), mix(t.rows), mix(t.cols), mix(std::uint32_t(t.dtype));
    }
    return h == 0 ? 1 : h;  // 0 means "not published"
}

// ---- setup ------------------------------------------------------------------------------------------------

void pto_init(const PtoEndpoint& ep, const ParallelGroup& group) {
    KernelContext& k = detail::ctx();
    if (ep.ranks == 0 || ep.ranks > kMaxRanks || ep.rank >= ep.ranks)
        CCLSIM_ERROR(k.name(), "pto_init: rank {} of {} ranks", ep.rank, ep.ranks);
    Ctx& c = contexts()[&k];
    c = Ctx{};
    c.ep = ep;
    c.group = group;
    c.hash = group.hash();
    for (unsigned d = 0; d < 2; ++d)
        if (ep.has_conn[d]) {
            c.tx[d] = WorkerToFabricEdmSender(ep.conn[d]);
            c.tx[d].open();
        }
    l1_write_u32(ep.group_word, c.hash);  // published: peers read it over the fabric
}

void pto_finish() {
    Ctx& c = me("pto_finish");
    for (std::size_t i = 0; i < c.pending.size(); ++i)
        if (!c.pending[i].done) AsyncEvent{std::uint32_t(i)}.Wait();
    for (unsigned d = 0; d < 2; ++d)
        if (c.tx[d].is_open()) c.tx[d].close();
    contexts().erase(&detail::ctx());
}

// ---- events ----------------------------------------------------------------------------------------------------

bool AsyncEvent::Test() {
    Ctx& c = me("AsyncEvent::Test");
    if (id >= c.pending.size()) fail(fmt::format("AsyncEvent::Test: no operation {} in flight", id));
    Pending& p = c.pending[id];
    if (p.done) return true;
    if (p.isGet) {
        if (!stepGet(c, *p.get, false)) return false;
        releaseSlot(c, p.get->slot);
    } else if (p.local) {
        noc_async_write_barrier();
    } else {
        if (l1_read_u32(p.slot) < p.target) return false;
    }
    if (!p.isGet) releaseSlot(c, p.slot);
    p.done = true;
    return true;
}

void AsyncEvent::Wait() {
    Ctx& c = me("AsyncEvent::Wait");
    if (id >= c.pending.size()) fail(fmt::format("AsyncEvent::Wait: no operation {} in flight", id));
    Pending& p = c.pending[id];
    if (p.done) return;
    if (p.isGet) {
        stepGet(c, *p.get, true);
        releaseSlot(c, p.get->slot);
    } else {
        if (p.local)
            noc_async_write_barrier();
        else
            noc_semaphore_wait_min(p.slot, p.target);
        releaseSlot(c, p.slot);
    }
    p.done = true;
}

// ---- point to point -------------------------------------------------------------------------------------------

void TPUT(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile) {
    putImpl("TPUT", dst, src, &tile, 1, true);
}
void TPUT(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    putImpl("TPUT", dst, src, t, 2, true);
}
AsyncEvent TPUT_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile) {
    return putImpl("TPUT_ASYNC", dst, src, &tile, 1, false);
}
AsyncEvent TPUT_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    return putImpl("TPUT_ASYNC", dst, src, t, 2, false);
}
void TGET(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile) {
    getImpl("TGET", dst, src, &tile, 1, true);
}
void TGET(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    getImpl("TGET", dst, src, t, 2, true);
}
AsyncEvent TGET_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& tile) {
    return getImpl("TGET_ASYNC", dst, src, &tile, 1, false);
}
AsyncEvent TGET_ASYNC(const GlobalTensor& dst, const GlobalTensor& src, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    return getImpl("TGET_ASYNC", dst, src, t, 2, false);
}

// ---- signals ----------------------------------------------------------------------------------------------------

void TNOTIFY(const Signal& dst, std::int32_t value, NotifyOp op) {
    Ctx& c = me("TNOTIFY");
    checkSignal(c, "TNOTIFY", dst);
    if (op != NotifyOp::Set && op != NotifyOp::AtomicAdd) fail("TNOTIFY: unknown NotifyOp");
    for (std::uint32_t i = 0; i < dst.count; ++i) {
        const std::uint32_t addr = dst.addr + 4 * i;
        if (dst.rank == c.ep.rank) {
            if (op == NotifyOp::Set)
                noc_inline_dw_write(get_noc_addr(addr), std::uint32_t(value));
            else
                noc_semaphore_inc(get_noc_addr(addr), std::uint32_t(value));
            continue;
        }
        PacketHeader h = c.ep.header[dst.rank];
        if (op == NotifyOp::Set)
            h.to_noc_unicast_inline_write(peerL1(c, dst.rank, addr), std::uint32_t(value));
        else
            h.to_noc_unicast_atomic_inc(peerL1(c, dst.rank, addr), std::uint32_t(value), /*flush=*/false);
        txTo(c, dst.rank).send_packet(h, 0, 0);
    }
}

void TWAIT(const Signal& s, std::int32_t cmp_value, WaitCmp cmp) {
    Ctx& c = me("TWAIT");
    checkSignal(c, "TWAIT", s);
    if (s.rank != c.ep.rank)
        fail(fmt::format("TWAIT: signal on rank {}; a rank waits on its own signals (rank {})", s.rank, c.ep.rank));
    KernelContext& k = detail::ctx();
    const std::string api = fmt::format("TWAIT({})", cmpName(cmp));
    // Every element must hold at once: wait for each in turn, then re-check all.
    for (;;) {
        for (std::uint32_t i = 0; i < s.count; ++i) {
            const std::uint32_t addr = s.addr + 4 * i;
            detail::checkLocal(k, "TWAIT", addr, 4);
            L1Memory& l1 = k.core().l1;
            detail::waitL1(k, api.c_str(), addr, std::uint32_t(cmp_value),
                           [&] { return compare(std::int32_t(l1.readU32(addr)), cmp_value, cmp); });
        }
        bool all = true;
        for (std::uint32_t i = 0; i < s.count && all; ++i)
            all = compare(std::int32_t(l1_read_u32(s.addr + 4 * i)), cmp_value, cmp);
        if (all) return;
    }
}

bool TTEST(const Signal& s, std::int32_t cmp_value, WaitCmp cmp) {
    Ctx& c = me("TTEST");
    checkSignal(c, "TTEST", s);
    if (s.rank != c.ep.rank)
        fail(fmt::format("TTEST: signal on rank {}; a rank tests its own signals (rank {})", s.rank, c.ep.rank));
    for (std::uint32_t i = 0; i < s.count; ++i)
        if (!compare(std::int32_t(l1_read_u32(s.addr + 4 * i)), cmp_value, cmp)) return false;
    return true;
}

// ---- collectives --------------------------------------------------------------------------------------------------

namespace {

void broadcastImpl(const ParallelGroup& g, const GlobalTensor& src, const Tile* tiles, unsigned ntiles) {
    const char* api = "TBROADCAST";
    Ctx& c = me(api);
    checkRoot(c, api, g);
    checkTensor(api, "source", src, c);
    if (src.rank != c.ep.rank) fail(fmt::format("{}: the source must be the root's GM", api));
    checkTiles(api, tiles, ntiles, ebytes(src));
    std::vector<GlobalTensor> dsts;
    for (std::uint32_t r = 0; r < g.GetSize(); ++r) {
        const GlobalTensor& d = g.tensor(r);
        checkFits(api, d, src.rows, src.cols, src);
        if (r != c.ep.rank || d.base != src.base) dsts.push_back(d);
    }
    putRows(c, dsts, 0, src, 0, slide(api, src.rows, src.cols, tiles[0]), tiles, ntiles);
    fenceAll(c, api, dsts, src.rows - 1);
}

void scatterImpl(const ParallelGroup& g, const GlobalTensor& src, const Tile* tiles, unsigned ntiles) {
    const char* api = "TSCATTER";
    Ctx& c = me(api);
    checkRoot(c, api, g);
    checkTensor(api, "source", src, c);
    if (src.rank != c.ep.rank) fail(fmt::format("{}: the source must be the root's GM", api));
    if (src.rows % g.GetSize())
        fail(fmt::format("{}: the source's {} rows do not split into {} equal row blocks", api, src.rows, g.GetSize()));
    checkTiles(api, tiles, ntiles, ebytes(src));
    const std::uint32_t H = src.rows / g.GetSize();
    const std::vector<Chunk> chunks = slide(api, H, src.cols, tiles[0]);
    std::vector<GlobalTensor> all;
    for (std::uint32_t r = 0; r < g.GetSize(); ++r) {
        const GlobalTensor& d = g.tensor(r);
        checkFits(api, d, H, src.cols, src);
        putRows(c, {d}, 0, src, r * H, chunks, tiles, ntiles);
        all.push_back(d);
    }
    fenceAll(c, api, all, H - 1);
}

void gatherImpl(const ParallelGroup& g, const GlobalTensor& dst, const Tile* tiles, unsigned ntiles) {
    const char* api = "TGATHER";
    Ctx& c = me(api);
    checkRoot(c, api, g);
    checkTensor(api, "destination", dst, c);
    if (dst.rank != c.ep.rank) fail(fmt::format("{}: the destination must be the root's GM", api));
    checkTiles(api, tiles, ntiles, ebytes(dst));
    const GlobalTensor& first = g.tensor(0);
    const std::uint32_t H = first.rows;
    checkFits(api, dst, g.GetSize() * H, first.cols, first);
    for (std::uint32_t r = 0; r < g.GetSize(); ++r) getRows(c, api, dst, r * H, g.tensor(r), 0, H, tiles, ntiles);
}

void reduceImpl(const ParallelGroup& g, const GlobalTensor& dst, const Tile& acc, const Tile* recv, unsigned nrecv,
                ReduceOp rop) {
    const char* api = "TREDUCE";
    Ctx& c = me(api);
    checkRoot(c, api, g);
    checkTensor(api, "destination", dst, c);
    if (dst.rank != c.ep.rank) fail(fmt::format("{}: the destination must be the root's GM", api));
    const GlobalTensor& mine = g.tensor(c.ep.rank);
    checkFits(api, dst, mine.rows, mine.cols, mine);
    const std::uint32_t e = ebytes(dst);
    const Tile all[3] = {acc, recv[0], nrecv == 2 ? recv[1] : recv[0]};
    checkTiles(api, &acc, 1, e);
    checkTiles(api, recv, nrecv, e);
    for (unsigned i = 1; i <= nrecv; ++i) {
        const Tile pair[2] = {acc, all[i]};
        checkTiles(api, pair, 2, e);  // the accumulator must not overlap a receive tile
    }
    const reduce_op op = reduce_op(unsigned(rop));
    const std::vector<Chunk> chunks = slide(api, mine.rows, mine.cols, acc);
    std::vector<std::uint32_t> others;
    for (std::uint32_t r = 0; r < g.GetSize(); ++r)
        if (r != c.ep.rank) others.push_back(r);
    // One reply counter per receive tile: replies of different ranks arrive in any order.
    std::uint32_t slot[2] = {acquireSlot(c, api), nrecv == 2 ? acquireSlot(c, api) : 0};
    std::uint32_t want[2] = {0, 0};
    auto request = [&](const Chunk& k, std::size_t j) {
        const unsigned t = unsigned(j % nrecv);
        noc_semaphore_set(slot[t], 0);
        want[t] = requestChunk(c, g.tensor(others[j]), 0, k, all[1 + t], slot[t]);
    };
    auto span = [&](const Chunk& k, const Tile& t, auto&& fn) {
        // The chunk's valid rows: whole tile rows when the chunk spans them, else row by row.
        const std::uint32_t pitch = t.cols * e;
        if (k.nc == t.cols)
            fn(0u, k.nr * pitch);
        else
            for (std::uint32_t i = 0; i < k.nr; ++i) fn(i * pitch, k.nc * e);
    };
    for (const Chunk& k : chunks) {
        noc_async_writes_flushed();  // the previous chunk's result has left the accumulator
        loadChunk(mine, 0, k, acc);
        for (std::size_t j = 0; j < std::min<std::size_t>(nrecv, others.size()); ++j) request(k, j);
        noc_async_read_barrier();
        span(k, acc, [&](std::uint32_t off, std::uint32_t bytes) {
            eltwise_prepare(acc.addr + off, acc.addr + off, bytes, op, dst.dtype);
        });
        for (std::size_t j = 0; j < others.size(); ++j) {
            const unsigned ti = unsigned(j % nrecv);
            const Tile& t = all[1 + ti];
            noc_semaphore_wait_min(slot[ti], want[ti]);
            span(k, acc, [&](std::uint32_t off, std::uint32_t bytes) {
                eltwise_prepare(t.addr + off, t.addr + off, bytes, op, dst.dtype);
                eltwise_reduce(acc.addr + off, acc.addr + off, t.addr + off, bytes, op, dst.dtype);
            });
            // The tile is free again: prefetch the rank that uses it next (with
            // ping-pong the following rank is already on its way).
            if (j + nrecv < others.size()) request(k, j + nrecv);
        }
        span(k, acc, [&](std::uint32_t off, std::uint32_t bytes) {
            eltwise_finalize(acc.addr + off, bytes, op, dst.dtype, g.GetSize());
        });
        storeChunk(c, dst, 0, k, acc);
    }
    noc_async_write_barrier();
    releaseSlot(c, slot[0]);
    if (nrecv == 2) releaseSlot(c, slot[1]);
}

}  // namespace

void TBROADCAST(const ParallelGroup& g, const GlobalTensor& src, const Tile& tile) {
    broadcastImpl(g, src, &tile, 1);
}
void TBROADCAST(const ParallelGroup& g, const GlobalTensor& src, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    broadcastImpl(g, src, t, 2);
}
void TSCATTER(const ParallelGroup& g, const GlobalTensor& src, const Tile& tile) {
    scatterImpl(g, src, &tile, 1);
}
void TSCATTER(const ParallelGroup& g, const GlobalTensor& src, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    scatterImpl(g, src, t, 2);
}
void TGATHER(const ParallelGroup& g, const GlobalTensor& dst, const Tile& tile) {
    gatherImpl(g, dst, &tile, 1);
}
void TGATHER(const ParallelGroup& g, const GlobalTensor& dst, const Tile& ping, const Tile& pong) {
    const Tile t[2] = {ping, pong};
    gatherImpl(g, dst, t, 2);
}
void TREDUCE(const ParallelGroup& g, const GlobalTensor& dst, const Tile& acc, const Tile& recv, ReduceOp op) {
    reduceImpl(g, dst, acc, &recv, 1, op);
}
void TREDUCE(const ParallelGroup& g, const GlobalTensor& dst, const Tile& acc, const Tile& ping, const Tile& pong,
             ReduceOp op) {
    const Tile t[2] = {ping, pong};
    reduceImpl(g, dst, acc, t, 2, op);
}

}  // namespace cclsim::fw::pto
