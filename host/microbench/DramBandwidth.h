// Host side of dram_bandwidth: W worker cores read (or write) one interleaved
// DRAM buffer, each a contiguous range of its pages (every reader visits
// every bank); or, sharded, one reader per bank placed on the worker core
// beside the bank's endpoint reads only that bank's pages (tt-metal's
// sharded DRAM readers: the response travels one hop). read() gives the
// aggregate bandwidth against the channels' total.
#pragma once

#include "runtime/Runtime.h"

#include <cstdint>

namespace cclsim::microbench {

struct DramBandwidthParams {
    unsigned workers = 64;  ///< worker cores streaming (sharded: one per bank instead)
    bool sharded = false;
    double bytes = 64.0 * 1024 * 1024;  ///< bytes moved in total
    unsigned pageBytes = 2048;
    unsigned batch = 8;  ///< pages in flight per worker
    bool write = false;
    unsigned chip = 0;
    int noc = -1;  ///< NoC of the workers: 0, 1, 2 (alternate) or -1 (0 to read, 1 to write)
};

struct DramBandwidthResult {
    double GBps = 0;      ///< aggregate
    double peakGBps = 0;  ///< every channel's pseudo-channels at full rate
    double bytes = 0;
    double timeNs = 0;  ///< from the kernels' start to the last one's finish
};

class DramBandwidth {
public:
    /// The buffer and one kernel per worker. ConfigError if the chip has no
    /// DRAM or too few worker cores.
    void build(Runtime& rt, const DramBandwidthParams& p);
    DramBandwidthResult read(Runtime& rt, const RunResult& run) const;

    unsigned workers() const { return workers_; }   ///< the workers build() used
    std::uint64_t pages() const { return pages_; }  ///< pages moved in total

private:
    /// The worker core one NoC0 hop after bank b's endpoint.
    static CoreCoord besideBank(const ArchConfig& arch, unsigned b);

    DramBandwidthParams p_;
    unsigned workers_ = 0;
    std::uint64_t pages_ = 0;
};

}  // namespace cclsim::microbench
