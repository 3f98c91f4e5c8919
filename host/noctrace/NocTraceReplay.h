// Host side of noc_trace: one replay kernel per recorded (core, processor)
// of a decoded tt-metal NoC event trace (NocTrace.h) on one chip, and the
// model's duration of the same span the trace measured.
//
// Placement of the data the trace moves (the trace has no addresses):
//   * a DRAM endpoint stands for the bank it serves workers for (the arch
//     YAML's bank_endpoints; another endpoint of the same channel stands for
//     the channel's first bank); each bank's transfers take consecutive slots
//     of one region, in recorded time order, as pages of an interleaved
//     buffer would;
//   * a worker core as source or destination: one L1 region per core, as
//     large as its largest transfer;
//   * the issuing processor: one L1 staging buffer, as large as its largest
//     transfer (reads land there, writes leave from there).
// Durations: measured = last kernel end (zone end, or the last event where
// the trace has none) minus the first kernel zone begin; model = the same
// two events in the replay, in AICLK cycles.
#pragma once

#include "host/noctrace/NocTrace.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace cclsim::noctrace {

struct NocTraceReplayParams {
    unsigned chip = 0;         ///< the chip to replay on
    bool recordedGaps = true;  ///< each op no earlier than its recorded gap after the previous one
                               ///< (false: as soon as the model allows; kernel start offsets kept)
};

struct NocTraceReplayResult {
    double modelCycles = 0;     ///< the replay's first zone begin to its last kernel end
    double measuredCycles = 0;  ///< the same span as the trace recorded it
};

class NocTraceReplay {
public:
    /// Check every core of `trace` against the chip, place its data and
    /// create the replay kernels. ConfigError naming the trace file and
    /// event for a core that is neither a worker nor a DRAM endpoint, or a
    /// gap or address beyond 32 bits.
    void build(Runtime& rt, NocTrace trace, const NocTraceReplayParams& p);
    /// The kernels' last-event cycles, after the run.
    NocTraceReplayResult read(Runtime& rt) const;
    const NocTrace& trace() const { return trace_; }

private:
    std::uint32_t gap(std::uint64_t cycles, std::size_t event) const;
    std::uint32_t offset(std::uint64_t cycles, std::size_t event) const;
    void checkCores(const ArchConfig& arch) const;
    std::map<const TraceOp*, std::uint64_t> placeDram(Program& p, const ArchConfig& arch) const;
    std::map<CoreCoord, std::uint32_t> placeL1(Program& p, const ArchConfig& arch) const;

    NocTraceReplayParams p_;
    NocTrace trace_;
    std::vector<std::pair<CoreCoord, std::uint32_t>> resultWords_;  ///< per kernel: its last-event cycle words
    Tick kernelStart_ = 0;
    Tick cycleTicks_ = 1;
};

}  // namespace cclsim::noctrace
