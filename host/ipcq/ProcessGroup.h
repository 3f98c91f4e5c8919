// The host side of PE_IPCQ, shaped like torch.distributed
// (docs/design/pe-ipcq.md#d10): init_process_group reads ccl.yaml and prepares every rank's PE_IPCQ;
// all_reduce launches the chosen algorithm's kernel on every rank. Host code
// never sees an IPCQ knob.
//
//   auto pg = ProcessGroup::init_process_group(rt, "platforms/ccl.yaml");
//   pg->all_reduce(tensorBytes, golden::DType::BF16, seed);   // builds the kernels
//   rt.run();
//   pg->check();                                              // golden comparison
//
// init_process_group, in order:
//   1. resolve the algorithm (algorithm > defaults > built-in) and its kernel;
//   2. place ranks on chips x worker cores (ccl.yaml placement);
//   3. build the neighbour map: builtin topology, then the algorithm's
//      neighbors() hook; check I3 (symmetry) and I4 (one buffer_kind);
//   4. allocate every rank's rx rings (tcm: its L1; hbm: the DRAM bank
//      nearest its core; sram: the nearest bank of the SRAM pool) before any
//      table is built, so every endpoint is known;
//   5. build the packet fabric if any link crosses chips (one fabric client
//      per cross-chip sending direction, and per credit direction with
//      credit_return_mode: fabric);
//   6. push the tables (IpcqInitMsg): queue pairs with the peer's
//      IpcqEndpoint, the registers our sends and credits update, the fabric
//      connection and route, the fast-path credit latency of the real path.
#pragma once

#include "host/fabric/FabricBuilder.h"
#include "host/ipcq/IpcqAlgorithms.h"
#include "host/ipcq/IpcqConfig.h"
#include "runtime/Runtime.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim::ipcq {

/// One rank of the group.
struct RankInfo {
    unsigned rank = 0;
    unsigned chip = 0;
    CoreCoord core;
    BufferKind bufferKind = BufferKind::Tcm;
    std::uint32_t scratch = 0;  ///< L1: one slot
    std::uint32_t tensor = 0;   ///< L1: the all_reduce tensor (after all_reduce)
    KernelHandle kernel;
};

/// Extra options of a group that are not ccl.yaml settings.
struct GroupOptions {
    std::FILE* trace = nullptr;  ///< CCL trace: one line per send / recv
    /// Check invariants I1, I2, I5, I6 (payload hashes in data mode) on every
    /// send, arrival, recv and credit, and F2's strict validation (both live
    /// in the IpcqEdge checker this installs). I7 and the other F-errors are
    /// always checked.
    bool checkInvariants = true;
    /// Several ops at once (cli/workloads/ccl/ConcurrentWorkload): the persistent fabric the
    /// group shares with them. The group adds its clients to it; the caller
    /// builds it, then calls finishInit(). Null: a fabric of the group's own.
    fabric::FabricBuilder* sharedFabric = nullptr;
    /// Tag of the group's fabric packets (per-op link accounting); 0: none.
    unsigned stream = 0;
};

class ProcessGroup {
public:
    ProcessGroup(Runtime& rt, GroupConfig cfg, const GroupOptions& opts = {});
    ~ProcessGroup();
    ProcessGroup(const ProcessGroup&) = delete;
    ProcessGroup& operator=(const ProcessGroup&) = delete;

    /// Load `cclFile`, resolve `algorithm` (empty: defaults.algorithm) and initialise.
    static std::unique_ptr<ProcessGroup> init_process_group(Runtime& rt, const std::string& cclFile,
                                                            const std::string& algorithm = "",
                                                            const GroupOptions& opts = {});

    /// all_reduce(tensor, sum): each rank's tensor of `bytes` in its L1,
    /// filled with golden::rankTensor(seed, rank) (data mode); launches the
    /// algorithm's kernel on every rank. ConfigError if the size does not
    /// suit the algorithm or L1.
    void all_reduce(std::uint64_t bytes, golden::DType dtype, std::uint64_t seed);
    /// Launch any kernel on every rank (microbenchmarks), args per rank.
    void launch(const std::string& name, const std::function<void()>& entry,
                const std::function<std::vector<std::uint32_t>(unsigned)>& args);

    /// After the run: compare every rank's tensor with the golden result.
    /// Returns "" on a match, else the first mismatch.
    std::string check() const;

    unsigned world_size() const { return unsigned(ranks_.size()); }
    const std::vector<RankInfo>& ranks() const { return ranks_; }
    const GroupConfig& config() const { return cfg_; }
    const IpcqAlgorithm* algorithm() const { return algo_; }
    const GroupNeighbors& neighbors() const { return neighbors_; }
    TopologyKind topology() const { return topology_; }
    const AlgoShape& shape() const { return shape_; }
    std::vector<unsigned> chips() const;
    const fabric::FabricBuilder* fabric() const { return fab_; }
    /// A shared fabric: push the tables once the caller has built the fabric.
    void finishInit();
    PeIpcq& ipcqOf(unsigned rank) const;
    /// Fast-path credit latency of rank's direction `d` (to its sender).
    Tick creditLatency(unsigned rank, IpcqDir d) const;
    /// Queue pairs that cross chips.
    unsigned crossChipLinks() const { return crossChipLinks_; }

    /// Every queue's four pointers (the pointer dump of docs/design/pe-ipcq.md#d14).
    std::string pointerDump() const;
    /// Who waits for whom among ranks whose kernels did not finish, and the
    /// cycle (or the finished rank) that makes the wait permanent.
    std::string waitForReport() const;
    /// Sends and receives so far over all queues.
    std::uint64_t totalSends() const;

private:
    struct Ring {
        IpcqEndpoint ep;
        unsigned bank = 0;         ///< hbm / sram bank
        std::uint64_t offset = 0;  ///< hbm: offset in the bank; sram: offset in the bank
    };
    void place();
    void buildNeighbors();
    void allocateRings();
    void buildFabric();
    void install();
    Tick pathLatency(unsigned fromChip, CoreCoord from, unsigned toChip, CoreCoord to, std::uint32_t bytes) const;
    void readRing(const Ring& r, std::uint64_t seq, std::uint32_t n, std::uint8_t* out) const;
    [[noreturn]] void fail(const std::string& where, const std::string& what) const;

    Runtime& rt_;
    GroupConfig cfg_;
    GroupOptions opts_;
    const IpcqAlgorithm* algo_ = nullptr;
    TopologyKind topology_ = TopologyKind::None;
    AlgoShape shape_;
    std::vector<RankInfo> ranks_;
    GroupNeighbors neighbors_;
    /// rx ring of (rank, direction), if a peer sends into it.
    std::vector<std::array<std::optional<Ring>, kIpcqDirs>> rings_;
    std::unique_ptr<fabric::FabricBuilder> fabric_;  ///< the group's own fabric
    fabric::FabricBuilder* fab_ = nullptr;           ///< fabric_, or the shared one
    bool installed_ = false;
    std::map<std::pair<unsigned, unsigned>, fabric::ClientId> txClients_, creditClients_;  ///< (rank, dir)
    std::vector<std::unique_ptr<IpcqEdge>> edges_;
    std::vector<std::vector<Tick>> creditLatency_;
    unsigned crossChipLinks_ = 0;
    bool launched_ = false;
    golden::DType dtype_ = golden::DType::BF16;
    std::uint64_t seed_ = 1;
};

}  // namespace cclsim::ipcq
