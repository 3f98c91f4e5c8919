// Shapes, directions, EDM channels and packet sizes of an op (pure).
#include "host/ccl/plan/CclPlanner.h"

#include "host/ccl/CclOpError.h"
#include "host/ccl/plan/FabricRingPlan.h"
#include "models/chip/ArchConfig.h"

#include <algorithm>
#include <map>

namespace cclsim::ccl {

using golden::Method;

PacketLimits PacketLimits::of(const ArchConfig& arch) {
    PacketLimits l;
    l.fabricPayloadBytes = arch.fabric.maxPayloadBytes;
    l.edmRegionBytes = arch.erisc.kernelRegionEnd() - (arch.erisc.unreservedBase + 32);
    return l;
}

CclShape planShape(const CclSpec& s, unsigned n) {
    if (s.count == 0) throw CclOpError("count", fmt::format("{}: the input has no elements", golden::opName(s.op)));
    return collective(s.op).shape(s, n);
}

std::vector<unsigned> planDirections(const CclSpec& s, const MethodPlan& m) {
    const CollectiveDef& def = collective(s.op);
    const bool viaBroadcast = s.method == Method::Broadcast && def.reduces;
    if (def.edmStreams == EdmStreamKind::AllToAll || viaBroadcast) {
        if (s.method == Method::Clockwise) return {0};
        if (s.method == Method::Anticlockwise) return {1};
        return {0, 1};
    }
    return def.edmStreams == EdmStreamKind::Reduce ? m.reduceDirs : m.gatherDirs;
}

unsigned edmChannelsPerLinkEnd(const CclSpec& s, const MethodPlan& m, const std::vector<unsigned>& dirs,
                               unsigned linkShare) {
    const CollectiveDef& def = collective(s.op);
    const unsigned w = s.workers;
    const unsigned gather = unsigned(m.gatherDirs.size()) * w;
    const unsigned reduce = unsigned(m.reduceDirs.size()) * w;
    unsigned per = 0;
    switch (def.edmStreams) {
        case EdmStreamKind::Gather: per = gather; break;
        case EdmStreamKind::AllToAll: per = unsigned(dirs.size()) * w; break;
        case EdmStreamKind::Reduce: per = reduce; break;
        case EdmStreamKind::ReduceThenGather: per = reduce + gather; break;
    }
    if (s.method == Method::Broadcast && def.reduces) per = unsigned(dirs.size()) * w;  // the exchange only
    return per * linkShare;
}

unsigned linkShare(const std::vector<CclTopology>& topologies) {
    // A link carries the streams of every hop that crosses it.
    std::map<const LinkDesc*, unsigned> uses;
    unsigned most = 1;
    for (const CclTopology& t : topologies)
        for (const CclHop& h : t.hops)
            for (const auto& seg : h.segments)
                for (const LinkDesc* l : seg) most = std::max(most, ++uses[l]);
    return most;
}

std::uint32_t planPagesPerChunk(const CclSpec& s, std::uint64_t blockPages, unsigned edmChannels,
                                const PacketLimits& limits) {
    const std::uint32_t page = s.pageBytes;
    if (s.impl == CclSpec::Impl::Fabric && s.method != Method::Broadcast) {
        // No EDM: the fabric's packets carry the pages of one scatter write
        // (an all-reduce's second phase is a ring all-gather); this is the
        // largest, for the report. A page too large for the fabric's payload
        // is refused when the fabric is built.
        const bool ringGather =
            s.topology() == TopologyKind::Ring && (s.op == golden::Op::AllGather || s.op == golden::Op::AllReduce);
        const std::uint32_t pages =
            std::max<std::uint32_t>(1, fabricPagesPerPacket(ringGather, limits.fabricPayloadBytes, page));
        return std::uint32_t(std::min<std::uint64_t>(pages, blockPages));
    }
    const unsigned ch = std::max(1u, edmChannels);
    const unsigned slots = s.impl == CclSpec::Impl::Edm ? s.edmBuffers : 1;  // EDM channels only
    // Per channel: its semaphore and `slots` slots of payload + sync word.
    // Ops sharing the Ethernet cores' EDMs split the region between them.
    const std::uint32_t region = limits.edmRegionBytes / std::max(1u, s.sharing.edmShare);
    const std::uint32_t perChannel = region / ch;
    const std::uint32_t perSlot = perChannel > 16 ? (perChannel - 16) / slots : 0;
    const std::uint32_t fit = perSlot > 16 ? (perSlot - 16) / page * page : 0;
    std::uint32_t packet = s.packetBytes;
    if (packet == 0) {
        packet = std::min(fit, std::max(page, kMaxAutoPacket / page * page));
        if (packet < page)
            throw CclOpError("edm_buffers",
                             fmt::format("{}: {} EDM channels of {} buffer(s) per Ethernet core leave {} "
                                         "B per buffer, less than one {} B page; use fewer {} or {}",
                                         golden::opName(s.op), ch, slots, perSlot, page, specRef("workers"),
                                         specRef("edm_buffers")));
    } else {
        if (packet % page)
            throw CclOpError("packet_bytes", fmt::format("{}: must be a whole number of {} B pages",
                                                         specRef("packet_bytes", packet), page));
        if (packet > fit)
            throw CclOpError("packet_bytes",
                             fmt::format("{}: {} EDM channels per Ethernet core ({} link(s) x {} worker(s)) of {} "
                                         "buffer(s) fit at most {} B per buffer in the {} B kernel region",
                                         specRef("packet_bytes", packet), ch, s.links, s.workers, slots, fit, region));
    }
    // Chunks never span blocks.
    return std::uint32_t(std::min<std::uint64_t>(packet / page, blockPages));
}

CclPlan planCcl(const CclSpec& s, unsigned n, unsigned share, const PacketLimits& limits) {
    CclPlan p;
    p.ranks = n;
    p.ring = s.topology() == TopologyKind::Ring;
    p.units = s.links * s.workers;
    p.viaBroadcast = s.method == Method::Broadcast && collective(s.op).reduces;
    p.shape = planShape(s, n);
    p.method = planMethod(s.method, n, p.ring, p.shape.blockPages);
    p.dirs = planDirections(s, p.method);
    p.edmChannels = edmChannelsPerLinkEnd(s, p.method, p.dirs, share);
    p.pagesPerChunk = planPagesPerChunk(s, p.shape.blockPages, p.edmChannels, limits);
    return p;
}

}  // namespace cclsim::ccl
