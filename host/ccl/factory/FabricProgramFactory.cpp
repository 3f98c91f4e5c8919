// The Impl::Fabric program factory: the ring, the gather and the all-to-all exchanges.
#include "host/ccl/factory/FabricProgramFactory.h"

#include "host/ccl/CclOpError.h"
#include "host/ccl/Collectives.h"
#include "host/ccl/factory/FabricDirectReduceScatter.h"
#include "host/ccl/factory/FabricExchange.h"
#include "host/ccl/factory/FabricRingConnection.h"
#include "host/common/DataCodes.h"
#include "host/fabric/FabricBuilder.h"

#include <fmt/ranges.h>

namespace cclsim::ccl {

using namespace cclsim::fabric;

namespace {

/// Pages a fabric gather worker reads per batch (its staging holds two
/// batches): a firmware buffer choice, like the CB depth of tt-metal's reader.
constexpr std::uint32_t kGatherBatchPages = 4;

/// Throw when the exchange cannot run the group.
void requireExchange(const std::string& why) {
    if (!why.empty()) throw CclOpError("impl", fmt::format("{}: {}", specRef("impl", "fabric"), why));
}

}  // namespace

FabricProgramFactory::FabricProgramFactory(FactoryContext& ctx) : ctx_(ctx) {}

void FabricProgramFactory::build(CclGroup& g) {
    collective(ctx_.spec.op).buildFabric(*this, g);
}

FabricBuilder* FabricProgramFactory::ringFabric(const CclTopology& t, bool ring, std::unique_ptr<FabricBuilder>& own) {
    const CclSpec& s = ctx_.spec;
    FabricBuilder* fab = s.sharing.fabric;
    if (!fab) {
        own = std::make_unique<FabricBuilder>(
            ctx_.rt, makeTopology1d(ring ? FabricKind::Ring : FabricKind::Line, t.order), FabricOptions{s.links, 0});
        return own.get();
    }
    const FabricTopology& ft = fab->topology();
    if (ft.order != t.order || (ft.kind == FabricKind::Ring) != ring)
        throw CclOpError("impl", fmt::format("{} {}: the shared fabric runs over the chips {} as a {}, this op over {} "
                                             "as a {}; ops sharing the fabric use one chip order and topology (or use "
                                             "{})",
                                             golden::opName(s.op), specRef("impl", "fabric"), fmt::join(ft.order, ","),
                                             ft.kind == FabricKind::Ring ? "ring" : "line", fmt::join(t.order, ","),
                                             ring ? "ring" : "line", specRef("impl", "edm")));
    if (fab->planes() < s.links)
        throw CclOpError("links", fmt::format("{}: {} but the shared fabric has {} routing plane(s)",
                                              golden::opName(s.op), specRef("links", s.links), fab->planes()));
    return fab;
}

void FabricProgramFactory::ring(CclGroup& g, RingPhases phases) {
    const CclSpec& s = ctx_.spec;
    const CclTopology& t = g.topo;
    for (const CclHop& h : t.hops)
        if (h.relayed())
            throw CclOpError("impl", fmt::format("{}: relayed groups run on the EDM streams ({})",
                                                 specRef("impl", "fabric"), specRef("impl", "edm")));
    auto r = std::make_shared<AllocatedRing>();
    r->ring = t.ring() && ctx_.plan.ranks >= 3;
    // tt-metal's dispatch (resolved into the spec): the reduce-scatter is the
    // direct op, beside the ring's all-gather in an all-reduce.
    phases.rsDirect = phases.reduceScatter && s.directRs;
    r->phases = phases;
    std::unique_ptr<FabricBuilder> own;
    FabricBuilder* fab = ringFabric(t, r->ring, own);
    if (phases.rsDirect && !phases.allGather) {  // reduce_scatter: the direct op alone
        if (!own) throw CclOpError("rs_algorithm", "the direct reduce-scatter runs on a fabric of its own");
        auto d = buildDirectReduceScatter(ctx_, g, *own, {});
        own->build();
        finishDirectReduceScatter(ctx_.rt, *d, *own);
        ctx_.packetFabrics.push_back(std::move(own));
        return;
    }
    const std::uint32_t payload = fab->maxPayloadBytes();
    if (s.pageBytes > payload)
        throw CclOpError("page_bytes",
                         fmt::format("{}: a {} B page does not fit the fabric's {} B packet payload (--fabric-payload)",
                                     specRef("impl", "fabric"), s.pageBytes, payload));
    allocateIntermediates(ctx_, g, *r);
    FabricRingInput in;
    in.ranks = ctx_.plan.ranks;
    in.ring = r->ring;
    in.phases = phases;
    in.blockPages = std::uint32_t(ctx_.plan.shape.blockPages);
    in.pageBytes = s.pageBytes;
    in.payloadBytes = payload;
    in.links = s.links;
    in.workers = s.workers;
    // tt-metal's all_gather on a linear fabric (AllGatherMulticastFactory):
    // the own block multicast each way; all_reduce's all-gather is the same
    // op, with the worker count all_gather would pick for its input.
    in.lineMulticast = !r->ring;
    in.agWorkers = phases.reduceScatter && s.agWorkers ? s.agWorkers : s.workers;
    r->lineMulticast = in.lineMulticast;
    // tt-metal's ops start with a barrier unless the caller passed buffers
    // allocated before (persistent output / intermediate buffers).
    in.startBarrier = r->startBarrier = !s.persistentBuffers;
    in.rowPages = gatherRowPages(s);
    in.redop = std::uint32_t(reduceCode(s.redop));
    in.dtype = std::uint32_t(dtypeCode(s.dtype));
    r->plan = planFabricRing(in);
    // The golden reference reduces in the order the ring does.
    g.golden.method = r->ring ? golden::Method::BidirPair : golden::Method::Line;
    g.golden.pairWorkers = r->ring ? r->plan.units : 0;
    g.golden.pairChunkPages = r->plan.granularity;
    allocateRingWorkers(ctx_, g, *fab, *r);
    // all_reduce's direct reduce-scatter ends at the op gate of each chip.
    std::shared_ptr<DirectRsBuild> direct;
    if (phases.rsDirect) {
        if (!own) throw CclOpError("rs_algorithm", "the direct reduce-scatter runs on a fabric of its own");
        direct = buildDirectReduceScatter(ctx_, g, *own, r->opGate);
    }
    // The writers need the fabric's connections: created now, or (a shared
    // fabric) once the caller has built it after the last op.
    if (own) {
        own->build();
        connectRing(ctx_.rt, g, *own, *r, s.sharing.stream);
        if (direct) finishDirectReduceScatter(ctx_.rt, *direct, *own);
        ctx_.packetFabrics.push_back(std::move(own));
        return;
    }
    ctx_.afterFabric.push_back(
        [&rt = ctx_.rt, &g, fab, r, stream = s.sharing.stream] { connectRing(rt, g, *fab, *r, stream); });
}

void FabricProgramFactory::gather(CclGroup& g, int root) {
    std::vector<Buffer> outputs;
    for (const CclRank& r : g.ranks) outputs.push_back(r.output);
    ExchangePlan x;
    x.root = root;
    x.dst = &outputs;
    x.rowPages = gatherRowPages(ctx_.spec);
    x.workers = ctx_.spec.workers;
    x.batch = kGatherBatchPages;
    x.kernelName = "gather_fabric";
    requireExchange(FabricExchange(ctx_, g, x).build());
}

void FabricProgramFactory::allToAll(CclGroup& g) {
    std::vector<Buffer> outputs;
    for (const CclRank& r : g.ranks) outputs.push_back(r.output);
    ExchangePlan x;
    x.dst = &outputs;
    x.workers = ctx_.spec.workers;
    // tt-metal's all_to_all_async_generic: a forward and a backward sender per
    // link, each serving the destinations its way round, two pages per
    // packet (a scatter write) where they fit the payload (FabricExchange).
    x.kernelPerDirection = true;
    x.allToAll = true;
    x.kernelName = "all_to_all_fabric";
    requireExchange(FabricExchange(ctx_, g, x).build());
}

}  // namespace cclsim::ccl
