// Host side of edm_stream: worker on chip A -> EDM -> Ethernet -> EDM ->
// worker on chip B, one worker pair per EDM channel, optionally both ways.
// Direction 0 (A -> B) uses EDM channels [0, C), direction 1 (B -> A)
// [C, 2C); every receiving worker checks each byte where it lands (the
// scoreboard), so the run's data check covers the whole stream.
#pragma once

#include "firmware/edm/edm_types.h"
#include "host/microbench/LinkEnds.h"
#include "runtime/Runtime.h"

#include <cstdint>

namespace cclsim::microbench {

struct EdmStreamParams {
    unsigned packets = 256;       ///< packets per channel and direction
    unsigned packetBytes = 4096;  ///< payload bytes per packet, a multiple of 16
    unsigned channels = 4;        ///< EDM channels (one worker pair each) per direction
    bool bidir = false;           ///< stream both ways at once
    edm::TerminationMode termination = edm::TerminationMode::MESSAGE_COUNT_REACHED;
    unsigned creditTxq = 0;  ///< tx_cmd_q of the EDM's acks and credits
    unsigned buffers = 1;    ///< slots per EDM channel
    unsigned chipA = 0, chipB = 1;
    unsigned link = 0;  ///< which user link between the two chips
};

struct EdmStreamResult {
    double opTimeNs = 0;     ///< first kernel start (after dispatch) to the last kernel's finish
    double payloadGBps = 0;  ///< per direction
    double bytesPerDirection = 0;
    double messages = 0;  ///< packets over all channels and directions
};

class EdmStream {
public:
    /// The two EDMs and a sender and a receiver worker per channel and
    /// direction. ConfigError if the link does not exist or the chip has too
    /// few worker cores.
    void build(Runtime& rt, const EdmStreamParams& p);
    /// The op's time and bandwidth, after the run.
    EdmStreamResult read(Runtime& rt, const RunResult& run) const;
    const LinkEnds& link() const { return ends_; }

private:
    EdmStreamParams p_;
    LinkEnds ends_{};
};

}  // namespace cclsim::microbench
