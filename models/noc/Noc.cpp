#include "models/noc/Noc.h"

#include <algorithm>

namespace cclsim {

Noc::Noc(unsigned id, const NocConfig& cfg)
    : id_(id), cfg_(cfg), freeAt_(std::size_t(cfg.gridX) * cfg.gridY * 3, 0),
      bytes_(std::size_t(cfg.gridX) * cfg.gridY * 3, 0.0) {}

unsigned Noc::hops(CoreCoord s, CoreCoord d) const {
    const unsigned X = cfg_.gridX, Y = cfg_.gridY;
    if (id_ == 0) return (d.x + X - s.x) % X + (d.y + Y - s.y) % Y;
    return (s.x + X - d.x) % X + (s.y + Y - d.y) % Y;
}

Tick Noc::reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd) {
    const unsigned gx = cfg_.gridX, gy = cfg_.gridY;
    const Tick dur = transferTicks(wireBytes, cfg_.linkBytesPerNs);
    Tick head = injectStart + cfg_.startupLatency;
    Tick tailOut = head;
    auto use = [&](std::size_t link) {
        const Tick start = std::max(head, freeAt_[link]);
        tailOut = start + dur;
        freeAt_[link] = tailOut;
        bytes_[link] += wireBytes;
        head = start + cfg_.hopLatency;
    };
    unsigned x = src.x, y = src.y;
    if (id_ == 0) {
        while (x != dst.x) { use(linkIndex(x, y, X)); x = (x + 1) % gx; }
        while (y != dst.y) { use(linkIndex(x, y, Y)); y = (y + 1) % gy; }
    } else {
        while (y != dst.y) { use(linkIndex(x, y, Y)); y = (y + gy - 1) % gy; }
        while (x != dst.x) { use(linkIndex(x, y, X)); x = (x + gx - 1) % gx; }
    }
    // The ejection port: the tail is absorbed when it has crossed it. A packet
    // that was injected slowly (shared injection port) cannot arrive before
    // its last byte left the source plus the path latency.
    use(linkIndex(dst.x, dst.y, Eject));
    const Tick pathLatency = cfg_.startupLatency + Tick(hops(src, dst)) * cfg_.hopLatency;
    return std::max(tailOut, injectEnd + pathLatency);
}

double Noc::busiestLinkBytes() const {
    double m = 0;
    for (std::size_t i = 0; i < bytes_.size(); ++i)
        if (i % 3 != Eject) m = std::max(m, bytes_[i]);
    return m;
}

}  // namespace cclsim
