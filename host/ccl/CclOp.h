// A collective op (the "op" of the CCL guide; tt-metal's device operation):
// from a CclSpec it checks the request (CclValidator), picks links per hop
// (topology config, CclTopology), plans shapes, method and packet size
// (plan/CclPlanner), selects the program factory of its implementation
// (factory/ProgramFactory: the EDM streams, the packet fabric, or the
// broadcast method), lets it build every group's programs, and loads the
// inputs. Readback, the golden check and the bandwidth figures are in
// CclResults; what differs between collectives is in their registry entries
// (Collectives, host/ccl/ops/).
//
// Methods (GCL user guide 3.4) as the kernels run them: clockwise and
// anticlockwise rings use one direction; a bidirectional ring pair moves the
// first half of every block's pages clockwise and the rest anticlockwise; meet
// in the middle sends every block both ways halfway (all-gather) or reduces
// a fracture from both sides into its owner (reduce-scatter); a line uses
// both directions to its ends.
//
// One spec may hold several independent groups of chips (a mesh axis: every
// row or column at once); each group runs the same collective on its own.
#pragma once

#include "host/ccl/CclGroup.h"
#include "host/ccl/CclSpec.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/EdmFabric.h"
#include "host/ccl/plan/CclPlanner.h"
#include "runtime/Runtime.h"

#include <functional>
#include <memory>
#include <vector>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ccl {

using golden::opName;

class CclOp {
public:
    /// Validate and build every program (CclOpError naming the spec field
    /// on bad input; ConfigError when memory runs out).
    CclOp(Runtime& rt, const CclSpec& spec);
    ~CclOp();
    CclOp(const CclOp&) = delete;
    CclOp& operator=(const CclOp&) = delete;

    const CclSpec& spec() const { return spec_; }
    const CclPlan& plan() const { return plan_; }
    const std::vector<CclGroup>& groups() const { return groups_; }
    unsigned ranks() const { return unsigned(groups_.front().ranks.size()); }
    std::uint32_t packetBytes() const { return plan_.pagesPerChunk * spec_.pageBytes; }
    std::uint32_t pagesPerChunk() const { return plan_.pagesPerChunk; }
    std::uint64_t blockPages() const { return plan_.shape.blockPages; }
    /// Directions the streams use (1 or 2).
    unsigned directions() const { return unsigned(plan_.dirs.size()); }
    golden::Method method() const { return spec_.method; }
    /// Input and output layouts of every rank.
    const BlockLayout& inputLayout() const { return plan_.shape.in; }
    const BlockLayout& outputLayout() const { return plan_.shape.out; }
    unsigned workerCoresPerChip() const { return maxCores_; }
    /// The EDMs the op's channels are on (its own, or shared with other ops).
    const EdmFabric& edm() const { return *edm_; }
    unsigned edmChannelsPerCore() const { return edm_->maxChannels(); }
    unsigned edmBuffersPerChannel() const { return edm_->buffersPerChannel(); }
    /// Does the op move data over a packet fabric of its own?
    bool usesPacketFabric() const { return !packetFabrics_.empty(); }
    /// The chips of every group.
    std::vector<unsigned> chips() const;

    /// Sharing a fabric: create the kernels that wait for the fabric's
    /// connections. Call once, after the shared FabricBuilder::build().
    void finishBuild();

private:
    /// Topologies of the groups, checked; relayed groups fall back to the
    /// EDM streams unless the implementation was given.
    void makeGroups(const ClusterDescriptor& d);
    /// The op's own EDMs, or the ones it shares (same buffers per channel).
    void openEdm(Runtime& rt);
    /// The golden reference's description of `g` and every rank's tensors.
    void allocateRanks(Runtime& rt, CclGroup& g);
    /// Every group's programs, by the selected program factory.
    void buildPrograms(Runtime& rt);
    /// The inputs: the user's, or generated; the host loads them (zero
    /// simulated time), as a test would.
    void loadInputs(Runtime& rt);

    CclSpec spec_;
    std::vector<CclGroup> groups_;
    CclPlan plan_;
    std::unique_ptr<EdmFabric> ownEdm_;
    EdmFabric* edm_ = nullptr;  ///< ownEdm_, or the one shared with other ops
    /// Kernel creation deferred until a shared packet fabric is built.
    std::vector<std::function<void()>> afterFabric_;
    /// Packet fabrics of the op's own (the exchanges, a ring's own fabric).
    std::vector<std::unique_ptr<fabric::FabricBuilder>> packetFabrics_;
    unsigned maxCores_ = 0;
};

}  // namespace cclsim::ccl
