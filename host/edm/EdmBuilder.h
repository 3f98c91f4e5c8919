// Host-side builder of one ERISC data mover (one per link end per chip).
//
// Usage, as in the CCL guide's "EDM Builder Example":
//
//   EdmBuilder edm(program, eth_core, TerminationMode::MESSAGE_COUNT_REACHED, /*credit txq*/ 0, /*buffers*/ 2);
//   const ChannelInterface& tx = edm.add_sender_channel(worker_sem, n_messages, {worker}, payload_bytes);
//   ... worker runtime args: tx.eth_buffer_l1_address, tx.eth_semaphore_l1_address, ...
//   edm.build();   // creates the EDM kernel on eth_core (once)
//
// Channel i of one EDM pairs with channel i of the EDM at the other end of
// the link (sender with receiver); `check_peer` verifies that the two
// builders agree (directions, sizes, buffers per channel and buffer
// addresses), so host and device code cannot drift apart.
//
// Every channel is a ring of `buffersPerChannel` slots (tt-metal's
// EriscDatamoverBuilder num_buffers_per_channel): slot k holds a payload
// followed by its own eth_channel_sync_t, at
// eth_buffer_l1_address + k * buffer_stride. Workers walk the slots in order.
#pragma once

#include "firmware/edm/edm_types.h"
#include "runtime/Runtime.h"

#include <string>
#include <vector>

namespace cclsim::edm {

/// Value names of the EDM's chI_state trace signals (ChannelState).
const TraceEnum& channelStateTraceEnum();

struct ChannelInterface {
    unsigned channel = 0;
    bool is_sender = false;
    CoreCoord edm_core;                          ///< NoC coordinates of the EDM's Ethernet core
    std::uint32_t eth_buffer_l1_address = 0;     ///< where workers write / read payloads
    std::uint32_t eth_semaphore_l1_address = 0;  ///< the EDM channel semaphore workers increment
    std::uint32_t payload_bytes = 0;
    std::uint32_t num_buffers = 1;    ///< slots in the channel's ring
    std::uint32_t buffer_stride = 0;  ///< bytes from one slot to the next (payload + sync word)
};

class EdmBuilder {
public:
    EdmBuilder(Program& program, CoreCoord ethCore, TerminationMode mode, unsigned creditTxq = 0,
               unsigned buffersPerChannel = 1);

    /// A channel this EDM sends on: the worker pushes payloads into it.
    const ChannelInterface& add_sender_channel(std::uint32_t worker_semaphore_address, std::uint32_t num_messages,
                                               const std::vector<CoreCoord>& workers, std::uint32_t payload_bytes);
    /// A channel this EDM receives on: the worker pulls payloads from it.
    const ChannelInterface& add_receiver_channel(std::uint32_t worker_semaphore_address, std::uint32_t num_messages,
                                                 const std::vector<CoreCoord>& workers, std::uint32_t payload_bytes);

    /// Create the EDM kernel on the Ethernet core. Call once, after all channels.
    KernelHandle build(const std::string& name = "edm");

    /// Error unless `peer` is the matching EDM at the other end of the link.
    void check_peer(const EdmBuilder& peer) const;

    std::vector<std::uint32_t> runtime_args() const;
    std::vector<std::uint32_t> compile_args() const;
    const std::vector<ChannelInterface>& channels() const { return channels_; }
    CoreCoord core() const { return core_; }
    unsigned buffersPerChannel() const { return buffers_; }
    unsigned chip() const { return program_.chip(); }

private:
    struct ChannelConfig {
        std::uint32_t workerSem;
        std::uint32_t messages;
        std::vector<CoreCoord> workers;
    };
    const ChannelInterface& add(bool sender, std::uint32_t workerSem, std::uint32_t messages,
                                const std::vector<CoreCoord>& workers, std::uint32_t payload);

    Program& program_;
    CoreCoord core_;
    TerminationMode mode_;
    unsigned creditTxq_;
    unsigned buffers_;
    std::uint32_t handshake_ = 0;
    std::uint32_t ackWord_ = 0;
    std::vector<ChannelInterface> channels_;
    std::vector<ChannelConfig> configs_;
    bool built_ = false;
};

}  // namespace cclsim::edm
