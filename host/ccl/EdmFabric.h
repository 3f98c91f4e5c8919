// The EDMs of one collective op: one EdmBuilder per Ethernet core used, and
// channels added in pairs so both ends of a link agree.
//
// `connect` adds a sender channel on the sending chip's end of a link and
// the matching receiver channel on the other end at the same time, so
// channel i of one EDM always pairs with channel i of its peer (the EDM
// kernel's rule) and both ends place their buffers at the same addresses.
// `build` checks every pair with EdmBuilder::check_peer and creates the EDM
// kernels (once per Ethernet core, as ccl::generate_edm_kernel requires).
// Every channel has `buffersPerChannel` slots (tt-metal's legacy ops:
// num_buffers_per_channel; the all-gather used 2).
#pragma once

#include "firmware/ccl/ccl_args.h"
#include "host/edm/EdmBuilder.h"
#include "platforms/ClusterDescriptor.h"

#include <map>
#include <memory>
#include <vector>

namespace cclsim::ccl {

/// The two worker-side ends of one EDM channel pair.
struct EdmConnection {
    EdmPort sender;    ///< for the worker that pushes (on the sending chip)
    EdmPort receiver;  ///< for the worker that pulls (on the receiving chip)
};

class EdmFabric {
public:
    /// `creditTxq`: the tx_cmd_q of the EDMs' acks (CclSpec::edmCreditTxq).
    EdmFabric(Runtime& rt, edm::TerminationMode mode, std::uint32_t payloadBytes, unsigned buffersPerChannel = 1,
              unsigned creditTxq = 0);

    /// A channel over `link` from chip `fromChip` to the other end, moving
    /// `messages` payloads from `senderWorker` to `receiverWorker`.
    EdmConnection connect(const LinkDesc& link, unsigned fromChip, CoreCoord senderWorker, CoreCoord receiverWorker,
                          std::uint32_t messages);

    /// Check peers and create every EDM kernel. Call once.
    void build();

    /// Several ops share the EDMs (one per Ethernet core, as one kernel runs
    /// on a core): the channels connected from now on belong to an op whose
    /// messages carry `payloadBytes`; with `stream` > 0 their buffers are
    /// declared to both Ethernet subsystems of the link as that op's traffic.
    void beginOp(std::uint32_t payloadBytes, unsigned stream);

    std::uint32_t payloadBytes() const { return payload_; }
    unsigned buffersPerChannel() const { return buffers_; }
    unsigned creditTxq() const { return creditTxq_; }
    /// Total messages over all channels (for progress reports).
    std::uint64_t messages() const { return messages_; }
    /// Largest number of channels on one Ethernet core.
    unsigned maxChannels() const;

private:
    edm::EdmBuilder& edmAt(unsigned chip, unsigned chan);

    Runtime& rt_;
    edm::TerminationMode mode_;
    std::uint32_t payload_;
    unsigned buffers_;
    unsigned creditTxq_;
    std::map<std::pair<unsigned, unsigned>, std::unique_ptr<edm::EdmBuilder>> edms_;
    std::vector<std::pair<edm::EdmBuilder*, edm::EdmBuilder*>> peers_;
    std::uint64_t messages_ = 0;
    unsigned stream_ = 0;
    bool built_ = false;
};

}  // namespace cclsim::ccl
