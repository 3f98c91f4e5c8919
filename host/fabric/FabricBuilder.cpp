#include "host/fabric/FabricBuilder.h"

#include "firmware/api/kernel_api.h"
#include "firmware/fabric/fabric_kernels.h"
#include "models/common/Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace cclsim::fabric {

namespace {

std::vector<Dir> directions(const FabricTopology& t) {
    if (t.is2d()) return {Dir::E, Dir::W, Dir::N, Dir::S};
    return {Dir::E, Dir::W};
}

template <class A> std::vector<std::uint32_t> packArgs(A a) {
    return fw::pack_layout_args(a, kArgsEndMarker);
}

std::uint32_t round16(std::uint32_t n) {
    return (n + 15) / 16 * 16;
}

}  // namespace

FabricBuilder::FabricBuilder(Runtime& rt, FabricTopology topo, const FabricOptions& opts)
    : rt_(rt), topo_(std::move(topo)), opts_(opts) {
    const ClusterDescriptor& d = rt_.platform().descriptor();
    const FabricArch& fa = d.arch.fabric;
    if (!fa.present)
        throw ConfigError(
            fmt::format("{}: the chip architecture has no `fabric:` section (router configuration)", d.arch.file));
    for (unsigned c : topo_.chips())
        if (c >= d.chips.size()) throw ConfigError(fmt::format("fabric: chip {} does not exist on this board", c));
    payload_ = fa.maxPayloadBytes;
    if (topo_.is2d())
        headerBytes_ = fa.headerBytes2d;
    else
        headerBytes_ = topo_.maxHops() <= route1d::kHopsPerWord ? fa.headerBytes1d : fa.headerBytes1dLong;
    slotBytes_ = headerBytes_ + round16(payload_);
    readMax_ = std::min(fa.readMaxBytes, payload_);
    slotBytes1_ = headerBytes_ + round16(readMax_);
    // VC1 exists only on a fabric that carries reads (FabricOptions::reads).
    replySlots_ = servesReads() ? fa.replySlots : 0;
    vc1Slots_ = servesReads() ? fa.vc1Slots : 0;
    if (opts_.readRelays && topo_.is2d())
        throw ConfigError("fabric: read relays (UDM mode) are modelled on 1D fabrics only (line, ring)");
    planRouters();
    chooseSlots();
}

const TraceEnum& connectionStateTraceEnum() {
    static const TraceEnum e{"fabric_connection_state",
                             std::vector<std::string>(std::begin(conn::kStateNames), std::end(conn::kStateNames))};
    return e;
}

void FabricBuilder::planRouters() {
    const ClusterDescriptor& d = rt_.platform().descriptor();
    // Planes: the thinnest neighbour pair's user links.
    unsigned avail = ~0u;
    std::string thinnest;
    for (unsigned chip : topo_.chips()) {
        for (Dir dir : directions(topo_)) {
            const auto nb = topo_.neighbour(chip, dir);
            if (!nb) continue;
            const auto links = d.userLinksBetween(chip, *nb);
            if (links.empty())
                throw ConfigError(fmt::format(
                    "fabric ({}): chips {} and {} are neighbours ({} of chip {}) but have no user Ethernet link{}",
                    fabricKindName(topo_.kind), chip, *nb, dirName(dir), chip,
                    d.linksBetween(chip, *nb).empty() ? "" : " (their links are reserved for dispatch)"));
            if (links.size() < avail) {
                avail = unsigned(links.size());
                thinnest = fmt::format("chips {}-{}", chip, *nb);
            }
        }
    }
    planes_ = opts_.planes ? opts_.planes : opts_.maxPlanes ? std::min(avail, opts_.maxPlanes) : avail;
    if (planes_ > avail)
        throw ConfigError(fmt::format("fabric: {} routing planes asked for, but {} have only {} user link(s)", planes_,
                                      thinnest, avail));
    std::set<EthEndpoint> used;
    for (unsigned chip : topo_.chips()) {
        for (unsigned p = 0; p < planes_; ++p) {
            for (Dir dir : directions(topo_)) {
                const auto nb = topo_.neighbour(chip, dir);
                if (!nb) continue;
                const LinkDesc* l = d.userLinksBetween(chip, *nb)[p];
                const bool aSide = l->a.chip == chip;
                const EthEndpoint self = aSide ? l->a : l->b;
                const EthEndpoint peer = aSide ? l->b : l->a;
                if (!used.insert(self).second)
                    throw ConfigError(
                        fmt::format("fabric: chip {} Ethernet channel {} would carry two routers (a "
                                    "ring or torus axis of two chips needs two links per plane)",
                                    chip, self.chan));
                RouterSlot r;
                r.info.chip = chip;
                r.info.plane = p;
                r.info.dir = dir;
                r.info.channel = self.chan;
                r.info.core = d.arch.ethCores.at(self.chan);
                r.info.peerChip = peer.chip;
                r.info.peerChannel = peer.chan;
                r.info.bubble = topo_.wraps(dir);
                r.args.handshake_sender = aSide ? 1 : 0;
                routerAt_[{chip, p, unsigned(dir)}] = routers_.size();
                routers_.push_back(r);
                routerInfo_.push_back(r.info);
            }
        }
    }
}

void FabricBuilder::chooseSlots() {
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    const std::uint32_t base = arch.erisc.unreservedBase + 16;  // after the handshake scratch
    const bool is2d = topo_.is2d();
    const unsigned nUp = numUpstream(is2d);
    const unsigned nSenders = numSenderChannels(is2d);
    const std::uint32_t relayWord = opts_.readRelays ? 16 : 0;  // the relay's "slots freed" word
    const std::uint32_t control = kVcs * 16 + nSenders * 64 + kVcs * kDirs * 16 + conn::kBytes + relayWord;
    // VC1 (read replies, only with reads): the reply channel, one forwarding channel per other
    // direction, the receiver.
    const std::uint64_t vc1 = std::uint64_t(replySlots_ + nUp * vc1Slots_ + vc1Slots_) * slotBytes1_;
    const std::uint32_t avail = arch.erisc.kernelRegionEnd() - base;
    for (const auto& opt : arch.fabric.slotOptions) {
        const std::uint64_t need = control + vc1 + std::uint64_t((nUp + 1) * opt[0] + opt[1]) * slotBytes_;
        if (need <= avail) {
            senderSlots_ = opt[0];
            rxSlots_ = opt[1];
            break;
        }
    }
    if (!senderSlots_)
        throw ConfigError(fmt::format(
            "fabric: no slot option of {} fits {} B slots ({} B header + {} B payload){} in the "
            "{} B of ERISC L1",
            arch.file, slotBytes_, headerBytes_, payload_, vc1 ? " and the read-reply channels" : "", avail));
    RouterLayout& l = layout_;
    l.handshake = arch.erisc.unreservedBase;
    l.rx_pkts_sent[0] = base;
    l.rx_pkts_sent[1] = base + 16;
    l.counters = base + 32;
    l.ds_free = l.counters + nSenders * 64;
    l.connection = l.ds_free + kVcs * kDirs * 16;
    std::uint32_t at = l.connection + conn::kBytes;
    for (unsigned c = 0; c < nSenders; ++c) {
        l.sender_buffers[c] = at;
        at += senderSlotsOf(c) * (channelVc(c, is2d) ? slotBytes1_ : slotBytes_);
    }
    l.rx_buffer[0] = at;
    at += rxSlots_ * slotBytes_;
    l.rx_buffer[1] = at;
    l.end = at + vc1Slots_ * slotBytes1_;
    if (relayWord) {
        l.relay_free = l.end;
        l.end += relayWord;
    }
}

std::uint32_t FabricBuilder::senderSlotsOf(unsigned c) const {
    const bool is2d = topo_.is2d();
    if (c == replyChannel(is2d)) return replySlots_;
    return channelVc(c, is2d) ? vc1Slots_ : senderSlots_;
}

std::size_t FabricBuilder::routerIndex(unsigned chip, unsigned plane, Dir d) const {
    auto it = routerAt_.find({chip, plane, unsigned(d)});
    return it == routerAt_.end() ? ~std::size_t{0} : it->second;
}

Route FabricBuilder::route(unsigned src, unsigned dst) const {
    return fabric::route(topo_, src, dst, rt_.platform().descriptor().arch.fabric.routeYFirst);
}

PacketHeader FabricBuilder::header(unsigned src, unsigned dst) const {
    PacketHeader h;
    setRoute(h, topo_, route(src, dst));
    return h;
}

void FabricBuilder::setReadReply(PacketHeader& h, unsigned src, unsigned dst) const {
    if (!servesReads())
        throw std::logic_error("fabric: a read request on a fabric built without reads (FabricOptions::reads)");
    setReplyRoute(h, topo_, route(src, dst));
}

ClientId FabricBuilder::addClient(unsigned chip, CoreCoord core, Dir dir, unsigned plane) {
    if (built_) throw std::logic_error("FabricBuilder::addClient after build()");
    if (plane >= planes_)
        throw ConfigError(
            fmt::format("fabric client on chip {}: plane {} does not exist ({} plane(s))", chip, plane, planes_));
    if (routerIndex(chip, plane, dir) == ~std::size_t{0})
        throw ConfigError(fmt::format("fabric client on chip {}: the {} fabric has no router towards {} there", chip,
                                      fabricKindName(topo_.kind), dirName(dir)));
    Chip& c = rt_.platform().chip(chip);
    if (!c.worker(core))
        throw ConfigError(fmt::format("fabric client on chip {}: core {} is not a worker core", chip, core.str()));
    Program& prog = rt_.program(chip);
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    Client cl;
    cl.chip = chip;
    cl.plane = plane;
    cl.dir = dir;
    cl.core = core;
    FabricConnectionArgs& a = cl.args;
    a.local_rd = prog.allocateL1(core, 16, 16);
    a.local_teardown = prog.allocateL1(core, 16, 16);
    a.local_scratch = prog.allocateL1(core, 16, 16);
    const std::uint32_t pool = std::max(senderSlots_, arch.fabric.muxClientSlots) * headerBytes_;
    a.header_pool = prog.allocateL1(core, pool, 16);
    prog.markControl(core, a.local_rd, 48);
    prog.markControl(core, a.header_pool, pool);
    clients_.push_back(cl);
    return ClientId{clients_.size() - 1};
}

CoreCoord FabricBuilder::firstRouterCore(unsigned chip, CoreCoord otherwise) const {
    for (const RouterInfo& r : routerInfo_)
        if (r.chip == chip) return r.core;
    return otherwise;
}

const RouterInfo& FabricBuilder::router(unsigned chip, unsigned plane, Dir d) const {
    const std::size_t i = routerIndex(chip, plane, d);
    if (i == ~std::size_t{0})
        throw ConfigError(fmt::format("fabric: chip {} has no router towards {} on plane {}", chip, dirName(d), plane));
    return routers_[i].info;
}

CoreCoord freeWorkerNear(Runtime& rt, unsigned chip, CoreCoord near, const std::vector<CoreCoord>& taken) {
    const ArchConfig& arch = rt.platform().descriptor().arch;
    Program& prog = rt.program(chip);
    const CoreCoord* best = nullptr;
    int bestDist = 0;
    for (const CoreCoord& w : arch.workers) {
        // A core that runs a kernel, or whose L1 a host already allocated for
        // it alone (a process group's ranks before their kernels exist), is
        // taken; a tensor interleaved over the L1 of every core is not.
        if (prog.hasKernelOn(w) || prog.coreClaimed(w) || std::find(taken.begin(), taken.end(), w) != taken.end())
            continue;
        const int dist = std::abs(int(w.x) - int(near.x)) + std::abs(int(w.y) - int(near.y));
        if (!best || dist < bestDist) {
            best = &w;
            bestDist = dist;
        }
    }
    if (!best)
        throw ConfigError(
            fmt::format("fabric: chip {} has no free worker core for a fabric mux (the workload's workers took them: "
                        "fewer workers or links)",
                        chip));
    return *best;
}

void FabricBuilder::placeMuxes() {
    std::map<std::size_t, std::vector<std::size_t>> byRouter;
    for (std::size_t i = 0; i < clients_.size(); ++i)
        byRouter[routerIndex(clients_[i].chip, clients_[i].plane, clients_[i].dir)].push_back(i);
    std::map<unsigned, std::vector<CoreCoord>> taken;
    for (auto& [r, list] : byRouter) {
        if (list.size() < 2) continue;
        const RouterInfo& ri = routers_[r].info;
        if (list.size() > kMaxMuxClients)
            throw ConfigError(
                fmt::format("fabric: {} workers of chip {} send through its {} router on plane {}; a mux "
                            "serves at most {} (fewer workers per link, or more routing planes: more links)",
                            list.size(), ri.chip, dirName(ri.dir), ri.plane, kMaxMuxClients));
        Mux m;
        m.chip = ri.chip;
        m.core = freeWorkerNear(rt_, ri.chip, ri.core, taken[ri.chip]);
        taken[ri.chip].push_back(m.core);
        m.clients = list;
        for (std::size_t k = 0; k < list.size(); ++k) {
            clients_[list[k]].mux = int(muxes_.size());
            clients_[list[k]].muxIndex = unsigned(k);
        }
        muxes_.push_back(m);
    }
}

void FabricBuilder::placeRelays() {
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    std::map<unsigned, std::vector<CoreCoord>> taken;
    for (std::size_t i = 0; i < routers_.size(); ++i) {
        const RouterInfo& ri = routers_[i].info;
        Relay rl;
        rl.router = i;
        rl.core = freeWorkerNear(rt_, ri.chip, ri.core, taken[ri.chip]);
        taken[ri.chip].push_back(rl.core);
        Program& prog = rt_.program(ri.chip);
        FabricReadRelayArgs& a = rl.args;
        a.header_bytes = headerBytes_;
        a.request_slots = arch.fabric.readRelayRequests;
        a.requests = prog.allocateL1(rl.core, a.request_slots * headerBytes_, 16);
        for (std::uint32_t s = 0; s < a.request_slots; ++s)
            prog.markControl(rl.core, a.requests + s * headerBytes_, headerBytes_);
        a.wr_counter = prog.allocateL1(rl.core, 16, 16);
        prog.markControl(rl.core, a.wr_counter, 16);
        a.router_x = ri.core.x;
        a.router_y = ri.core.y;
        a.router_free = layout_.relay_free;
        a.max_payload = payload_;
        a.pool_slots = arch.fabric.readRelaySlots;
        if (a.pool_slots > kMaxRelayPoolSlots)
            throw ConfigError(fmt::format("{}: fabric.read_relay_slots is {}, at most {}", arch.file, a.pool_slots,
                                          kMaxRelayPoolSlots));
        a.pool_slot_bytes = round16(payload_);
        a.pool = prog.allocateL1(rl.core, a.pool_slots * a.pool_slot_bytes, 16);
        rl.client = addClient(ri.chip, rl.core, ri.dir, ri.plane);
        // What is left of its L1 holds the registered requests, 32 B each (tt-metal's RegisteredResponsePool).
        a.max_registered = prog.l1Free(rl.core) / 32;
        relays_.push_back(rl);
    }
}

void FabricBuilder::build() {
    if (built_) throw std::logic_error("FabricBuilder::build called twice");
    if (opts_.readRelays) placeRelays();  // clients of their routers: before the muxes are planned
    built_ = true;
    placeMuxes();
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    const bool is2d = topo_.is2d();
    const unsigned nSenders = numSenderChannels(is2d);
    const std::uint32_t base = layout_.rx_pkts_sent[0];

    // Routers.
    for (RouterSlot& r : routers_) {
        const RouterInfo& ri = r.info;
        Program& prog = rt_.program(ri.chip);
        if (prog.l1Used(ri.core) != 0 || prog.hasKernelOn(ri.core))
            throw ConfigError(
                fmt::format("fabric: chip {} Ethernet channel {} (core {}) is already used by another "
                            "kernel; the fabric router needs it",
                            ri.chip, ri.channel, ri.core.str()));
        const std::uint32_t at = prog.allocateL1(ri.core, layout_.end - base, 16);
        if (at != base) throw std::logic_error("fabric router layout is not at the kernel region base");
        prog.markControl(ri.core, base, layout_.sender_buffers[0] - base);
        for (unsigned c = 0; c < nSenders; ++c) {
            const std::uint32_t stride = channelVc(c, is2d) ? slotBytes1_ : slotBytes_;
            for (std::uint32_t s = 0; s < senderSlotsOf(c); ++s)
                prog.markControl(ri.core, layout_.sender_buffers[c] + s * stride, headerBytes_);
        }
        for (std::uint32_t s = 0; s < rxSlots_; ++s)
            prog.markControl(ri.core, layout_.rx_buffer[0] + s * slotBytes_, headerBytes_);
        for (std::uint32_t s = 0; s < vc1Slots_; ++s)
            prog.markControl(ri.core, layout_.rx_buffer[1] + s * slotBytes1_, headerBytes_);

        FabricRouterArgs& a = r.args;
        a.dir = std::uint32_t(ri.dir);
        a.is_2d = is2d ? 1 : 0;
        a.chip = ri.chip;
        a.header_bytes = headerBytes_;
        a.slot_bytes[0] = slotBytes_;
        a.slot_bytes[1] = slotBytes1_;
        a.first_level_ack = ri.bubble ? 1 : 0;
        a.bubble = ri.bubble && arch.fabric.bubbleFlowControl ? 1 : 0;
        for (unsigned c = 0; c < kMaxSenderChannels; ++c) a.sender_slots[c] = c < nSenders ? senderSlotsOf(c) : 0;
        a.rx_slots[0] = rxSlots_;
        a.rx_slots[1] = vc1Slots_;
        // Workers and the router's own read replies bring new packets into the ring here.
        a.injection_mask = 1u | (1u << replyChannel(is2d));
        a.l_handshake = layout_.handshake;
        a.l_counters = layout_.counters;
        a.l_ds_free = layout_.ds_free;
        a.l_connection = layout_.connection;
        for (unsigned v = 0; v < kVcs; ++v) {
            a.l_rx_pkts_sent[v] = layout_.rx_pkts_sent[v];
            a.l_rx_buffer[v] = layout_.rx_buffer[v];
        }
        for (unsigned c = 0; c < kMaxSenderChannels; ++c) a.l_sender_buffers[c] = layout_.sender_buffers[c];
        for (auto& p : a.producer_xy) p = kNoCore;
        for (auto& dxy : a.downstream_xy) dxy = kNoCore;
        for (Dir in : directions(topo_)) {
            if (in == ri.dir) continue;
            const std::size_t u = routerIndex(ri.chip, ri.plane, in);
            if (u == ~std::size_t{0}) continue;
            const CoreCoord uc = routers_[u].info.core;
            for (unsigned v = 0; v < kVcs; ++v) {
                const unsigned ch = upstreamChannel(ri.dir, in, is2d, v);
                a.producer_xy[ch] = packXY(uc.x, uc.y);
                // A packet turning onto this router's axis enters its ring.
                if (isX(in) != isX(ri.dir)) a.injection_mask |= 1u << ch;
            }
        }
        for (Dir out : directions(topo_)) {
            if (out == ri.dir) continue;
            const std::size_t dn = routerIndex(ri.chip, ri.plane, out);
            if (dn == ~std::size_t{0}) continue;
            const CoreCoord dc = routers_[dn].info.core;
            a.downstream_xy[unsigned(out)] = packXY(dc.x, dc.y);
        }
        a.downstream_slots[0] = senderSlots_;
        a.downstream_slots[1] = vc1Slots_;
        a.forward_noc = arch.fabric.forwardNoc;
        a.credit_noc = arch.fabric.creditNoc;
        a.packet_cycles = arch.fabric.routerPacketCycles;

        KernelConfig kc;
        // Compile-time, as tt-metal's SWITCH_INTERVAL: idle rounds before run_routing(); and, as tt-metal
        // compiles UDM mode into its router, the read relay the router hands read requests to.
        kc.ctArgs.assign(router_ct::kCount, 0);
        kc.ctArgs[router_ct::kIdleRounds] = arch.erisc.contextSwitchIdleRounds;
        kc.ctArgs[router_ct::kTxqAcceptAhead] = arch.fabric.txqAcceptAhead;
        kc.ctArgs[router_ct::kRelayXY] = kNoCore;
        if (!relays_.empty()) {  // one per router, in router order
            const Relay& rl = relays_[std::size_t(&r - routers_.data())];
            kc.ctArgs[router_ct::kRelayXY] = packXY(rl.core.x, rl.core.y);
            kc.ctArgs[router_ct::kRelayRequests] = rl.args.requests;
            kc.ctArgs[router_ct::kRelaySlots] = rl.args.request_slots;
            kc.ctArgs[router_ct::kRelayWrCounter] = rl.args.wr_counter;
            kc.ctArgs[router_ct::kRelayFree] = layout_.relay_free;
        }
        kc.persistent = true;
        kc.resident = true;  // started when the fabric is set up, before any op
        kc.noc = arch.fabric.forwardNoc;
        kc.traceSlots = {"tx_packets", "rx_packets", {"worker_conn", &connectionStateTraceEnum()}};
        const std::string name = fmt::format("fabric_router_{}{}", dirName(ri.dir), ri.plane);
        KernelHandle k = prog.createKernel(name, fw::fabric_fw::fabric_router_main, ri.core, kc);
        prog.setRuntimeArgs(k, packArgs(a));
    }

    // Muxes.
    const std::uint32_t muxSlots = arch.fabric.muxClientSlots;
    for (Mux& m : muxes_) {
        Program& prog = rt_.program(m.chip);
        const Client& first = clients_[m.clients.front()];
        const RouterSlot& r = routers_[routerIndex(first.chip, first.plane, first.dir)];
        FabricMuxArgs& a = m.args;
        const auto n = std::uint32_t(m.clients.size());
        a.n_clients = n;
        a.client_slots = muxSlots;
        a.slot_bytes = slotBytes_;
        a.header_bytes = headerBytes_;
        a.counters = prog.allocateL1(m.core, n * 32, 16);
        a.connections = prog.allocateL1(m.core, n * conn::kBytes, 16);
        a.buffers = prog.allocateL1(m.core, n * muxSlots * slotBytes_, 16);
        prog.markControl(m.core, a.counters, n * 32);
        prog.markControl(m.core, a.connections, n * conn::kBytes);
        for (std::uint32_t s = 0; s < n * muxSlots; ++s)
            prog.markControl(m.core, a.buffers + s * slotBytes_, headerBytes_);
        FabricConnectionArgs& rc = a.router;
        rc.x = r.info.core.x;
        rc.y = r.info.core.y;
        rc.buffer = layout_.sender_buffers[kWorkerChannel];
        rc.num_slots = senderSlots_;
        rc.slot_bytes = slotBytes_;
        rc.header_bytes = headerBytes_;
        rc.wr_counter = layout_.wr_counter(kWorkerChannel);
        rc.rd_counter = layout_.rd_counter(kWorkerChannel);
        rc.location = layout_.connection;
        rc.local_rd = prog.allocateL1(m.core, 16, 16);
        rc.local_teardown = prog.allocateL1(m.core, 16, 16);
        rc.local_scratch = prog.allocateL1(m.core, 16, 16);
        rc.header_pool = prog.allocateL1(m.core, headerBytes_, 16);
        prog.markControl(m.core, rc.local_rd, 48);
        prog.markControl(m.core, rc.header_pool, headerBytes_);
        KernelConfig kc;
        kc.persistent = true;
        kc.resident = opts_.readRelays;  // UDM mode: the fabric's own mux, started with it
        KernelHandle k = prog.createKernel(fmt::format("fabric_mux_{}{}", dirName(r.info.dir), r.info.plane),
                                           fw::fabric_fw::fabric_mux_main, m.core, kc);
        prog.setRuntimeArgs(k, packArgs(a));
    }

    // Clients: the router's worker channel, or their own mux channel.
    for (Client& cl : clients_) {
        FabricConnectionArgs& a = cl.args;
        a.slot_bytes = slotBytes_;
        a.header_bytes = headerBytes_;
        if (cl.mux < 0) {
            const RouterSlot& r = routers_[routerIndex(cl.chip, cl.plane, cl.dir)];
            a.x = r.info.core.x;
            a.y = r.info.core.y;
            a.buffer = layout_.sender_buffers[kWorkerChannel];
            a.num_slots = senderSlots_;
            a.wr_counter = layout_.wr_counter(kWorkerChannel);
            a.rd_counter = layout_.rd_counter(kWorkerChannel);
            a.location = layout_.connection;
        } else {
            const Mux& m = muxes_[std::size_t(cl.mux)];
            a.x = m.core.x;
            a.y = m.core.y;
            a.buffer = m.args.buffers + cl.muxIndex * muxSlots * slotBytes_;
            a.num_slots = muxSlots;
            a.wr_counter = m.args.counters + cl.muxIndex * 32;
            a.rd_counter = m.args.counters + cl.muxIndex * 32 + 16;
            a.location = m.args.connections + cl.muxIndex * conn::kBytes;
        }
    }

    // Read relays (UDM mode), on their router's worker channel or its mux.
    for (Relay& rl : relays_) {
        const RouterInfo& ri = routers_[rl.router].info;
        rl.args.conn = clients_[rl.client.index].args;
        KernelConfig kc;
        kc.persistent = true;
        kc.resident = true;  // tt-metal: the fabric's Tensix extension, started with the routers
        kc.traceSlots = {"read_requests", "read_replies"};
        KernelHandle k =
            rt_.program(ri.chip).createKernel(fmt::format("fabric_read_relay_{}{}", dirName(ri.dir), ri.plane),
                                              fw::fabric_fw::fabric_read_relay_main, rl.core, kc);
        rt_.program(ri.chip).setRuntimeArgs(k, packArgs(rl.args));
    }
}

FabricConnectionArgs FabricBuilder::connection(ClientId c) const {
    if (!built_) throw std::logic_error("FabricBuilder::connection before build()");
    return clients_.at(c.index).args;
}

bool FabricBuilder::viaMux(ClientId c) const {
    return clients_.at(c.index).mux >= 0;
}

}  // namespace cclsim::fabric
