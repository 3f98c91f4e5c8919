#include "models/noc/Noc.h"

#include <algorithm>

namespace cclsim {

Noc::Noc(unsigned id, const NocConfig& cfg)
    : NocInterconnect(id, cfg),
      links_(std::size_t(cfg.gridX) * cfg.gridY * 3),
      bufferedTicks_(transferTicks(cfg.routerBufferBytes, cfg.linkBytesPerNs)) {}

unsigned Noc::hops(CoreCoord s, CoreCoord d) const {
    const unsigned X = config().gridX, Y = config().gridY;
    if (id() == 0) return (d.x + X - s.x) % X + (d.y + Y - s.y) % Y;
    return (s.x + X - d.x) % X + (s.y + Y - d.y) % Y;
}

Tick Noc::bookBusy(Link& l, Tick earliest, Tick dur, std::uint32_t source, Tick nowTick) {
    std::vector<Busy>& b = l.busy;
    // Packets book when they enter the NoC, never for the past: bookings
    // that have ended no longer matter. Drop them from the front (amortised).
    // (An idle link never gets here: book() clears it without reading its
    // bookings, which are a cache miss away; the link's summary is not.)
    const Tick t = std::min(nowTick, earliest);
    while (l.head < b.size() && b[l.head].end <= t) ++l.head;
    if (l.head == b.size()) {
        b.clear();
        l.head = 0;
        l.maxDur = 0;
    } else if (l.head >= 64 && 2 * l.head >= b.size()) {
        b.erase(b.begin(), b.begin() + std::ptrdiff_t(l.head));
        l.head = 0;
    }
    Tick start = earliest;
    if (start < l.maxEnd) {
        // Packets of one lane stay in order (a write and its semaphore
        // increment must not pass each other): start after this lane's
        // bookings. (Live lists are short; appends skip this.)
        for (std::size_t i = l.head; i < b.size(); ++i)
            if (b[i].source == source) start = std::max(start, b[i].end);
    }
    if (start >= l.maxEnd) {
        b.push_back(Busy{start, start + dur, source});  // after everything booked: the common case
    } else {
        // Scan for the first gap from the first booking that can still end
        // after `start` (none starting before start - maxDur can).
        const Tick from = start > l.maxDur ? start - l.maxDur : 0;
        auto it = std::lower_bound(b.begin() + std::ptrdiff_t(l.head), b.end(), from,
                                   [](const Busy& x, Tick v) { return x.start < v; });
        for (; it != b.end(); ++it) {
            const Busy& x = *it;
            const bool samePort = (x.source >> 4) == (source >> 4);
            if (samePort || x.end <= start) continue;
            if (start + dur <= x.start) break;  // fits in the gap before x
            start = x.end;
        }
        const auto pos = std::upper_bound(b.begin() + std::ptrdiff_t(l.head), b.end(), start,
                                          [](Tick s0, const Busy& x) { return s0 < x.start; });
        b.insert(pos, Busy{start, start + dur, source});
    }
    l.maxEnd = std::max(l.maxEnd, start + dur);
    l.maxDur = std::max(l.maxDur, dur);
    return start;
}

Tick Noc::reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd,
                        unsigned lane, Tick* sourceFree) {
    const NocConfig& cfg = config();
    const unsigned gx = cfg.gridX, gy = cfg.gridY;
    const Tick dur = transferTicks(wireBytes, cfg.linkBytesPerNs);
    const Tick hopLatency = cfg.hopLatency;
    Tick head = injectStart + cfg.startupLatency;
    Tick tailOut = head;
    Tick free = injectEnd;
    // Unblocked, the tail crosses the n-th link (from 0) startup + n *
    // hopLatency after it left the source; the routers up to it hold
    // (n + 1) router buffers.
    Tick unblocked = head;
    Tick slack = bufferedTicks_;
    unsigned routerHops = 0;  // links crossed before the ejection port (hops(src, dst))
    const std::uint32_t source = ((std::uint32_t(src.y) * gx + src.x) << 4) | (lane & 0xf);
    const Tick nowTick = now();
    auto use = [&](std::size_t link, Tick d) {
        Link& l = links_[link];
        const Tick start = book(l, head, d, source, nowTick);
        l.bytes += wireBytes;
        tailOut = start + d;
        // A head that waited here delays the tail by the wait less what the
        // routers up to here hold.
        if (start > unblocked + slack) free = std::max(free, injectEnd + (start - unblocked) - slack);
        head = start + hopLatency;
        unblocked += hopLatency;
        slack += bufferedTicks_;
    };
    unsigned x = src.x, y = src.y;
    if (id() == 0) {
        for (; x != dst.x; ++routerHops) {
            use(linkIndex(x, y, X), dur);
            if (++x == gx) x = 0;
        }
        for (; y != dst.y; ++routerHops) {
            use(linkIndex(x, y, Y), dur);
            if (++y == gy) y = 0;
        }
    } else {
        for (; y != dst.y; ++routerHops) {
            use(linkIndex(x, y, Y), dur);
            y = (y == 0 ? gy : y) - 1;
        }
        for (; x != dst.x; ++routerHops) {
            use(linkIndex(x, y, X), dur);
            x = (x == 0 ? gx : x) - 1;
        }
    }
    // The ejection port (at the endpoint's absorption rate): the tail is
    // absorbed when it has crossed it. A packet that was injected slowly
    // (shared injection port) cannot arrive before its last byte left the
    // source plus the path latency.
    use(linkIndex(dst.x, dst.y, Eject), transferTicks(wireBytes, cfg.absorbRate(dst.x, dst.y)));
    if (sourceFree) *sourceFree = free;
    const Tick pathLatency = cfg.startupLatency + Tick(routerHops) * hopLatency;
    return std::max(tailOut, injectEnd + pathLatency);
}

double Noc::busiestLinkBytes() const {
    double m = 0;
    for (std::size_t i = 0; i < links_.size(); ++i)
        if (i % 3 != Eject) m = std::max(m, links_[i].bytes);
    return m;
}

}  // namespace cclsim
