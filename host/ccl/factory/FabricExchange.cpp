// The packet-fabric exchange of a group: kernels, fabric clients, arguments.
#include "host/ccl/factory/FabricExchange.h"

#include "firmware/ccl/ccl_kernels.h"
#include "host/ccl/CclOpError.h"
#include "models/pe/PeDma.h"

namespace cclsim::ccl {

using namespace cclsim::fabric;

FabricExchange::FabricExchange(FactoryContext& ctx, CclGroup& g, const ExchangePlan& x)
    : ctx_(ctx), g_(g), x_(x), n_(ctx.plan.ranks) {}

std::string FabricExchange::build() {
    const CclTopology& t = g_.topo;
    const CclSpec& s = ctx_.spec;
    for (const CclHop& h : t.hops)
        if (h.relayed()) return fmt::format("relayed groups run on the EDM streams ({})", specRef("impl", "edm"));
    if (n_ > kMaxExchangeRanks) return fmt::format("at most {} ranks", kMaxExchangeRanks);
    ring_ = t.ring() && n_ >= 3;
    if (s.sharing.fabric || s.sharing.edm)
        throw CclOpError("impl", fmt::format("{} (method {}) runs a packet fabric of its own, which cannot share the "
                                             "Ethernet cores with other ops; run the ops with {} (a reduction: or "
                                             "another {})",
                                             golden::opName(s.op), golden::methodName(s.method), specRef("impl", "edm"),
                                             specRef("method")));
    fab_ = std::make_unique<FabricBuilder>(
        ctx_.rt, makeTopology1d(ring_ ? FabricKind::Ring : FabricKind::Line, t.order), FabricOptions{1, 0});
    if (s.pageBytes > fab_->maxPayloadBytes())
        return fmt::format("a {} B page does not fit the fabric's {} B packet payload (--fabric-payload)", s.pageBytes,
                           fab_->maxPayloadBytes());
    // all_to_all: two pages per packet (a scatter write) where they fit.
    batch_ = x_.allToAll ? std::min<std::uint32_t>(2, fab_->maxPayloadBytes() / s.pageBytes) : x_.batch;
    doneSemaphores();
    planKernels();
    createKernels();
    fab_->build();
    setArgs();
    ctx_.packetFabrics.push_back(std::move(fab_));
    return {};
}

std::uint32_t FabricExchange::range(unsigned pos, unsigned d) const {
    if (ring_) return d == 0 ? n_ / 2 : n_ - 1 - n_ / 2;
    return d == 0 ? n_ - 1 - pos : pos;
}

void FabricExchange::doneSemaphores() {
    const CclTopology& t = g_.topo;
    done_.assign(n_, RemoteSem{});
    waiter_.assign(n_, CoreCoord{});
    for (unsigned pos = 0; pos < n_; ++pos) {
        if (x_.external) {
            done_[pos] = x_.external->sem[pos];
            continue;
        }
        waiter_[pos] = ctx_.takeCore(t.order[pos]);
        done_[pos] = RemoteSem{waiter_[pos].x, waiter_[pos].y,
                               ctx_.rt.program(t.order[pos]).createSemaphore(waiter_[pos], 0, "gather_done")};
    }
}

void FabricExchange::planKernels() {
    const CclTopology& t = g_.topo;
    const unsigned W = x_.workers;
    const std::vector<Buffer>& dst = *x_.dst;
    // Multicast needs every rank's destination and semaphore at the same addresses.
    bool same = !x_.allToAll;
    for (unsigned q = 1; q < n_; ++q)
        same = same && dst[q].base == dst[0].base && done_[q].x == done_[0].x && done_[q].y == done_[0].y &&
               done_[q].addr == done_[0].addr;
    for (unsigned pos = 0; pos < n_; ++pos) {
        const unsigned chip = t.order[pos];
        std::vector<unsigned> dirs;
        for (unsigned d : {0u, 1u})
            if (sends(pos) && range(pos, d) > 0) dirs.push_back(d);
        // Streams that land here: W per other sending rank, W own copies.
        std::uint32_t expected = sends(pos) ? W : 0;
        for (unsigned o = 0; o < n_; ++o)
            if (o != pos && sends(o)) expected += W;
        // all_to_all on an even ring: the diametric rank's block comes both ways.
        if (splitDiametric()) expected += W;
        if (x_.external) x_.external->count[pos] = expected;
        std::vector<std::vector<unsigned>> kernelDirs;
        if (x_.kernelPerDirection)
            for (unsigned d : dirs) kernelDirs.push_back({d});
        else if (!dirs.empty())
            kernelDirs.push_back(dirs);
        bool first = true;
        for (std::size_t kd = 0; kd < kernelDirs.size(); ++kd)
            for (unsigned w = 0; w < W; ++w) {
                Kernel k;
                k.pos = pos;
                k.dirs = kernelDirs[kd];
                k.waiter = first && !x_.external;
                k.core = k.waiter ? waiter_[pos] : ctx_.takeCore(chip);
                k.a.worker = w;
                k.a.workers = W;
                k.a.own_copy = kd == 0 ? 1 : 0;
                k.a.wait_count = first && !x_.external ? expected : 0;
                for (unsigned d : k.dirs) k.a.mcast_range[d] = same ? range(pos, d) : 0;
                first = false;
                ks_.push_back(k);
            }
        if (first && !x_.external) {  // a rank that only receives
            Kernel k;
            k.pos = pos;
            k.core = waiter_[pos];
            k.a.send = 0;
            k.a.own_copy = 0;
            k.a.wait_count = expected;
            ks_.push_back(k);
        }
    }
}

void FabricExchange::createKernels() {
    for (Kernel& k : ks_) {
        const unsigned chip = g_.topo.order[k.pos];
        Program& p = ctx_.rt.program(chip);
        KernelConfig kc;
        kc.vc = unsigned(DmaVc::Comm);
        kc.waitTimeout = KernelConfig::WaitTimeout::Fabric;
        k.a.batch = batch_;
        k.a.staging = p.allocateL1(k.core, 2 * batch_ * ctx_.spec.pageBytes, 32);
        k.handle = p.createKernel(x_.kernelName, fw::ccl::fabric_exchange_main, k.core, kc);
        if (x_.allToAll && !x_.external) k.initSem = p.createSemaphore(k.core, 0, "init_sem");
        for (unsigned d : k.dirs) k.client[d] = fab_->addClient(chip, k.core, Dir(d), 0);
    }
}

void FabricExchange::setArgs() {
    const CclTopology& t = g_.topo;
    const std::vector<Buffer>& dst = *x_.dst;
    for (Kernel& k : ks_) {
        FabricExchangeArgs& a = k.a;
        const unsigned chip = t.order[k.pos];
        a.pos = k.pos;
        a.ranks = n_;
        a.a2a = !x_.allToAll ? 0 : splitDiametric() ? 3 : ring_ ? 2 : 1;
        a.page_bytes = ctx_.spec.pageBytes;
        a.pages = std::uint32_t(ctx_.plan.shape.blockPages);
        a.block = x_.root < 0 ? k.pos : 0;
        a.blocks = x_.root < 0 ? n_ : 1;
        a.row_pages = x_.rowPages;
        a.input = tensorArgs(g_.ranks[k.pos].input);
        a.scratch_dram = tensorArgs(dst[k.pos]).dram;
        a.scratch_shard = dst[k.pos].shard;
        for (unsigned q = 0; q < n_; ++q) {
            a.chip[q] = t.order[q];
            a.scratch_base[q] = dst[q].base;
            a.done_xy[q] = packXY(done_[q].x, done_[q].y);
            a.done_addr[q] = done_[q].addr;
            if (q == k.pos) continue;
            const Route r = fab_->route(chip, t.order[q]);
            a.dir[q] = unsigned(r.first());
            a.hops[q] = r.size();
        }
        for (unsigned d : k.dirs) {
            a.has_conn[d] = 1;
            a.conn[d] = fab_->connection(k.client[d]);
        }
    }
    if (x_.allToAll && !x_.external) setInitBarrier();
    for (Kernel& k : ks_) ctx_.rt.program(g_.topo.order[k.pos]).setRuntimeArgs(k.handle, pack_args(k.a));
}

void FabricExchange::setInitBarrier() {
    // tt-metal's all_to_all_async_generic writer: each chip's sender of link
    // 0 multicasts one increment each way, to the chips that way on a line
    // (forward n-1-pos, backward pos), n/2 forward and n-n/2-1 backward on a
    // ring (range()), at the init semaphore of one core (the same on every
    // chip); that core waits for n - 1, then sets the init semaphore of the
    // chip's other sender cores (a multicast there; one increment each here).
    const Kernel* w0 = nullptr;
    for (const Kernel& k : ks_)
        if (k.waiter) {
            if (!w0) w0 = &k;
            if (k.core.x != w0->core.x || k.core.y != w0->core.y || k.initSem != w0->initSem)
                throw std::logic_error(fmt::format(
                    "fabric all_to_all: the start barrier's core or semaphore differs between positions {} and {}",
                    w0->pos, k.pos));
        }
    if (!w0) return;
    for (Kernel& k : ks_) {
        FabricExchangeArgs& a = k.a;
        a.init_sem = k.initSem;
        a.init_xy = packXY(w0->core.x, w0->core.y);
        a.init_target = w0->initSem;
        if (a.worker == 0)
            for (unsigned d : k.dirs) a.init_range[d] = range(k.pos, d);
        if (!k.waiter) continue;
        a.init_count = n_ - 1;
        for (const Kernel& o : ks_) {
            if (o.pos != k.pos || &o == &k) continue;
            if (a.releases == kMaxExchangeRanks)
                throw CclOpError("workers", fmt::format("fabric all_to_all: at most {} sender kernels per chip",
                                                        kMaxExchangeRanks + 1));
            a.release_xy[a.releases] = packXY(o.core.x, o.core.y);
            a.release_addr[a.releases] = o.initSem;
            ++a.releases;
        }
    }
}

}  // namespace cclsim::ccl
