#include "host/microbench/FabricUbench.h"

#include "firmware/microbench/fabric_bench_args.h"
#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace cclsim::microbench {

using namespace cclsim::fabric;

const std::vector<std::string>& fabricUbenchPatterns() {
    static const std::vector<std::string> names{"unidirectional_linear", "all_to_all", "one_to_all", "full_ring",
                                                "half_ring"};
    return names;
}

namespace {

bool ringPattern(const std::string& p) {
    return p == "full_ring" || p == "half_ring";
}

}  // namespace

std::vector<FabricUbenchFlow> FabricUbench::planFlows(const FabricTopology& topo, const std::string& pattern) {
    if (topo.is2d()) throw ConfigError("fabric_ubench: the patterns run on a 1D fabric (--fabric line or ring)");
    const bool ring = topo.kind == FabricKind::Ring;
    if (ringPattern(pattern) != ring)
        throw ConfigError(fmt::format("fabric_ubench --pattern {}: runs on a {} fabric, not a {}", pattern,
                                      ringPattern(pattern) ? "ring" : "line", ring ? "ring" : "line"));
    const unsigned n = unsigned(topo.order.size());
    if (n < 2) throw ConfigError("fabric_ubench: the fabric needs at least two chips");
    std::vector<FabricUbenchFlow> flows;
    auto add = [&](unsigned pos, Dir d, unsigned hops) {
        if (hops == 0) return;
        FabricUbenchFlow f;
        f.src = topo.order[pos];
        f.dir = d;
        f.hops = hops;
        unsigned c = f.src;
        for (unsigned h = 0; h < hops; ++h) {
            const auto next = topo.neighbour(c, d);
            if (!next) throw ConfigError(fmt::format("fabric_ubench: chip {} has no neighbour {}", c, dirName(d)));
            c = *next;
            f.chips.push_back(c);
        }
        flows.push_back(std::move(f));
    };
    for (unsigned i = 0; i < n; ++i) {
        if (pattern == "unidirectional_linear") {
            if (i < n / 2)
                add(i, Dir::E, n - 1 - i);
            else
                add(i, Dir::W, i);
        } else if (pattern == "all_to_all") {
            add(i, Dir::E, n - 1 - i);
            add(i, Dir::W, i);
        } else if (pattern == "one_to_all") {
            if (i == 0)
                for (unsigned h = 1; h < n; ++h) add(i, Dir::E, h);
        } else if (pattern == "full_ring") {
            add(i, Dir::E, n - 1);
            add(i, Dir::W, n - 1);
        } else if (pattern == "half_ring") {
            const unsigned big = n / 2, small = (n - 1) / 2;  // 4 and 3 on 8 chips
            const bool swap = i % 2 == 0;
            add(i, Dir::E, swap ? small : big);
            add(i, Dir::W, swap ? big : small);
        } else {
            throw ConfigError(fmt::format("fabric_ubench: unknown pattern '{}'", pattern));
        }
    }
    return flows;
}

unsigned FabricUbench::maxFlowsPerLink(const std::vector<FabricUbenchFlow>& flows) {
    std::map<std::pair<unsigned, unsigned>, unsigned> count;  // (chip, dir) it leaves through
    unsigned m = 0;
    for (const FabricUbenchFlow& f : flows) {
        unsigned c = f.src;
        for (unsigned next : f.chips) {
            m = std::max(m, ++count[{c, unsigned(f.dir)}]);
            c = next;
        }
    }
    return m;
}

FabricKind FabricUbench::topology() const {
    return fab_->topology().kind;
}

void FabricUbench::build(Runtime& rt, const FabricUbenchParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    const std::string kind = !p.fabric.kind.empty() ? p.fabric.kind : ringPattern(p.pattern) ? "ring" : "line";
    fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, kind, p.fabric.order), FabricOptions{});
    flows_ = planFlows(fab_->topology(), p.pattern);
    mcast_ = p.ftype.empty() ? p.pattern != "one_to_all" : p.ftype == "mcast";
    if (p.packetBytes == 0 || p.packetBytes % 16 || p.packetBytes > fab_->maxPayloadBytes())
        throw ConfigError(fmt::format("--packet {}: must be a multiple of 16 in 16 .. {} (the fabric's payload)",
                                      p.packetBytes, fab_->maxPayloadBytes()));
    packets_ = std::max<std::uint32_t>(1, std::uint32_t(std::ceil(p.bytes / p.packetBytes)));
    const ArchConfig& arch = d.arch;

    // Each flow's receiving core: the same on every chip (a multicast writes
    // one address on each), flows apart.
    if (flows_.size() + 2 > arch.workers.size())
        throw ConfigError(
            fmt::format("--pattern {}: {} flows need more worker cores than the chip's {} (a shorter --order)",
                        p.pattern, flows_.size(), arch.workers.size()));
    flowCore_.clear();
    for (std::size_t f = 0; f < flows_.size(); ++f) flowCore_.push_back(arch.workers[arch.workers.size() - 1 - f]);

    // Senders: one per chip that sends, near the router of its first flow.
    senders_.clear();
    std::map<unsigned, std::size_t> senderOf;
    for (std::size_t f = 0; f < flows_.size(); ++f) {
        auto [it, fresh] = senderOf.emplace(flows_[f].src, senders_.size());
        if (fresh) {
            senders_.emplace_back();
            senders_.back().chip = flows_[f].src;
        }
        Sender& s = senders_[it->second];
        s.flows.push_back(f);
        if (std::find(s.dirs.begin(), s.dirs.end(), flows_[f].dir) == s.dirs.end()) s.dirs.push_back(flows_[f].dir);
    }
    const std::uint32_t buf = (p.packetBytes + 15) / 16 * 16;
    for (Sender& s : senders_) {
        if (s.flows.size() > kUbenchMaxFlows)
            throw ConfigError(fmt::format("--pattern {}: chip {} would send {} flows, at most {} (a shorter --order)",
                                          p.pattern, s.chip, s.flows.size(), kUbenchMaxFlows));
        s.core = freeWorkerNear(rt, s.chip, fab_->router(s.chip, 0, s.dirs.front()).core, flowCore_);
        for (Dir dir : s.dirs) s.clients.push_back(fab_->addClient(s.chip, s.core, dir, 0));
        Program& prog = rt.program(s.chip);
        s.buf = prog.allocateL1(s.core, buf, 16);
        s.res = prog.allocateL1(s.core, 16, 16);
        prog.markControl(s.core, s.res, 16);
        KernelConfig kc;
        kc.vc = 1;
        s.kernel = prog.createKernel("fabric_ubench_sender", fw::microbench::fabric_ubench_main, s.core, kc);
    }
    // Receivers: on every chip a flow writes (a unicast: the last one), the
    // flow's core, with its buffer and semaphore at one address on all chips.
    receivers_.clear();
    flowBuf_.assign(flows_.size(), 0);
    flowSem_.assign(flows_.size(), 0);
    for (std::size_t f = 0; f < flows_.size(); ++f) {
        const FabricUbenchFlow& fl = flows_[f];
        bool first = true;
        for (std::size_t k = 0; k < fl.chips.size(); ++k) {
            if (!mcast_ && k + 1 < fl.chips.size()) continue;
            Program& prog = rt.program(fl.chips[k]);
            const std::uint32_t b = prog.allocateL1(flowCore_[f], buf, 16);
            const std::uint32_t sem = prog.createSemaphore(flowCore_[f], 0, "fubench_sem");
            Receiver r;
            r.flow = f;
            r.chip = fl.chips[k];
            r.res = prog.allocateL1(flowCore_[f], 16, 16);
            prog.markControl(flowCore_[f], r.res, 16);
            if (first) {
                flowBuf_[f] = b;
                flowSem_[f] = sem;
                first = false;
            } else if (b != flowBuf_[f] || sem != flowSem_[f]) {
                throw ConfigError(fmt::format("fabric_ubench: flow {}'s buffers differ between chips (internal)", f));
            }
            KernelConfig kc;
            kc.vc = 1;
            r.kernel =
                prog.createKernel("fabric_ubench_receiver", fw::microbench::fabric_ubench_main, flowCore_[f], kc);
            receivers_.push_back(r);
        }
    }
    fab_->build();

    for (std::size_t si = 0; si < senders_.size(); ++si) {
        const Sender& s = senders_[si];
        FabricUbenchArgs a;
        a.role = 0;
        a.packets = packets_;
        a.payload = p.packetBytes;
        a.buffer = s.buf;
        a.results = s.res;
        a.stream = unsigned(si) + 1;
        a.header_words = fab_->headerBytes() / 4;
        a.n_flows = unsigned(s.flows.size());
        a.n_conns = unsigned(s.clients.size());
        a.fused = p.fused ? 1 : 0;
        for (std::size_t c = 0; c < s.clients.size(); ++c) a.conn[c] = fab_->connection(s.clients[c]);
        std::vector<PacketHeader> headers;
        for (std::size_t i = 0; i < s.flows.size(); ++i) {
            const std::size_t f = s.flows[i];
            const FabricUbenchFlow& fl = flows_[f];
            a.flow_conn[i] = unsigned(std::find(s.dirs.begin(), s.dirs.end(), fl.dir) - s.dirs.begin());
            // The first hop's header (its chips and route length), then the
            // route of the whole flow one way round.
            PacketHeader h = fab_->header(s.chip, fl.chips.front());
            if (mcast_)
                h.set_route_1d_multicast(1, fl.hops);
            else
                h.set_route_1d_multicast(fl.hops, 1);
            h.set_chips(s.chip, fl.chips.back());
            headers.push_back(benchCommand(h, p.scatter ? BenchCommand::ScatterWrite : BenchCommand::Write,
                                           flowCore_[f], flowBuf_[f], flowSem_[f], p.packetBytes));
            headers.push_back(benchCommand(h, BenchCommand::FusedWriteInc, flowCore_[f], flowBuf_[f], flowSem_[f],
                                           p.packetBytes,
                                           /*flush=*/true));
        }
        rt.program(s.chip).setRuntimeArgs(s.kernel, packFabricBench(a, headers));
    }
    std::vector<std::uint32_t> streamOf(flows_.size(), 0);
    for (std::size_t si = 0; si < senders_.size(); ++si)
        for (std::size_t f : senders_[si].flows) streamOf[f] = unsigned(si) + 1;
    for (const Receiver& r : receivers_) {
        FabricUbenchArgs a;
        a.role = 1;
        a.packets = packets_;
        a.payload = p.packetBytes;
        a.buffer = flowBuf_[r.flow];
        a.stream = streamOf[r.flow];
        a.fused = p.fused ? 1 : 0;
        a.sem = flowSem_[r.flow];
        a.results = r.res;
        a.header_words = fab_->headerBytes() / 4;
        rt.program(r.chip).setRuntimeArgs(r.kernel, packFabricBench(a, {}));
    }
}

FabricUbenchResult FabricUbench::read(Runtime& rt) const {
    double t0 = 1e300, t1 = 0;
    for (const Sender& s : senders_) t0 = std::min(t0, stampNs(rt, s.chip, s.core, s.res));
    for (const Receiver& r : receivers_) t1 = std::max(t1, stampNs(rt, r.chip, flowCore_[r.flow], r.res));
    FabricUbenchResult out;
    out.maxFlowsPerLink = maxFlowsPerLink(flows_);
    out.timeNs = t1 - t0;
    const double perFlowBytes = double(packets_) * p_.packetBytes;
    out.perFlowGBps = perFlowBytes / out.timeNs;
    out.payloadGBps = out.perFlowGBps * out.maxFlowsPerLink;
    out.headerBytes = fab_->headerBytes();
    out.framingLimitGBps =
        fabricFramingLimitGBps(rt.platform().descriptor().arch.erisc.eth, fab_->headerBytes(), p_.packetBytes);
    return out;
}

}  // namespace cclsim::microbench
