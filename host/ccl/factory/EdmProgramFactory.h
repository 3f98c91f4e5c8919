// The Impl::Edm program factory: the CCL guide's EDM streams. Worker kernels
// on every chip push blocks into EDM channels towards a neighbour and pull
// what the neighbour sent (firmware/ccl/gather_kernels.cpp,
// reduce_kernels.cpp, all_to_all_kernels.cpp, relay_kernels.cpp); one EDM
// per Ethernet core carries the channels (EdmFabric).
//
// The collectives compose the building blocks below (their buildEdm hooks,
// host/ccl/ops/): gather streams for all_gather and broadcast, reduce movers
// for reduce_scatter, reduce movers that feed gather streams for all_reduce,
// relayed all-to-all streams for all_to_all.
#pragma once

#include "firmware/ccl/ccl_schedule.h"
#include "host/ccl/factory/EdmStreams.h"

#include <map>
#include <vector>

namespace cclsim::ccl {

/// The sender of a gather stream, for producers that feed it (all_reduce).
struct GatherSender {
    unsigned chip = 0;
    CoreCoord core;
    std::uint32_t ownReadySem = 0;
};
using GatherSenders = std::map<StreamKey, GatherSender>;

/// Where a gather's blocks go and who waits for them.
struct GatherOptions {
    /// The own block is already in the output (all_reduce): senders wait
    /// for a producer's signal per chunk instead of copying it.
    bool ownFromOutput = false;
    /// Per position: replaces the output tensor (the broadcast method's scratch).
    const std::vector<Buffer>* into = nullptr;
    /// Per position: signalled by every kernel when it finishes.
    DoneSignals* done = nullptr;
    /// Replaces the method's page ranges.
    const MethodPlan::Range* range = nullptr;
};

class EdmProgramFactory {
public:
    EdmProgramFactory(FactoryContext& ctx, EdmFabric& edm);

    /// One group's programs: the collective's buildEdm hook.
    void build(CclGroup& g);
    /// After every group: the relay workers of relayed hops.
    void finish() { streams_.finish(); }

    const CclSpec& spec() const { return ctx_.spec; }

    /// The gather streams' plan on `t` from the method's reach (`root`: the
    /// only origin, broadcast; -1: every rank).
    GatherPlan gatherPlan(const CclTopology& t, std::int32_t root = -1) const;
    /// Sender and receiver kernels of every unit, position and direction.
    GatherSenders gather(CclGroup& g, const GatherPlan& gp, const GatherOptions& o = {});
    /// One reduce mover per unit and direction on every position (both ends
    /// of its stream); `allReduce`: each stores its fracture into the output
    /// block of its rank and signals the gather senders `gather` of its range.
    void reduce(CclGroup& g, bool allReduce, const GatherSenders& gather);
    /// Relayed all-to-all streams.
    void allToAll(CclGroup& g);

private:
    FactoryContext& ctx_;
    EdmStreams streams_;
};

}  // namespace cclsim::ccl
