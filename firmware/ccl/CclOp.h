// Host launcher of the collectives (the "op" of the CCL guide): from a
// CclSpec it validates the request, picks links per hop (topology config),
// sizes EDM packets, slices the tensors (tensor slicer), allocates the input
// and output tensors on every chip, creates the worker kernels and wires
// them to EDM channels (EDM builders), loads the inputs and, after the run,
// compares every output page with the golden reference.
//
// One spec may hold several independent groups of chips (a mesh axis: every
// row or column at once); each group runs the same collective on its own.
#pragma once

#include "firmware/ccl/CclTopology.h"
#include "firmware/ccl/EdmFabric.h"
#include "firmware/ccl/TensorSlicer.h"
#include "golden/Golden.h"
#include "runtime/Runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace cclsim::ccl {

/// How a ring uses its two directions (a line always uses both).
enum class BidirStyle {
    Off,     ///< one direction only
    Halves,  ///< half of every block each way, all the way round (all-gather's default)
    Full,    ///< every block both ways, halfway round each (broadcast's and all-to-all's default)
};
const char* bidirName(BidirStyle b);
BidirStyle parseBidir(const std::string& s);

struct CclSpec {
    golden::Op op = golden::Op::AllGather;
    TopologyKind topology = TopologyKind::Ring;
    std::vector<std::vector<unsigned>> groups;  ///< chip order of each independent collective
    unsigned links = 1;                         ///< links per hop
    unsigned workers = 4;                       ///< worker units per link (and direction)
    std::uint64_t sizeBytes = 0;                ///< S as nccl-tests defines it
    golden::DType dtype = golden::DType::BF16;
    std::uint32_t pageBytes = 2048;
    std::uint32_t packetBytes = 0;  ///< EDM payload; 0: as large as the EDM's L1 allows, <= 16 KB
    BidirStyle bidir = BidirStyle::Halves;
    unsigned dim = 0;               ///< all_gather: gather dimension (0 or 1)
    std::uint32_t rowPages = 1;     ///< all_gather dim 1: pages per rank row
    unsigned root = 0;              ///< broadcast: root rank (position in the order)
    bool l1Buffers = false;         ///< tensors in worker L1 instead of DRAM
    std::uint64_t seed = 1;
    bool data = true;               ///< load inputs and check outputs
};

const char* opName(golden::Op op);
/// nccl-tests bus-bandwidth factor of `op` on n ranks.
double busFactor(golden::Op op, unsigned n);

struct CclRank {
    unsigned chip = 0;
    Buffer input, output;
};

struct CclGroup {
    CclTopology topo;
    std::vector<CclRank> ranks;
    golden::Collective golden;
};

struct CclCheck {
    std::string status = "off";  ///< pass, fail, off
    std::uint64_t pagesChecked = 0;
    std::uint64_t wrongPages = 0;
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
    BidirStyle bidir() const { return bidir_; }
    unsigned workerCoresPerChip() const { return maxCores_; }
    unsigned edmChannelsPerCore() const { return fabric_->maxChannels(); }
    /// Ethernet payload bytes the op moves in all (EDM messages, syncs and acks).
    double expectedEthBytes() const;
    /// The chips of every group.
    std::vector<unsigned> chips() const;

    /// Payload bytes through the busiest neighbour pair (every link of it,
    /// in the directions the op uses).
    double busiestPairBytes(Platform& platform) const;

    /// Compare every output page with the golden reference.
    CclCheck check(Runtime& rt) const;

private:
    struct Impl;
    CclSpec spec_;
    std::vector<CclGroup> groups_;
    std::unique_ptr<EdmFabric> fabric_;
    std::vector<unsigned> dirs_;
    BidirStyle bidir_ = BidirStyle::Off;
    std::uint64_t blockPages_ = 0;
    std::uint32_t pagesPerChunk_ = 0;
    unsigned maxCores_ = 0;
};

}  // namespace cclsim::ccl
