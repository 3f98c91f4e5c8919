#include "runtime/Runtime.h"

#include "models/common/Report.h"
#include "models/common/Simulate.h"

#include <chrono>
#include <deque>
#include <map>

namespace cclsim {

Program::Program(Runtime& rt, unsigned chip) : rt_(rt), chip_(chip) {}

ProgrammableCore& Program::core(CoreCoord c, const char* what) {
    ProgrammableCore* p = rt_.platform().chip(chip_).core(c);
    if (!p) throw ConfigError(fmt::format("{}: chip {} has no programmable core at {}", what, chip_, c.str()));
    return *p;
}

std::uint32_t Program::allocateL1(CoreCoord c, std::uint32_t bytes, std::uint32_t align) {
    ProgrammableCore& p = core(c, "allocateL1");
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    std::uint32_t base, end;
    if (p.isEthernet()) {
        base = arch.erisc.unreservedBase + 16;  // after the handshake scratch word
        end = arch.erisc.kernelRegionEnd();
    } else {
        base = arch.workerUnreservedBase;
        end = std::uint32_t(arch.worker.l1.sizeBytes);
    }
    auto it = next_.emplace(c, base).first;
    const std::uint32_t addr = (it->second + align - 1) / align * align;
    if (std::uint64_t(addr) + bytes > end)
        throw ConfigError(
            fmt::format("chip {} core {}: cannot allocate {} B of L1: {} B free of the {} B kernel region", chip_,
                        c.str(), bytes, end > it->second ? end - it->second : 0, end - base));
    it->second = addr + bytes;
    claimed_.insert(c);
    return addr;
}

std::uint32_t Program::l1Next(CoreCoord c) {
    ProgrammableCore& p = core(c, "l1Next");
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    const std::uint32_t base = p.isEthernet() ? arch.erisc.unreservedBase + 16 : arch.workerUnreservedBase;
    auto it = next_.find(c);
    return it == next_.end() ? base : it->second;
}

std::uint32_t Program::l1Free(CoreCoord c) {
    const std::uint32_t used = l1Next(c);
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    const std::uint32_t end =
        core(c, "l1Free").isEthernet() ? arch.erisc.kernelRegionEnd() : std::uint32_t(arch.worker.l1.sizeBytes);
    return end > used ? end - used : 0;
}

std::uint32_t Program::createSemaphoreAt(CoreCoord c, std::uint32_t addr, std::uint32_t initial,
                                         const std::string& label) {
    if (addr % 16 || addr < l1Next(c))
        throw std::logic_error(fmt::format(
            "chip {} core {}: semaphore address {:#x} is not 16-byte aligned or not free", chip_, c.str(), addr));
    next_[c] = addr;  // the bytes below it stay unused
    return createSemaphore(c, initial, label);
}

std::uint32_t Program::createSemaphore(CoreCoord c, std::uint32_t initial, const std::string& label) {
    ProgrammableCore& p = core(c, "createSemaphore");
    const std::uint32_t addr = allocateL1(c, 16, 16);
    p.l1.markControl(addr, 4);
    p.l1.writeU32(addr, initial);
    p.traceWord(addr, label);
    ++semaphores_[c];
    return addr;
}

std::uint64_t Program::allocateDramRegion(std::uint64_t bytes, std::uint32_t align) {
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    if (!arch.hasDram()) throw ConfigError(fmt::format("chip {} has no DRAM", chip_));
    const std::uint64_t base = (dramNext_ + align - 1) / align * align;
    if (base + bytes > arch.dram.bankBytes)
        throw ConfigError(fmt::format("chip {}: {} B of DRAM do not fit; {} B are left per bank", chip_, bytes,
                                      arch.dram.bankBytes - std::min(base, arch.dram.bankBytes)));
    dramNext_ = base + bytes;
    return base;
}

std::uint64_t Program::allocateSram(unsigned bank, std::uint64_t bytes, std::uint32_t align) {
    const BankMap& banks = rt_.platform().chip(chip_).banks();
    if (bank >= banks.sramEndpoint.size())
        throw ConfigError(
            fmt::format("chip {} has no SRAM pool bank {} (the arch YAML's sram section has {} "
                        "endpoints)",
                        chip_, bank, banks.sramEndpoint.size()));
    std::uint64_t& next = sramNext_[bank];
    const std::uint64_t base = (next + align - 1) / align * align;
    if (base + bytes > banks.sramBankBytes)
        throw ConfigError(fmt::format("chip {}: {} B do not fit in SRAM bank {} ({} B left of {} B)", chip_, bytes,
                                      bank, banks.sramBankBytes - std::min(base, banks.sramBankBytes),
                                      banks.sramBankBytes));
    next = base + bytes;
    return base;
}

namespace {

void checkPageBytes(std::uint32_t pageBytes) {
    if (pageBytes == 0 || pageBytes % 32)
        throw ConfigError(fmt::format("buffer page size {} B must be a non-zero multiple of 32", pageBytes));
}

}  // namespace

std::uint32_t Program::reserveInBanks(bool dram, const std::vector<CoreCoord>& cores, std::uint64_t perBank,
                                      const std::function<std::string(std::uint64_t)>& tooBig) {
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    if (dram) {
        if (!arch.hasDram()) throw ConfigError(fmt::format("chip {} has no DRAM for a buffer", chip_));
        const std::uint64_t base = (dramNext_ + 63) / 64 * 64;
        if (base + perBank > arch.dram.bankBytes || base + perBank > 0xffffffffull)
            throw ConfigError(tooBig(std::min<std::uint64_t>(arch.dram.bankBytes, 0xffffffffull) -
                                     std::min(base, arch.dram.bankBytes)));
        dramNext_ = base + perBank;
        return std::uint32_t(base);
    }
    // L1: the same offset on every core.
    std::uint32_t base = 0;
    for (const CoreCoord& c : cores) base = std::max(base, next_.emplace(c, arch.workerUnreservedBase).first->second);
    base = (base + 31) / 32 * 32;
    const std::uint64_t end = arch.worker.l1.sizeBytes;
    if (base + perBank > end) throw ConfigError(tooBig(end > base ? end - base : 0));
    for (const CoreCoord& c : cores) next_[c] = std::uint32_t(base + perBank);
    return base;
}

Buffer Program::createBuffer(std::uint64_t pages, std::uint32_t pageBytes, bool dram) {
    checkPageBytes(pageBytes);
    const BankMap& banks = rt_.platform().chip(chip_).banks();
    Buffer b;
    b.chip = chip_;
    b.dram = dram;
    b.pageBytes = pageBytes;
    b.pages = pages;
    const std::uint64_t nb = dram ? banks.dramEndpoint.size() : banks.l1Cores.size();
    const std::uint64_t perBank = (pages + nb - 1) / nb * pageBytes;
    b.base = reserveInBanks(dram, banks.l1Cores, perBank, [&](std::uint64_t left) {
        return dram ? fmt::format(
                          "chip {}: a {} B DRAM buffer needs {} B in each of the {} banks but only {} B are "
                          "left per bank",
                          chip_, pages * pageBytes, perBank, nb, left)
                    : fmt::format("chip {}: an L1 buffer of {} B needs {} B on each of {} cores; {} B are free", chip_,
                                  pages * pageBytes, perBank, nb, left);
    });
    return b;
}

Buffer Program::createShardedBuffer(std::uint64_t pages, std::uint32_t pageBytes, bool dram, const ShardGeometry& g) {
    if (!g.sharded()) return createBuffer(pages, pageBytes, dram);
    checkPageBytes(pageBytes);
    const BankMap& banks = rt_.platform().chip(chip_).banks();
    const std::size_t nb = dram ? banks.dramEndpoint.size() : banks.l1Cores.size();
    if (g.shards == 0 || g.bankOf(g.shards - 1) >= nb || g.row_pages == 0 || g.shardPages() == 0)
        throw ConfigError(fmt::format("chip {}: a sharded buffer over {} shards of {}x{} pages, but the chip has {} {}",
                                      chip_, g.shards, g.shard_rows, g.shard_cols, nb,
                                      dram ? "DRAM banks" : "worker cores"));
    for (std::uint64_t p = 0; p < pages; ++p) {
        const ShardPlace at = shardPlace(g, p);
        if (at.shard >= g.shards || at.page >= g.shardPages())
            throw ConfigError(
                fmt::format("chip {}: page {} of a {}-page buffer falls outside its {} shards of {}x{} "
                            "pages (rows of {} pages)",
                            chip_, p, pages, g.shards, g.shard_rows, g.shard_cols, g.row_pages));
    }
    Buffer b;
    b.chip = chip_;
    b.dram = dram;
    b.pageBytes = pageBytes;
    b.pages = pages;
    b.shard = g;
    std::vector<CoreCoord> cores;  // the L1 shards' cores
    if (!dram)
        for (std::uint32_t s = 0; s < g.shards; ++s) cores.push_back(banks.l1Cores[g.bankOf(s)]);
    const std::uint64_t perShard = g.shardPages() * pageBytes;
    b.base = reserveInBanks(dram, cores, perShard, [&](std::uint64_t left) {
        return dram ? fmt::format("chip {}: a DRAM shard of {} B does not fit the banks' {} B left", chip_, perShard,
                                  left)
                    : fmt::format("chip {}: an L1 shard of {} B on each of {} cores; {} B are free", chip_, perShard,
                                  g.shards, left);
    });
    return b;
}

void Program::markControl(CoreCoord c, std::uint32_t addr, std::uint32_t n) {
    core(c, "markControl").l1.markControl(addr, n);
}

KernelHandle Program::createKernel(const std::string& name, std::function<void()> entry, CoreCoord c,
                                   const KernelConfig& cfg) {
    ProgrammableCore& p = core(c, "createKernel");
    if (p.isEthernet()) {
        auto& e = static_cast<EriscCore&>(p);
        const EthLinkInfo& li = e.eth.link();
        if (li.dispatch)
            throw ConfigError(fmt::format(
                "kernel '{}': chip {} Ethernet channel {} (core {}) carries the link to chip {} channel {}, which is "
                "reserved for dispatch; user kernels must use another link",
                name, chip_, e.channel(), c.str(), li.peerChip, li.peerChannel));
    }
    KernelLaunch l;
    l.name = name;
    l.processor = !cfg.processor.empty() ? cfg.processor : (p.isEthernet() ? "erisc" : "brisc");
    if (p.isEthernet() && l.processor != "erisc")
        throw ConfigError(fmt::format("kernel '{}': Ethernet cores run one kernel on processor 'erisc'", name));
    if (!p.isEthernet() && l.processor != "brisc" && l.processor != "ncrisc" && l.processor != "trisc0" &&
        l.processor != "trisc1" && l.processor != "trisc2")
        throw ConfigError(
            fmt::format("kernel '{}': worker kernels run on 'brisc' or 'ncrisc' (data movement) or "
                        "'trisc0'..'trisc2' (compute)",
                        name));
    for (const PendingKernel& k : kernels_)
        if (k.core == c && k.launch.processor == l.processor)
            throw ConfigError(fmt::format("kernel '{}': chip {} core {} processor {} already runs kernel '{}'", name,
                                          chip_, c.str(), l.processor, k.launch.name));
    if (cfg.noc > 1) throw ConfigError(fmt::format("kernel '{}': NoC {} does not exist", name, cfg.noc));
    if (cfg.vc > 1)
        throw ConfigError(fmt::format("kernel '{}': PE_DMA virtual channel {} does not exist", name, cfg.vc));
    l.entry = std::move(entry);
    l.ctArgs = cfg.ctArgs;
    l.noc = cfg.noc;
    l.vc = cfg.vc;
    l.traceSlots = cfg.traceSlots;
    l.scoreboard = &rt_.scoreboard();
    l.persistent = cfg.persistent;
    if (!cfg.persistent && cfg.waitTimeout != KernelConfig::WaitTimeout::None) {
        const FirmwareTimeouts& t = rt_.platform().descriptor().arch.timeouts;
        using W = KernelConfig::WaitTimeout;
        const bool edm = cfg.waitTimeout == W::Edm, fabric = cfg.waitTimeout == W::Fabric;
        l.waitTimeout = edm ? t.edm : fabric ? t.fabric : t.ipcq;
        l.waitTimeoutKey = edm ? "timeouts.edm_ms" : fabric ? "timeouts.fabric_ms" : "timeouts.ipcq_ms";
    }
    for (const unsigned g : {cfg.ends, cfg.after})
        if (g != KernelConfig::kNoGate && (g >= rt_.gates_.size() || rt_.gates_[g].chip != chip_))
            throw ConfigError(fmt::format("kernel '{}': op gate {} is not a gate of chip {}", name, g, chip_));
    if (cfg.ends != KernelConfig::kNoGate && cfg.ends == cfg.after)
        throw ConfigError(fmt::format("kernel '{}': both before and after op gate {}", name, cfg.ends));
    if ((cfg.ends != KernelConfig::kNoGate || cfg.after != KernelConfig::kNoGate) && (cfg.resident || cfg.persistent))
        throw ConfigError(
            fmt::format("kernel '{}': a resident or persistent kernel is not part of an op in sequence", name));
    kernels_.push_back(PendingKernel{std::move(l), c, cfg.resident, cfg.binaryBytes, cfg.ends, cfg.after});
    return KernelHandle{chip_, kernels_.size() - 1};
}

bool Program::hasKernelOn(CoreCoord c) const {
    for (const PendingKernel& k : kernels_)
        if (k.core == c) return true;
    return false;
}

std::uint32_t Program::l1Used(CoreCoord c) const {
    const ArchConfig& arch = rt_.platform().descriptor().arch;
    ProgrammableCore* p = rt_.platform().chip(chip_).core(c);
    if (!p) return 0;
    const std::uint32_t base = p->isEthernet() ? arch.erisc.unreservedBase + 16 : arch.workerUnreservedBase;
    auto it = next_.find(c);
    return it == next_.end() ? 0 : it->second - base;
}

void Program::setRuntimeArgs(KernelHandle k, std::vector<std::uint32_t> args) {
    if (k.chip != chip_ || k.index >= kernels_.size()) throw ConfigError("setRuntimeArgs: invalid kernel handle");
    kernels_[k.index].launch.rtArgs = std::move(args);
}

Runtime::Runtime(Platform& platform) : platform_(platform), dispatch_(platform.numChips(), 0) {
    for (unsigned c = 0; c < platform.numChips(); ++c) programs_.push_back(std::make_unique<Program>(*this, c));
}

void Runtime::alignTensorAllocators(const std::vector<unsigned>& chips) {
    if (chips.size() < 2) return;
    std::map<CoreCoord, std::uint32_t> l1;
    std::uint64_t dram = 0;
    for (unsigned c : chips) {
        Program& p = program(c);
        for (const CoreCoord& core : platform().chip(c).banks().l1Cores) {
            std::uint32_t& most = l1[core];
            most = std::max(most, p.l1Next(core));
        }
        dram = std::max(dram, p.dramNext_);
    }
    for (unsigned c : chips) {
        Program& p = program(c);
        for (const auto& [core, next] : l1) p.next_[core] = next;
        p.dramNext_ = dram;
    }
}

Program& Runtime::program(unsigned chip) {
    if (chip >= programs_.size()) throw ConfigError(fmt::format("chip {} does not exist", chip));
    return *programs_[chip];
}

void Runtime::setDispatchTime(unsigned chip, Tick t) {
    dispatch_.at(chip) = t;
}
Tick Runtime::dispatchTime(unsigned chip) const {
    return dispatch_.at(chip);
}

Tick Runtime::launchTime(unsigned chip) const {
    return dispatch_.at(chip) + (launched_ ? plans_.at(chip).launch() : 0);
}

Tick Runtime::programDone(unsigned chip) const {
    bool any = false;
    for (const KernelContext* k : kernels_) any |= k->core().chipId() == chip && !k->persistent();
    if (!any) return launchTime(chip);
    const Tick f = chipFinish(chip);
    return f == kNever ? kNever : f + plans_.at(chip).completion;
}

Tick Runtime::endToEndWithDispatch(const std::vector<unsigned>& chips) const {
    Tick enqueued = kNever, done = 0;
    for (unsigned c : chips) {
        const Tick d = programDone(c);
        if (d == kNever) return kNever;
        enqueued = std::min(enqueued, dispatchTime(c));
        done = std::max(done, d);
    }
    return chips.empty() ? 0 : done - enqueued;
}

unsigned Runtime::createOpGate(unsigned chip) {
    if (launched_) throw std::logic_error("Runtime::createOpGate after launch()");
    if (chip >= programs_.size()) throw ConfigError(fmt::format("chip {} does not exist", chip));
    gates_.push_back(OpGate{chip, 0, {}});
    return unsigned(gates_.size() - 1);
}

unsigned Runtime::tunnelHops(unsigned chip) const {
    const ClusterDescriptor& d = platform_.descriptor();
    const unsigned n = unsigned(d.chips.size());
    std::vector<unsigned> hops(n, ~0u);
    std::deque<unsigned> q;
    for (const ChipDesc& c : d.chips)
        if (c.pcie && c.id < n) hops[c.id] = 0, q.push_back(c.id);
    if (q.empty()) return 0;
    while (!q.empty()) {
        const unsigned c = q.front();
        q.pop_front();
        for (const LinkDesc& l : d.links) {
            const unsigned other = l.a.chip == c ? l.b.chip : l.b.chip == c ? l.a.chip : n;
            if (other < n && hops[other] == ~0u) hops[other] = hops[c] + 1, q.push_back(other);
        }
    }
    return hops.at(chip) == ~0u ? 0 : hops[chip];
}

namespace {
std::uintptr_t entryIdentity(const std::function<void()>& f) {
    if (const auto* fn = f.target<void (*)()>()) return reinterpret_cast<std::uintptr_t>(*fn);
    return reinterpret_cast<std::uintptr_t>(&f.target_type());
}
}  // namespace

void Runtime::launch() {
    if (launched_) throw std::logic_error("Runtime::launch called twice");
    const DispatchArch& da = platform_.descriptor().arch.dispatch;
    for (auto& prog : programs_) {
        std::vector<DispatchKernel> dk;
        for (const auto& pk : prog->kernels_) {
            if (pk.resident || pk.after != KernelConfig::kNoGate) continue;
            ProgrammableCore* p = platform_.chip(prog->chip()).core(pk.core);
            auto sem = prog->semaphores_.find(pk.core);
            dk.push_back(DispatchKernel{pk.launch.name, pk.binaryBytes, pk.launch.processor,
                                        entryIdentity(pk.launch.entry), pk.core, p->isEthernet(), pk.launch.ctArgs,
                                        pk.launch.rtArgs.size(), sem == prog->semaphores_.end() ? 0u : sem->second});
        }
        plans_.push_back(planDispatch(da, dk, tunnelHops(prog->chip())));
    }
    launched_ = true;
    for (auto& prog : programs_) {
        for (auto& pk : prog->kernels_) {
            pk.launch.startAt = pk.resident ? dispatch_[prog->chip()] : launchTime(prog->chip());
            pk.launch.gated = pk.after != KernelConfig::kNoGate;
            auto sem = prog->semaphores_.find(pk.core);
            pk.launch.semaphores = sem == prog->semaphores_.end() ? 0u : sem->second;
            if (pk.launch.persistent) {
                anyPersistent_ = true;
            } else {
                ++unfinished_;
                FastForward* ff = platform_.fastForward();
                if (ff) ff->addKernels(1);
                // When the last non-persistent kernel returns, the run is
                // over: pause so persistent kernels do not run on.
                // The last kernel of an op before a gate: the op after goes.
                const unsigned ends = pk.ends;
                if (ends != KernelConfig::kNoGate) ++gates_[ends].pending;
                const Tick afterDone = plans_.at(prog->chip()).completion + plans_.at(prog->chip()).goSignal;
                pk.launch.onFinish = [this, ff, ends, afterDone] {
                    if (ff) ff->kernelReturned();
                    if (ends != KernelConfig::kNoGate && --gates_[ends].pending == 0)
                        for (KernelContext* k : gates_[ends].followers) k->go(now() + afterDone);
                    if (--unfinished_ == 0 && anyPersistent_) platform_.eq.pause();
                };
            }
            pk.launch.fastForward = platform_.fastForward();
            ProgrammableCore* p = platform_.chip(prog->chip()).core(pk.core);
            const unsigned after = pk.after;
            kernels_.push_back(&p->launch(std::move(pk.launch)));
            if (after != KernelConfig::kNoGate) gates_[after].followers.push_back(kernels_.back());
        }
        prog->kernels_.clear();
    }
    // An op after a gate with nothing before it starts as the chip's program.
    for (OpGate& g : gates_)
        if (g.pending == 0)
            for (KernelContext* k : g.followers) k->go(launchTime(g.chip));
}

RunResult Runtime::run(const RunOptions& opts) {
    if (!launched_) launch();
    RunResult r;
    const auto t0 = std::chrono::steady_clock::now();
    bool wallLimit = false;
    // Run in slices so long runs can report progress and a wall-clock limit holds.
    const Tick slice = Tick(100) * 1000 * kTicksPerNs;  // 100 us simulated
    for (;;) {
        const Tick remaining = opts.maxSimTime > now() ? opts.maxSimTime - now() : 0;
        if (remaining == 0) break;
        // A slice reaches at least the next activity: nothing may happen for
        // a long time before it (a firmware wait timing out) and a slice
        // with no activity in it would not move time.
        Tick step = slice;
        if (sc_core::sc_pending_activity() && !sc_core::sc_pending_activity_at_current_time())
            step = std::max(step, Tick(sc_core::sc_time_to_pending_activity().value()) + 1);
        step = std::min(step, remaining);
        // Stop at the last event rather than the end of the slice, so the
        // simulated end time (and the VCD) end where the activity ends.
        // The calendar may run ahead of SystemC time, but not past the slice.
        platform_.eq.setRunLimit(now() + step);
        // With SC_EXIT_ON_STARVATION time stops at the last event, not at the
        // end of the slice: when the next activity lies beyond the time
        // limit, nothing can happen before it.
        if (sc_core::sc_pending_activity() && !sc_core::sc_pending_activity_at_current_time() &&
            sc_core::sc_time_to_pending_activity() > toScTime(remaining))
            break;
        // simulate: sc_start, and ASan sees the main stack again after it (models/common/Simulate.h).
        simulate(toScTime(step), sc_core::SC_EXIT_ON_STARVATION);
        bool allDone = true;
        for (KernelContext* k : kernels_) allDone &= k->persistent() || k->state() == KernelContext::State::Done;
        if (allDone) break;
        // Firmware waits that give up: when nothing else can happen, the
        // first deadline comes (time moves to it); otherwise any deadline
        // passed by now (checked per slice, far finer than the timeouts).
        Tick deadline = kNever;
        for (KernelContext* k : kernels_) deadline = std::min(deadline, k->waitDeadline());
        const bool starved = !sc_core::sc_pending_activity();
        if (deadline != kNever && (starved || deadline <= now()) && deadline <= opts.maxSimTime) {
            if (deadline > now()) simulate(toScTime(deadline - now()), sc_core::SC_RUN_TO_TIME);
            for (KernelContext* k : kernels_)
                if (k->waitDeadline() <= now()) k->giveUp();
            break;
        }
        if (starved) break;  // nothing can ever happen again
        if (opts.progress) opts.progress(now());
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > opts.maxWallSeconds) {
            wallLimit = true;
            break;
        }
    }
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.simEnd = now();
    r.completed = true;
    for (KernelContext* k : kernels_) {
        if (k->persistent()) continue;
        if (k->state() != KernelContext::State::Done)
            r.completed = false;
        else
            r.lastKernelFinish = std::max(r.lastKernelFinish, k->finishedAt());
    }
    if (!r.completed) {
        const bool stuck = !sc_core::sc_pending_activity();
        std::string gaveUp;
        for (KernelContext* k : kernels_)
            if (!k->timedOut().empty()) gaveUp += "  " + k->timedOut();
        if (!gaveUp.empty())
            r.report = fmt::format("deadlock at {}: a firmware wait timed out, kernels did not finish.\n{}{}",
                                   timeStamp(), gaveUp, blockedReport());
        else if (stuck)
            r.report = fmt::format("deadlock at {}: kernels did not finish.\n{}", timeStamp(), blockedReport());
        else if (wallLimit)
            r.report =
                fmt::format("time limit reached at {} (the wall-clock limit: {:.0f} s): kernels did not finish.\n{}",
                            timeStamp(), opts.maxWallSeconds, blockedReport());
        else  // the limit, too: time stays short of it when the next activity lies beyond it
            r.report = fmt::format("time limit reached at {} (the limit: {:.3f} us): kernels did not finish.\n{}",
                                   timeStamp(), ticksToNs(opts.maxSimTime) / 1000.0, blockedReport());
        for (const auto& section : diagnostics_) r.report += section();
    }
    return r;
}

std::string Runtime::blockedReport() {
    std::string out;
    for (int pass = 0; pass < 2; ++pass) {
        for (KernelContext* k : kernels_) {
            if (k->state() == KernelContext::State::Done || k->persistent() != (pass == 1)) continue;
            const char* st = k->state() == KernelContext::State::Pending   ? "not started"
                             : k->state() == KernelContext::State::Blocked ? "blocked"
                                                                           : "running";
            out += fmt::format("  {} [{}{}] waypoint {}\n{}", k->name(), st, pass ? ", persistent" : "", k->waypoint(),
                               k->describeWait());
        }
    }
    return out;
}

Tick Runtime::chipFinish(unsigned chip) const {
    Tick t = 0;
    for (const KernelContext* k : kernels_) {
        if (k->core().chipId() != chip || k->persistent()) continue;
        if (k->state() != KernelContext::State::Done) return kNever;
        t = std::max(t, k->finishedAt());
    }
    return t;
}

namespace {
struct PageLocation {
    unsigned bank;
    std::uint64_t offset;
};
PageLocation locate(const Buffer& b, std::uint64_t page, std::size_t banks) {
    if (page >= b.pages) throw std::out_of_range("buffer page out of range");
    if (b.shard.sharded()) {
        const ShardPlace at = shardPlace(b.shard, page);
        return PageLocation{b.shard.bankOf(at.shard), b.base + at.page * b.pageBytes};
    }
    return PageLocation{unsigned(page % banks), b.base + page / banks * b.pageBytes};
}
}  // namespace

void Runtime::writePage(const Buffer& b, std::uint64_t page, const std::uint8_t* data) {
    Chip& chip = platform_.chip(b.chip);
    if (b.dram) {
        const PageLocation l = locate(b, page, chip.banks().dramEndpoint.size());
        chip.dramWrite(l.bank, l.offset, b.pageBytes, data);
    } else {
        const PageLocation l = locate(b, page, chip.banks().l1Cores.size());
        chip.core(chip.banks().l1Cores[l.bank])->l1.writeBytes(std::uint32_t(l.offset), b.pageBytes, data);
    }
}

void Runtime::readPage(const Buffer& b, std::uint64_t page, std::uint8_t* out) {
    Chip& chip = platform_.chip(b.chip);
    if (b.dram) {
        const PageLocation l = locate(b, page, chip.banks().dramEndpoint.size());
        chip.dramRead(l.bank, l.offset, b.pageBytes, out);
    } else {
        const PageLocation l = locate(b, page, chip.banks().l1Cores.size());
        chip.core(chip.banks().l1Cores[l.bank])->l1.readBytes(std::uint32_t(l.offset), b.pageBytes, out);
    }
}

std::uint32_t Runtime::readL1(CoreRef c, std::uint32_t addr) {
    ProgrammableCore* p = platform_.chip(c.chip).core(c.coord);
    if (!p) throw ConfigError(fmt::format("chip {} has no core at {}", c.chip, c.coord.str()));
    return p->l1.readU32(addr);
}

}  // namespace cclsim
