#include "host/microbench/FabricBandwidth.h"

#include "firmware/microbench/fabric_bench_args.h"
#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cclsim::microbench {

using namespace cclsim::fabric;

void FabricBandwidth::build(Runtime& rt, const FabricBandwidthParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    fab_ = std::make_unique<FabricBuilder>(rt, topologyFromOptions(d, p.fabric.kind, p.fabric.order), FabricOptions{});
    resolve(p);
    const Dir out = fab_->route(srcChip_, dstChip_).first();
    const Dir back = fab_->route(dstChip_, srcChip_).first();
    packets_ = std::max<std::uint32_t>(1, std::uint32_t(std::ceil(p.bytes / packetUsed_)));
    placePairs(rt, out, back);
    fab_->build();
    setArgs(rt);
}

/// Packet size, planes, source and destination chips from the options and the fabric.
void FabricBandwidth::resolve(const FabricBandwidthParams& p) {
    packetUsed_ = p.packetBytes ? p.packetBytes : fab_->maxPayloadBytes();
    if (packetUsed_ > fab_->maxPayloadBytes())
        throw ConfigError(
            fmt::format("--packet {}: the fabric's largest payload is {} B", packetUsed_, fab_->maxPayloadBytes()));
    planesUsed_ = p.planes ? p.planes : fab_->planes();
    if (planesUsed_ > fab_->planes())
        throw ConfigError(fmt::format("--planes {}: the fabric has {} plane(s)", planesUsed_, fab_->planes()));
    planesUsed_ = std::min(planesUsed_, p.workers);
    srcChip_ = sourceChip(fab_->topology(), p.src);
    const auto along = targetsAlongRoute(*fab_, srcChip_, p.hops);
    if (along.size() < p.hops)
        throw ConfigError(fmt::format("--hops {}: from chip {} the {} fabric reaches {} hop(s) in one direction",
                                      p.hops, srcChip_, fabricKindName(fab_->topology().kind), along.size()));
    dstChip_ = along.back();
}

/// Worker w sends on plane w % planes, both ends near that plane's routers.
void FabricBandwidth::placePairs(Runtime& rt, Dir out, Dir back) {
    const std::uint32_t buf = (packetUsed_ + 15) / 16 * 16;
    std::vector<CoreCoord> takenS, takenR;
    pairs_.clear();
    for (unsigned w = 0; w < p_.workers; ++w) {
        Pair p;
        p.plane = w % planesUsed_;
        p.sender = freeWorkerNear(rt, srcChip_, fab_->router(srcChip_, p.plane, out).core, takenS);
        p.receiver = freeWorkerNear(rt, dstChip_, fab_->router(dstChip_, p.plane, back).core, takenR);
        takenS.push_back(p.sender);
        takenR.push_back(p.receiver);
        Program& ps = rt.program(srcChip_);
        Program& pr = rt.program(dstChip_);
        p.client = fab_->addClient(srcChip_, p.sender, out, p.plane);
        p.srcBuf = ps.allocateL1(p.sender, buf, 16);
        p.srcRes = ps.allocateL1(p.sender, 16, 16);
        p.dstBuf = pr.allocateL1(p.receiver, buf, 16);
        p.dstSem = pr.createSemaphore(p.receiver, 0, "fbw_sem");
        p.dstRes = pr.allocateL1(p.receiver, 16, 16);
        ps.markControl(p.sender, p.srcRes, 16);
        pr.markControl(p.receiver, p.dstRes, 16);
        KernelConfig kc;
        kc.vc = 1;
        p.ks = ps.createKernel("fabric_bw_sender", fw::microbench::fabric_bandwidth_main, p.sender, kc);
        p.kr = pr.createKernel("fabric_bw_receiver", fw::microbench::fabric_bandwidth_main, p.receiver, kc);
        pairs_.push_back(p);
    }
}

void FabricBandwidth::setArgs(Runtime& rt) {
    for (unsigned w = 0; w < p_.workers; ++w) {
        const Pair& p = pairs_[w];
        FabricBandwidthArgs s;
        s.role = 0;
        s.packets = packets_;
        s.payload = packetUsed_;
        s.buffer = p.srcBuf;
        s.results = p.srcRes;
        s.stream = w + 1;
        s.header_words = fab_->headerBytes() / 4;
        s.conn = fab_->connection(p.client);
        const PacketHeader h = benchCommand(fab_->header(srcChip_, dstChip_), BenchCommand::FusedWriteInc, p.receiver,
                                            p.dstBuf, p.dstSem, packetUsed_);
        rt.program(srcChip_).setRuntimeArgs(p.ks, packFabricBench(s, {h}));
        FabricBandwidthArgs r;
        r.role = 1;
        r.packets = packets_;
        r.payload = packetUsed_;
        r.buffer = p.dstBuf;
        r.sem = p.dstSem;
        r.results = p.dstRes;
        r.stream = w + 1;
        r.header_words = s.header_words;
        rt.program(dstChip_).setRuntimeArgs(p.kr, packFabricBench(r, {}));
    }
}

FabricBandwidthResult FabricBandwidth::read(Runtime& rt) const {
    double t0 = 1e300, t1 = 0;
    for (const Pair& p : pairs_) {
        t0 = std::min(t0, stampNs(rt, srcChip_, p.sender, p.srcRes));
        t1 = std::max(t1, stampNs(rt, dstChip_, p.receiver, p.dstRes));
    }
    FabricBandwidthResult r;
    const double bytes = double(packets_) * packetUsed_ * p_.workers;
    r.payloadGBps = bytes / (t1 - t0);
    const EthConfig& e = rt.platform().descriptor().arch.erisc.eth;
    r.framingLimitGBps = planesUsed_ * fabricFramingLimitGBps(e, fab_->headerBytes(), packetUsed_);
    r.lineRateGBps = planesUsed_ * e.lineBytesPerNs;
    r.timeNs = t1 - t0;
    r.headerBytes = fab_->headerBytes();
    r.viaMux = fab_->muxCount() > 0;
    r.topology = fab_->topology().kind;
    return r;
}

}  // namespace cclsim::microbench
