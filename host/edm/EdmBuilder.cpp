#include "host/edm/EdmBuilder.h"

#include "firmware/edm/erisc_datamover.h"
#include "models/common/Report.h"

namespace cclsim::edm {

EdmBuilder::EdmBuilder(Program& program, CoreCoord ethCore, TerminationMode mode, unsigned creditTxq,
                       unsigned buffersPerChannel)
    : program_(program), core_(ethCore), mode_(mode), creditTxq_(creditTxq), buffers_(buffersPerChannel) {
    if (creditTxq > 1) throw ConfigError("EDM credit tx_cmd_q must be 0 or 1");
    if (buffersPerChannel < 1 || buffersPerChannel > kMaxBuffersPerChannel)
        throw ConfigError(
            fmt::format("EDM buffers per channel must be 1..{}, not {}", kMaxBuffersPerChannel, buffersPerChannel));
    // Fixed layout from the start of the kernel region, so both ends of a link
    // place their buffers at the same addresses: handshake word (the region's
    // first 16 B, reserved by the runtime), ack word, then per channel its
    // slots (payload + sync word each) and its semaphore.
    ackWord_ = program_.allocateL1(core_, 16, 16);
    program_.markControl(core_, ackWord_, 16);
}

const ChannelInterface& EdmBuilder::add(bool sender, std::uint32_t workerSem, std::uint32_t messages,
                                        const std::vector<CoreCoord>& workers, std::uint32_t payload) {
    if (built_) throw ConfigError("EdmBuilder: channels must be added before build()");
    if (payload == 0 || payload % 16)
        throw ConfigError(fmt::format("EDM channel payload of {} B must be a non-zero multiple of 16", payload));
    if (workers.empty()) throw ConfigError("EDM channel needs at least one worker");
    if (mode_ == TerminationMode::MESSAGE_COUNT_REACHED && messages == 0)
        throw ConfigError("EDM channel in MESSAGE_COUNT_REACHED mode needs a message count > 0");
    ChannelInterface ci;
    ci.channel = unsigned(channels_.size());
    ci.is_sender = sender;
    ci.edm_core = core_;
    ci.payload_bytes = payload;
    ci.num_buffers = buffers_;
    ci.buffer_stride = payload + 16;
    ci.eth_buffer_l1_address = program_.allocateL1(core_, buffers_ * ci.buffer_stride, 16);
    for (unsigned k = 0; k < buffers_; ++k)
        program_.markControl(core_, ci.eth_buffer_l1_address + k * ci.buffer_stride + payload, 16);
    ci.eth_semaphore_l1_address =
        program_.createSemaphore(core_, 0, fmt::format("edm_ch{}_{}_sem", ci.channel, sender ? "tx" : "rx"));
    // The semaphore slot's second word: the count of messages a sender
    // worker skipped under --fast-forward (firmware/edm/erisc_datamover.cpp).
    program_.markControl(core_, ci.eth_semaphore_l1_address + 4, 4);
    channels_.push_back(ci);
    configs_.push_back(ChannelConfig{workerSem, messages, workers});
    return channels_.back();
}

const ChannelInterface& EdmBuilder::add_sender_channel(std::uint32_t workerSem, std::uint32_t messages,
                                                       const std::vector<CoreCoord>& workers, std::uint32_t payload) {
    return add(true, workerSem, messages, workers, payload);
}

const ChannelInterface& EdmBuilder::add_receiver_channel(std::uint32_t workerSem, std::uint32_t messages,
                                                         const std::vector<CoreCoord>& workers, std::uint32_t payload) {
    return add(false, workerSem, messages, workers, payload);
}

std::vector<std::uint32_t> EdmBuilder::compile_args() const {
    const ArchConfig& arch = program_.runtime().platform().descriptor().arch;
    return {static_cast<std::uint32_t>(mode_), creditTxq_, buffers_, arch.erisc.contextSwitchIdleRounds};
}

std::vector<std::uint32_t> EdmBuilder::runtime_args() const {
    const ArchConfig& arch = program_.runtime().platform().descriptor().arch;
    std::vector<std::uint32_t> a{arch.erisc.unreservedBase, ackWord_, std::uint32_t(channels_.size())};
    for (std::size_t i = 0; i < channels_.size(); ++i) {
        const ChannelInterface& c = channels_[i];
        const ChannelConfig& cfg = configs_[i];
        a.insert(a.end(), {c.is_sender ? 1u : 0u, c.eth_buffer_l1_address, c.payload_bytes, cfg.messages,
                           c.eth_semaphore_l1_address, cfg.workerSem, std::uint32_t(cfg.workers.size())});
        for (const CoreCoord& w : cfg.workers) a.push_back(packXY(w.x, w.y));
    }
    a.push_back(kArgsEndMarker);
    return a;
}

const TraceEnum& channelStateTraceEnum() {
    static const TraceEnum e{"edm_channel_state",
                             std::vector<std::string>(std::begin(kChannelStateNames), std::end(kChannelStateNames))};
    return e;
}

KernelHandle EdmBuilder::build(const std::string& name) {
    if (built_) throw ConfigError("EdmBuilder::build called twice for the same Ethernet core");
    if (channels_.empty()) throw ConfigError("EdmBuilder::build: the EDM has no channels");
    built_ = true;
    // The ack word is the source of first-level acks: bytes_sent != 0, receiver_ack = 1.
    ProgrammableCore* core = program_.runtime().platform().chip(program_.chip()).core(core_);
    core->l1.writeU32(ackWord_, 1);
    core->l1.writeU32(ackWord_ + 4, 1);
    KernelConfig kc;
    kc.ctArgs = compile_args();
    kc.waitTimeout = KernelConfig::WaitTimeout::Edm;
    for (const ChannelInterface& c : channels_)
        kc.traceSlots.emplace_back(fmt::format("ch{}_state", c.channel), &channelStateTraceEnum());
    KernelHandle k = program_.createKernel(name, fw::edm::erisc_datamover_kernel_main, core_, kc);
    program_.setRuntimeArgs(k, runtime_args());
    return k;
}

void EdmBuilder::check_peer(const EdmBuilder& peer) const {
    auto where = [&](const EdmBuilder& b) { return fmt::format("chip {} core {}", b.chip(), b.core_.str()); };
    if (peer.channels_.size() != channels_.size())
        throw ConfigError(fmt::format("EDMs on {} and {} have {} and {} channels", where(*this), where(peer),
                                      channels_.size(), peer.channels_.size()));
    if (peer.mode_ != mode_)
        throw ConfigError(fmt::format("EDMs on {} and {} use different termination modes", where(*this), where(peer)));
    if (peer.buffers_ != buffers_)
        throw ConfigError(fmt::format("EDMs on {} and {} have {} and {} buffers per channel", where(*this), where(peer),
                                      buffers_, peer.buffers_));
    for (std::size_t i = 0; i < channels_.size(); ++i) {
        const ChannelInterface &a = channels_[i], &b = peer.channels_[i];
        if (a.is_sender == b.is_sender)
            throw ConfigError(fmt::format("EDM channel {} is a {} on both {} and {}", i,
                                          a.is_sender ? "sender" : "receiver", where(*this), where(peer)));
        if (a.payload_bytes != b.payload_bytes || a.eth_buffer_l1_address != b.eth_buffer_l1_address)
            throw ConfigError(fmt::format(
                "EDM channel {} buffers differ between {} (0x{:x}, {} B) and {} (0x{:x}, {} B)", i, where(*this),
                a.eth_buffer_l1_address, a.payload_bytes, where(peer), b.eth_buffer_l1_address, b.payload_bytes));
        if (mode_ == TerminationMode::MESSAGE_COUNT_REACHED && configs_[i].messages != peer.configs_[i].messages)
            throw ConfigError(fmt::format("EDM channel {} moves {} messages on {} but {} on {}", i,
                                          configs_[i].messages, where(*this), peer.configs_[i].messages, where(peer)));
    }
}

}  // namespace cclsim::edm
