// Types shared by the ERISC data mover kernel and its host-side builder
// (tt-metal keeps the equivalents in ccl's shared_with_host headers).
#pragma once

#include <cstdint>

namespace cclsim::edm {

/// When an EDM channel stops (a compile-time argument, shared by all channels).
enum class TerminationMode : std::uint32_t {
    MESSAGE_COUNT_REACHED = 0,  ///< each channel moves a fixed number of messages
    WORKER_INITIATED = 1,       ///< each channel runs until its worker(s) signal termination
};

/// What a worker adds to an EDM channel semaphore. The low 16 bits count
/// "message ready" (sender side) or "message consumed" (receiver side)
/// signals; adding kTerminate as well marks that signal as the worker's last.
namespace worker_signal {
constexpr std::uint32_t kNextMessage = 1;
constexpr std::uint32_t kTerminate = 0x10000;
constexpr std::uint32_t kCountMask = 0xffff;
}  // namespace worker_signal

/// Channel states (the EDM main loop is a per-channel state machine).
enum ChannelState : std::uint32_t {
    DONE = 0,
    SENDER_SIGNALING_WORKER = 1,        ///< tell the worker the buffer can be filled
    SENDER_WAITING_FOR_WORKER = 2,      ///< waiting for the worker's "payload written"
    SENDER_READY_FOR_ETH_TRANSFER = 3,  ///< waiting for the remote buffer and a tx_cmd_q slot
    SENDER_WAITING_FOR_ETH = 4,         ///< waiting for the next slot's first-level ack (its last use)
    RECEIVER_SIGNALING_WORKER = 5,      ///< tell the worker a payload is available
    RECEIVER_WAITING_FOR_WORKER = 6,    ///< waiting for the worker's "payload read"
    RECEIVER_WAITING_FOR_ETH = 7,       ///< waiting for a payload from the link
};

/// ChannelState names, indexed by value: the single source of the names a
/// trace viewer shows for the chI_state signals (GTKWave translate filter).
inline constexpr const char* kChannelStateNames[] = {
    "DONE",
    "SENDER_SIGNALING_WORKER",
    "SENDER_WAITING_FOR_WORKER",
    "SENDER_READY_FOR_ETH_TRANSFER",
    "SENDER_WAITING_FOR_ETH",
    "RECEIVER_SIGNALING_WORKER",
    "RECEIVER_WAITING_FOR_WORKER",
    "RECEIVER_WAITING_FOR_ETH",
};
static_assert(sizeof(kChannelStateNames) / sizeof(kChannelStateNames[0]) == RECEIVER_WAITING_FOR_ETH + 1,
              "a name for every ChannelState");

/// Most slots per channel (tt-metal's EDM keeps the index in a uint8_t).
constexpr std::uint32_t kMaxBuffersPerChannel = 16;

/// Ends the EDM's runtime argument list (builder and kernel must agree).
constexpr std::uint32_t kArgsEndMarker = 0xED0E;
/// Runtime arguments per channel before its worker coordinates.
constexpr std::uint32_t kChannelArgs = 7;

/// Worker coordinates packed into one argument word.
constexpr std::uint32_t packXY(std::uint32_t x, std::uint32_t y) {
    return (x << 16) | y;
}
constexpr std::uint32_t unpackX(std::uint32_t w) {
    return w >> 16;
}
constexpr std::uint32_t unpackY(std::uint32_t w) {
    return w & 0xffff;
}

}  // namespace cclsim::edm
