// The pure planner of a collective op (tt-metal's compute_output_specs plus
// the sizing its program factories do first): from a validated CclSpec, its
// registry entry and the size of its groups, the page layouts of every
// rank's tensors, the method plan, the directions the streams use and the
// packet (chunk) size. Plain structs in and out, no Runtime, no SystemC;
// unit-tested in tests/unit/test_ccl_planner.cpp.
#pragma once

#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/plan/MethodPlan.h"

#include <cstdint>
#include <vector>

namespace cclsim {
struct ArchConfig;
}

namespace cclsim::ccl {

/// The memory limits that size packets.
struct PacketLimits {
    /// Largest payload of a fabric packet (arch YAML fabric.max_payload_bytes).
    std::uint32_t fabricPayloadBytes = 0;
    /// An Ethernet core's kernel region after the handshake word and the
    /// EDM's ack word: what the EDM channels of every op on it share.
    std::uint32_t edmRegionBytes = 0;

    static PacketLimits of(const ArchConfig& arch);
};

/// The EDM's preferred packet size (CCL guide): the automatic packet is at
/// most this, in whole pages.
constexpr std::uint32_t kMaxAutoPacket = 16384;

struct CclPlan {
    unsigned ranks = 0;               ///< n: chips in each group
    bool ring = true;                 ///< the spec's topology is a ring
    unsigned units = 0;               ///< worker units per direction: links x workers
    bool viaBroadcast = false;        ///< a reduction by the broadcast method
    CclShape shape;                   ///< layouts of every rank's tensors, B
    MethodPlan method;                ///< directions, reach and ranges of the method
    std::vector<unsigned> dirs;       ///< directions the op's streams use
    unsigned edmChannels = 0;         ///< EDM channels on the busiest Ethernet core
    std::uint32_t pagesPerChunk = 0;  ///< M: pages per EDM message or fabric packet
};

/// Plan an op of `n` ranks whose busiest link carries `linkShare` hops
/// (linkShare()). CclOpError when the tensor does not fit the collective or
/// the packet does not fit the memory.
CclPlan planCcl(const CclSpec& s, unsigned n, unsigned linkShare, const PacketLimits& limits);

/// The layouts of every rank's tensors (the collective's shape rule).
CclShape planShape(const CclSpec& s, unsigned n);

/// The directions the op's streams use.
std::vector<unsigned> planDirections(const CclSpec& s, const MethodPlan& m);

/// EDM channels per link end: the op's streams per link end times the hops
/// that share the busiest link.
unsigned edmChannelsPerLinkEnd(const CclSpec& s, const MethodPlan& m, const std::vector<unsigned>& dirs,
                               unsigned linkShare);

/// M: pages per EDM message (the largest whole number of pages that fits a
/// channel slot, at most kMaxAutoPacket, or the spec's packet), or per
/// fabric packet (at most two: scatter writes). Chunks never span blocks.
std::uint32_t planPagesPerChunk(const CclSpec& s, std::uint64_t blockPages, unsigned edmChannels,
                                const PacketLimits& limits);

/// The most hops of the groups that cross one link: both hops of a ring of
/// two, relayed hops of other groups (at least 1).
unsigned linkShare(const std::vector<CclTopology>& topologies);

}  // namespace cclsim::ccl
