#include "host/microbench/FabricTraffic.h"

#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"
#include "models/common/Scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace cclsim::microbench {

using namespace cclsim::fabric;

void FabricTraffic::build(Runtime& rt, const FabricTrafficParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    FabricOptions fo;
    fo.reads = p.reads > 0;  // the routers' reply channels, only when the run reads
    fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, p.fabric.kind, p.fabric.order), fo);
    if (p.maxBytes > fab_->maxPayloadBytes())
        throw ConfigError(
            fmt::format("--max-bytes {}: the fabric's largest payload is {} B", p.maxBytes, fab_->maxPayloadBytes()));
    if (p.plane >= fab_->planes())
        throw ConfigError(fmt::format("--plane {}: the fabric has {} plane(s)", p.plane, fab_->planes()));
    chips_ = fab_->topology().chips();
    if (chips_.size() - 1 > kTrafficMaxPeers)
        throw ConfigError(fmt::format("fabric_traffic: at most {} peers per chip", kTrafficMaxPeers));
    placeReceivers(rt);
    placeSenders(rt);
    fab_->build();
    setSenderArgs(rt);
    setReceiverArgs(rt);
}

/// One receiver per chip near a router: a region and a counter per source,
/// and the region other chips read from (filled with its reference stream).
void FabricTraffic::placeReceivers(Runtime& rt) {
    const std::uint32_t readBytes = p_.maxBytes + 16 * p_.reads;
    for (unsigned c : chips_) {
        Rx r;
        r.chip = c;
        const RouterInfo& any = fab_->routers().front();
        r.core = freeWorkerNear(rt, c, c == any.chip ? any.core : fab_->firstRouterCore(c, CoreCoord{1, 1}), {});
        Program& prog = rt.program(c);
        r.readSrc = prog.allocateL1(r.core, readBytes, 16);
        std::vector<std::uint8_t> bytes(readBytes);
        refStreamFill(trafficReadStream(c), 0, bytes.data(), readBytes);
        rt.platform().chip(c).core(r.core)->l1.writeBytes(r.readSrc, readBytes, bytes.data());
        for (unsigned s : chips_) {
            if (s == c) continue;
            r.sources.push_back(s);
            r.region.push_back(prog.allocateL1(r.core, p_.messages * p_.maxBytes, 16));
            r.counter.push_back(prog.createSemaphore(r.core, 0, fmt::format("from_chip{}", s)));
            for (unsigned i = 0; i < p_.messages; ++i) prog.markControl(r.core, r.region.back() + i * p_.maxBytes, 16);
        }
        KernelConfig kc;
        kc.vc = 1;
        r.kernel = prog.createKernel("fabric_traffic_rx", fw::microbench::fabric_traffic_main, r.core, kc);
        rxs_.push_back(r);
    }
    for (const Rx& r : rxs_)
        if (r.readSrc != rxs_.front().readSrc) throw std::logic_error("fabric_traffic: read regions differ");
}

/// One sender per chip and first-hop direction, near that direction's router.
void FabricTraffic::placeSenders(Runtime& rt) {
    for (unsigned c : chips_) {
        std::map<unsigned, Tx> byDir;
        for (unsigned dst : chips_) {
            if (dst == c) continue;
            const Dir dir = fab_->route(c, dst).first();
            byDir[unsigned(dir)].dests.push_back(dst);
        }
        std::vector<CoreCoord> taken;
        for (auto& [dir, t] : byDir) {
            t.chip = c;
            t.dir = Dir(dir);
            t.core = freeWorkerNear(rt, c, fab_->router(c, p_.plane, t.dir).core, taken);
            taken.push_back(t.core);
            Program& prog = rt.program(c);
            t.client = fab_->addClient(c, t.core, t.dir, p_.plane);
            t.staging = prog.allocateL1(t.core, 2 * p_.maxBytes, 16);
            t.reply = prog.allocateL1(
                t.core, std::max<std::uint32_t>(16, p_.reads * std::uint32_t(t.dests.size()) * p_.maxBytes), 16);
            t.replySem = prog.createSemaphore(t.core, 0, "reply_sem");
            prog.markControl(t.core, t.staging, 16);
            prog.markControl(t.core, t.staging + p_.maxBytes, 16);
            KernelConfig kc;
            kc.vc = 1;
            t.kernel = prog.createKernel(fmt::format("fabric_traffic_tx_{}", dirName(t.dir)),
                                         fw::microbench::fabric_traffic_main, t.core, kc);
            txs_.push_back(t);
        }
    }
}

void FabricTraffic::setSenderArgs(Runtime& rt) {
    auto rxOf = [&](unsigned chip) -> const Rx& {
        for (const Rx& r : rxs_)
            if (r.chip == chip) return r;
        throw std::logic_error("no receiver");
    };
    for (const Tx& t : txs_) {
        FabricTrafficArgs a = common();
        a.role = 0;
        a.chip = t.chip;
        a.staging = t.staging;
        a.reply = t.reply;
        a.reply_sem = t.replySem;
        a.read_src = rxs_.front().readSrc;
        a.n_peers = std::uint32_t(t.dests.size());
        a.conn = fab_->connection(t.client);
        std::vector<PacketHeader> headers;
        for (std::size_t i = 0; i < t.dests.size(); ++i) {
            const Rx& r = rxOf(t.dests[i]);
            const std::size_t k =
                std::size_t(std::find(r.sources.begin(), r.sources.end(), t.chip) - r.sources.begin());
            a.peer_chip[i] = r.chip;
            a.peer_xy[i] = packXY(r.core.x, r.core.y);
            a.peer_region[i] = r.region[k];
            a.peer_counter[i] = r.counter[k];
            PacketHeader h = fab_->header(t.chip, r.chip);
            if (p_.reads) fab_->setReadReply(h, t.chip, r.chip);
            headers.push_back(h);
        }
        rt.program(t.chip).setRuntimeArgs(t.kernel, packFabricBench(a, headers));
    }
}

void FabricTraffic::setReceiverArgs(Runtime& rt) {
    for (const Rx& r : rxs_) {
        FabricTrafficArgs a = common();
        a.role = 1;
        a.chip = r.chip;
        a.read_src = r.readSrc;
        a.n_peers = std::uint32_t(r.sources.size());
        for (std::size_t i = 0; i < r.sources.size(); ++i) {
            a.peer_chip[i] = r.sources[i];
            a.peer_region[i] = r.region[i];
            a.peer_counter[i] = r.counter[i];
        }
        rt.program(r.chip).setRuntimeArgs(r.kernel, packFabricBench(a, {}));
    }
}

FabricTrafficArgs FabricTraffic::common() const {
    FabricTrafficArgs a;
    a.messages = p_.messages;
    a.max_bytes = p_.maxBytes;
    a.slot_bytes = p_.maxBytes;
    a.seed = p_.seed;
    a.reads = p_.reads;
    a.read_max = std::min(p_.maxBytes, fab_->readMaxBytes());
    a.header_words = fab_->headerBytes() / 4;
    return a;
}

FabricTrafficResult FabricTraffic::read(const RunResult& run) const {
    std::uint64_t bytes = 0, packets = 0;
    for (unsigned s : chips_)
        for (unsigned d : chips_) {
            if (s == d) continue;
            for (unsigned i = 0; i < p_.messages; ++i) {
                const auto m = trafficMessage(p_.seed, s, d, i, p_.maxBytes);
                bytes += m.kind == 3 ? 4 : m.bytes;
                packets += m.kind < 2 ? 1 : 2;
            }
        }
    const std::uint64_t readPackets = std::uint64_t(p_.reads) * chips_.size() * (chips_.size() - 1);
    FabricTrafficResult r;
    r.chips = chips_.size();
    r.messages = p_.messages * chips_.size() * (chips_.size() - 1);
    r.packets = packets + 2 * readPackets;
    r.payloadBytes = bytes;
    r.reads = readPackets;
    r.senders = txs_.size();
    r.muxes = fab_->muxCount();
    r.topology = fab_->topology().kind;
    r.timeUs = ticksToNs(run.lastKernelFinish) / 1000.0;
    return r;
}

}  // namespace cclsim::microbench
