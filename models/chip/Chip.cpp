#include "models/chip/Chip.h"

#include "models/chip/NocSelection.h"
#include "models/common/Report.h"

#include <fmt/format.h>

namespace cclsim {

Chip::Chip(const sc_core::sc_module_name& name, EventQueue& eq, unsigned id, const ArchConfig& arch,
           const ChipOptions& opts)
    : sc_core::sc_module(name), id_(id), arch_(arch) {
    const std::size_t cells = std::size_t(arch.noc.gridX) * arch.noc.gridY;
    byCoord_.assign(cells, nullptr);
    for (unsigned n = 0; n < 2; ++n) {
        nocs_.push_back(makeNocInterconnect(arch_, id, n));
        endpoints_[n].assign(cells, nullptr);
    }
    PeCoreConfig wc = arch.worker;
    wc.l1.storePayload = opts.storePayload;
    for (const CoreCoord& c : arch.workers) {
        const std::string nm = "w" + std::to_string(c.x) + "_" + std::to_string(c.y);
        workers_.push_back(std::make_unique<PeCore>(nm.c_str(), eq, id, c, *nocs_[0], *nocs_[1], wc));
        byCoord_[std::size_t(c.y) * arch.noc.gridX + c.x] = workers_.back().get();
    }
    EriscConfig ec = arch.erisc;
    ec.l1.storePayload = opts.storePayload;
    for (unsigned ch = 0; ch < arch.ethCores.size(); ++ch) {
        const CoreCoord c = arch.ethCores[ch];
        const std::string nm = "eth" + std::to_string(ch);
        eriscs_.push_back(std::make_unique<EriscCore>(nm.c_str(), eq, id, ch, c, *nocs_[0], *nocs_[1], ec));
        byCoord_[std::size_t(c.y) * arch.noc.gridX + c.x] = eriscs_.back().get();
    }
    for (std::size_t i = 0; i < cells; ++i) {
        if (!byCoord_[i]) continue;
        for (unsigned n = 0; n < 2; ++n) endpoints_[n][i] = &byCoord_[i]->niu(n);
    }
    // L1s a plug-in replaces (the arch's models: worker_l1 / eth_l1).
    if (arch.model("worker_l1"))
        for (auto& w : workers_) useForeignL1(eq, *w, "worker_l1", std::string(w->basename()) + "_l1");
    if (arch.model("eth_l1"))
        for (auto& e : eriscs_) useForeignL1(eq, *e, "eth_l1", std::string(e->basename()) + "_l1");
    // DRAM channels: each is reached through its NoC endpoints (one NIU per
    // endpoint and NoC); read responses leave at the endpoint injection rate.
    if (arch.hasDram()) {
        DramChannelConfig dc = arch.dram.channel;
        dc.storePayload = opts.storePayload;
        NiuConfig nc;
        nc.injectBytesPerNs = arch.dram.endpointInjectBytesPerNs;
        nc.chunkBytes = arch.dram.niuChunkBytes;
        for (unsigned c = 0; c < arch.dram.channels(); ++c) {
            const std::string nm = "dram" + std::to_string(c);
            MemoryPort port;
            if (arch.model("dram")) {
                port.foreign = makeForeign(eq, "dram", nm, dc.bankBytes * dc.banks);
            } else {
                drams_.push_back(std::make_unique<DramChannel>(nm.c_str(), dc));
                port.own = drams_.back().get();
            }
            dramPorts_.push_back(port);
            for (const CoreCoord& ep : arch.dram.channelEndpoints[c]) {
                for (unsigned n = 0; n < 2; ++n) {
                    const std::string niuName =
                        nm + "_" + std::to_string(ep.x) + "_" + std::to_string(ep.y) + "_noc" + std::to_string(n);
                    dramNius_.push_back(std::make_unique<Niu>(niuName.c_str(), eq, *nocs_[n], ep, nc));
                    Niu& niu = *dramNius_.back();
                    niu.mem.bind(dramPorts_.back().socket());
                    niu.setForeign(port.foreign);
                    niu.setMemoryBytes(dc.bankBytes * dc.banks);
                    endpoints_[n][std::size_t(ep.y) * arch.noc.gridX + ep.x] = &niu;
                }
            }
        }
        for (unsigned b = 0; b < arch.dram.banks(); ++b) {
            banks_.dramEndpoint.push_back(arch.dram.bankEndpoints[b]);
            banks_.dramOffset.push_back(std::uint64_t(b % arch.dram.banksPerChannel) * arch.dram.bankBytes);
        }
    }
    // The SRAM pool: one bank behind each endpoint.
    if (arch.sram.present()) {
        DramChannelConfig sc = arch.sram.channel;
        sc.storePayload = opts.storePayload;
        hasSram_ = true;
        if (arch.model("sram")) {
            sramPort_.foreign = makeForeign(eq, "sram", "sram", sc.bankBytes * sc.banks);
        } else {
            sram_ = std::make_unique<DramChannel>("sram", sc);
            sramPort_.own = sram_.get();
        }
        NiuConfig nc;
        nc.injectBytesPerNs = arch.sram.endpointInjectBytesPerNs;
        nc.chunkBytes = arch.sram.niuChunkBytes;
        for (const CoreCoord& ep : arch.sram.endpoints) {
            for (unsigned n = 0; n < 2; ++n) {
                const std::string niuName =
                    "sram_" + std::to_string(ep.x) + "_" + std::to_string(ep.y) + "_noc" + std::to_string(n);
                dramNius_.push_back(std::make_unique<Niu>(niuName.c_str(), eq, *nocs_[n], ep, nc));
                Niu& niu = *dramNius_.back();
                niu.mem.bind(sramPort_.socket());
                niu.setForeign(sramPort_.foreign);
                niu.setMemoryBytes(sc.bankBytes * sc.banks);
                endpoints_[n][std::size_t(ep.y) * arch.noc.gridX + ep.x] = &niu;
            }
            banks_.sramEndpoint.push_back(ep);
        }
        banks_.sramBankBytes = sc.bankBytes;
    }
    for (const CoreCoord& c : arch.workers) banks_.l1Cores.push_back(c);
    for (auto& n : dramNius_) n->setEndpoints(&endpoints_[n->noc().id()]);
    // Nothing another process does reaches a core sooner than a NoC packet's
    // startup latency (Ethernet is slower still).
    const Tick lookahead = std::min(arch.noc.startupLatency, arch.erisc.eth.latency);
    for (std::size_t i = 0; i < cells; ++i) {
        if (!byCoord_[i]) continue;
        for (unsigned n = 0; n < 2; ++n) byCoord_[i]->niu(n).setEndpoints(&endpoints_[n]);
        byCoord_[i]->setLookahead(lookahead);
        byCoord_[i]->setBanks(&banks_);
    }
}

ForeignTarget* Chip::makeForeign(EventQueue& eq, const std::string& role, const std::string& name,
                                 std::uint64_t bytes) {
    const ModelChoice& m = *arch_.model(role);
    ModelRegistry& reg = modelRegistry();
    if (!m.library.empty()) reg.loadLibrary(m.library);
    const MemoryFactory* factory = reg.memory(m.name);
    if (!factory)
        throw ConfigError(fmt::format("{}: models.{}: no memory model named '{}' is registered (registered: {}){}",
                                      m.where, role, m.name, reg.memoryNames(),
                                      m.library.empty() ? "; name its shared library with library:" : ""));
    MemoryModelSpec spec;
    spec.role = role;
    spec.name = name + "_model";
    spec.chip = id_;
    spec.sizeBytes = bytes;
    spec.params = m.params;
    MemoryModel built;
    try {
        built = (*factory)(spec);
    } catch (const ConfigError&) {
        throw;
    } catch (const std::exception& e) {
        throw ConfigError(
            fmt::format("{}: models.{}: model '{}' refused its configuration: {}", m.where, role, m.name, e.what()));
    }
    if (!built.module || !built.socket)
        throw ConfigError(fmt::format("{}: models.{}: the factory of '{}' returned no module or no target socket",
                                      m.where, role, m.name));
    bridges_.push_back(std::make_unique<ForeignTarget>((name + "_bridge").c_str(), eq, m.name, bytes));
    bridges_.back()->socket.bind(*built.socket);
    plugins_.push_back(std::move(built.module));
    return bridges_.back().get();
}

void Chip::useForeignL1(EventQueue& eq, ProgrammableCore& core, const std::string& role, const std::string& name) {
    ForeignTarget* f = makeForeign(eq, role, name, core.l1.size());
    core.l1.setBacking(f);
    for (unsigned n = 0; n < 2; ++n) core.niu(n).setForeign(f);
    if (core.isEthernet()) static_cast<EriscCore&>(core).eth.setForeign(f);
}

void Chip::MemoryPort::hostWrite(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in) {
    if (foreign)
        foreign->debugWrite(addr, n, in);
    else
        own->hostWrite(addr, n, in);
}

void Chip::MemoryPort::hostRead(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) {
    if (foreign)
        foreign->debugRead(addr, n, out);
    else
        own->hostRead(addr, n, out);
}

EriscCore& Chip::erisc(unsigned channel) {
    if (channel >= eriscs_.size())
        CCLSIM_ERROR(name(), "Ethernet channel {} does not exist (the chip has {})", channel, eriscs_.size());
    return *eriscs_[channel];
}

PeCore* Chip::worker(CoreCoord c) {
    ProgrammableCore* p = core(c);
    return p && !p->isEthernet() ? static_cast<PeCore*>(p) : nullptr;
}

ProgrammableCore* Chip::core(CoreCoord c) {
    if (c.x >= arch_.noc.gridX || c.y >= arch_.noc.gridY) return nullptr;
    return byCoord_[std::size_t(c.y) * arch_.noc.gridX + c.x];
}

void Chip::sramWrite(unsigned bank, std::uint64_t offset, std::uint64_t n, const std::uint8_t* in) {
    if (!hasSram_ || bank >= banks_.sramEndpoint.size()) CCLSIM_ERROR(name(), "SRAM bank {} does not exist", bank);
    sramPort_.hostWrite(bank * banks_.sramBankBytes + offset, n, in);
}

void Chip::sramRead(unsigned bank, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) {
    if (!hasSram_ || bank >= banks_.sramEndpoint.size()) CCLSIM_ERROR(name(), "SRAM bank {} does not exist", bank);
    sramPort_.hostRead(bank * banks_.sramBankBytes + offset, n, out);
}

void Chip::dramWrite(unsigned bank, std::uint64_t offset, std::uint64_t n, const std::uint8_t* in) {
    if (bank >= banks_.dramEndpoint.size()) CCLSIM_ERROR(name(), "DRAM bank {} does not exist", bank);
    dramPorts_[bank / arch_.dram.banksPerChannel].hostWrite(banks_.dramOffset[bank] + offset, n, in);
}

void Chip::dramRead(unsigned bank, std::uint64_t offset, std::uint64_t n, std::uint8_t* out) {
    if (bank >= banks_.dramEndpoint.size()) CCLSIM_ERROR(name(), "DRAM bank {} does not exist", bank);
    dramPorts_[bank / arch_.dram.banksPerChannel].hostRead(banks_.dramOffset[bank] + offset, n, out);
}

void Chip::trace(TraceFile& tf, bool allCores) {
    // By default only cores that run kernels or move Ethernet traffic are
    // traced, which keeps large boards' VCDs readable.
    for (auto& e : eriscs_)
        if (allCores || e->eth.link().connected || !e->kernels().empty()) e->trace(tf);
    for (auto& w : workers_)
        if (allCores || !w->kernels().empty()) w->trace(tf);
    for (auto& d : drams_) d->trace(tf);
    if (sram_) sram_->trace(tf);
}

}  // namespace cclsim
