// The collective op: validate, plan, select the program factory, build every group, load the inputs.
#include "host/ccl/CclOp.h"

#include "host/ccl/CclOpError.h"
#include "host/ccl/CclValidator.h"
#include "host/ccl/factory/ProgramFactory.h"
#include "host/fabric/FabricBuilder.h"

#include <map>
#include <set>
#include <stdexcept>

namespace cclsim::ccl {

CclOp::~CclOp() = default;

CclOp::CclOp(Runtime& rt, const CclSpec& spec) : spec_(spec) {
    validateSpec(spec_);
    makeGroups(rt.platform().descriptor());
    std::vector<CclTopology> topologies;
    for (const CclGroup& g : groups_) topologies.push_back(g.topo);
    plan_ = planCcl(spec_, groups_.front().topo.size(), linkShare(topologies),
                    PacketLimits::of(rt.platform().descriptor().arch));
    openEdm(rt);
    buildPrograms(rt);
    loadInputs(rt);
}

void CclOp::makeGroups(const ClusterDescriptor& d) {
    std::vector<CclTopology> topologies;
    std::map<const LinkDesc*, unsigned> linkLoad;  // relayed hops of all groups spread over the links
    for (const auto& order : spec_.groups)
        topologies.push_back(buildTopology(d, order, spec_.topology(), spec_.links, spec_.relay, &linkLoad));
    validateGroups(topologies);
    for (CclTopology& t : topologies) groups_.push_back(CclGroup{std::move(t), {}, {}, {}});
    // The fabric implementation moves data between neighbours only: relayed
    // groups run on the EDM unless the caller asked for the fabric (an error
    // when the fabric program is built).
    for (const CclGroup& g : groups_)
        for (const CclHop& h : g.topo.hops)
            if (h.relayed() && spec_.impl == CclSpec::Impl::Fabric && !spec_.implGiven) spec_.impl = CclSpec::Impl::Edm;
}

void CclOp::openEdm(Runtime& rt) {
    const CclSpec& s = spec_;
    if (s.sharing.edm) {
        edm_ = s.sharing.edm;
        if (edm_->buffersPerChannel() != s.edmBuffers)
            throw CclOpError("edm_buffers",
                             fmt::format("{}: {} but the ops sharing the EDMs use {}", opName(s.op),
                                         specRef("edm_buffers", s.edmBuffers), edm_->buffersPerChannel()));
        if (edm_->creditTxq() != s.edmCreditTxq)
            throw CclOpError("edm_credit_txq",
                             fmt::format("{}: {} but the ops sharing the EDMs use {}", opName(s.op),
                                         specRef("edm_credit_txq", s.edmCreditTxq), edm_->creditTxq()));
    } else {
        ownEdm_ = std::make_unique<EdmFabric>(rt, edm::TerminationMode::MESSAGE_COUNT_REACHED, packetBytes(),
                                              s.edmBuffers, s.edmCreditTxq);
        edm_ = ownEdm_.get();
    }
    edm_->beginOp(packetBytes(), s.sharing.stream);
}

void CclOp::allocateRanks(Runtime& rt, CclGroup& g) {
    const CclSpec& s = spec_;
    const unsigned n = plan_.ranks;
    const std::uint32_t P = s.pageBytes / std::uint32_t(golden::elementBytes(s.dtype));
    golden::Collective& gc = g.golden;
    gc.op = s.op;
    gc.redop = s.redop;
    gc.dtype = s.dtype;
    gc.method = s.method;
    gc.ranks = n;
    gc.count = s.count;
    gc.pageElements = P;
    gc.root = s.root;
    gc.gatherDim = s.dim;
    gc.rowElements = std::uint64_t(s.rowPages) * P;
    // A rank's tensors sit at one address on every chip (tt-metal allocates
    // a mesh tensor in lock step on all devices; a line multicast names one
    // address for all the chips it reaches), even where an op that ran
    // before left the chips' allocators at different places.
    rt.alignTensorAllocators(g.topo.order);
    for (unsigned pos = 0; pos < n; ++pos) {
        CclRank r;
        r.chip = g.topo.order[pos];
        Program& p = rt.program(r.chip);
        if (s.sharding.sharded()) {
            const BankMap& banks = rt.platform().chip(r.chip).banks();
            const bool dram = s.sharding.inDram();
            const unsigned nb = unsigned(dram ? banks.dramEndpoint.size() : banks.l1Cores.size());
            std::set<unsigned> xs;  // the worker grid's columns
            for (const CoreCoord& c : banks.l1Cores) xs.insert(c.x);
            const unsigned cols = dram ? nb : unsigned(xs.size());
            const std::uint64_t in = plan_.shape.in.pages(), out = plan_.shape.out.pages();
            r.input = p.createShardedBuffer(in, s.pageBytes, dram, shardGeometry(s.sharding, in, true, nb, cols));
            r.output = p.createShardedBuffer(out, s.pageBytes, dram, shardGeometry(s.sharding, out, false, nb, cols));
        } else {
            r.input = p.createBuffer(plan_.shape.in.pages(), s.pageBytes, !s.l1Buffers);
            r.output = p.createBuffer(plan_.shape.out.pages(), s.pageBytes, !s.l1Buffers);
        }
        g.ranks.push_back(r);
    }
}

void CclOp::buildPrograms(Runtime& rt) {
    CoreAllocator cores(rt.platform().descriptor().arch, rt.platform().numChips(), spec_.sharing.cores);
    FactoryContext ctx{rt, spec_, plan_, cores, packetFabrics_, afterFabric_};
    ProgramFactory factory = selectProgramFactory(ctx, *edm_);
    for (CclGroup& g : groups_) {
        allocateRanks(rt, g);
        std::visit([&g](auto& f) { f.build(g); }, factory);
    }
    std::visit([](auto& f) { f.finish(); }, factory);
    if (ownEdm_) ownEdm_->build();  // a shared one: built by the caller after the last op
    maxCores_ = cores.maxUsed();
}

void CclOp::loadInputs(Runtime& rt) {
    const CclSpec& s = spec_;
    const unsigned n = plan_.ranks;
    const std::uint64_t e = golden::elementBytes(s.dtype);
    if (!s.inputs.empty() && s.inputs.size() != groups_.size())
        throw std::logic_error("CclSpec: inputs for a different number of groups");
    const bool rooted = collective(s.op).rooted;
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        CclGroup& g = groups_[gi];
        for (unsigned pos = 0; pos < n; ++pos) {
            if (!s.inputs.empty()) {
                const golden::Tensor& t = s.inputs[gi].at(pos);
                if (t.size() != s.count * e)
                    throw CclOpError("inputs", fmt::format("input of rank {}: {} elements, expected {}", pos,
                                                           t.size() / e, s.count));
                g.inputs.push_back(t);
            } else if (s.data) {
                // Timing mode stores and checks no payload: no input to make.
                g.inputs.push_back(golden::makeInput(g.golden, s.seed, g.ranks[pos].chip));
            }
        }
        if (!s.data) continue;
        for (unsigned pos = 0; pos < n; ++pos) {
            if (rooted && pos != s.root) continue;  // only the root's input matters
            const Buffer& b = g.ranks[pos].input;
            plan_.shape.in.toPages(
                g.inputs[pos], [&](std::uint64_t page, const std::uint8_t* bytes) { rt.writePage(b, page, bytes); });
        }
    }
}

void CclOp::finishBuild() {
    for (auto& f : afterFabric_) f();
    afterFabric_.clear();
}

std::vector<unsigned> CclOp::chips() const {
    std::vector<unsigned> out;
    for (const CclGroup& g : groups_) out.insert(out.end(), g.topo.order.begin(), g.topo.order.end());
    return out;
}

}  // namespace cclsim::ccl
