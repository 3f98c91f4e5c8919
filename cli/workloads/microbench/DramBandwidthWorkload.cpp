// The dram_bandwidth workload: its options and report. The program
// (interleaved or sharded readers and writers) and the readback are
// host/microbench/DramBandwidth.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/DramBandwidth.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

class DramBandwidthWorkload final : public Workload {
public:
    std::string name() const override { return "dram_bandwidth"; }
    std::string description() const override { return "aggregate DRAM read or write bandwidth from many worker cores"; }
    void addOptions(Options& cmd) override {
        cmd.add_option("--workers", workers_, "worker cores streaming")->check(opt::Range(1u, 1024u));
        cmd.add_option("--bytes", bytes_, "bytes moved in total")->check(opt::Range(1.0, 1e12));
        cmd.add_option("--page", page_, "page bytes (multiple of 32)")->check(opt::Range(32u, 65536u));
        cmd.add_option("--batch", batch_, "pages in flight per worker")->check(opt::Range(1u, 256u));
        cmd.add_flag("--write", write_, "write instead of read");
        cmd.add_option("--chip", chip_, "chip to run on");
        cmd.add_flag("--sharded", sharded_,
                     "one reader per bank, beside its endpoint, reading only that bank (--workers is ignored)");
        cmd.add_option("--noc", noc_,
                       "NoC the workers use (default: 0 to read, 1 to write, as tt-metal's readers and writers do; 2: "
                       "alternate)")
            ->check(opt::Range(0, 2));
    }
    nlohmann::json params() const override {
        return {{"workers", workers_}, {"bytes", bytes_}, {"page", page_}, {"batch", batch_},
                {"write", write_},     {"chip", chip_},   {"noc", noc_},   {"sharded", sharded_}};
    }
    void build(Runtime& rt) override {
        DramBandwidthParams p;
        p.workers = workers_;
        p.sharded = sharded_;
        p.bytes = bytes_;
        p.pageBytes = page_;
        p.batch = batch_;
        p.write = write_;
        p.chip = chip_;
        p.noc = noc_;
        bench_.build(rt, p);
        workers_ = bench_.workers();
        pages_ = bench_.pages();
    }
    nlohmann::json results(Runtime& rt, const RunResult& run) override {
        const DramBandwidthResult r = bench_.read(rt, run);
        return {{"GBps", r.GBps},
                {"peak_GBps", r.peakGBps},
                {"peak_pct", 100.0 * r.GBps / r.peakGBps},
                {"bytes", r.bytes},
                {"time_ns", r.timeNs}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format(
            "dram_bandwidth: {} workers {} {} pages of {} B ({} in flight each)\n"
            "  aggregate {:8.1f} GB/s = {:.1f}% of the {:.0f} GB/s of all channels\n",
            workers_, write_ ? "write" : "read", pages_, page_, batch_, r["GBps"].get<double>(),
            r["peak_pct"].get<double>(), r["peak_GBps"].get<double>());
    }

private:
    unsigned workers_ = 64;
    bool sharded_ = false;
    double bytes_ = 64.0 * 1024 * 1024;
    unsigned page_ = 2048;
    unsigned batch_ = 8;
    bool write_ = false;
    unsigned chip_ = 0;
    int noc_ = -1;
    std::uint64_t pages_ = 0;
    DramBandwidth bench_;
};

}  // namespace

std::unique_ptr<Workload> makeDramBandwidth() {
    return std::make_unique<DramBandwidthWorkload>();
}

}  // namespace cclsim::microbench
