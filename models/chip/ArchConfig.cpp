#include "models/chip/ArchConfig.h"

#include "models/common/Yaml.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace cclsim {

CoreCoord parseCoord(const std::string& text, const std::string& where) {
    const auto dash = text.find('-');
    try {
        if (dash == std::string::npos) throw std::invalid_argument(text);
        std::size_t p1 = 0, p2 = 0;
        const int x = std::stoi(text.substr(0, dash), &p1);
        const int y = std::stoi(text.substr(dash + 1), &p2);
        if (p1 != dash || p2 != text.size() - dash - 1 || x < 0 || y < 0 || x > 63 || y > 63)
            throw std::invalid_argument(text);
        return CoreCoord{std::uint8_t(x), std::uint8_t(y)};
    } catch (const std::exception&) {
        throw ConfigError(fmt::format("{}: expected a coordinate 'x-y', found '{}'", where, text));
    }
}

namespace {

std::vector<CoreCoord> coordList(const YamlMap& m, const std::string& key, const NocConfig& noc) {
    const YamlSeq s = m.seq(key);
    std::vector<CoreCoord> out;
    std::set<CoreCoord> seen;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const CoreCoord c = parseCoord(s.get<std::string>(i), s.where(i));
        if (c.x >= noc.gridX || c.y >= noc.gridY)
            s.fail(i, fmt::format("coordinate {} is outside the {}x{} grid", c.str(), noc.gridX, noc.gridY));
        if (!seen.insert(c).second) s.fail(i, fmt::format("coordinate {} is listed twice", c.str()));
        out.push_back(c);
    }
    return out;
}

std::vector<unsigned> uintList(const YamlMap& m, const std::string& key) {
    const YamlSeq s = m.seq(key);
    std::vector<unsigned> out;
    for (std::size_t i = 0; i < s.size(); ++i) out.push_back(s.get<unsigned>(i));
    return out;
}

template <class T> T positive(const YamlMap& m, const std::string& key) {
    const T v = m.get<T>(key);
    if (!(v > 0)) m.fail(key, "must be > 0");
    return v;
}

FirmwareCosts firmwareCosts(const YamlMap& fw, const ArchConfig& a, bool eth) {
    FirmwareCosts c;
    c.cycle = a.cycles(1);
    c.l1Access = a.cycles(fw.get<double>("l1_access_cycles"));
    c.pollIteration = a.cycles(fw.get<double>("poll_iteration_cycles"));
    c.nocCmdIssue = a.cycles(fw.get<double>("noc_cmd_issue_cycles"));
    c.timerRead = a.cycles(fw.get<double>("timer_read_cycles"));
    c.kernelStart = a.cycles(fw.get<double>("kernel_start_cycles"));
    c.semaphoreInit = a.cycles(fw.get<double>("semaphore_init_cycles"));
    if (eth) {
        c.ethSendIssue = nsToTicks(fw.get<double>("eth_send_issue_ns"));
        c.runRouting = nsToTicks(fw.get<double>("run_routing_ns"));
    } else {
        c.eltwiseBytesPerCycle = positive<double>(fw, "eltwise_bytes_per_cycle");
    }
    fw.finish();
    return c;
}

void decodeDispatch(const YamlMap& d, DispatchArch& out) {
    out.present = true;
    auto ns = [&](const char* key) {
        const double v = d.get<double>(key);
        if (v < 0) d.fail(key, "must be >= 0");
        return nsToTicks(v);
    };
    out.programOverhead = ns("program_overhead_ns");
    out.launchMessage = ns("launch_message_ns");
    out.binaryWrite = ns("binary_write_ns");
    out.binaryBytesPerNs = positive<double>(d, "binary_bytes_per_ns");
    out.unicastWrite = ns("unicast_write_ns");
    out.argBytesPerNs = positive<double>(d, "arg_bytes_per_ns");
    out.goSignal = ns("go_signal_ns");
    out.completion = ns("completion_ns");
    out.tunnelHop = ns("tunnel_hop_ns");
    const YamlMap bin = d.map("kernel_binary_bytes");
    for (const std::string& k : bin.keys()) {
        const auto v = bin.get<std::uint32_t>(k);
        if (v == 0 || v % 4) bin.fail(k, "a kernel binary is a non-zero whole number of 4-byte words");
        if (k == "default")
            out.defaultBinaryBytes = v;
        else
            out.binaryBytes[k] = v;
    }
    if (!out.defaultBinaryBytes) bin.fail("default", "missing: the binary size of kernels no other entry names");
    bin.finish();
    d.finish();
}

/// `models:` names the registered models that replace cclsim's own, by role.
void decodeModels(const YamlMap& m, ArchConfig& a) {
    static const std::set<std::string> roles{"dram", "sram", "worker_l1", "eth_l1", "noc"};
    for (const std::string& role : m.keys()) {
        if (!roles.count(role)) m.fail(role, "is not a replaceable model (dram, sram, worker_l1, eth_l1, noc)");
        const YamlMap e = m.map(role);
        ModelChoice c;
        c.name = e.get<std::string>("name");
        c.where = e.where("name");
        const std::string lib = e.get<std::string>("library", std::string());
        if (!lib.empty()) {
            // Relative to the arch file, like every path a config names.
            const std::filesystem::path p(lib);
            c.library = p.is_absolute() ? lib : (std::filesystem::path(m.file()).parent_path() / p).string();
        }
        if (auto params = e.optMap("params"))
            for (const std::string& k : params->keys()) c.params[k] = params->get<std::string>(k);
        e.finish();
        a.models[role] = c;
    }
    if (a.models.count("dram") && !a.hasDram()) m.fail("dram", "replaces the DRAM, but the arch has none");
    if (a.models.count("sram") && !a.sram.present()) m.fail("sram", "replaces the SRAM pool, but the arch has none");
}

}  // namespace

std::uint32_t DispatchArch::binaryBytesOf(const std::string& kernelName) const {
    std::uint32_t bytes = defaultBinaryBytes;
    std::size_t best = 0;
    for (const auto& [prefix, b] : binaryBytes)
        if (prefix.size() > best && kernelName.compare(0, prefix.size(), prefix) == 0) {
            best = prefix.size();
            bytes = b;
        }
    return bytes;
}

ArchConfig loadArchConfig(const std::string& file, double aiclkMhz) {
    // An arch file may overlay another (`base: wormhole_b0.yaml`) and hold
    // only what differs; the decoder below reads the merged view.
    const YamlMap root = YamlMap::loadFileWithBase(file, "base");
    ArchConfig a;
    a.file = file;
    a.name = root.get<std::string>("name");
    a.aiclkMhz = positive<double>(root, "aiclk_mhz");
    if (aiclkMhz > 0) a.aiclkMhz = aiclkMhz;

    const YamlMap grid = root.map("grid");
    a.noc.gridX = positive<unsigned>(grid, "x");
    a.noc.gridY = positive<unsigned>(grid, "y");
    if (a.noc.gridX > 63) grid.fail("x", "grid dimensions must be <= 63");
    if (a.noc.gridY > 63) grid.fail("y", "grid dimensions must be <= 63");
    grid.finish();

    const YamlMap noc = root.map("noc");
    a.noc.linkBytesPerNs = positive<double>(noc, "link_bytes_per_cycle") * a.aiclkMhz / 1000.0;
    a.noc.hopLatency = a.cycles(noc.get<double>("hop_latency_cycles"));
    a.noc.startupLatency = a.cycles(noc.get<double>("startup_latency_cycles"));
    a.noc.maxPacketBytes = positive<unsigned>(noc, "max_packet_bytes");
    a.noc.headerBytes = noc.get<unsigned>("header_bytes");
    a.noc.routerBufferBytes = noc.get<std::uint32_t>("router_buffer_bytes");
    a.noc.cmdBufBusy = a.cycles(noc.get<double>("cmd_buf_busy_cycles"));
    a.noc.cmdQueueDepth = noc.get<std::uint32_t>("cmd_queue_depth");
    const double clk = a.aiclkMhz / 1000.0;  // bytes per cycle -> bytes per ns
    const YamlMap inj = noc.map("inject_bytes_per_cycle");
    const double injectWorker = positive<double>(inj, "worker") * clk;
    const double injectEth = positive<double>(inj, "eth") * clk;
    inj.finish();
    const YamlMap abs = noc.map("absorb_bytes_per_cycle");
    const double absorbWorker = positive<double>(abs, "worker") * clk;
    const double absorbEth = positive<double>(abs, "eth") * clk;
    const double absorbDram = positive<double>(abs, "dram") * clk;
    abs.finish();
    noc.finish();
    const std::size_t cells = std::size_t(a.noc.gridX) * a.noc.gridY;
    a.noc.absorbBytesPerNs.assign(cells, 0.0);
    a.noc.requestAccept.assign(cells, 0);
    auto cell = [&](CoreCoord c) { return std::size_t(c.y) * a.noc.gridX + c.x; };

    const YamlMap w = root.map("worker");
    const auto xs = uintList(w, "cores_x");
    const auto ys = uintList(w, "cores_y");
    for (unsigned x : xs)
        if (x >= a.noc.gridX) w.fail("cores_x", fmt::format("x = {} is outside the {}-wide grid", x, a.noc.gridX));
    for (unsigned y : ys)
        if (y >= a.noc.gridY) w.fail("cores_y", fmt::format("y = {} is outside the {}-high grid", y, a.noc.gridY));
    for (unsigned y : ys)
        for (unsigned x : xs) a.workers.push_back(CoreCoord{std::uint8_t(x), std::uint8_t(y)});
    a.worker.l1.sizeBytes = positive<std::uint64_t>(w, "l1_bytes");
    a.workerUnreservedBase = w.get<std::uint32_t>("l1_unreserved_base");
    if (a.workerUnreservedBase >= a.worker.l1.sizeBytes) w.fail("l1_unreserved_base", "must lie inside l1_bytes");
    const YamlMap dma = w.map("pe_dma");
    a.worker.dma.chunkBytes = positive<double>(dma, "chunk_bytes");
    const YamlMap weights = dma.map("weights");
    a.worker.dma.computeWeight = positive<double>(weights, "vc_compute");
    a.worker.dma.commWeight = positive<double>(weights, "vc_comm");
    a.worker.dma.responseWeight = positive<double>(weights, "response");
    weights.finish();
    dma.finish();
    a.worker.dma.injectBytesPerNs = injectWorker;
    for (const CoreCoord& c : a.workers) a.noc.absorbBytesPerNs[cell(c)] = absorbWorker;
    if (auto q = w.optMap("pe_ipcq")) {
        a.worker.ipcq.registerBase = q->get<std::uint32_t>("register_base");
        if (a.worker.ipcq.registerBase % 16) q->fail("register_base", "must be 16 B aligned");
        if (a.worker.ipcq.registerBase + PeIpcqConfig::kRegisterBytes > a.workerUnreservedBase)
            q->fail("register_base", "the PE_IPCQ registers must lie below l1_unreserved_base");
        a.worker.ipcq.opCost = a.cycles(q->get<double>("op_cycles"));
        a.worker.ipcq.wakeCost = a.cycles(q->get<double>("wake_cycles"));
        q->finish();
    }
    a.worker.costs = firmwareCosts(w.map("firmware"), a, false);
    w.finish();

    const YamlMap e = root.map("eth");
    a.ethCores = coordList(e, "cores", a.noc);
    EriscConfig& ec = a.erisc;
    ec.l1.sizeBytes = positive<std::uint64_t>(e, "l1_bytes");
    ec.syncInfoBase = e.get<std::uint32_t>("sync_info_base");
    ec.maxConcurrentTransactions = positive<std::uint32_t>(e, "max_concurrent_transactions");
    ec.unreservedBase = e.get<std::uint32_t>("l1_unreserved_base");
    ec.barrierBytes = e.get<std::uint32_t>("barrier_bytes");
    ec.niuChunkBytes = positive<double>(e, "niu_chunk_bytes");
    if (ec.syncInfoBase % 16) e.fail("sync_info_base", "must be 16 B aligned");
    if (ec.unreservedBase % 16) e.fail("l1_unreserved_base", "must be 16 B aligned");
    if (ec.syncInfoBase + 16 * ec.maxConcurrentTransactions > ec.unreservedBase)
        e.fail("sync_info_base", "erisc_info channels overlap the kernel region");
    if (ec.unreservedBase + 16 >= ec.kernelRegionEnd()) e.fail("l1_unreserved_base", "leaves no kernel region");
    EthConfig& eth = ec.eth;
    e.renamed("line_rate_gbps", "line_rate_gbit_s", "the unit is Gbit/s");
    eth.lineBytesPerNs = positive<double>(e, "line_rate_gbit_s") / 8.0;
    eth.wordBytes = positive<std::uint32_t>(e, "word_bytes");
    const YamlMap pkt = e.map("packet");
    eth.minPacketBytes = positive<std::uint32_t>(pkt, "min_bytes");
    eth.maxPacketBytes = positive<std::uint32_t>(pkt, "max_bytes");
    eth.packetOverheadBytes = pkt.get<std::uint32_t>("overhead_bytes");
    if (eth.minPacketBytes > eth.maxPacketBytes) pkt.fail("min_bytes", "must not exceed max_bytes");
    pkt.finish();
    eth.latency = nsToTicks(e.get<double>("latency_ns"));
    eth.storeAndForward = e.get<bool>("store_and_forward");
    const YamlMap txq = e.map("tx_cmd_q");
    eth.txQueues = positive<unsigned>(txq, "count");
    if (eth.txQueues > 64) txq.fail("count", "at most 64 tx command queues are modelled");
    eth.txQueueDepth = positive<unsigned>(txq, "depth");
    eth.txFifoBytes = txq.get<double>("mac_fifo_bytes");
    if (eth.txFifoBytes < 0) txq.fail("mac_fifo_bytes", "must not be negative");
    txq.finish();
    const YamlMap fec = e.map("fec");
    eth.fecCodewordSymbols = positive<std::uint32_t>(fec, "codeword_symbols");
    eth.fecDataSymbols = positive<std::uint32_t>(fec, "data_symbols");
    eth.fecSymbolBits = positive<std::uint32_t>(fec, "symbol_bits");
    eth.fecCorrectableSymbols = fec.get<std::uint32_t>("correctable_symbols");
    if (eth.fecDataSymbols >= eth.fecCodewordSymbols)
        fec.fail("data_symbols", "must be below codeword_symbols (the rest is parity)");
    if (2 * eth.fecCorrectableSymbols > eth.fecCodewordSymbols - eth.fecDataSymbols)
        fec.fail("correctable_symbols", "an RS code corrects at most half its parity symbols");
    fec.finish();
    ec.costs = firmwareCosts(e.map("firmware"), a, true);
    const YamlMap cs = e.map("context_switch");
    const std::uint64_t rounds =
        std::uint64_t(positive<std::uint32_t>(cs, "interval")) * positive<std::uint32_t>(cs, "iterations_per_pass");
    if (rounds > 0xffffffffull) cs.fail("interval", "interval x iterations_per_pass must fit in 32 bits");
    ec.contextSwitchIdleRounds = std::uint32_t(rounds);
    cs.finish();
    ec.injectBytesPerNs = injectEth;
    for (const CoreCoord& c : a.ethCores) a.noc.absorbBytesPerNs[cell(c)] = absorbEth;
    e.finish();

    if (auto d = root.optMap("dram")) {
        DramArch& dr = a.dram;
        dr.kind = d->get<std::string>("kind");
        if (dr.kind != "gddr6" && dr.kind != "hbm") d->fail("kind", "must be gddr6 or hbm");
        const YamlSeq chans = d->seq("channels");
        if (chans.size() == 0) d->fail("channels", "must list at least one channel");
        std::set<CoreCoord> seenEp;
        for (std::size_t c = 0; c < chans.size(); ++c) {
            const YamlSeq eps = chans.seq(c);
            std::vector<CoreCoord> list;
            for (std::size_t e = 0; e < eps.size(); ++e) {
                const CoreCoord cc = parseCoord(eps.get<std::string>(e), eps.where(e));
                if (cc.x >= a.noc.gridX || cc.y >= a.noc.gridY)
                    eps.fail(e, fmt::format("{} is outside the grid", cc.str()));
                if (!seenEp.insert(cc).second)
                    eps.fail(e, fmt::format("endpoint {} belongs to two channels", cc.str()));
                list.push_back(cc);
            }
            if (list.empty()) chans.fail(c, "a channel needs at least one NoC endpoint");
            dr.channelEndpoints.push_back(list);
        }
        dr.banksPerChannel = positive<unsigned>(*d, "banks_per_channel");
        dr.bankBytes = positive<std::uint64_t>(*d, "bank_bytes");
        const YamlSeq be = d->seq("bank_endpoints");
        if (be.size() != dr.banks())
            d->fail("bank_endpoints", fmt::format("lists {} endpoints for {} banks", be.size(), dr.banks()));
        for (std::size_t b = 0; b < be.size(); ++b) {
            const CoreCoord cc = parseCoord(be.get<std::string>(b), be.where(b));
            const auto& eps = dr.channelEndpoints[b / dr.banksPerChannel];
            if (std::find(eps.begin(), eps.end(), cc) == eps.end())
                be.fail(b, fmt::format("{} is not an endpoint of channel {}", cc.str(), b / dr.banksPerChannel));
            dr.bankEndpoints.push_back(cc);
        }
        dr.channel.bankBytes = dr.bankBytes;
        dr.channel.banks = dr.banksPerChannel;
        dr.channel.pseudoChannels = positive<unsigned>(*d, "pseudo_channels");
        dr.channel.interleaveBytes = positive<std::uint32_t>(*d, "interleave_bytes");
        d->renamed("bank_bandwidth_gbps", "bank_bandwidth_GB_s", "the unit is GB/s");
        dr.channel.bytesPerNs = positive<double>(*d, "bank_bandwidth_GB_s") / dr.channel.pseudoChannels;
        dr.channel.readLatency = nsToTicks(d->get<double>("read_latency_ns"));
        dr.channel.writeLatency = nsToTicks(d->get<double>("write_latency_ns"));
        dr.channel.refreshInterval = nsToTicks(d->get<double>("refresh_interval_ns"));
        dr.channel.refreshTicks = nsToTicks(d->get<double>("refresh_ns"));
        if (dr.channel.refreshTicks >= dr.channel.refreshInterval && dr.channel.refreshTicks > 0)
            d->fail("refresh_ns", "must be shorter than refresh_interval_ns");
        dr.endpointInjectBytesPerNs = positive<double>(*d, "endpoint_bytes_per_cycle") * a.aiclkMhz / 1000.0;
        dr.niuChunkBytes = positive<double>(*d, "niu_chunk_bytes");
        const Tick accept = a.cycles(d->get<double>("request_interval_cycles"));
        for (const auto& eps : dr.channelEndpoints)
            for (const CoreCoord& c : eps) {
                a.noc.absorbBytesPerNs[cell(c)] = absorbDram;
                a.noc.requestAccept[cell(c)] = accept;
            }
        d->finish();
    }
    if (auto sm = root.optMap("sram")) {
        SramArch& sr = a.sram;
        sr.endpoints = coordList(*sm, "endpoints", a.noc);
        if (sr.endpoints.empty()) sm->fail("endpoints", "must list at least one NoC endpoint");
        sr.channel.bankBytes = positive<std::uint64_t>(*sm, "bank_bytes");
        sr.channel.banks = unsigned(sr.endpoints.size());
        sr.channel.pseudoChannels = positive<unsigned>(*sm, "pseudo_channels");
        sr.channel.interleaveBytes = positive<std::uint32_t>(*sm, "interleave_bytes");
        sm->renamed("bank_bandwidth_gbps", "bank_bandwidth_GB_s", "the unit is GB/s");
        sr.channel.bytesPerNs = positive<double>(*sm, "bank_bandwidth_GB_s") / sr.channel.pseudoChannels;
        sr.channel.readLatency = nsToTicks(sm->get<double>("read_latency_ns"));
        sr.channel.writeLatency = nsToTicks(sm->get<double>("write_latency_ns"));
        sr.endpointInjectBytesPerNs = positive<double>(*sm, "endpoint_bytes_per_cycle") * a.aiclkMhz / 1000.0;
        sr.niuChunkBytes = positive<double>(*sm, "niu_chunk_bytes");
        sm->finish();
    }
    if (auto f = root.optMap("fabric")) {
        FabricArch& fa = a.fabric;
        fa.present = true;
        fa.maxPayloadBytes = positive<std::uint32_t>(*f, "max_payload_bytes");
        if (fa.maxPayloadBytes % 16) f->fail("max_payload_bytes", "must be a multiple of 16 (Ethernet words)");
        fa.headerBytes1d = positive<std::uint32_t>(*f, "header_bytes_1d");
        fa.headerBytes1dLong = positive<std::uint32_t>(*f, "header_bytes_1d_long");
        fa.headerBytes2d = positive<std::uint32_t>(*f, "header_bytes_2d");
        if (fa.headerBytes1d < 48 || fa.headerBytes1d % 16 || fa.headerBytes1d > 96)
            f->fail("header_bytes_1d", "must be 48..96 and a multiple of 16 (the 1D header fields take 48 B)");
        if (fa.headerBytes1dLong < 64 || fa.headerBytes1dLong % 16 || fa.headerBytes1dLong > 96)
            f->fail("header_bytes_1d_long", "must be 64..96 and a multiple of 16 (routes of 17..64 hops need 64 B)");
        if (fa.headerBytes2d < 80 || fa.headerBytes2d % 16 || fa.headerBytes2d > 96)
            f->fail("header_bytes_2d", "must be 80..96 and a multiple of 16 (the 2D route buffers end at 80 B)");
        const YamlSeq opts = f->seq("slot_options");
        if (opts.size() == 0) f->fail("slot_options", "must list at least one {sender, receiver} pair");
        fa.slotOptions.clear();
        for (std::size_t i = 0; i < opts.size(); ++i) {
            const YamlSeq pair = opts.seq(i);
            if (pair.size() != 2) opts.fail(i, "expected [sender_slots, receiver_slots]");
            const auto snd = pair.get<std::uint32_t>(0), rcv = pair.get<std::uint32_t>(1);
            if (snd < 1 || rcv < 1 || rcv > 16) opts.fail(i, "sender slots >= 1, receiver slots 1..16");
            fa.slotOptions.push_back({snd, rcv});
        }
        fa.replySlots = positive<std::uint32_t>(*f, "reply_slots");
        fa.vc1Slots = positive<std::uint32_t>(*f, "vc1_slots");
        fa.readMaxBytes = positive<std::uint32_t>(*f, "read_max_bytes");
        if (fa.readMaxBytes % 16) f->fail("read_max_bytes", "must be a multiple of 16 (Ethernet words)");
        fa.muxClientSlots = positive<std::uint32_t>(*f, "mux_client_slots");
        fa.readRelaySlots = positive<std::uint32_t>(*f, "read_relay_slots");
        fa.readRelayRequests = positive<std::uint32_t>(*f, "read_relay_requests");
        const std::string order = f->get<std::string>("route_order_2d");
        if (order != "yx" && order != "xy") f->fail("route_order_2d", "must be yx (N/S first) or xy (E/W first)");
        fa.routeYFirst = order == "yx";
        fa.forwardNoc = f->get<unsigned>("router_forward_noc");
        fa.creditNoc = f->get<unsigned>("router_credit_noc");
        if (fa.forwardNoc > 1) f->fail("router_forward_noc", "must be 0 or 1");
        if (fa.creditNoc > 1) f->fail("router_credit_noc", "must be 0 or 1");
        fa.routerPacketCycles = f->get<std::uint32_t>("router_packet_cycles");
        fa.bubbleFlowControl = f->get<bool>("bubble_flow_control");
        fa.txqAcceptAhead = f->get<std::uint32_t>("txq_accept_ahead");
        f->finish();
    }
    if (auto d = root.optMap("dispatch")) decodeDispatch(*d, a.dispatch);
    {
        const YamlMap t = root.map("timeouts");
        auto ms = [&](const char* key) { return nsToTicks(positive<double>(t, key) * 1e6); };
        a.timeouts.edm = ms("edm_ms");
        a.timeouts.fabric = ms("fabric_ms");
        a.timeouts.ipcq = ms("ipcq_ms");
        t.finish();
    }
    if (auto m = root.optMap("models")) decodeModels(*m, a);
    root.finish();

    // Cores may not share a coordinate.
    std::set<CoreCoord> used;
    for (const CoreCoord& c : a.workers)
        if (!used.insert(c).second) throw ConfigError(fmt::format("{}: worker {} is listed twice", file, c.str()));
    for (const CoreCoord& c : a.ethCores)
        if (!used.insert(c).second)
            throw ConfigError(fmt::format("{}: Ethernet core {} overlaps another core", file, c.str()));
    for (const auto& ch : a.dram.channelEndpoints)
        for (const CoreCoord& c : ch) {
            if (used.count(c))
                throw ConfigError(fmt::format("{}: DRAM endpoint {} overlaps another core", file, c.str()));
            used.insert(c);
        }
    for (const CoreCoord& c : a.sram.endpoints)
        if (!used.insert(c).second)
            throw ConfigError(fmt::format("{}: SRAM endpoint {} overlaps another core or endpoint", file, c.str()));
    return a;
}

}  // namespace cclsim
