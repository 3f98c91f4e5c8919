#include "host/ipcq/IpcqLatency.h"

#include "firmware/ipcq/ipcq_args.h"
#include "firmware/ipcq/ipcq_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

namespace cclsim::ipcq {

GroupConfig IpcqLatency::groupConfig(const ClusterDescriptor& d) const {
    GroupConfig g;
    g.file = "ipcq_latency";
    g.algorithm = "ipcq_pingpong";
    g.topology.value = "ring_1d";
    g.bufferKind.value = p_.bufferKind;
    g.backpressure.value = p_.backpressure;
    g.creditMode.value = p_.creditMode;
    g.nSlots.value = 2;
    g.slotSize.value = (p_.bytes + 15) / 16 * 16;
    g.creditBytes.value = 16;
    g.nElem.value = 1;
    g.fabric.value = "auto";
    if (p_.vcComputeWeight) g.vcCompute.set(*p_.vcComputeWeight, g.file);
    if (p_.vcCommWeight) g.vcComm.set(*p_.vcCommWeight, g.file);
    // Two ranks: adjacent worker cores, or the same core position on the next chip.
    const CoreCoord a{1, 1}, b{1, 2};
    unsigned chip0 = d.ringOrder.empty() ? 0 : d.ringOrder.front(), chip1 = chip0;
    if (p_.ethHop) {
        bool found = false;
        for (unsigned c = 0; c < d.chips.size() && !found; ++c)
            if (c != chip0 && !d.userLinksBetween(chip0, c).empty()) chip1 = c, found = true;
        if (!found) throw ConfigError(fmt::format("--peer eth_hop: chip {} has no Ethernet neighbour", chip0));
    }
    g.placement.ranks = {RankSpec{chip0, a, std::nullopt, "ipcq_latency"},
                         RankSpec{chip1, p_.ethHop ? a : b, std::nullopt, "ipcq_latency"}};
    g.placementGiven = true;
    return g;
}

void IpcqLatency::build(Runtime& rt, const IpcqLatencyParams& p) {
    p_ = p;
    const GroupConfig g = groupConfig(rt.platform().descriptor());
    pg_ = std::make_unique<ProcessGroup>(rt, g);
    const RankInfo r0 = pg_->ranks()[0];
    std::array<std::uint32_t, 2> buffer{}, rawRx{}, rawSem{};
    for (unsigned i = 0; i < 2; ++i) {
        const RankInfo& r = pg_->ranks()[i];
        Program& prog = rt.program(r.chip);
        buffer[i] = prog.allocateL1(r.core, g.slotSize.value, 32);
        rawRx[i] = prog.allocateL1(r.core, g.slotSize.value, 32);
        rawSem[i] = prog.createSemaphore(r.core, 0, "raw_arrivals");
    }
    if (rawRx[0] != rawRx[1] || rawSem[0] != rawSem[1])
        throw std::logic_error("ipcq_latency: raw buffers differ between the two ranks");
    results_ = rt.program(r0.chip).allocateL1(r0.core, 16, 16);
    const std::uint32_t stop = p.computeStreamBytes ? startComputeStream(rt) : 0;
    const fabric::FabricBuilder* fab = pg_->fabric();
    pg_->launch("ipcq_pingpong", fw::ipcq::ipcq_pingpong_main, [&](unsigned rank) {
        const RankInfo& me = pg_->ranks()[rank];
        const RankInfo& other = pg_->ranks()[1 - rank];
        PingArgs a;
        a.role = rank;
        a.samples = p_.samples;
        a.bytes = p_.bytes;
        a.buffer = buffer[rank];
        a.results = rank == 0 ? results_ : 0;
        a.raw_sem = rawSem[rank];
        a.raw_rx = rawRx[rank];
        a.peer_x = other.core.x;
        a.peer_y = other.core.y;
        a.cross_chip = me.chip != other.chip;
        a.stop = rank == 0 ? stop : 0;
        std::vector<std::uint32_t> extra;
        if (a.cross_chip) {
            // The raw phase uses the connection of the direction it sends in.
            const IpcqQueuePair& q = pg_->ipcqOf(rank).queue(rank == 0 ? IpcqDir::E : IpcqDir::W, "ipcq_latency");
            extra = q.txConnection;
            a.header_words = fab->headerBytes() / 4;
            extra.insert(extra.end(), q.txHeader.begin(), q.txHeader.begin() + a.header_words);
        }
        return pack_ipcq_args(a, extra);
    });
}

std::uint32_t IpcqLatency::startComputeStream(Runtime& rt) {
    const RankInfo r0 = pg_->ranks()[0];
    const unsigned bytes = p_.computeStreamBytes;
    Program& prog = rt.program(r0.chip);
    const std::uint32_t stop = prog.createSemaphore(r0.core, 0, "stream_stop");
    const std::uint32_t src = prog.allocateL1(r0.core, bytes, 32);
    const BankMap& banks = rt.platform().chip(r0.chip).banks();
    if (banks.dramEndpoint.empty()) throw ConfigError("--compute-stream needs DRAM");
    const std::uint64_t region = prog.allocateDramRegion(bytes);
    const CoreCoord ep = banks.dramEndpoint.front();
    const std::uint64_t dst = nocaddr::encode(ep.x, ep.y, banks.dramOffset.front() + region);
    KernelConfig kc;
    kc.processor = "ncrisc";
    kc.vc = 0;  // vc_compute
    kc.noc = 0;
    const KernelHandle k = prog.createKernel("compute_stream", fw::ipcq::compute_stream_main, r0.core, kc);
    prog.setRuntimeArgs(k, {src, bytes, stop, std::uint32_t(dst >> 32), std::uint32_t(dst)});
    return stop;
}

IpcqLatencyResult IpcqLatency::read(Runtime& rt) const {
    const RankInfo& r0 = pg_->ranks()[0];
    const double cyc = ticksToNs(rt.platform().descriptor().arch.cycles(1));
    auto oneWay = [&](unsigned k) {
        return rt.readL1(CoreRef{r0.chip, r0.core}, results_ + 4 * k) * cyc / p_.samples / 2;
    };
    IpcqLatencyResult r;
    r.rawWriteNs = oneWay(0);
    r.ipcqNs = oneWay(1);
    r.ipcqCopyNs = oneWay(2);
    r.creditLatencyNs = ticksToNs(pg_->creditLatency(1, IpcqDir::W));
    return r;
}

}  // namespace cclsim::ipcq
