// The Impl::Fabric program factory: the collectives as tt-metal's current
// ops build them on the packet fabric (routers on the Ethernet cores, a mux
// in front of a router with several clients, worker kernels that send
// packets through fabric connections).
//
// Building blocks for the collectives' buildFabric hooks (host/ccl/ops/):
//   ring()      all_gather_async / reduce_scatter_minimal_async (and
//               all-reduce = the two in sequence): per link and direction W
//               workers, each a reader and a writer on one core
//               (firmware/ccl/fabric_ring_kernels.cpp), one-hop unicasts and
//               worker store-and-forward; on the op's own fabric or the one
//               it shares with other ops. Split into a pure step plan
//               (plan/FabricRingPlan), allocation (FabricRingAllocation) and
//               connection (FabricRingConnection).
//   gather()    broadcast: W workers per direction multicast the root's
//               pages into every rank's output (FabricExchange).
//   allToAll()  all_to_all_async: W workers per rank unicast block q to
//               rank q the shorter way round (FabricExchange).
//   The ring's reduce-scatter up to 512 KiB per chip is the direct one-shot
//   op (reduce_scatter_minimal_direct, FabricDirectReduceScatter), alone or
//   as all_reduce's first op.
#pragma once

#include "host/ccl/factory/FactoryContext.h"
#include "host/ccl/plan/FabricRingPlan.h"

#include <memory>

namespace cclsim::fabric {
class FabricBuilder;
}

namespace cclsim::ccl {

class FabricProgramFactory {
public:
    explicit FabricProgramFactory(FactoryContext& ctx);

    /// One group's programs: the collective's buildFabric hook.
    void build(CclGroup& g);
    /// After every group: nothing left to create.
    void finish() {}

    const CclSpec& spec() const { return ctx_.spec; }

    /// The fabric ring's phases on the group; sets the golden reduction
    /// order the ring follows.
    void ring(CclGroup& g, RingPhases phases);
    /// Multicast of the root's pages into every rank's output (root -1:
    /// every rank's block into its place in every output).
    void gather(CclGroup& g, int root);
    /// Block q of every rank to rank q.
    void allToAll(CclGroup& g);

private:
    /// The fabric the ring runs on: the shared one (checked against the
    /// group), or a new one kept in `own`.
    fabric::FabricBuilder* ringFabric(const CclTopology& t, bool ring, std::unique_ptr<fabric::FabricBuilder>& own);

    FactoryContext& ctx_;
};

}  // namespace cclsim::ccl
