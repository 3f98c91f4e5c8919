#include "host/microbench/DataMovement.h"

#include "firmware/microbench/microbench_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

CoreCoord logicalWorker(const ArchConfig& arch, unsigned x, unsigned y, const char* what) {
    // The workers are listed row by row (ArchConfig): a row is the cores of the first one's y.
    unsigned cols = 0;
    for (const CoreCoord& c : arch.workers) cols += c.y == arch.workers.front().y ? 1 : 0;
    const unsigned rows = cols ? unsigned(arch.workers.size()) / cols : 0;
    if (x >= cols || y >= rows)
        throw ConfigError(
            fmt::format("{} {},{}: the chip's worker grid is {} x {} (logical coordinates)", what, x, y, cols, rows));
    return arch.workers[y * cols + x];
}

}  // namespace

void DataMovement::build(Runtime& rt, const DataMovementParams& p) {
    p_ = p;
    const ArchConfig& arch = rt.platform().descriptor().arch;
    Program& prog = rt.program(p.chip);
    core_ = logicalWorker(arch, p.coreX, p.coreY, "--core");
    std::uint32_t x = 0, y = 0, remote = 0;
    const std::uint64_t span = std::uint64_t(p.bytes) * p.transactions;
    if (p.target == DataMovementParams::Target::Dram) {
        if (!arch.hasDram()) throw ConfigError("data_movement: the chip architecture has no DRAM");
        const unsigned banks = arch.dram.banks();
        if (p.bank >= banks) throw ConfigError(fmt::format("--bank {}: the chip has {} DRAM banks", p.bank, banks));
        if (p.bytes == 0 || p.bytes % 32)
            throw ConfigError(fmt::format(
                "--bytes {}: a DRAM transaction is one page of an interleaved buffer, a non-zero multiple of 32 B",
                p.bytes));
        // An interleaved buffer whose bank-local range holds every transaction.
        const Buffer buf = prog.createBuffer(std::uint64_t(banks) * p.transactions, p.bytes, true);
        x = p.bank;
        remote = buf.base;
    } else {
        peer_ = logicalWorker(arch, p.peerX, p.peerY, "--peer");
        if (peer_ == core_) throw ConfigError("data_movement: --peer is the --core itself");
        if (span > 0xffffffffull) throw ConfigError("data_movement: --bytes x --transactions exceeds the L1");
        x = peer_.x;
        y = peer_.y;
        try {
            remote = prog.allocateL1(peer_, std::uint32_t(span), 32);
        } catch (const ConfigError& e) {
            throw ConfigError(fmt::format("--bytes {} x --transactions {}: the peer's {} B do not fit its L1 ({})",
                                          p.bytes, p.transactions, span, e.what()));
        }
    }
    std::uint32_t local = 0;
    try {
        local = prog.allocateL1(core_, p.bytes, 32);
    } catch (const ConfigError& e) {
        throw ConfigError(
            fmt::format("--bytes {}: one transaction does not fit the core's L1 ({})", p.bytes, e.what()));
    }
    result_ = prog.allocateL1(core_, 8, 16);
    KernelConfig kc;
    kc.processor = "ncrisc";
    kc.noc = p.noc;
    const KernelHandle k = prog.createKernel("data_movement", fw::microbench::data_movement_kernel_main, core_, kc);
    prog.setRuntimeArgs(k, {p.target == DataMovementParams::Target::Dram ? 1u : 0u, x, y, remote, local, p.bytes,
                            p.transactions, p.write ? 1u : 0u, result_, fw::microbench::kArgsEndMarker});
}

DataMovementResult DataMovement::read(Runtime& rt) const {
    DataMovementResult r;
    const CoreRef c{p_.chip, core_};
    r.cycles = rt.readL1(c, result_) | (std::uint64_t(rt.readL1(c, result_ + 4)) << 32);
    r.bytesPerCycle = r.cycles ? double(p_.bytes) * p_.transactions / double(r.cycles) : 0;
    const double mhz = rt.platform().descriptor().arch.aiclkMhz;
    r.ns = double(r.cycles) * 1000.0 / mhz;
    return r;
}

}  // namespace cclsim::microbench
