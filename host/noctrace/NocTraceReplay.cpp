#include "host/noctrace/NocTraceReplay.h"

#include "firmware/noctrace/noc_trace_args.h"
#include "firmware/noctrace/noc_trace_kernels.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace cclsim::noctrace {

namespace {

namespace fwt = fw::noctrace;

constexpr std::uint32_t kSlotAlign = 64;

// The op kinds travel as their OpKind value (noc_trace_args.h lists them in the same order).
static_assert(std::uint32_t(OpKind::Read) == fwt::kOpRead && std::uint32_t(OpKind::Write) == fwt::kOpWrite &&
              std::uint32_t(OpKind::ReadBarrier) == fwt::kOpReadBarrier &&
              std::uint32_t(OpKind::WriteBarrier) == fwt::kOpWriteBarrier &&
              std::uint32_t(OpKind::AtomicBarrier) == fwt::kOpAtomicBarrier &&
              std::uint32_t(OpKind::FullBarrier) == fwt::kOpFullBarrier &&
              std::uint32_t(OpKind::WriteFlush) == fwt::kOpWriteFlush);

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) {
    return (v + a - 1) / a * a;
}

bool isWorker(const ArchConfig& arch, CoreCoord c) {
    return std::find(arch.workers.begin(), arch.workers.end(), c) != arch.workers.end();
}

/// The DRAM bank a NoC endpoint stands for, or -1 if it is no DRAM endpoint.
int bankOf(const ArchConfig& arch, CoreCoord c) {
    const DramArch& d = arch.dram;
    for (unsigned b = 0; b < d.bankEndpoints.size(); ++b)
        if (d.bankEndpoints[b] == c) return int(b);
    for (unsigned ch = 0; ch < d.channels(); ++ch)
        for (const CoreCoord& e : d.channelEndpoints[ch])
            if (e == c) return int(ch * d.banksPerChannel);
    return -1;
}

}  // namespace

void NocTraceReplay::build(Runtime& rt, NocTrace trace, const NocTraceReplayParams& p) {
    p_ = p;
    trace_ = std::move(trace);
    const ArchConfig& arch = rt.platform().descriptor().arch;
    Program& prog = rt.program(p.chip);
    checkCores(arch);
    const std::map<const TraceOp*, std::uint64_t> dramAddr = placeDram(prog, arch);
    const std::map<CoreCoord, std::uint32_t> l1Region = placeL1(prog, arch);

    const std::uint64_t t0 = trace_.firstBegin();
    for (const TraceStream& s : trace_.streams) {
        std::uint32_t largest = 4;
        for (const TraceOp& o : s.ops) largest = std::max(largest, isTransfer(o.kind) ? o.bytes : 0u);
        fwt::ReplayHeader h;
        h.start_gap = offset(s.begin - t0, s.beginEvent);
        h.op_count = std::uint32_t(s.ops.size());
        h.staging = prog.allocateL1(s.core, largest, 32);
        h.result = prog.allocateL1(s.core, 8, 8);
        prog.markControl(s.core, h.result, 8);
        std::vector<std::uint32_t> args;
        h.visit([&args](std::uint32_t& f) { args.push_back(f); });
        std::uint64_t ref = s.begin;
        for (const TraceOp& o : s.ops) {
            const std::uint32_t w0 = std::uint32_t(o.kind) | (o.noc << fwt::kNocShift) | (o.hasEnd ? fwt::kHasEnd : 0u);
            std::uint64_t addr = 0;
            if (isTransfer(o.kind)) {
                const auto d = dramAddr.find(&o);
                addr = d != dramAddr.end() ? d->second : l1Region.at(o.remote);
            }
            args.insert(args.end(), {w0, gap(o.timestamp - ref, o.event), std::uint32_t(o.remote.x | (o.remote.y << 8)),
                                     std::uint32_t(addr), isTransfer(o.kind) ? o.bytes : 0u});
            ref = o.hasEnd ? o.endTimestamp : o.timestamp;
        }
        args.push_back(s.hasEnd ? gap(s.end - ref, s.beginEvent) : 0u);
        args.push_back(fwt::kArgsEndMarker);
        KernelConfig kc;
        kc.processor = s.proc == "BRISC" ? "brisc" : "ncrisc";
        KernelHandle k = prog.createKernel("noc_trace_" + kc.processor, fwt::noc_trace_replay_kernel_main, s.core, kc);
        prog.setRuntimeArgs(k, std::move(args));
        resultWords_.push_back({s.core, h.result});
    }
    cycleTicks_ = arch.cycles(1);
    kernelStart_ = arch.worker.costs.kernelStart;
}

NocTraceReplayResult NocTraceReplay::read(Runtime& rt) const {
    std::uint64_t last = 0;
    for (const auto& [core, addr] : resultWords_) {
        const std::uint64_t lo = rt.readL1({p_.chip, core}, addr);
        const std::uint64_t hi = rt.readL1({p_.chip, core}, addr + 4);
        last = std::max(last, lo | (hi << 32));
    }
    // The kernels' zones begin at kernel_main: after the chip's dispatch
    // (launch) and the firmware start-up before kernel_main, as on hardware.
    const Tick start = rt.launchTime(p_.chip) + kernelStart_;
    NocTraceReplayResult r;
    r.modelCycles = double(last) - double(start) / double(cycleTicks_);
    r.measuredCycles = double(trace_.measuredCycles());
    return r;
}

/// A recorded gap between two events of one kernel (0 without recorded gaps).
std::uint32_t NocTraceReplay::gap(std::uint64_t cycles, std::size_t event) const {
    return p_.recordedGaps ? offset(cycles, event) : 0u;
}

std::uint32_t NocTraceReplay::offset(std::uint64_t cycles, std::size_t event) const {
    if (cycles > UINT32_MAX)
        throw ConfigError(
            fmt::format("{}: event {}: a gap of {} cycles is too long to replay", trace_.file, event, cycles));
    return std::uint32_t(cycles);
}

void NocTraceReplay::checkCores(const ArchConfig& arch) const {
    for (const TraceStream& s : trace_.streams) {
        if (!isWorker(arch, s.core))
            throw ConfigError(fmt::format("{}: event {}: {} at {} is not a worker core of {}", trace_.file,
                                          s.beginEvent, s.proc, s.core.str(), arch.name));
        for (const TraceOp& o : s.ops)
            if (isTransfer(o.kind) && !isWorker(arch, o.remote) && bankOf(arch, o.remote) < 0)
                throw ConfigError(
                    fmt::format("{}: event {}: {} {} core {}, which is neither a worker core nor a "
                                "DRAM endpoint of {}",
                                trace_.file, o.event, opKindName(o.kind), o.kind == OpKind::Read ? "from" : "to",
                                o.remote.str(), arch.name));
    }
}

/// Consecutive slots per DRAM bank in recorded time order, in one region.
std::map<const TraceOp*, std::uint64_t> NocTraceReplay::placeDram(Program& p, const ArchConfig& arch) const {
    std::vector<const TraceOp*> ops;
    for (const TraceStream& s : trace_.streams)
        for (const TraceOp& o : s.ops)
            if (isTransfer(o.kind) && bankOf(arch, o.remote) >= 0) ops.push_back(&o);
    std::map<const TraceOp*, std::uint64_t> out;
    if (ops.empty()) return out;
    std::stable_sort(ops.begin(), ops.end(),
                     [](const TraceOp* a, const TraceOp* b) { return a->timestamp < b->timestamp; });
    std::vector<std::uint64_t> cursor(arch.dram.banks(), 0);
    std::map<const TraceOp*, std::pair<int, std::uint64_t>> slot;
    for (const TraceOp* o : ops) {
        const int b = bankOf(arch, o->remote);
        slot[o] = {b, cursor[b]};
        cursor[b] += alignUp(o->bytes, kSlotAlign);
    }
    const std::uint64_t region = *std::max_element(cursor.begin(), cursor.end());
    const std::uint64_t base = p.allocateDramRegion(region, kSlotAlign);
    for (const auto& [o, bs] : slot) {
        const std::uint64_t addr =
            std::uint64_t(bs.first % arch.dram.banksPerChannel) * arch.dram.bankBytes + base + bs.second;
        if (addr > UINT32_MAX)
            throw ConfigError(
                fmt::format("{}: event {}: DRAM address 0x{:x} beyond 32 bits", trace_.file, o->event, addr));
        out[o] = addr;
    }
    return out;
}

/// One L1 region per worker core that a transfer reads from or writes to.
std::map<CoreCoord, std::uint32_t> NocTraceReplay::placeL1(Program& p, const ArchConfig& arch) const {
    std::map<CoreCoord, std::uint32_t> largest;
    for (const TraceStream& s : trace_.streams)
        for (const TraceOp& o : s.ops)
            if (isTransfer(o.kind) && isWorker(arch, o.remote))
                largest[o.remote] = std::max(largest[o.remote], o.bytes);
    std::map<CoreCoord, std::uint32_t> out;
    for (const auto& [c, n] : largest) out[c] = p.allocateL1(c, n, 32);
    return out;
}

}  // namespace cclsim::noctrace
