// ccl.yaml: the process group configuration of PE_IPCQ (docs/design/pe-ipcq.md#d11).
//
// The file keeps the name the PE_IPCQ design record gives it, but it
// configures PE_IPCQ's process groups, not the collectives (those read
// collective_methods.yaml, host/ccl/MethodTable.h); hence IpcqConfig here.
//
//   defaults:                        # every key optional except `algorithm`
//     algorithm: ring_allreduce      # what init_process_group runs (--algorithm overrides)
//     buffer_kind: tcm               # tcm | hbm | sram (D6)
//     backpressure: sleep            # poll | sleep (D7)
//     n_slots: 8                     # ring depth
//     slot_size: 4096                # bytes per slot (one tile)
//     vc_chunk_size: 256             # PE_DMA interleave chunk (D8)
//     vc_weights: {vc_compute: 50, vc_comm: 50}
//     ipcq_credit_size_bytes: 16     # credit message size (D9 fast path latency)
//     credit_return_mode: fast_path  # fast_path | fabric (credits as real fabric packets)
//     strict_validation: false       # F2: matched send/recv agree on bytes and dtype/shape
//     placement: {chips: [0, 4, 5, 1], cores_per_chip: 8}
//     fabric: auto                   # auto | line | ring | mesh | torus (cross-chip traffic)
//   algorithms:
//     ring_allreduce:
//       kernel: ring_allreduce       # a registered algorithm (host/ipcq/IpcqAlgorithms.cpp)
//       topology: ring_1d            # ring_1d | ring_1d_unidir | mesh_2d | tree_binary | none | custom
//       world_size: 16               # optional: algorithm > defaults > the placement's size
//       n_elem: 1024                 # elements per rank chunk: the tensor has world_size * n_elem
//       ... any defaults key, to override it for this algorithm
//
// Every key is checked: an unknown key, a wrong type or a bad value is an
// error naming file:line and the key. Settings remember where they were
// given so later checks (topology, placement) can point at the line too.
#pragma once

#include "models/noc/NocTypes.h"
#include "models/pe/PeIpcq.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cclsim::ipcq {

/// A value and the file:line it came from ("" when it is the built-in default).
template <class T> struct Setting {
    T value{};
    std::string where;
    bool given = false;
    void set(T v, std::string w) {
        value = std::move(v);
        where = std::move(w);
        given = true;
    }
};

/// One rank's place given explicitly (placement.ranks).
struct RankSpec {
    unsigned chip = 0;
    CoreCoord core;
    std::optional<BufferKind> bufferKind;  ///< per-rank buffer kind (must agree: I4)
    std::string where;
};

/// How ranks map onto chips and worker cores. Either `ranks` (rank r is
/// ranks[r]) or the product chips x cores: rank r runs on chip
/// chips[r / cores_per_chip], core cores[r % cores_per_chip]. Defaults:
/// the board's ring order, 8 cores per chip, the first worker cores of the
/// grid row by row (y = 1 first: the row next to the Ethernet cores).
struct Placement {
    std::vector<unsigned> chips;
    unsigned coresPerChip = 8;
    std::vector<CoreCoord> cores;
    std::vector<RankSpec> ranks;
    std::string where;
};

/// The keys `defaults` and an algorithm entry share.
struct IpcqSettings {
    Setting<BufferKind> bufferKind;
    Setting<Backpressure> backpressure;
    Setting<unsigned> nSlots, slotSize, vcChunk, creditBytes;
    Setting<double> vcCompute, vcComm;
    Setting<CreditMode> creditMode;
    Setting<bool> strict;
    Setting<unsigned> worldSize, nElem;
    Setting<std::string> fabric;
    std::optional<Placement> placement;
};

struct AlgorithmEntry {
    std::string name;
    std::string where;
    Setting<std::string> kernel;  ///< registered algorithm (default: the entry's name)
    Setting<std::string> topology;
    Setting<unsigned> rows, cols;                 ///< mesh_2d shape (default: square)
    std::map<std::string, Setting<long>> params;  ///< algorithm-specific integers (`params:`)
    IpcqSettings s;
};

/// A whole ccl.yaml as read: its defaults and its algorithm entries.
struct IpcqConfig {
    std::string file;
    Setting<std::string> defaultAlgorithm;
    std::string defaultsWhere;
    IpcqSettings defaults;
    std::vector<AlgorithmEntry> algorithms;
    const AlgorithmEntry* find(const std::string& name) const;
    std::vector<std::string> names() const;
};

/// Read and check ccl.yaml (PE_IPCQ's configuration); ConfigError names file:line and key.
IpcqConfig loadIpcqConfig(const std::string& file);
/// Parse YAML text; errors name `pseudoFile` (tests).
IpcqConfig parseIpcqConfig(const std::string& text, const std::string& pseudoFile);

/// A process group's settings after resolution: algorithm entry > defaults >
/// built-in default (world_size: algorithm > defaults > the placement).
struct GroupConfig {
    std::string file;
    std::string algorithm;
    std::string algorithmWhere;  ///< where the algorithm was chosen
    std::string entryWhere;      ///< its entry in `algorithms`
    Setting<std::string> kernel;
    Setting<std::string> topology;
    Setting<unsigned> rows, cols;
    std::map<std::string, Setting<long>> params;
    Setting<BufferKind> bufferKind;
    Setting<Backpressure> backpressure;
    Setting<unsigned> nSlots, slotSize, vcChunk, creditBytes;
    Setting<double> vcCompute, vcComm;  ///< not given: the arch's PE_DMA weights stay
    Setting<CreditMode> creditMode;
    Setting<bool> strict;
    Setting<unsigned> worldSize;  ///< not given: the placement's size
    Setting<unsigned> nElem;
    Setting<std::string> fabric;
    Placement placement;
    bool placementGiven = false;
};

/// Resolve `algorithm` (empty: defaults.algorithm; `chosenWhere` says where
/// the name came from, e.g. "--algorithm"). F4 errors: no default algorithm,
/// an unknown one.
GroupConfig resolve(const IpcqConfig& cfg, const std::string& algorithm, const std::string& chosenWhere = "");

const char* backpressureName(Backpressure b);
const char* creditModeName(CreditMode m);

}  // namespace cclsim::ipcq
