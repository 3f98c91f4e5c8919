// The PE_IPCQ algorithm registry (docs/design/pe-ipcq.md#d11 "algorithm module"):
// an algorithm is a kernel registered by name with
//   kernelArgs   the runtime arguments of one rank (required),
//   neighbors    an optional hook that edits or replaces the builtin
//                neighbour map of a rank:
//                  pattern A: edit `builtin` in place (return nullopt),
//                  pattern B: return a whole new map,
//                  pattern C: no hook, or return nullopt untouched;
//   golden       what every rank's tensor holds afterwards.
// ccl.yaml entries name an algorithm with `kernel:` (default: the entry's
// name). See docs/extending.md#an-ipcq-algorithm.
#pragma once

#include "firmware/ipcq/ipcq_args.h"
#include "golden/AllReduceGolden.h"
#include "host/ipcq/IpcqTopology.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cclsim::ipcq {

using AlgoParams = std::map<std::string, long>;

/// What an algorithm's hooks see of the process group.
struct AlgoShape {
    unsigned worldSize = 0;
    std::uint64_t tensorBytes = 0;  ///< per rank
    golden::DType dtype = golden::DType::BF16;
    std::uint32_t slotSize = 0;
    TopologyKind topology = TopologyKind::None;
    MeshShape mesh;  ///< mesh_2d only
    AlgoParams params;
    std::uint32_t elemBytes() const { return std::uint32_t(golden::elementBytes(dtype)); }
};

struct IpcqAlgorithm {
    std::string name;
    std::string description;
    std::vector<TopologyKind> topologies;  ///< topologies the kernel works on
    AlgoParams params;                     ///< accepted `params:` keys and their defaults
    std::function<void()> kernel;
    /// "" if the tensor splits as the kernel needs, else why not.
    std::function<std::string(const AlgoShape&)> checkSize;
    std::function<std::vector<std::uint32_t>(const AlgoShape&, unsigned rank, const TensorArgs&)> kernelArgs;
    std::function<std::optional<NeighborMap>(unsigned rank, unsigned worldSize, NeighborMap& builtin,
                                             const AlgoParams&)>
        neighbors;
    std::function<std::vector<std::uint8_t>(const golden::Tensors&, const AlgoShape&)> golden;
};

const IpcqAlgorithm* findAlgorithm(const std::string& name);
std::vector<std::string> algorithmNames();
/// Add an algorithm (tests, extensions); replaces one of the same name.
void registerAlgorithm(IpcqAlgorithm a);

/// Apply an algorithm's neighbors() hook to every rank of `builtin`.
GroupNeighbors applyNeighborsHook(const IpcqAlgorithm& a, GroupNeighbors builtin, const AlgoParams& params);

}  // namespace cclsim::ipcq
