// Host side of data_movement: tt-metal's single-core data movement tests
// (tests/tt_metal/tt_metal/data_movement, "Packet Sizes"): one worker core
// issues N transactions of S bytes back to back between its L1 and one DRAM
// bank (dram_unary) or another worker's L1 (one_from_one reads,
// one_to_one writes), then waits for them; read() gives the cycles from the
// first issue to the end of the barrier, the figure tt-metal's tables list.
#pragma once

#include "runtime/Runtime.h"

#include <cstdint>
#include <string>

namespace cclsim::microbench {

struct DataMovementParams {
    enum class Target { Dram, Core } target = Target::Dram;
    bool write = false;
    std::uint32_t bytes = 2048;      ///< per transaction
    std::uint32_t transactions = 1;  ///< issued back to back
    unsigned coreX = 0, coreY = 0;   ///< the worker, logical (x, y)
    unsigned peerX = 1, peerY = 1;   ///< Core: the other worker, logical
    unsigned bank = 0;               ///< Dram: the bank (tt-metal's DRAM channel)
    unsigned noc = 1;                ///< tt-metal's tests run on RISCV_1's default NoC, NoC 1
    unsigned chip = 0;
};

struct DataMovementResult {
    std::uint64_t cycles = 0;  ///< AICLK cycles, first issue to barrier end
    double bytesPerCycle = 0;
    double ns = 0;
};

class DataMovement {
public:
    /// The kernel and its buffers. ConfigError on a core, bank or size the chip lacks.
    void build(Runtime& rt, const DataMovementParams& p);
    DataMovementResult read(Runtime& rt) const;

    CoreCoord core() const { return core_; }
    CoreCoord peer() const { return peer_; }

private:
    DataMovementParams p_;
    CoreCoord core_, peer_;
    std::uint32_t result_ = 0;
};

}  // namespace cclsim::microbench
