// What a finished collective op gives back: every rank's output read from
// the device, the check of every output against the golden reference, and
// the Ethernet figures the reports derive bandwidths from.
#pragma once

#include "host/ccl/CclOp.h"

#include <string>
#include <vector>

namespace cclsim::ccl {

struct CclCheck {
    std::string status = "off";  ///< pass, fail, off
    std::uint64_t elementsChecked = 0;
    std::uint64_t wrongElements = 0;
    std::string firstFailure;
};

/// Every rank's logical output (read back from the device), per group.
std::vector<std::vector<golden::Tensor>> readOutputs(Runtime& rt, const CclOp& op);
/// One rank's logical output (rank `pos` of group `group`).
golden::Tensor readRankOutput(Runtime& rt, const CclOp& op, std::size_t group, unsigned pos);
/// Compare every rank's output with the golden reference ("off" when the
/// op moved no data).
CclCheck checkOutputs(Runtime& rt, const CclOp& op);

/// Ethernet payload bytes the op moves in all (EDM messages, syncs and acks).
double expectedEthBytes(const CclOp& op);
/// Payload bytes through the busiest neighbour pair (every link of it, in
/// the directions the op uses).
double busiestPairBytes(const CclOp& op, Platform& platform);

}  // namespace cclsim::ccl
