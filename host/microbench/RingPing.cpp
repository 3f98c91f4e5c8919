#include "host/microbench/RingPing.h"

#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

namespace cclsim::microbench {

namespace {

// NoCs of the guide's Receiver and Sender kernels (tt-metal
// test_ethernet_hop_latencies_no_edm.cpp: EthernetConfig{.noc = RISCV_0_default}
// for the Receiver, RISCV_1_default for the Sender).
constexpr unsigned kReceiverNoc = 0;
constexpr unsigned kSenderNoc = 1;

std::vector<unsigned> ringOrderKeys(const ClusterDescriptor& d) {
    std::vector<unsigned> k;
    for (const auto& [h, o] : d.ringOrders) k.push_back(h);
    return k;
}

}  // namespace

void RingPing::build(Runtime& rt, const RingPingParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    order_ = p.order.empty() ? defaultOrder(d) : p.order;
    if (order_.size() != p.hops)
        throw ConfigError(fmt::format("--order has {} chips but --hops is {}", order_.size(), p.hops));
    for (unsigned c : order_)
        if (c >= d.chips.size()) throw ConfigError(fmt::format("--order: chip {} does not exist", c));
    planHops(d);
    const std::vector<Pos> pos = placePositions(rt);
    master_ = CoreRef{pos[0].chip, pos[0].rx};
    results_ = pos[0].results;
    createKernels(rt, pos);
}

std::vector<unsigned> RingPing::defaultOrder(const ClusterDescriptor& d) const {
    auto it = d.ringOrders.find(p_.hops);
    if (it != d.ringOrders.end()) return it->second;
    if (d.ringOrder.size() == p_.hops) return d.ringOrder;
    throw ConfigError(fmt::format("{} has no ring order for {} hops: pass --order (descriptor ring_orders: {})", d.file,
                                  p_.hops, fmt::join(ringOrderKeys(d), ", ")));
}

void RingPing::planHops(const ClusterDescriptor& d) {
    const unsigned nHops = p_.hops, channels = p_.channels;
    const std::vector<unsigned>& links = p_.links;
    // One link per hop; the n-th visit of a directed chip pair uses its n-th
    // link (the guide's build_eth_sockets_list), unless --links says which.
    if (!links.empty() && links.size() != nHops)
        throw ConfigError(fmt::format("--links has {} entries but --hops is {}", links.size(), nHops));
    std::map<std::pair<unsigned, unsigned>, unsigned> visits;
    hops_.clear();
    for (unsigned i = 0; i < nHops; ++i) {
        const unsigned a = order_[i], b = order_[(i + 1) % nHops];
        if (a == b) throw ConfigError(fmt::format("--order: hop {} goes from chip {} to itself", i, a));
        const unsigned visit = visits[{a, b}]++;
        const unsigned n = links.empty() ? visit : links[i];
        const auto user = d.userLinksBetween(a, b);
        if (user.empty())
            throw ConfigError(
                fmt::format("hop {}: chips {} and {} have no user Ethernet link (the ring order {} is "
                            "not connected)",
                            i, a, b, fmt::join(order_, ",")));
        if (!links.empty() && n >= user.size())
            throw ConfigError(
                fmt::format("--links: hop {} ({} -> {}) asks for link {} but the chips have {} user "
                            "link(s)",
                            i, a, b, n, user.size()));
        if (n >= user.size())
            throw ConfigError(fmt::format("hop {}: the ring uses chips {} -> {} {} times but they have {} user links",
                                          i, a, b, n + 1, user.size()));
        Hop h;
        h.link = userLink(d, a, b, n);
        h.desc = user[n];
        hops_.push_back(h);
    }
    // A link used in both directions needs two erisc_info channel ranges.
    const unsigned maxCh = d.arch.erisc.maxConcurrentTransactions;
    for (unsigned i = 0; i < nHops; ++i)
        for (unsigned j = 0; j < i; ++j)
            if (hops_[j].desc == hops_[i].desc) hops_[i].chanBase = channels;
    if (p_.separateSync && 2 * channels > maxCh)
        for (const Hop& h : hops_)
            if (h.chanBase + channels > maxCh)
                throw ConfigError(
                    fmt::format("--separate-sync uses erisc_info channels: {} channels per direction "
                                "do not fit the {} channels of a link used both ways",
                                channels, maxCh));
    if (p_.separateSync && channels > maxCh)
        throw ConfigError(fmt::format("--separate-sync: at most {} channels (erisc_info)", maxCh));
}

std::vector<RingPing::Pos> RingPing::placePositions(Runtime& rt) {
    const unsigned nHops = p_.hops, channels = p_.channels, packet = p_.packetBytes;
    std::vector<Pos> pos(nHops);
    std::set<std::pair<unsigned, CoreCoord>> usedCores;
    const std::uint32_t stride = packet + 16;
    for (unsigned i = 0; i < nHops; ++i) {
        Pos& p = pos[i];
        p.chip = order_[i];
        p.rx = hops_[(i + nHops - 1) % nHops].link.coreB;
        p.tx = hops_[i].link.coreA;
        p.combined = p.rx == p.tx;
        for (CoreCoord c : {p.rx, p.tx}) {
            if (p.combined && c == p.tx && c == p.rx && usedCores.count({p.chip, c})) continue;
            if (!usedCores.insert({p.chip, c}).second)
                throw ConfigError(fmt::format("ring position {}: chip {} core {} is already used by another hop", i,
                                              p.chip, c.str()));
        }
        Program& prog = rt.program(p.chip);
        p.rxBase = prog.allocateL1(p.rx, channels * stride, 16);
        p.ack = prog.allocateL1(p.rx, 16, 16);
        p.results = prog.allocateL1(p.rx, 16, 16);
        p.txBase = prog.allocateL1(p.tx, channels * stride, 16);
        for (unsigned ch = 0; ch < channels; ++ch) {
            prog.markControl(p.rx, p.rxBase + ch * stride + packet, 16);
            prog.markControl(p.tx, p.txBase + ch * stride + packet, 16);
        }
        prog.markControl(p.rx, p.ack, 32);
        p.semBase = 0;
        for (unsigned ch = 0; ch < channels; ++ch) {
            const std::uint32_t s = prog.createSemaphore(p.tx, 0, fmt::format("ring_sem{}", ch));
            if (ch == 0) p.semBase = s;
        }
        // The ack word must hold bytes_sent != 0 and receiver_ack = 1.
        ProgrammableCore* core = rt.platform().chip(p.chip).core(p.rx);
        core->l1.writeU32(p.ack, 1);
        core->l1.writeU32(p.ack + 4, 1);
    }
    return pos;
}

std::vector<std::uint32_t> RingPing::argsFor(const std::vector<Pos>& pos, unsigned i, bool rxRole, bool txRole,
                                             std::uint32_t handshake) const {
    const unsigned nHops = p_.hops;
    const Pos& p = pos[i];
    const Pos& next = pos[(i + 1) % nHops];
    const Hop& up = hops_[(i + nHops - 1) % nHops];
    const Hop& down = hops_[i];
    std::uint32_t flags = 0;
    if (i == 0 && rxRole) flags |= 1;  // the master Receiver (or the combined kernel)
    if (rxRole) flags |= 2;
    if (txRole) flags |= 4;
    if (!p_.separateSync) flags |= 8;
    // Handshake: the sending end of a link starts it; a link used both
    // ways is started by its end at the lower ring position.
    flags |= 32;  // the Sender side of the downstream link
    if (p.combined) {
        flags |= 64;
        if (down.chanBase != 0) flags &= ~32u;
    }
    return std::vector<std::uint32_t>{flags,
                                      p_.samples,
                                      p_.channels,
                                      p_.packetBytes,
                                      p.rxBase,
                                      p.tx.x,
                                      p.tx.y,
                                      p.txBase,
                                      p.semBase,
                                      p.ack,
                                      up.chanBase,
                                      p.results,
                                      p.txBase,
                                      p.semBase,
                                      next.rxBase,
                                      down.chanBase,
                                      handshake,
                                      pos[(i + nHops - 1) % nHops].txBase,
                                      fw::microbench::kArgsEndMarker};
}

void RingPing::createKernels(Runtime& rt, const std::vector<Pos>& pos) {
    const std::uint32_t handshake = rt.platform().descriptor().arch.erisc.unreservedBase;
    for (unsigned i = 0; i < p_.hops; ++i) {
        const Pos& p = pos[i];
        Program& prog = rt.program(p.chip);
        auto make = [&](CoreCoord c, bool rxRole, bool txRole, const char* nm) {
            // As tt-metal's ring ping creates them: the Receiver on NoC0
            // (NOC::RISCV_0_default), the Sender on NoC1 (RISCV_1_default).
            // The Receiver's forward to the Sender therefore takes NoC0's
            // one-way (+x, +y) torus route whatever the distance the other
            // way; the Sender issues no NoC traffic while pinging.
            KernelConfig kc;
            kc.noc = rxRole ? kReceiverNoc : kSenderNoc;
            KernelHandle k = prog.createKernel(nm, fw::microbench::ring_ping_kernel_main, c, kc);
            prog.setRuntimeArgs(k, argsFor(pos, i, rxRole, txRole, handshake));
        };
        if (p.combined) {
            make(p.rx, true, true, i == 0 ? "ring_ping_master" : "ring_ping_relay");
        } else {
            make(p.rx, true, false, i == 0 ? "ring_ping_master_receiver" : "ring_ping_receiver");
            make(p.tx, false, true, "ring_ping_sender");
        }
    }
}

RingPingResult RingPing::read(Runtime& rt) const {
    const double cycleNs = ticksToNs(rt.platform().descriptor().arch.cycles(1));
    const double sum = double((std::uint64_t(rt.readL1(master_, results_ + 4)) << 32) | rt.readL1(master_, results_));
    RingPingResult r;
    r.roundTripNs = sum * cycleNs / p_.samples;
    r.perHopNs = r.roundTripNs / p_.hops;
    r.roundTripMinNs = rt.readL1(master_, results_ + 8) * cycleNs;
    r.roundTripMaxNs = rt.readL1(master_, results_ + 12) * cycleNs;
    return r;
}

std::vector<LinkEnds> RingPing::hops() const {
    std::vector<LinkEnds> out;
    for (const Hop& h : hops_) out.push_back(h.link);
    return out;
}

}  // namespace cclsim::microbench
