// The registry of collectives: everything the op, the planner and the
// command line need to know about one collective, in one definition per
// collective (host/ccl/ops/<Name>.cpp) and one line per collective in
// Collectives.cpp. Nothing else switches on the collective.
//
// A definition gives: its name (golden::opName of its golden::Op), a line
// for the workload list, which options it takes (a reduction operator, a
// gather dimension, a root), the nccl-tests conventions (bus factor, what S
// and the reported count are), the block shape of a rank's input and output
// (GCL user guide 3.3), which EDM streams its Impl::Edm program runs, and
// the two program-factory hooks: what it builds from the EDM factory's and
// the fabric factory's building blocks for one group of chips.
#pragma once

#include "golden/Golden.h"
#include "host/ccl/TensorLayout.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace cclsim::ccl {

struct CclSpec;
struct CclGroup;
class EdmProgramFactory;
class FabricProgramFactory;

/// A rank's input and output as pages (CclPlanner fills in the broadcast
/// method's whole-input layout for reductions).
struct CclShape {
    std::uint64_t blockPages = 0;  ///< B: pages of a block the streams move
    BlockLayout in, out;
};

/// The EDM streams of a collective's Impl::Edm program (its directions and
/// its EDM channels per link end follow from them).
enum class EdmStreamKind {
    Gather,            ///< gather streams (all_gather, broadcast)
    Reduce,            ///< reduce movers (reduce_scatter)
    ReduceThenGather,  ///< reduce movers feeding gather streams (all_reduce)
    AllToAll,          ///< relayed all-to-all streams
};

struct CollectiveDef {
    golden::Op op = golden::Op::AllGather;
    const char* description = "";  ///< one line for the workload list
    bool reduces = false;          ///< takes a reduction operator; may run the broadcast method
    bool gatherDim = false;        ///< takes a gather dimension (dim, row_pages)
    bool rooted = false;           ///< takes a root rank
    /// S as nccl-tests defines it counts the gathered output (n x E
    /// elements); otherwise the input (E elements).
    bool sizeCountsOutput = false;
    /// The count nccl-tests reports for E input elements per rank on n ranks.
    std::uint64_t (*ncclCount)(std::uint64_t count, unsigned n) = nullptr;
    /// The nccl-tests bus-bandwidth factor on n ranks.
    double (*busFactor)(unsigned n) = nullptr;
    /// Input and output layouts of every rank; CclOpError when the spec's
    /// count (or dim, root, ...) does not fit the collective.
    CclShape (*shape)(const CclSpec& s, unsigned n) = nullptr;
    EdmStreamKind edmStreams = EdmStreamKind::Gather;
    /// Build one group's programs from the EDM factory's building blocks.
    void (*buildEdm)(EdmProgramFactory& f, CclGroup& g) = nullptr;
    /// Build one group's programs from the fabric factory's building blocks.
    void (*buildFabric)(FabricProgramFactory& f, CclGroup& g) = nullptr;

    std::string_view name() const { return golden::opName(op); }
};

/// Every registered collective, in the order the command line lists them.
const std::vector<const CollectiveDef*>& collectives();
/// The definition of `op` (std::logic_error if it is not registered).
const CollectiveDef& collective(golden::Op op);
/// The definition named `name`; null if none.
const CollectiveDef* findCollective(std::string_view name);

/// nccl-tests bus-bandwidth factor of `op` on n ranks.
double busFactor(golden::Op op, unsigned n);
/// S as nccl-tests defines it, for E input elements per rank.
std::uint64_t sizeBytesOf(golden::Op op, std::uint64_t count, unsigned n, golden::DType t);

/// Shape helper for the definitions: `inBlocks` / `outBlocks` blocks of K
/// elements (`inValid` / `outValid` of them real), B = ceil(K / page
/// elements); CclOpError if a tensor would pass 2^32 pages.
CclShape blockShape(const CclSpec& s, std::uint64_t K, std::uint64_t inBlocks, std::uint64_t outBlocks,
                    std::uint64_t inValid, std::uint64_t outValid);
/// The broadcast method of a reduction (whole inputs travel): one block of
/// the E input elements in, and with `wholeOutput` (all_reduce) out.
void wholeInputShape(CclShape& sh, const CclSpec& s, bool wholeOutput);

}  // namespace cclsim::ccl
