#include "host/microbench/EthBandwidth.h"

#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cclsim::microbench {

void EthBandwidth::build(Runtime& rt, const EthBandwidthParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    ends_ = userLink(d, p.chipA, p.chipB, p.link);
    Program& pa = rt.program(ends_.chipA);
    Program& pb = rt.program(ends_.chipB);
    const unsigned packet = p.packetBytes;
    const std::uint32_t stride = packet + 16;
    // Both directions need C tx and C rx buffers on each core.
    const std::uint32_t free = std::min(pa.l1Free(ends_.coreA), pb.l1Free(ends_.coreB)) - 64;
    const std::uint32_t fit = free / (2 * stride);
    if (fit == 0)
        throw ConfigError(fmt::format("--packet {}: one tx and one rx buffer ({} B) do not fit the {} B kernel region",
                                      packet, 2 * stride, free));
    used_ = p.channels ? p.channels : std::min(fit, p.maxChannels);
    if (used_ > fit)
        throw ConfigError(
            fmt::format("--channels {} x 2 buffers of {} B need {} B but the Ethernet core's kernel "
                        "region has {} B free (at most {} channels)",
                        used_, stride, 2ull * used_ * stride, free, fit));
    perChannel_ = std::max<std::uint32_t>(1, std::uint32_t(std::ceil(p.bytes / (double(packet) * used_))));
    auto setup = [&](Program& prog, CoreCoord c, bool first) {
        const std::uint32_t tx = prog.allocateL1(c, used_ * stride, 16);
        const std::uint32_t rx = prog.allocateL1(c, used_ * stride, 16);
        const std::uint32_t res = prog.allocateL1(c, 16, 16);
        for (std::uint32_t i = 0; i < used_; ++i) {
            prog.markControl(c, tx + i * stride + packet, 16);
            prog.markControl(c, rx + i * stride + packet, 16);
        }
        prog.markControl(c, res, 16);
        const std::uint32_t send = (first || !p.unidir) ? perChannel_ : 0;
        const std::uint32_t recv = (!first || !p.unidir) ? perChannel_ : 0;
        KernelHandle k =
            prog.createKernel("eth_bandwidth", fw::microbench::eth_bandwidth_kernel_main, c, KernelConfig{});
        prog.setRuntimeArgs(k, {used_, packet, send, recv, tx, rx, rt.platform().descriptor().arch.erisc.unreservedBase,
                                first ? 1u : 0u, res, p.creditTxq, fw::microbench::kArgsEndMarker});
        return res;
    };
    resA_ = setup(pa, ends_.coreA, true);
    resB_ = setup(pb, ends_.coreB, false);
}

EthBandwidthResult EthBandwidth::read(Runtime& rt) const {
    const ArchConfig& arch = rt.platform().descriptor().arch;
    auto stamp = [&](CoreRef c, std::uint32_t addr) {
        return (std::uint64_t(rt.readL1(c, addr + 4)) << 32) | rt.readL1(c, addr);
    };
    const CoreRef a{ends_.chipA, ends_.coreA}, b{ends_.chipB, ends_.coreB};
    const std::uint64_t start = std::min(stamp(a, resA_), stamp(b, resB_));
    const std::uint64_t end = std::max(stamp(a, resA_ + 8), stamp(b, resB_ + 8));
    EthBandwidthResult r;
    r.measuredNs = double(end - start) * ticksToNs(arch.cycles(1));
    r.bytesPerDirection = double(p_.packetBytes) * used_ * perChannel_;
    r.payloadGBps = r.bytesPerDirection / r.measuredNs;
    const EthConfig& eth = arch.erisc.eth;
    r.lineRateGBps = eth.lineBytesPerNs;
    r.framingLimitGBps = r.lineRateGBps * p_.packetBytes / eth.wireBytes(p_.packetBytes);
    return r;
}

}  // namespace cclsim::microbench
