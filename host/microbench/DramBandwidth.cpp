#include "host/microbench/DramBandwidth.h"

#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim::microbench {

void DramBandwidth::build(Runtime& rt, const DramBandwidthParams& p) {
    p_ = p;
    workers_ = p.workers;
    const ArchConfig& arch = rt.platform().descriptor().arch;
    if (!arch.hasDram()) throw ConfigError("dram_bandwidth: the chip architecture has no DRAM");
    if (workers_ > arch.workers.size())
        throw ConfigError(fmt::format("--workers {}: the chip has {} worker cores", workers_, arch.workers.size()));
    Program& prog = rt.program(p.chip);
    const unsigned banks = arch.dram.banks();
    if (p.sharded) workers_ = banks;
    pages_ = std::max<std::uint64_t>(workers_, std::uint64_t(p.bytes / p.pageBytes));
    if (p.sharded) pages_ = (pages_ + banks - 1) / banks * banks;
    const Buffer buf = prog.createBuffer(pages_, p.pageBytes, true);
    const std::uint64_t per = pages_ / workers_;
    for (unsigned w = 0; w < workers_; ++w) {
        const CoreCoord c = p.sharded ? besideBank(arch, w) : arch.workers[w];
        // Interleaved: a contiguous range of pages. Sharded: pages w, w + banks, ... (bank w's shard).
        const std::uint64_t first = p.sharded ? w : w * per;
        const std::uint64_t n = p.sharded || w + 1 < workers_ ? per : pages_ - first;
        KernelConfig kc;
        const unsigned noc = p.noc < 0 ? (p.write ? 1u : 0u) : unsigned(p.noc);
        kc.noc = noc == 2 ? w % 2 : noc;
        KernelHandle k = prog.createKernel("dram_bandwidth", fw::microbench::dram_bandwidth_kernel_main, c, kc);
        prog.setRuntimeArgs(k, {buf.base, p.pageBytes, std::uint32_t(first), std::uint32_t(n), p.write ? 1u : 0u,
                                prog.allocateL1(c, p.batch * p.pageBytes, 32), p.batch, p.sharded ? banks : 1u,
                                fw::microbench::kArgsEndMarker});
    }
}

DramBandwidthResult DramBandwidth::read(Runtime& rt, const RunResult& run) const {
    const DramArch& d = rt.platform().descriptor().arch.dram;
    DramBandwidthResult r;
    r.timeNs = ticksToNs(run.lastKernelFinish - rt.launchTime(p_.chip));  // from the kernels' start
    r.GBps = double(pages_) * p_.pageBytes / r.timeNs;
    r.peakGBps = d.channel.bytesPerNs * d.channel.pseudoChannels * d.banks();
    r.bytes = double(pages_) * p_.pageBytes;
    return r;
}

/// Bank b's endpoint's east neighbour, or the nearest worker further east on that row.
CoreCoord DramBandwidth::besideBank(const ArchConfig& arch, unsigned b) {
    const CoreCoord ep = arch.dram.bankEndpoints[b];
    for (unsigned dx = 1; dx < arch.noc.gridX; ++dx) {
        const CoreCoord c{std::uint8_t((ep.x + dx) % arch.noc.gridX), ep.y};
        if (std::find(arch.workers.begin(), arch.workers.end(), c) != arch.workers.end()) return c;
    }
    throw ConfigError(fmt::format("dram_bandwidth --sharded: no worker core on the row of bank {} ({})", b, ep.str()));
}

}  // namespace cclsim::microbench
