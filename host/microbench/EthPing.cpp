#include "host/microbench/EthPing.h"

#include "firmware/microbench/microbench_kernels.h"

#include <stdexcept>

namespace cclsim::microbench {

void EthPing::build(Runtime& rt, const EthPingParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    ends_ = userLink(d, p.chipA, p.chipB, p.link);
    Program& pa = rt.program(ends_.chipA);
    Program& pb = rt.program(ends_.chipB);
    const std::uint32_t handshake = d.arch.erisc.unreservedBase;
    const unsigned packet = p.packetBytes;
    auto alloc = [&](Program& prog, CoreCoord c) {
        struct B {
            std::uint32_t tx, rx, results;
        } b;
        b.tx = prog.allocateL1(c, packet + 16, 16);
        b.rx = prog.allocateL1(c, packet + 16, 16);
        b.results = prog.allocateL1(c, 16, 16);
        prog.markControl(c, b.tx + packet, 16);
        prog.markControl(c, b.rx + packet, 16);
        prog.markControl(c, b.results, 16);
        return b;
    };
    const auto a = alloc(pa, ends_.coreA);
    const auto b = alloc(pb, ends_.coreB);
    if (a.rx != b.rx || a.tx != b.tx) throw std::logic_error("eth_ping: buffer layouts differ");
    results_ = a.results;
    auto kernel = [&](Program& prog, CoreCoord c, bool master) {
        KernelHandle k = prog.createKernel(master ? "eth_ping_master" : "eth_ping_responder",
                                           fw::microbench::eth_ping_kernel_main, c, KernelConfig{});
        prog.setRuntimeArgs(
            k, {master ? 1u : 0u, p.samples, packet, a.tx, a.rx, a.results, handshake, fw::microbench::kArgsEndMarker});
    };
    kernel(pa, ends_.coreA, true);
    kernel(pb, ends_.coreB, false);
}

EthPingResult EthPing::read(Runtime& rt) const {
    const ArchConfig& arch = rt.platform().descriptor().arch;
    const double cycleNs = ticksToNs(arch.cycles(1));
    const CoreRef master{ends_.chipA, ends_.coreA};
    EthPingResult r;
    r.roundTripNs = rt.readL1(master, results_) * cycleNs / p_.samples;
    r.roundTripMinNs = rt.readL1(master, results_ + 4) * cycleNs;
    r.roundTripMaxNs = rt.readL1(master, results_ + 8) * cycleNs;
    r.sendIssueNs = rt.readL1(master, results_ + 12) * cycleNs / p_.samples;
    const EthConfig& eth = arch.erisc.eth;
    r.idealSendNs = eth.wireBytes(p_.packetBytes + 16) / eth.lineBytesPerNs;
    r.oneWayNs = (r.roundTripNs - 2 * r.idealSendNs) / 2;
    return r;
}

}  // namespace cclsim::microbench
