// What a collective op is asked to do (the op's "operation attributes"):
// the collective, its groups of chips, the tensor, the method and the
// implementation, and what it shares with ops that run at the same time.
// Plain data: CclValidator checks it, the planner sizes it, CclOp builds it.
//
// Errors about a spec name its fields in snake_case (page_bytes for
// pageBytes, ...; see CclOpError.h).
#pragma once

#include "golden/Golden.h"
#include "host/ccl/CclTopology.h"
#include "host/ccl/TensorSharding.h"
#include "models/noc/NocTypes.h"

#include <cstdint>
#include <vector>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ccl {

class EdmFabric;

struct CclSpec {
    golden::Op op = golden::Op::AllGather;
    golden::RedOp redop = golden::RedOp::Add;           ///< reduce_scatter, all_reduce
    golden::Method method = golden::Method::BidirPair;  ///< resolved (line: a line of chips)
    std::vector<std::vector<unsigned>> groups;          ///< chip order of each independent collective
    unsigned links = 1;                                 ///< links per hop
    unsigned workers = 4;                               ///< worker units per link (and direction)
    /// all_reduce on the fabric: the worker units per link (and direction)
    /// of its second op, the all-gather (tt-metal's all_gather_async picks
    /// its own); 0: `workers`.
    unsigned agWorkers = 0;
    std::uint64_t count = 0;  ///< E: input elements per rank
    golden::DType dtype = golden::DType::BF16;
    std::uint32_t pageBytes = 2048;
    std::uint32_t packetBytes = 0;  ///< EDM payload; 0: as large as the EDM's L1 allows, <= 16 KB
    /// Impl::Edm: slots per EDM channel (tt-metal's num_buffers_per_channel;
    /// its legacy all-gather used 2): a worker fills one while others are in flight.
    unsigned edmBuffers = 2;
    /// Impl::Edm: the tx_cmd_q of the EDMs' acks (16 B packets). 0, as
    /// tt-metal's EDM sends them (on Wormhole kernels may use only tx_cmd_q 0);
    /// 1 puts them on the reserved queue, beside the payloads (experiments).
    unsigned edmCreditTxq = 0;
    unsigned dim = 0;            ///< all_gather: gather dimension (0 or 1)
    std::uint32_t rowPages = 1;  ///< all_gather dim 1: pages per rank row
    unsigned root = 0;           ///< broadcast: root rank (position in the order)
    bool l1Buffers = false;      ///< tensors in worker L1 instead of DRAM
    /// Impl::Fabric: the output and intermediate buffers were allocated
    /// before (tt-metal's persistent_output_buffer / persistent intermediate
    /// buffers), so the op starts without its start barrier.
    bool persistentBuffers = false;
    /// Impl::Fabric reduce_scatter and all_reduce on a ring: the
    /// reduce-scatter is tt-metal's direct (one-shot) op, every block sent
    /// straight to its owner (factory/FabricDirectReduceScatter), instead of
    /// the ring's store-and-forward. The CLI resolves it (--rs-algorithm).
    bool directRs = false;
    /// The input's and output's memory config (interleaved, or sharded:
    /// then l1Buffers is not used).
    TensorSharding sharding;
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
    /// The caller named the implementation; if not, groups with relayed hops
    /// (members that are not neighbours) fall back to the EDM streams.
    bool implGiven = true;
    /// Inputs given by the user, per group and rank (count elements each);
    /// empty: generated from the seed.
    std::vector<std::vector<golden::Tensor>> inputs;

    /// Several ops at once on the same chips and links (cli/workloads/ccl/ConcurrentWorkload):
    /// what this op shares with the others. Default: nothing (the op alone).
    struct Sharing {
        /// One EDM per Ethernet core for every op (Impl::Edm): this op adds
        /// its own channels to it; the caller builds it after the last op.
        EdmFabric* edm = nullptr;
        /// The persistent packet fabric (Impl::Fabric): one router per link
        /// end for every op; this op connects its own workers (through a mux
        /// when a router has several clients). Built by the caller, after
        /// which CclOp::finishBuild() creates the kernels that need its connections.
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

}  // namespace cclsim::ccl
