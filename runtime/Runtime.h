// The host runtime: programs per chip, kernels on cores, semaphores, L1
// buffers, per-chip dispatch times, and running the simulation to completion
// with a deadlock report if kernels are left waiting.
//
// It follows tt-metal's host API shape (a Program is a single-chip construct,
// CreateKernel / CreateSemaphore / SetRuntimeArgs) so host-side builders and
// op launchers read like their tt-metal counterparts.
#pragma once

#include "models/common/Scoreboard.h"
#include "models/core/KernelContext.h"
#include "models/core/ShardMap.h"
#include "platforms/Platform.h"
#include "runtime/Dispatch.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cclsim {

struct KernelConfig {
    std::string processor;  ///< default: "brisc" on workers, "erisc" on Ethernet cores
    unsigned noc = 0;
    unsigned vc = 0;  ///< PE_DMA virtual channel (0 vc_compute, 1 vc_comm)
    std::vector<std::uint32_t> ctArgs;
    std::vector<TraceSlot> traceSlots;  ///< kernel-owned trace values (trace_value)
    /// A service kernel (fabric router, mux) that never returns on its own:
    /// the run completes when every non-persistent kernel has returned.
    bool persistent = false;
    /// Launched before the op by a program of its own (tt-metal starts the
    /// fabric routers when the fabric is set up): not part of this program's
    /// dispatch; it starts at the chip's enqueue time.
    bool resident = false;
    /// Which firmware wait timeout its waits use (arch YAML `timeouts`);
    /// None: it waits forever (persistent kernels always do).
    enum class WaitTimeout { None, Edm, Fabric, Ipcq } waitTimeout = WaitTimeout::None;
    /// Kernel binary bytes for the dispatch model (0: the arch YAML's
    /// dispatch.kernel_binary_bytes entry for the kernel's name).
    std::uint32_t binaryBytes = 0;
    /// Ops in sequence on a chip (Runtime::createOpGate): this kernel is
    /// part of the op before the gate (`ends`), or of the op after it
    /// (`after`: its go signal waits for every kernel of the op before).
    static constexpr unsigned kNoGate = ~0u;
    unsigned ends = kNoGate, after = kNoGate;
};

struct KernelHandle {
    unsigned chip = 0;
    std::size_t index = 0;
};

struct CoreRef {
    unsigned chip = 0;
    CoreCoord coord;
};

class Runtime;

/// An interleaved buffer: page i lives in bank i % banks at offset
/// base + (i / banks) * pageBytes (DRAM banks, or the L1 of every worker core).
struct Buffer {
    unsigned chip = 0;
    bool dram = true;
    std::uint32_t base = 0;  ///< same offset in every bank
    std::uint32_t pageBytes = 0;
    std::uint64_t pages = 0;
    ShardGeometry shard;  ///< sharded (models/core/ShardMap.h), else interleaved
    std::uint64_t bytes() const { return pages * pageBytes; }
};

/// One chip's program.
class Program {
public:
    Program(Runtime& rt, unsigned chip);

    unsigned chip() const { return chip_; }
    Runtime& runtime() { return rt_; }
    const Runtime& runtime() const { return rt_; }
    /// Allocate a semaphore word (initialised, traced, kept in --no-data).
    std::uint32_t createSemaphore(CoreCoord core, std::uint32_t initial, const std::string& label);
    /// A semaphore at `addr` (16-byte aligned, at or above l1Next(core)): one
    /// address on several cores and chips, as tt-metal's semaphore of a core
    /// range and its global semaphores have, for a multicast that names one.
    std::uint32_t createSemaphoreAt(CoreCoord core, std::uint32_t addr, std::uint32_t initial,
                                    const std::string& label);
    /// Allocate an L1 buffer on a core (aligned; errors when L1 is full).
    std::uint32_t allocateL1(CoreCoord core, std::uint32_t bytes, std::uint32_t align = 32);
    /// Free bytes left in a core's kernel region.
    std::uint32_t l1Free(CoreCoord core);
    /// The lowest address the next allocation on a core can take.
    std::uint32_t l1Next(CoreCoord core);
    /// Reserve `bytes` at the same offset of every DRAM bank (a region a
    /// caller places in one bank of its choice); returns the offset.
    std::uint64_t allocateDramRegion(std::uint64_t bytes, std::uint32_t align = 64);
    /// Reserve `bytes` in SRAM pool bank `bank`; returns the offset in the bank.
    std::uint64_t allocateSram(unsigned bank, std::uint64_t bytes, std::uint32_t align = 64);
    /// Allocate an interleaved buffer of `pages` pages in DRAM (or across the
    /// worker cores' L1). ConfigError if it does not fit.
    Buffer createBuffer(std::uint64_t pages, std::uint32_t pageBytes, bool dram = true);
    /// Allocate a sharded buffer: shard s on worker core s of the L1 bank
    /// order (or DRAM bank s), every shard at the same offset. ConfigError
    /// if a page falls outside the shards or the banks have no room.
    Buffer createShardedBuffer(std::uint64_t pages, std::uint32_t pageBytes, bool dram, const ShardGeometry& g);
    /// Keep [addr, addr+n) stored in --no-data mode (semaphore-like words).
    void markControl(CoreCoord core, std::uint32_t addr, std::uint32_t n);

    KernelHandle createKernel(const std::string& name, std::function<void()> entry, CoreCoord core,
                              const KernelConfig& cfg);
    /// Does any kernel of this program run on `core`?
    bool hasKernelOn(CoreCoord core) const;
    /// Bytes of `core`'s kernel region allocated so far (0: untouched).
    std::uint32_t l1Used(CoreCoord core) const;
    /// Has a host allocated L1 on `core` for that core alone (allocateL1,
    /// a semaphore)? L1 taken by a buffer interleaved over every worker core
    /// does not claim a core: a kernel may still run beside the tensor.
    bool coreClaimed(CoreCoord core) const { return claimed_.count(core) != 0; }
    void setRuntimeArgs(KernelHandle k, std::vector<std::uint32_t> args);

private:
    /// The offset at which `perBank` bytes are reserved in every DRAM bank
    /// (`dram`) or in the L1 of every core of `cores`; ConfigError with
    /// `tooBig(bytes left per bank)` when they do not fit.
    std::uint32_t reserveInBanks(bool dram, const std::vector<CoreCoord>& cores, std::uint64_t perBank,
                                 const std::function<std::string(std::uint64_t)>& tooBig);
    friend class Runtime;
    struct PendingKernel {
        KernelLaunch launch;
        CoreCoord core;
        bool resident = false;
        std::uint32_t binaryBytes = 0;
        unsigned ends = KernelConfig::kNoGate, after = KernelConfig::kNoGate;
    };
    ProgrammableCore& core(CoreCoord c, const char* what);

    Runtime& rt_;
    unsigned chip_;
    std::map<CoreCoord, std::uint32_t> next_;        ///< allocation cursor per core
    std::set<CoreCoord> claimed_;                    ///< cores with an allocateL1 of their own
    std::uint64_t dramNext_ = 0;                     ///< allocation cursor in every DRAM bank
    std::map<unsigned, std::uint64_t> sramNext_;     ///< allocation cursor per SRAM bank
    std::map<CoreCoord, std::uint32_t> semaphores_;  ///< semaphores per core
    std::vector<PendingKernel> kernels_;
};

struct RunResult {
    bool completed = false;     ///< every (non-persistent) kernel returned
    Tick lastKernelFinish = 0;  ///< op time: last (non-persistent) kernel to finish
    Tick simEnd = 0;
    double wallSeconds = 0;
    std::string report;  ///< deadlock / timeout report when !completed
};

struct RunOptions {
    Tick maxSimTime = 10'000'000'000'000ull;  ///< 10 s simulated
    double maxWallSeconds = 3600;
    std::function<void(Tick)> progress;  ///< called between simulation slices
};

class Runtime {
public:
    explicit Runtime(Platform& platform);

    Platform& platform() { return platform_; }
    Program& program(unsigned chip);
    /// Bring the tensor allocators of `chips` (every worker core's L1 and the
    /// DRAM banks) to one cursor, the furthest any of them has reached, so
    /// that buffers allocated alike on each chip next land at one address on
    /// every chip, as tt-metal's mesh allocator places a mesh tensor. Where a
    /// chip's earlier allocations fell short, the bytes in between stay unused.
    void alignTensorAllocators(const std::vector<unsigned>& chips);
    /// When the host enqueues a chip's program (programs on different chips
    /// are enqueued at different times). Its kernels start `launchTime` later,
    /// once the chip's dispatcher has sent the program (runtime/Dispatch.h).
    void setDispatchTime(unsigned chip, Tick t);
    Tick dispatchTime(unsigned chip) const;
    /// When a chip's kernels start: enqueue + the dispatch plan's launch
    /// (the enqueue time before launch()).
    Tick launchTime(unsigned chip) const;
    /// The dispatch of a chip's program (valid after launch()).
    const DispatchPlan& dispatchPlan(unsigned chip) const { return plans_.at(chip); }
    /// When the dispatcher sees a chip's program complete: its last kernel's
    /// finish + the completion report (kNever if a kernel did not finish;
    /// the launch time for a chip without kernels).
    Tick programDone(unsigned chip) const;
    /// An op over `chips` end to end with dispatch: from the first host
    /// enqueue to the last program completion (kNever if one did not finish).
    Tick endToEndWithDispatch(const std::vector<unsigned>& chips) const;
    /// Ethernet hops from `chip` to the nearest PCIe-attached chip (0 on a
    /// PCIe chip, or when the descriptor marks none).
    unsigned tunnelHops(unsigned chip) const;
    /// A boundary between two ops on `chip` that tt-metal runs as programs
    /// one after the other (a composite op: all_reduce is reduce_scatter,
    /// then all_gather). Kernels created with KernelConfig::ends = the gate
    /// are the op before, those with KernelConfig::after = it the op after.
    /// The dispatcher writes the second op's launch messages, binaries and
    /// arguments while the first runs (its kernel-config and launch-message
    /// rings hold both), so they are not in the chip's dispatch plan; it
    /// sends the second op's go signal once every kernel of the first has
    /// returned and reported done: their last finish + completion + go
    /// signal. An op before without kernels: the op after starts at the
    /// chip's launch time.
    unsigned createOpGate(unsigned chip);
    Scoreboard& scoreboard() { return scoreboard_; }

    /// Create every kernel thread (elaboration). Call once, before tracing.
    void launch();
    /// Run until every kernel returned, or report what is blocked.
    RunResult run(const RunOptions& opts = {});

    /// Read a word of a core's L1 (host readback of results).
    std::uint32_t readL1(CoreRef core, std::uint32_t addr);
    /// Host access to one page of an interleaved buffer (zero time).
    void writePage(const Buffer& b, std::uint64_t page, const std::uint8_t* data);
    void readPage(const Buffer& b, std::uint64_t page, std::uint8_t* out);

    /// One paragraph per kernel that did not finish (persistent service
    /// kernels are listed after the others, as context).
    std::string blockedReport();
    /// A section appended to the report of a run whose kernels did not
    /// finish (e.g. a process group's pointer dump and wait-for graph).
    void addDiagnostic(std::function<std::string()> section) { diagnostics_.push_back(std::move(section)); }
    const std::vector<KernelContext*>& kernels() const { return kernels_; }
    /// When the last kernel on `chip` finished (kNever if one did not; 0 if it has none).
    Tick chipFinish(unsigned chip) const;

private:
    Platform& platform_;
    std::vector<std::unique_ptr<Program>> programs_;
    std::vector<Tick> dispatch_;
    std::vector<DispatchPlan> plans_;
    std::vector<KernelContext*> kernels_;
    Scoreboard scoreboard_;
    bool launched_ = false;
    std::size_t unfinished_ = 0;  ///< non-persistent kernels still running
    bool anyPersistent_ = false;
    std::vector<std::function<std::string()>> diagnostics_;
    struct OpGate {
        unsigned chip = 0;
        std::size_t pending = 0;                ///< kernels of the op before still running
        std::vector<KernelContext*> followers;  ///< the op after's kernels, waiting for go()
    };
    std::vector<OpGate> gates_;
    friend class Program;
};

}  // namespace cclsim
