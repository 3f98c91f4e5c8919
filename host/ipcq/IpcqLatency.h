// Host side of ipcq_latency (docs/design/pe-ipcq.md#t5): one IPCQ send/recv between
// two neighbouring ranks against the raw PE_DMA write of the same bytes,
// optionally under a concurrent vc_compute stream from the initiator's core.
//
// The group is two ranks on a two-slot ring_1d queue: cores (1,1) and (1,2)
// of one chip, or (1,1) of the board's first chip and of an Ethernet
// neighbour. (1,2) is one hop +y from (1,1), so a compute stream leaving
// (1,1) (+x first on NoC0) shares no NoC link with the ping: only PE_DMA's
// VC arbitration couples them. The initiator (rank 0) runs
// ipcq_pingpong_main's three phases and leaves three sums of round-trip
// cycles in L1; read() halves their means into one-way latencies.
#pragma once

#include "host/ipcq/ProcessGroup.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace cclsim::ipcq {

struct IpcqLatencyParams {
    bool ethHop = false;     ///< the peer on an Ethernet neighbour chip (else the adjacent core)
    unsigned bytes = 2048;   ///< payload bytes
    unsigned samples = 100;  ///< measured round trips per phase
    BufferKind bufferKind = BufferKind::Tcm;
    Backpressure backpressure = Backpressure::Poll;
    CreditMode creditMode = CreditMode::FastPath;
    unsigned computeStreamBytes = 0;  ///< bytes per write of the vc_compute stream (0: no stream)
    /// PE_DMA weights vc_compute : vc_comm (not given: the arch's).
    std::optional<double> vcComputeWeight, vcCommWeight;
};

/// One-way latencies (half the mean round trip) of the three phases.
struct IpcqLatencyResult {
    double rawWriteNs = 0;       ///< raw PE_DMA write + arrival flag
    double ipcqNs = 0;           ///< ipcq_send / ipcq_recv, slot returned after the answer
    double ipcqCopyNs = 0;       ///< ipcq_send / ipcq_recv_to (copy out + credit emit)
    double creditLatencyNs = 0;  ///< fast-path credit latency of the responder's W queue
};

class IpcqLatency {
public:
    /// The group, the raw-phase buffers, the optional compute stream and the
    /// ping-pong kernel on both ranks. ConfigError if the board has no such
    /// peer or the stream no DRAM.
    void build(Runtime& rt, const IpcqLatencyParams& p);
    /// The initiator's sums, after the run.
    IpcqLatencyResult read(Runtime& rt) const;
    /// The group build() made (null before).
    const ProcessGroup* group() const { return pg_.get(); }

private:
    GroupConfig groupConfig(const ClusterDescriptor& d) const;
    /// Start the vc_compute stream on rank 0's core; returns its stop word.
    std::uint32_t startComputeStream(Runtime& rt);

    IpcqLatencyParams p_;
    std::unique_ptr<ProcessGroup> pg_;
    std::uint32_t results_ = 0;  ///< rank 0's L1: three u32 sums of round-trip cycles
};

}  // namespace cclsim::ipcq
