// One Wormhole-class chip: the two NoCs, the worker cores, the Ethernet
// cores, elaborated from an ArchConfig.
#pragma once

#include "models/chip/ArchConfig.h"
#include "models/common/EventQueue.h"
#include "models/common/Trace.h"
#include "models/core/BankMap.h"
#include "models/erisc/EriscCore.h"
#include "models/memory/DramChannel.h"
#include "models/noc/NocInterconnect.h"
#include "models/pe/PeCore.h"
#include "models/plugin/ForeignTarget.h"
#include "models/plugin/ModelRegistry.h"

#include <systemc>

#include <memory>
#include <vector>

namespace cclsim {

struct ChipOptions {
    bool storePayload = true;  ///< false: timing-only (--no-data)
};

class Chip : public sc_core::sc_module {
public:
    Chip(const sc_core::sc_module_name& name, EventQueue& eq, unsigned id, const ArchConfig& arch,
         const ChipOptions& opts);
    Chip(const Chip&) = delete;
    Chip& operator=(const Chip&) = delete;

    unsigned id() const { return id_; }
    const ArchConfig& arch() const { return arch_; }
    /// NoC `i` (0 or 1): the booking model, or the model the arch YAML's
    /// `models: noc:` entry names (models/chip/NocSelection.h).
    NocInterconnect& noc(unsigned i) { return *nocs_.at(i); }

    unsigned numEthChannels() const { return unsigned(eriscs_.size()); }
    EriscCore& erisc(unsigned channel);
    const std::vector<std::unique_ptr<PeCore>>& workers() const { return workers_; }
    PeCore* worker(CoreCoord c);
    /// Any programmable core at `c` (worker or Ethernet), or nullptr.
    ProgrammableCore* core(CoreCoord c);
    unsigned numDramChannels() const { return unsigned(dramPorts_.size()); }
    /// cclsim's own controller `c`, or nullptr when a plug-in replaced the DRAM.
    DramChannel* dramChannel(unsigned c) { return c < drams_.size() ? drams_[c].get() : nullptr; }
    const BankMap& banks() const { return banks_; }
    bool hasSram() const { return hasSram_; }
    /// Host access to an SRAM pool bank (zero time).
    void sramWrite(unsigned bank, std::uint64_t offset, std::uint64_t n, const std::uint8_t* in);
    void sramRead(unsigned bank, std::uint64_t offset, std::uint64_t n, std::uint8_t* out);
    /// Host access to a DRAM bank (zero time): load inputs, read results.
    void dramWrite(unsigned bank, std::uint64_t offset, std::uint64_t n, const std::uint8_t* in);
    void dramRead(unsigned bank, std::uint64_t offset, std::uint64_t n, std::uint8_t* out);

    void trace(TraceFile& tf, bool allCores);

private:
    /// One memory as the NIUs and the host reach it: cclsim's own, or a
    /// plug-in behind its bridge.
    struct MemoryPort {
        DramChannel* own = nullptr;
        ForeignTarget* foreign = nullptr;
        TargetSocketBase& socket() { return foreign ? static_cast<TargetSocketBase&>(foreign->in) : own->socket; }
        void hostWrite(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in);
        void hostRead(std::uint64_t addr, std::uint64_t n, std::uint8_t* out);
    };
    /// Build the plug-in named by the arch's `models: {role: ...}` and its bridge.
    ForeignTarget* makeForeign(EventQueue& eq, const std::string& role, const std::string& name, std::uint64_t bytes);
    void useForeignL1(EventQueue& eq, ProgrammableCore& core, const std::string& role, const std::string& name);

    unsigned id_;
    ArchConfig arch_;
    std::vector<std::unique_ptr<NocInterconnect>> nocs_;
    std::vector<std::unique_ptr<PeCore>> workers_;
    std::vector<std::unique_ptr<EriscCore>> eriscs_;
    std::vector<std::unique_ptr<DramChannel>> drams_;
    std::vector<std::unique_ptr<Niu>> dramNius_;
    std::unique_ptr<DramChannel> sram_;  ///< the chip-shared SRAM pool, if the arch has one (cclsim's own)
    std::vector<MemoryPort> dramPorts_;  ///< per DRAM controller
    MemoryPort sramPort_;
    bool hasSram_ = false;
    std::vector<std::unique_ptr<sc_core::sc_module>> plugins_;
    std::vector<std::unique_ptr<ForeignTarget>> bridges_;
    BankMap banks_;
    std::vector<ProgrammableCore*> byCoord_;
    std::vector<Niu*> endpoints_[2];
};

}  // namespace cclsim
