// Host launcher of the collectives (the "op" of the CCL guide): from a
// CclSpec it validates the request, picks links per hop (topology config),
// sizes EDM packets, slices the tensors (tensor slicer), allocates the input
// and output tensors on every chip, creates the worker kernels of the
// collective method and wires them to EDM channels (EDM builders), loads the
// inputs and, after the run, compares every output with the golden reference.
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

#include "golden/Golden.h"
#include "host/ccl/CclTopology.h"
#include "host/ccl/EdmFabric.h"
#include "host/ccl/TensorLayout.h"
#include "host/ccl/TensorSlicer.h"
#include "runtime/Runtime.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ccl {

struct CclSpec {
    golden::Op op = golden::Op::AllGather;
    golden::RedOp redop = golden::RedOp::Add;           ///< reduce_scatter, all_reduce
    golden::Method method = golden::Method::BidirPair;  ///< resolved (line: a line of chips)
    std::vector<std::vector<unsigned>> groups;          ///< chip order of each independent collective
    unsigned links = 1;                                 ///< links per hop
    unsigned workers = 4;                               ///< worker units per link (and direction)
    std::uint64_t count = 0;                            ///< E: input elements per rank
    golden::DType dtype = golden::DType::BF16;
    std::uint32_t pageBytes = 2048;
    std::uint32_t packetBytes = 0;  ///< EDM payload; 0: as large as the EDM's L1 allows, <= 16 KB
    /// --impl edm: slots per EDM channel (tt-metal's num_buffers_per_channel;
    /// its legacy all-gather used 2): a worker fills one while others are in flight.
    unsigned edmBuffers = 2;
    unsigned dim = 0;            ///< all_gather: gather dimension (0 or 1)
    std::uint32_t rowPages = 1;  ///< all_gather dim 1: pages per rank row
    unsigned root = 0;           ///< broadcast: root rank (position in the order)
    bool l1Buffers = false;      ///< tensors in worker L1 instead of DRAM
    std::uint64_t seed = 1;
    bool data = true;  ///< load inputs and check outputs
    /// Hops between group members without a link run over a path of links,
    /// relayed by workers on the chips in between (communication groups).
    bool relay = false;
    /// How the op moves data: the CCL guide's EDM streams, or the packet
    /// fabric as tt-metal's current ops do (all_gather_async: each slice
    /// multicast both ways about halfway round, a mux and W workers per
    /// direction).
    enum class Impl { Edm, Fabric } impl = Impl::Edm;
    /// The user named the implementation; if not, groups with relayed hops
    /// (members that are not neighbours) fall back to the EDM streams.
    bool implGiven = true;
    /// Inputs given by the user, per group and rank (count elements each);
    /// empty: generated from the seed.
    std::vector<std::vector<golden::Tensor>> inputs;

    /// Several ops at once on the same chips and links (cli/workloads/ccl/ConcurrentWorkload):
    /// what this op shares with the others. Default: nothing (the op alone).
    struct Sharing {
        /// One EDM per Ethernet core for every op (--impl edm): this op adds
        /// its own channels to it; the caller builds it after the last op.
        EdmFabric* edm = nullptr;
        /// The persistent packet fabric (--impl fabric): one router per link
        /// end for every op; this op connects its own workers (through a mux
        /// when a router has several clients). Built by the caller, after
        /// which finishBuild() creates the kernels that need its connections.
        fabric::FabricBuilder* fabric = nullptr;
        /// This op's worker cores (the same on every chip), in the order it
        /// takes them; empty: every worker core.
        std::vector<CoreCoord> cores;
        /// Tag of this op's Ethernet traffic (per-op link accounting); 0: none.
        unsigned stream = 0;
        /// Ops whose EDM channels share each Ethernet core's kernel region:
        /// this op sizes its packets in 1/edmShare of it.
        unsigned edmShare = 1;
    } sharing;

    TopologyKind topology() const { return method == golden::Method::Line ? TopologyKind::Line : TopologyKind::Ring; }
};

using golden::opName;
/// nccl-tests bus-bandwidth factor of `op` on n ranks.
double busFactor(golden::Op op, unsigned n);
/// S as nccl-tests defines it, for E input elements per rank.
std::uint64_t sizeBytesOf(golden::Op op, std::uint64_t count, unsigned n, golden::DType t);

struct CclRank {
    unsigned chip = 0;
    Buffer input, output;
};

struct CclGroup {
    CclTopology topo;
    std::vector<CclRank> ranks;
    golden::Collective golden;
    std::vector<golden::Tensor> inputs;  ///< logical input of every rank
};

struct CclCheck {
    std::string status = "off";  ///< pass, fail, off
    std::uint64_t elementsChecked = 0;
    std::uint64_t wrongElements = 0;
    std::string firstFailure;
};

class CclOp {
public:
    /// Validate and build every program (ConfigError on bad input).
    CclOp(Runtime& rt, const CclSpec& spec);
    ~CclOp();
    CclOp(const CclOp&) = delete;
    CclOp& operator=(const CclOp&) = delete;

    const CclSpec& spec() const { return spec_; }
    const std::vector<CclGroup>& groups() const { return groups_; }
    unsigned ranks() const { return unsigned(groups_.front().ranks.size()); }
    std::uint32_t packetBytes() const { return pagesPerChunk_ * spec_.pageBytes; }
    std::uint32_t pagesPerChunk() const { return pagesPerChunk_; }
    std::uint64_t blockPages() const { return blockPages_; }
    /// Directions the streams use (1 or 2).
    unsigned directions() const { return unsigned(dirs_.size()); }
    golden::Method method() const { return spec_.method; }
    /// Input and output layouts of every rank.
    const BlockLayout& inputLayout() const { return inLayout_; }
    const BlockLayout& outputLayout() const { return outLayout_; }
    unsigned workerCoresPerChip() const { return maxCores_; }
    unsigned edmChannelsPerCore() const { return fabric_->maxChannels(); }
    unsigned edmBuffersPerChannel() const { return fabric_->buffersPerChannel(); }
    /// Does the op move data over the packet fabric (the broadcast method's exchange)?
    bool usesPacketFabric() const { return !packetFabrics_.empty(); }
    /// Ethernet payload bytes the op moves in all (EDM messages, syncs and acks).
    double expectedEthBytes() const;
    /// The chips of every group.
    std::vector<unsigned> chips() const;

    /// Payload bytes through the busiest neighbour pair (every link of it,
    /// in the directions the op uses).
    double busiestPairBytes(Platform& platform) const;

    /// Every rank's logical output (read back from the device), per group.
    std::vector<std::vector<golden::Tensor>> outputs(Runtime& rt) const;
    /// One rank's logical output (rank `pos` of group `group`).
    golden::Tensor rankOutput(Runtime& rt, std::size_t group, unsigned pos) const;
    /// Compare every rank's output with the golden reference.
    CclCheck check(Runtime& rt) const;

    /// Sharing a fabric: create the kernels that wait for the fabric's
    /// connections. Call once, after the shared FabricBuilder::build().
    void finishBuild();

private:
    struct Impl;
    CclSpec spec_;
    std::vector<CclGroup> groups_;
    std::unique_ptr<EdmFabric> ownEdm_;
    EdmFabric* fabric_ = nullptr;  ///< ownEdm_, or the one shared with other ops
    /// Kernel creation deferred until a shared packet fabric is built.
    std::vector<std::function<void()>> afterFabric_;
    /// Packet fabrics of the broadcast method's exchange (one per group).
    std::vector<std::unique_ptr<fabric::FabricBuilder>> packetFabrics_;
    std::vector<unsigned> dirs_;
    std::uint64_t blockPages_ = 0;
    BlockLayout inLayout_, outLayout_;
    std::uint32_t pagesPerChunk_ = 0;
    unsigned maxCores_ = 0;
};

}  // namespace cclsim::ccl
