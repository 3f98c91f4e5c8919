#include "host/microbench/FabricPing.h"

#include "firmware/microbench/fabric_bench_args.h"
#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace cclsim::microbench {

using namespace cclsim::fabric;

void FabricPing::build(Runtime& rt, const FabricPingParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, p.fabric.kind, p.fabric.order), FabricOptions{});
    if (p.packetBytes > fab_->maxPayloadBytes())
        throw ConfigError(
            fmt::format("--packet {}: the fabric's largest payload is {} B", p.packetBytes, fab_->maxPayloadBytes()));
    if (p.plane >= fab_->planes())
        throw ConfigError(fmt::format("--plane {}: the fabric has {} plane(s)", p.plane, fab_->planes()));
    srcChip_ = sourceChip(fab_->topology(), p.src);
    targets_ = targetsAlongRoute(*fab_, srcChip_, p.hops ? p.hops : 64);
    if (targets_.empty()) throw ConfigError(fmt::format("fabric_ping: chip {} has no other chip to ping", srcChip_));
    if (p.hops && targets_.size() < p.hops)
        throw ConfigError(fmt::format("--hops {}: from chip {} the {} fabric reaches {} hop(s) in one direction",
                                      p.hops, srcChip_, fabricKindName(fab_->topology().kind), targets_.size()));
    const Dir out = fab_->route(srcChip_, targets_.front()).first();
    sender_ = freeWorkerNear(rt, srcChip_, fab_->router(srcChip_, p.plane, out).core, {});
    const std::vector<Core> cores = placeCores(rt, out);
    results_ = cores[0].results;
    std::vector<KernelHandle> ks;
    for (std::size_t i = 0; i < cores.size(); ++i) {
        KernelConfig kc;
        kc.vc = 1;  // communication traffic: vc_comm
        ks.push_back(rt.program(cores[i].chip)
                         .createKernel(i == 0 ? "fabric_ping_sender" : "fabric_ping_responder",
                                       fw::microbench::fabric_ping_main, cores[i].core, kc));
    }
    fab_->build();
    setArgs(rt, cores, ks);
}

/// The sender (first) and the responders, each near the router its route
/// leaves through; the same L1 layout on every core.
std::vector<FabricPing::Core> FabricPing::placeCores(Runtime& rt, Dir out) {
    const std::uint32_t buf = std::max<std::uint32_t>(16, (p_.packetBytes + 15) / 16 * 16);
    std::vector<Core> cores;
    auto place = [&](unsigned chip, CoreCoord core, Dir dir, std::uint32_t resultBytes) {
        Program& prog = rt.program(chip);
        Core c{chip, core, fab_->addClient(chip, core, dir, p_.plane), 0, 0, 0, 0};
        c.tx = prog.allocateL1(core, buf, 16);
        c.rx = prog.allocateL1(core, buf, 16);
        c.sem = prog.createSemaphore(core, 0, "ping_sem");
        c.results = prog.allocateL1(core, std::max<std::uint32_t>(16, resultBytes), 16);
        prog.markControl(core, c.tx, 16);
        prog.markControl(core, c.rx, 16);
        cores.push_back(c);
    };
    place(srcChip_, sender_, out, 12 * std::uint32_t(targets_.size()));
    for (unsigned t : targets_) {
        const Dir back = fab_->route(t, srcChip_).first();
        place(t, freeWorkerNear(rt, t, fab_->router(t, p_.plane, back).core, {}), back,
              12 * std::uint32_t(targets_.size()));
    }
    for (const Core& c : cores)
        if (c.rx != cores[0].rx || c.sem != cores[0].sem)
            throw std::logic_error("fabric_ping: buffers differ between sender and responders");
    return cores;
}

void FabricPing::setArgs(Runtime& rt, const std::vector<Core>& cores, const std::vector<KernelHandle>& ks) {
    for (std::size_t i = 0; i < cores.size(); ++i) {
        const Core& c = cores[i];
        FabricPingArgs a;
        a.role = i == 0 ? 0 : 1;
        a.mode = std::uint32_t(p_.mode);
        a.samples = p_.samples;
        a.payload = p_.packetBytes;
        a.tx = c.tx;
        a.rx = c.rx;
        a.sem = c.sem;
        a.results = c.results;
        a.header_words = fab_->headerBytes() / 4;
        a.conn = fab_->connection(c.client);
        std::vector<PacketHeader> headers;
        if (i == 0) {
            a.targets = std::uint32_t(targets_.size());
            for (std::size_t t = 0; t < targets_.size(); ++t)
                headers.push_back(benchCommand(fab_->header(srcChip_, targets_[t]), p_.mode, cores[t + 1].core, c.rx,
                                               c.sem, p_.packetBytes));
        } else {
            a.targets = std::uint32_t(i - 1);
            headers.push_back(
                benchCommand(fab_->header(c.chip, srcChip_), p_.mode, sender_, c.rx, c.sem, p_.packetBytes));
        }
        rt.program(c.chip).setRuntimeArgs(ks[i], packFabricBench(a, headers));
    }
}

FabricPingResult FabricPing::read(Runtime& rt) const {
    const double cycleNs = ticksToNs(rt.platform().descriptor().arch.cycles(1));
    FabricPingResult r;
    std::vector<double> xs, ys;
    for (std::size_t t = 0; t < targets_.size(); ++t) {
        const CoreRef s{srcChip_, sender_};
        FabricPingResult::Distance h;
        h.roundTripNs = rt.readL1(s, results_ + 12 * std::uint32_t(t)) * cycleNs / p_.samples;
        h.hops = fab_->route(srcChip_, targets_[t]).size();
        h.chip = targets_[t];
        xs.push_back(h.hops);
        ys.push_back(h.roundTripNs);
        h.roundTripMinNs = rt.readL1(s, results_ + 12 * std::uint32_t(t) + 4) * cycleNs;
        h.roundTripMaxNs = rt.readL1(s, results_ + 12 * std::uint32_t(t) + 8) * cycleNs;
        r.byHops.push_back(h);
    }
    r.fitted = xs.size() >= 2;
    if (r.fitted) {
        const double n = double(xs.size());
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (std::size_t i = 0; i < xs.size(); ++i)
            sx += xs[i], sy += ys[i], sxx += xs[i] * xs[i], sxy += xs[i] * ys[i];
        r.perHopNs = (n * sxy - sx * sy) / (n * sxx - sx * sx) / 2.0;
    } else {
        r.perHopNs = ys[0] / (2.0 * xs[0]);
    }
    r.headerBytes = fab_->headerBytes();
    r.topology = fab_->topology().kind;
    r.senderSlots = fab_->senderSlots();
    r.receiverSlots = fab_->receiverSlots();
    r.planes = fab_->planes();
    return r;
}

}  // namespace cclsim::microbench
