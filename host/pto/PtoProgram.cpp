#include "host/pto/PtoProgram.h"

#include "firmware/api/kernel_api.h"
#include "firmware/pto/pto_kernels.h"
#include "golden/PtoGolden.h"
#include "host/ccl/TensorFiles.h"
#include "host/common/DataCodes.h"
#include "models/common/ConfigError.h"
#include "models/common/Scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace cclsim::pto {

using namespace cclsim::fabric;

namespace {

const char* const kOpNames[] = {"put",       "get",     "put_async", "get_async", "notify",
                                "broadcast", "scatter", "gather",    "reduce"};

/// Put, broadcast and scatter read the local tensor and write the group one;
/// get, gather and reduce the other way round (notify moves no tensor).
bool movesLocalToGroup(PtoOp op) {
    return op == PtoOp::Put || op == PtoOp::PutAsync || op == PtoOp::Broadcast || op == PtoOp::Scatter;
}

}  // namespace

const char* ptoOpName(PtoOp op) {
    return kOpNames[unsigned(op)];
}

bool isPointToPoint(PtoOp op) {
    return op == PtoOp::Put || op == PtoOp::Get || op == PtoOp::PutAsync || op == PtoOp::GetAsync ||
           op == PtoOp::Notify;
}

std::uint32_t PtoProgram::elementBytes() const {
    return std::uint32_t(golden::elementBytes(p_.dtype));
}

void PtoProgram::build(Runtime& rt, const PtoParams& p) {
    p_ = p;
    const unsigned n = unsigned(p.chips.size());
    const std::uint32_t e = elementBytes();
    rowBytes_ = (p.cols * e + 31) / 32 * 32;
    localRows_ = p.op == PtoOp::Scatter || p.op == PtoOp::Gather ? n * p.rows : p.rows;
    if (n >= 2)
        fab_ = std::make_unique<FabricBuilder>(
            rt, makeTopology1d(p.ring ? FabricKind::Ring : FabricKind::Line, p.chips), FabricOptions{1, 0, true});
    placeRanks(rt);
    if (fab_) fab_->build();
    writeInputs(rt);
    setArgs(rt);
}

/// Per rank: kernel core, L1 (identical layout on every rank), DRAM tensors, fabric clients.
void PtoProgram::placeRanks(Runtime& rt) {
    const unsigned n = unsigned(p_.chips.size());
    const std::uint32_t tileBytes = p_.tileRows * p_.tileCols * elementBytes();
    ranks_.assign(n, Rank{});
    for (unsigned r = 0; r < n; ++r) {
        Rank& k = ranks_[r];
        k.chip = p_.chips[r];
        const CoreCoord near = fab_ ? fab_->firstRouterCore(k.chip, CoreCoord{1, 1}) : CoreCoord{1, 1};
        k.core = freeWorkerNear(rt, k.chip, near, {});
        Program& prog = rt.program(k.chip);
        k.tile[0] = prog.allocateL1(k.core, std::max<std::uint32_t>(tileBytes, 32), 32);
        k.tile[1] = prog.allocateL1(k.core, std::max<std::uint32_t>(tileBytes, 32), 32);
        k.tile[2] = prog.allocateL1(k.core, std::max<std::uint32_t>(tileBytes, 32), 32);
        k.signal = prog.createSemaphore(k.core, 0, "pto_signal");
        k.groupWord = prog.createSemaphore(k.core, 0, "pto_group");
        k.replySem = prog.allocateL1(k.core, 16 * 8, 16);
        prog.markControl(k.core, k.replySem, 16 * 8);
        k.fence = prog.allocateL1(k.core, 32, 16);
        prog.markControl(k.core, k.fence, 32);
        k.stamps = prog.allocateL1(k.core, 32, 16);
        prog.markControl(k.core, k.stamps, 32);
        k.group = prog.createBuffer(p_.rows, rowBytes_, true);
        k.local = prog.createBuffer(localRows_, rowBytes_, true);
        KernelConfig kc;
        kc.vc = 1;  // communication: vc_comm
        k.kernel = prog.createKernel(fmt::format("pto_rank{}", r), fw::pto::pto_bench_main, k.core, kc);
        if (fab_)
            for (Dir dir : {Dir::E, Dir::W})
                if (fab_->topology().neighbour(k.chip, dir)) {
                    k.client[unsigned(dir)] = fab_->addClient(k.chip, k.core, dir, 0);
                    k.hasClient[unsigned(dir)] = true;
                }
    }
    for (const Rank& k : ranks_)
        if (k.signal != ranks_[0].signal || k.groupWord != ranks_[0].groupWord)
            throw std::logic_error("pto: signal words differ between ranks");
}

/// Every rank's source tensor: from `inputs`, else generated from the seed.
void PtoProgram::writeInputs(Runtime& rt) {
    const unsigned n = unsigned(p_.chips.size());
    const std::uint32_t e = elementBytes();
    const bool srcIsLocal = movesLocalToGroup(p_.op);
    const std::uint64_t srcRows = srcIsLocal ? localRows_ : p_.rows;
    const std::uint64_t srcElems = srcRows * p_.cols;
    std::vector<golden::Tensor> inputs;
    if (!p_.inputs.empty()) {
        inputs = ccl::loadInputs(p_.inputs, p_.dtype, n);
        if (inputs[0].size() != srcElems * e)
            throw ConfigError(fmt::format("--inputs {}: {} elements per rank, the {} source tensor holds {} ({}x{})",
                                          p_.inputs, inputs[0].size() / e, ptoOpName(p_.op), srcElems, srcRows,
                                          p_.cols));
    } else {
        for (unsigned r = 0; r < n; ++r) {
            inputs.emplace_back(srcElems * e);
            golden::fillInput(p_.seed, p_.chips[r], p_.dtype, p_.redop, 0, srcElems, inputs.back().data());
        }
    }
    sources_ = inputs;
    for (unsigned r = 0; r < n; ++r) writeRows(rt, srcIsLocal ? ranks_[r].local : ranks_[r].group, inputs[r]);
}

void PtoProgram::setArgs(Runtime& rt) {
    const unsigned n = unsigned(p_.chips.size());
    for (unsigned r = 0; r < n; ++r) {
        const Rank& k = ranks_[r];
        PtoKernelArgs a;
        a.op = std::uint32_t(p_.op);
        a.misuse = std::uint32_t(p_.misuse);
        a.rank = r;
        a.ranks = n;
        a.root = p_.root;
        a.peer = p_.peer;
        a.dtype = std::uint32_t(cclsim::dtypeCode(p_.dtype));
        a.redop = std::uint32_t(cclsim::reduceCode(p_.redop));
        a.ping_pong = p_.pingPong ? 1 : 0;
        a.tile_rows = p_.tileRows;
        a.tile_cols = p_.tileCols;
        a.valid_row = p_.validRow;
        a.valid_col = p_.validCol;
        for (unsigned i = 0; i < 3; ++i) a.tile[i] = k.tile[i];
        a.signal = k.signal;
        a.stamps = k.stamps;
        a.repeat = p_.repeat;
        for (unsigned q = 0; q < n; ++q) a.group_base[q] = ranks_[q].group.base;
        a.group_rows = p_.rows;
        a.group_cols = p_.cols;
        a.group_row_bytes = rowBytes_;
        a.local_base = k.local.base;
        a.local_rows = localRows_;
        a.local_cols = p_.cols;
        a.local_row_bytes = rowBytes_;
        for (unsigned q = 0; q < n; ++q) {
            a.peer_xy[q] = packXY(ranks_[q].core.x, ranks_[q].core.y);
            if (q != r && fab_) {
                const Route route = fab_->route(k.chip, ranks_[q].chip);
                a.peer_dir[q] = unsigned(route.first());
                PacketHeader h = fab_->header(k.chip, ranks_[q].chip);
                fab_->setReadReply(h, k.chip, ranks_[q].chip);
                std::memcpy(a.header[q], h.words, sizeof h.words);
            }
        }
        a.group_word = k.groupWord;
        a.reply_sem = k.replySem;
        a.fence = k.fence;
        a.max_payload = fab_ ? fab_->maxPayloadBytes() : 0;
        a.read_max = fab_ ? fab_->readMaxBytes() : 0;
        for (unsigned dir = 0; dir < 2; ++dir)
            if (k.hasClient[dir]) {
                a.has_conn[dir] = 1;
                a.conn[dir] = fab_->connection(k.client[dir]);
            }
        rt.program(k.chip).setRuntimeArgs(k.kernel, fw::pack_layout_args(a, kPtoArgsEnd));
    }
}

PtoResult PtoProgram::read(Runtime& rt) {
    const ArchConfig& arch = rt.platform().descriptor().arch;
    const double cycleNs = ticksToNs(arch.cycles(1));
    const std::uint32_t e = elementBytes();
    const unsigned n = unsigned(ranks_.size());
    auto stamp = [&](const Rank& k, unsigned i) {
        const CoreRef c{k.chip, k.core};
        return double(std::uint64_t(rt.readL1(c, k.stamps + 8 * i)) |
                      (std::uint64_t(rt.readL1(c, k.stamps + 8 * i + 4)) << 32)) *
               cycleNs;
    };
    const Rank& root = ranks_[p_.root];
    const double t0 = stamp(root, 0), t2 = stamp(root, 2);
    PtoResult r;
    r.opNs = (t2 - t0) / p_.repeat;
    // Bytes one operation moves over the fabric (or the NoC, same rank).
    const std::uint64_t tensorBytes = std::uint64_t(p_.rows) * p_.cols * e;
    switch (p_.op) {
        case PtoOp::Put:
        case PtoOp::Get:
        case PtoOp::PutAsync:
        case PtoOp::GetAsync: r.bytes = tensorBytes; break;
        case PtoOp::Notify: r.bytes = 4; break;
        default: r.bytes = tensorBytes * (n - 1); break;
    }
    if (isPointToPoint(p_.op))
        r.hops = fab_ && p_.peer != p_.root ? fab_->route(root.chip, ranks_[p_.peer].chip).size() : 0;
    if (p_.op == PtoOp::PutAsync || p_.op == PtoOp::GetAsync) r.issueNs = stamp(root, 1) - t0;
    if (p_.op == PtoOp::Put && p_.peer != p_.root)
        r.deliveredNs = stamp(ranks_[p_.peer], 3) - t0;  // put + notify seen by the peer
    r.check = check(rt, r.outputs);
    return r;
}

void PtoProgram::writeRows(Runtime& rt, const Buffer& b, const golden::Tensor& t) const {
    std::vector<std::uint8_t> page(b.pageBytes, 0);
    const std::uint64_t rowData = std::uint64_t(p_.cols) * elementBytes();
    for (std::uint64_t row = 0; row < b.pages; ++row) {
        std::fill(page.begin(), page.end(), 0);
        std::memcpy(page.data(), t.data() + row * rowData, rowData);
        rt.writePage(b, row, page.data());
    }
}

golden::Tensor PtoProgram::readRows(Runtime& rt, const Buffer& b) const {
    const std::uint64_t rowData = std::uint64_t(p_.cols) * elementBytes();
    golden::Tensor out(b.pages * rowData);
    std::vector<std::uint8_t> page(b.pageBytes);
    for (std::uint64_t row = 0; row < b.pages; ++row) {
        rt.readPage(b, row, page.data());
        std::memcpy(out.data() + row * rowData, page.data(), rowData);
    }
    return out;
}

/// What every rank's destination tensor must hold (zeros where nothing lands).
std::vector<golden::Tensor> PtoProgram::expected(const std::vector<golden::Tensor>& got) const {
    const unsigned n = unsigned(ranks_.size());
    std::vector<golden::Tensor> want;
    for (unsigned q = 0; q < n; ++q) want.emplace_back(got[q].size(), 0);
    const unsigned root = p_.root, peer = p_.peer;
    switch (p_.op) {
        case PtoOp::Put:
        case PtoOp::PutAsync: want[peer] = sources_[root]; break;
        case PtoOp::Get:
        case PtoOp::GetAsync: want[root] = sources_[peer]; break;
        case PtoOp::Broadcast:
            for (unsigned q = 0; q < n; ++q)
                want[q] = golden::ptoScatterPart(sources_[root], 0, p_.rows, p_.cols, p_.dtype);
            break;
        case PtoOp::Scatter:
            for (unsigned q = 0; q < n; ++q)
                want[q] = golden::ptoScatterPart(sources_[root], q, p_.rows, p_.cols, p_.dtype);
            break;
        case PtoOp::Gather: want[root] = golden::ptoGather(sources_); break;
        case PtoOp::Reduce: want[root] = golden::ptoReduce(sources_, root, p_.redop, p_.dtype); break;
        case PtoOp::Notify: break;
    }
    return want;
}

/// Every rank's destination tensor (into `got`) against the golden
/// reference; the outcome goes on the run's scoreboard.
PtoCheck PtoProgram::check(Runtime& rt, std::vector<golden::Tensor>& got) const {
    const unsigned n = unsigned(ranks_.size());
    const std::uint32_t e = elementBytes();
    const bool dstIsGroup = movesLocalToGroup(p_.op);
    got.clear();
    for (unsigned q = 0; q < n; ++q) got.push_back(readRows(rt, dstIsGroup ? ranks_[q].group : ranks_[q].local));
    const std::vector<golden::Tensor> want = expected(got);
    PtoCheck c;
    if (p_.op == PtoOp::Notify) {
        // The peer's signal was set to the last round, the root's counted every round.
        const Rank& peer = ranks_[p_.peer];
        const Rank& root = ranks_[p_.root];
        const std::uint32_t peerSig = rt.readL1(CoreRef{peer.chip, peer.core}, peer.signal);
        const std::uint32_t rootSig = rt.readL1(CoreRef{root.chip, root.core}, root.signal);
        c.checked = 2;
        if (peerSig != p_.repeat || rootSig != p_.repeat) {
            c.wrong = 1;
            c.first = fmt::format("signals: peer {} root {}, expected {} each", peerSig, rootSig, p_.repeat);
        }
    } else if (rt.platform().chip(ranks_[0].chip).core(ranks_[0].core)->l1.storesPayload()) {
        for (unsigned q = 0; q < n; ++q)
            for (std::size_t i = 0; i < got[q].size(); i += e) {
                ++c.checked;
                if (std::memcmp(got[q].data() + i, want[q].data() + i, e) == 0) continue;
                if (c.wrong++ == 0)
                    c.first = fmt::format("{}: rank {} (chip {}) element {} is {}, the golden reference has {}",
                                          ptoOpName(p_.op), q, ranks_[q].chip, i / e,
                                          golden::toDouble(p_.dtype, got[q].data() + i),
                                          golden::toDouble(p_.dtype, want[q].data() + i));
            }
    }
    c.status = c.checked == 0 ? "off" : c.wrong ? "fail" : "pass";
    if (c.status != "off") rt.scoreboard().record(c.checked * e, c.wrong == 0, c.first);
    return c;
}

}  // namespace cclsim::pto
