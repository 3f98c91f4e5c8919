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
    unsigned numDramChannels() const { return unsigned(drams_.size()); }
    DramChannel& dramChannel(unsigned c) { return *drams_.at(c); }
    const BankMap& banks() const { return banks_; }
    bool hasSram() const { return sram_ != nullptr; }
    /// Host access to an SRAM pool bank (zero time).
    void sramWrite(unsigned bank, std::uint64_t offset, std::uint64_t n, const std::uint8_t* in);
    void sramRead(unsigned bank, std::uint64_t offset, std::uint64_t n, std::uint8_t* out);
    /// Host access to a DRAM bank (zero time): load inputs, read results.
    void dramWrite(unsigned bank, std::uint64_t offset, std::uint64_t n, const std::uint8_t* in);
    void dramRead(unsigned bank, std::uint64_t offset, std::uint64_t n, std::uint8_t* out);

    void trace(TraceFile& tf, bool allCores);

private:
    unsigned id_;
    ArchConfig arch_;
    std::vector<std::unique_ptr<NocInterconnect>> nocs_;
    std::vector<std::unique_ptr<PeCore>> workers_;
    std::vector<std::unique_ptr<EriscCore>> eriscs_;
    std::vector<std::unique_ptr<DramChannel>> drams_;
    std::vector<std::unique_ptr<Niu>> dramNius_;
    std::unique_ptr<DramChannel> sram_;  ///< the chip-shared SRAM pool, if the arch has one
    BankMap banks_;
    std::vector<ProgrammableCore*> byCoord_;
    std::vector<Niu*> endpoints_[2];
};

}  // namespace cclsim
