// EDM channel pairs between the streams of neighbouring chips, and relay workers.
#include "host/ccl/factory/EdmStreams.h"

#include "firmware/ccl/ccl_kernels.h"
#include "firmware/ccl/ccl_schedule.h"

#include <fmt/format.h>

#include <stdexcept>

namespace cclsim::ccl {

EdmStreams::EdmStreams(FactoryContext& ctx, EdmFabric& edm) : ctx_(ctx), edm_(edm) {}

std::vector<std::pair<const LinkDesc*, unsigned>> EdmStreams::route(const CclTopology& t, unsigned pos, unsigned dir,
                                                                    unsigned unit) const {
    const CclHop& h = dir == 0 ? t.hopAfter(pos) : t.hopBefore(pos);
    std::vector<std::pair<const LinkDesc*, unsigned>> out;
    for (std::size_t k = 0; k < h.segments.size(); ++k) {
        const std::size_t seg = dir == 0 ? k : h.segments.size() - 1 - k;
        const unsigned from = dir == 0 ? h.path[seg] : h.path[seg + 1];
        out.emplace_back(h.segments[seg][unit % t.links], from);
    }
    return out;
}

void EdmStreams::connect(std::map<StreamKey, Stream>& streams, const CclTopology& t, const char* what) {
    const unsigned n = ctx_.plan.ranks;
    for (auto& [key, x] : streams) {
        if (!x.sends) continue;
        const auto [pos, u, dir] = key;
        Stream& down = streams.at({unsigned(downstream(pos, 1, dir, n, t.ring())), u, dir});
        if (down.recvs != x.sends)
            throw std::logic_error(fmt::format("{} plan: position {} sends {} messages, its neighbour expects {}", what,
                                               pos, x.sends, down.recvs));
        const auto segs = route(t, pos, dir, u);
        CoreCoord from = x.sender;
        EdmPort* fromPort = &x.out;
        for (std::size_t k = 0; k < segs.size(); ++k) {
            const bool last = k + 1 == segs.size();
            const unsigned next = last ? 0 : (segs[k + 1].second);
            const CoreCoord to = last ? down.receiver : ctx_.takeCore(next);
            const EdmConnection c = edm_.connect(*segs[k].first, segs[k].second, from, to, x.sends);
            *fromPort = c.sender;
            if (last) {
                down.in = c.receiver;
                break;
            }
            // The relay on chip `next`: in from this segment, out into the next.
            relays_.push_back(Relay{next, to, c.receiver, {}, x.sends});
            from = to;
            fromPort = &relays_.back().out;
        }
    }
}

void EdmStreams::finish() {
    const std::uint32_t payload = edm_.payloadBytes();
    for (const Relay& r : relays_) {
        EdmRelayArgs a;
        a.in = r.in;
        a.out = r.out;
        a.messages = r.messages;
        a.bytes = payload;
        a.staging = ctx_.rt.program(r.chip).allocateL1(r.core, 2 * payload, 32);
        createWorkerKernel(ctx_, r.chip, r.core, "edm_relay", fw::ccl::edm_relay_main, pack_args(a), 0);
    }
    relays_.clear();
}

}  // namespace cclsim::ccl
