// Host side of dram_bandwidth: W worker cores read (or write) one interleaved
// DRAM buffer, each a contiguous range of its pages (every reader visits
// every bank); or, --sharded, one reader per bank placed on the worker core
// beside the bank's endpoint reads only that bank's pages (tt-metal's
// sharded DRAM readers: the response travels one hop). Reports the aggregate
// bandwidth against the channels' total.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "firmware/microbench/microbench_kernels.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim::microbench {

namespace {

class DramBandwidth final : public Workload {
public:
    std::string name() const override { return "dram_bandwidth"; }
    std::string description() const override { return "aggregate DRAM read or write bandwidth from many worker cores"; }
    void addOptions(CLI::App& cmd) override {
        cmd.add_option("--workers", workers_, "worker cores streaming")->check(CLI::Range(1u, 1024u));
        cmd.add_option("--bytes", bytes_, "bytes moved in total")->check(CLI::Range(1.0, 1e12));
        cmd.add_option("--page", page_, "page bytes (multiple of 32)")->check(CLI::Range(32u, 65536u));
        cmd.add_option("--batch", batch_, "pages in flight per worker")->check(CLI::Range(1u, 256u));
        cmd.add_flag("--write", write_, "write instead of read");
        cmd.add_option("--chip", chip_, "chip to run on");
        cmd.add_flag("--sharded", sharded_,
                     "one reader per bank, beside its endpoint, reading only that bank (--workers is ignored)");
        cmd.add_option("--noc", noc_,
                       "NoC the workers use (default: 0 to read, 1 to write, as tt-metal's readers and writers do; 2: "
                       "alternate)")
            ->check(CLI::Range(0, 2));
    }
    nlohmann::json params() const override {
        return {{"workers", workers_}, {"bytes", bytes_}, {"page", page_}, {"batch", batch_},
                {"write", write_},     {"chip", chip_},   {"noc", noc_},   {"sharded", sharded_}};
    }
    void build(Runtime& rt) override {
        const ArchConfig& arch = rt.platform().descriptor().arch;
        if (!arch.hasDram()) throw ConfigError("dram_bandwidth: the chip architecture has no DRAM");
        if (workers_ > arch.workers.size())
            throw ConfigError(fmt::format("--workers {}: the chip has {} worker cores", workers_, arch.workers.size()));
        Program& p = rt.program(chip_);
        const unsigned banks = arch.dram.banks();
        if (sharded_) workers_ = banks;
        pages_ = std::max<std::uint64_t>(workers_, std::uint64_t(bytes_ / page_));
        if (sharded_) pages_ = (pages_ + banks - 1) / banks * banks;
        const Buffer buf = p.createBuffer(pages_, page_, true);
        const std::uint64_t per = pages_ / workers_;
        for (unsigned w = 0; w < workers_; ++w) {
            const CoreCoord c = sharded_ ? besideBank(arch, w) : arch.workers[w];
            // Interleaved: a contiguous range of pages. Sharded: pages w, w + banks, ... (bank w's shard).
            const std::uint64_t first = sharded_ ? w : w * per;
            const std::uint64_t n = sharded_ || w + 1 < workers_ ? per : pages_ - first;
            KernelConfig kc;
            const unsigned noc = noc_ < 0 ? (write_ ? 1u : 0u) : unsigned(noc_);
            kc.noc = noc == 2 ? w % 2 : noc;
            KernelHandle k = p.createKernel("dram_bandwidth", fw::microbench::dram_bandwidth_kernel_main, c, kc);
            p.setRuntimeArgs(k, {buf.base, page_, std::uint32_t(first), std::uint32_t(n), write_ ? 1u : 0u,
                                 p.allocateL1(c, batch_ * page_, 32), batch_, sharded_ ? banks : 1u,
                                 fw::microbench::kArgsEndMarker});
        }
    }
    nlohmann::json results(Runtime& rt, const RunResult& run) override {
        const DramArch& d = rt.platform().descriptor().arch.dram;
        const double ns = ticksToNs(run.lastKernelFinish - rt.launchTime(chip_));  // from the kernels' start
        const double gbps = double(pages_) * page_ / ns;
        const double peak = d.channel.bytesPerNs * d.channel.pseudoChannels * d.banks();
        return {{"GBps", gbps},
                {"peak_GBps", peak},
                {"peak_pct", 100.0 * gbps / peak},
                {"bytes", double(pages_) * page_},
                {"time_ns", ns}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "dram_bandwidth: {} workers {} {} pages of {} B ({} in flight each)\n"
            "  aggregate {:8.1f} GB/s = {:.1f}% of the {:.0f} GB/s of all channels\n",
            workers_, write_ ? "write" : "read", pages_, page_, batch_, r["GBps"].get<double>(),
            r["peak_pct"].get<double>(), r["peak_GBps"].get<double>());
    }

private:
    /// The worker core one NoC0 hop after bank b's endpoint (its east
    /// neighbour, or the nearest worker further east on that row).
    static CoreCoord besideBank(const ArchConfig& arch, unsigned b) {
        const CoreCoord ep = arch.dram.bankEndpoints[b];
        for (unsigned dx = 1; dx < arch.noc.gridX; ++dx) {
            const CoreCoord c{std::uint8_t((ep.x + dx) % arch.noc.gridX), ep.y};
            if (std::find(arch.workers.begin(), arch.workers.end(), c) != arch.workers.end()) return c;
        }
        throw ConfigError(
            fmt::format("dram_bandwidth --sharded: no worker core on the row of bank {} ({})", b, ep.str()));
    }

    unsigned workers_ = 64;
    bool sharded_ = false;
    double bytes_ = 64.0 * 1024 * 1024;
    unsigned page_ = 2048;
    unsigned batch_ = 8;
    bool write_ = false;
    unsigned chip_ = 0;
    int noc_ = -1;
    std::uint64_t pages_ = 0;
};

}  // namespace

std::unique_ptr<Workload> makeDramBandwidth() {
    return std::make_unique<DramBandwidth>();
}

}  // namespace cclsim::microbench
