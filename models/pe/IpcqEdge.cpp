#include "models/pe/IpcqEdge.h"

#include "models/common/Report.h"

#include <cstring>

namespace cclsim {

IpcqEdge::IpcqEdge(std::string name, std::uint32_t nSlots, SlotHasher hasher)
    : name_(std::move(name)), nSlots_(nSlots), hasher_(std::move(hasher)), inFlight_(nSlots) {}

std::uint64_t IpcqEdge::hash(const std::uint8_t* p, std::size_t n) {
    // 8 bytes per step (multiply-xorshift), then the tail byte by byte: the
    // checker runs on every payload, twice, so it must be cheap.
    std::uint64_t h = 0xcbf29ce484222325ull ^ (n * 0x9E3779B97F4A7C15ull);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

void IpcqEdge::violated(const char* invariant, const std::string& what) const {
    CCLSIM_ERROR(name_, "IPCQ invariant {} violated: {}", invariant, what);
}

void IpcqEdge::onSend(std::uint64_t seq, std::uint64_t payloadHash, std::uint32_t nbytes, std::uint32_t meta) {
    if (seq != sends_) violated("I2", fmt::format("sender_seq {} after {} sends (must grow by one)", seq, sends_));
    if (sends_ - credits_ >= nSlots_)
        violated("I1", fmt::format("send {} would overwrite a slot the receiver has not given back ({} credits, {} "
                                   "slots)",
                                   seq, credits_, nSlots_));
    inFlight_[seq % nSlots_] = Sent{payloadHash, nbytes, meta};
    ++sends_;
}

void IpcqEdge::onHeadArrival(std::uint32_t head) {
    if (head != std::uint32_t(arrivals_ + 1))
        violated("I2",
                 fmt::format("peer_head_cache went from {} to {} (must grow by one per arrival)", arrivals_, head));
    if (head > sends_) violated("I5", fmt::format("peer_head_cache {} but only {} slots were sent", head, sends_));
    if (head - consumed_ > nSlots_)
        violated("I1", fmt::format("arrival {} overwrote an unconsumed slot ({} consumed, {} slots)", head, consumed_,
                                   nSlots_));
    const std::uint64_t seq = head - 1;
    const Sent& s = inFlight_[seq % nSlots_];
    if (hasher_) {
        const std::uint64_t h = hasher_(seq, s.nbytes);
        if (h != s.hash)
            violated("I6", fmt::format("slot {} does not hold the bytes that were sent when its head update became "
                                       "visible (data and metadata not atomic)",
                                       seq));
    }
    arrivals_ = head;
}

void IpcqEdge::onRecv(std::uint64_t seq, std::uint32_t nbytes, std::uint32_t meta, bool strict) {
    if (seq != consumed_) violated("I1", fmt::format("recv consumed slot {} but slot {} is next", seq, consumed_));
    if (seq >= arrivals_)
        violated("I7", fmt::format("recv of slot {} before its head update was visible ({} arrived)", seq, arrivals_));
    const Sent& s = inFlight_[seq % nSlots_];
    if (strict && ((nbytes && nbytes != s.nbytes) || (meta && meta != s.meta)))
        CCLSIM_ERROR(name_,
                     "IPCQ type mismatch (F2, strict validation): slot {} was sent with {} B, dtype/shape code 0x{:x}; "
                     "the recv expects {} B, code 0x{:x}",
                     seq, s.nbytes, s.meta, nbytes, meta);
    ++consumed_;
}

void IpcqEdge::onCredit(std::uint32_t tail) {
    if (tail != std::uint32_t(credits_ + 1))
        violated("I2", fmt::format("peer_tail_cache went from {} to {} (must grow by one per credit)", credits_, tail));
    if (tail > consumed_)
        violated("I1", fmt::format("credit for {} slots but the receiver consumed {}", tail, consumed_));
    credits_ = tail;
}

}  // namespace cclsim
