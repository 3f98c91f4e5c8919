// The invariant checker of one IPCQ link: the sends of rank A in direction d
// into rank B's rx ring of direction d' (docs/design/pe-ipcq.md#i1 to #i7, #f2).
//
//   I1 slot lifecycle exactly once: every recv consumes the next sent slot,
//      and no send lands in a slot that has not been consumed yet;
//   I2 pointer monotonicity: sender_seq, the head and the tail grow by one;
//   I5 causality: a slot is seen at the receiver only after it was sent;
//   I6 atomic data + metadata: when the head update becomes visible, the
//      slot holds the bytes that were sent (compared by hash, data mode);
//   I7 a recv only consumes a slot whose head update is visible;
//   F2 (strict validation) a recv agrees with its send on bytes and meta
//      (dtype/shape code), where the recv states them (non-zero).
// (I3 endpoint symmetry and I4 buffer-kind consistency are checked by the
// host at init.) The checks run on every send, arrival, recv and credit:
// a few integer comparisons, plus hashing the slot in data mode.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cclsim {

class IpcqEdge {
public:
    /// Hash of the receiver's slot `seq` (its first `nbytes`); empty in timing mode.
    using SlotHasher = std::function<std::uint64_t(std::uint64_t seq, std::uint32_t nbytes)>;

    IpcqEdge(std::string name, std::uint32_t nSlots, SlotHasher hasher);

    void onSend(std::uint64_t seq, std::uint64_t payloadHash, std::uint32_t nbytes, std::uint32_t meta);
    void onHeadArrival(std::uint32_t head);
    void onRecv(std::uint64_t seq, std::uint32_t nbytes, std::uint32_t meta, bool strict);
    void onCredit(std::uint32_t tail);

    const std::string& name() const { return name_; }
    std::uint64_t sends() const { return sends_; }
    std::uint64_t arrivals() const { return arrivals_; }
    std::uint64_t consumed() const { return consumed_; }

    /// A 64-bit hash of bytes (the payload comparison of I6).
    static std::uint64_t hash(const std::uint8_t* p, std::size_t n);

private:
    [[noreturn]] void violated(const char* invariant, const std::string& what) const;
    struct Sent {
        std::uint64_t hash = 0;
        std::uint32_t nbytes = 0;
        std::uint32_t meta = 0;
    };

    std::string name_;
    std::uint32_t nSlots_;
    SlotHasher hasher_;
    std::uint64_t sends_ = 0, arrivals_ = 0, consumed_ = 0, credits_ = 0;
    std::vector<Sent> inFlight_;  ///< by seq % nSlots (at most nSlots unconsumed)
};

}  // namespace cclsim
