#include "host/ccl/EdmFabric.h"

#include "models/common/Report.h"

#include <algorithm>

namespace cclsim::ccl {

EdmFabric::EdmFabric(Runtime& rt, edm::TerminationMode mode, std::uint32_t payloadBytes, unsigned buffersPerChannel,
                     unsigned creditTxq)
    : rt_(rt), mode_(mode), payload_(payloadBytes), buffers_(buffersPerChannel), creditTxq_(creditTxq) {}

edm::EdmBuilder& EdmFabric::edmAt(unsigned chip, unsigned chan) {
    auto& slot = edms_[{chip, chan}];
    if (!slot) {
        const CoreCoord core = rt_.platform().descriptor().arch.ethCores.at(chan);
        slot = std::make_unique<edm::EdmBuilder>(rt_.program(chip), core, mode_, creditTxq_, buffers_);
    }
    return *slot;
}

EdmConnection EdmFabric::connect(const LinkDesc& link, unsigned fromChip, CoreCoord senderWorker,
                                 CoreCoord receiverWorker, std::uint32_t messages) {
    if (built_) throw std::logic_error("EdmFabric::connect after build");
    const EthEndpoint& tx = link.a.chip == fromChip ? link.a : link.b;
    const EthEndpoint& rx = link.a.chip == fromChip ? link.b : link.a;
    edm::EdmBuilder& txEdm = edmAt(tx.chip, tx.chan);
    edm::EdmBuilder& rxEdm = edmAt(rx.chip, rx.chan);
    auto pair = std::make_pair(std::min(&txEdm, &rxEdm), std::max(&txEdm, &rxEdm));
    if (std::find(peers_.begin(), peers_.end(), pair) == peers_.end()) peers_.push_back(pair);

    Program& txProg = rt_.program(tx.chip);
    Program& rxProg = rt_.program(rx.chip);
    const std::uint32_t txSem = txProg.createSemaphore(senderWorker, 0, fmt::format("edm_tx_sem_eth{}", tx.chan));
    const std::uint32_t rxSem = rxProg.createSemaphore(receiverWorker, 0, fmt::format("edm_rx_sem_eth{}", rx.chan));
    // Added together: channel i of one EDM pairs with channel i of its peer.
    const edm::ChannelInterface& t = txEdm.add_sender_channel(txSem, messages, {senderWorker}, payload_);
    const edm::ChannelInterface& r = rxEdm.add_receiver_channel(rxSem, messages, {receiverWorker}, payload_);
    messages_ += messages;
    if (stream_) {
        // Payloads and syncs go to the receiver's slots; acks come back to the
        // sender's (the same addresses on both ends, check_peer holds them so).
        Platform& pf = rt_.platform();
        pf.chip(tx.chip).erisc(tx.chan).eth.tagRegion(
            r.eth_buffer_l1_address, r.eth_buffer_l1_address + r.num_buffers * r.buffer_stride, stream_);
        pf.chip(rx.chip).erisc(rx.chan).eth.tagRegion(
            t.eth_buffer_l1_address, t.eth_buffer_l1_address + t.num_buffers * t.buffer_stride, stream_);
    }
    EdmConnection c;
    c.sender = EdmPort{t.edm_core.x, t.edm_core.y,  t.eth_buffer_l1_address, t.eth_semaphore_l1_address,
                       txSem,        t.num_buffers, t.buffer_stride};
    c.receiver = EdmPort{r.edm_core.x, r.edm_core.y,  r.eth_buffer_l1_address, r.eth_semaphore_l1_address,
                         rxSem,        r.num_buffers, r.buffer_stride};
    return c;
}

void EdmFabric::beginOp(std::uint32_t payloadBytes, unsigned stream) {
    if (built_) throw std::logic_error("EdmFabric::beginOp after build");
    payload_ = payloadBytes;
    stream_ = stream;
}

unsigned EdmFabric::maxChannels() const {
    std::size_t m = 0;
    for (const auto& [key, b] : edms_) m = std::max(m, b->channels().size());
    return unsigned(m);
}

void EdmFabric::build() {
    if (built_) throw std::logic_error("EdmFabric::build called twice");
    built_ = true;
    for (const auto& [a, b] : peers_) a->check_peer(*b);
    for (auto& [key, b] : edms_) b->build(fmt::format("edm_ch{}", key.second));
}

}  // namespace cclsim::ccl
