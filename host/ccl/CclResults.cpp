// Readback of every rank's output, the golden check, and the Ethernet figures of a finished op.
#include "host/ccl/CclResults.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

namespace cclsim::ccl {

namespace {

/// Little-endian bytes of an element as hex (most significant first).
std::string hexOf(const std::uint8_t* p, std::size_t n) {
    std::string out;
    for (std::size_t i = n; i-- > 0;) out += fmt::format("{:02x}", p[i]);
    return out;
}

}  // namespace

std::vector<std::vector<golden::Tensor>> readOutputs(Runtime& rt, const CclOp& op) {
    std::vector<std::vector<golden::Tensor>> out;
    for (std::size_t gi = 0; gi < op.groups().size(); ++gi) {
        out.emplace_back();
        for (unsigned pos = 0; pos < op.groups()[gi].ranks.size(); ++pos)
            out.back().push_back(readRankOutput(rt, op, gi, pos));
    }
    return out;
}

golden::Tensor readRankOutput(Runtime& rt, const CclOp& op, std::size_t group, unsigned pos) {
    const CclRank& r = op.groups().at(group).ranks.at(pos);
    return op.outputLayout().fromPages(
        [&](std::uint64_t page, std::uint8_t* bytes) { rt.readPage(r.output, page, bytes); });
}

CclCheck checkOutputs(Runtime& rt, const CclOp& op) {
    const CclSpec& s = op.spec();
    CclCheck c;
    if (!s.data) return c;
    const std::size_t e = golden::elementBytes(s.dtype);
    // One rank at a time (its output read back, its golden output made): a
    // check holds two output tensors, not two copies of every rank's.
    for (std::size_t gi = 0; gi < op.groups().size(); ++gi) {
        const CclGroup& g = op.groups()[gi];
        golden::forEachExpectedOutput(g.golden, g.inputs, [&](unsigned pos, const golden::Tensor& b) {
            // The usual case, all equal, compared page by page in place.
            const CclRank& r = g.ranks[pos];
            if (op.outputLayout().pagesEqual(
                    b, [&](std::uint64_t page, std::uint8_t* bytes) { rt.readPage(r.output, page, bytes); })) {
                c.elementsChecked += b.size() / e;
                return;
            }
            const golden::Tensor a = readRankOutput(rt, op, gi, pos);
            if (a.size() != b.size())
                throw std::logic_error(
                    fmt::format("output of rank {}: {} B, the golden reference has {} B", pos, a.size(), b.size()));
            if (std::memcmp(a.data(), b.data(), a.size()) == 0) {  // the usual case: all equal
                c.elementsChecked += a.size() / e;
                return;
            }
            for (std::size_t i = 0; i < a.size(); i += e) {
                ++c.elementsChecked;
                if (std::memcmp(&a[i], &b[i], e) == 0) continue;
                ++c.wrongElements;
                if (c.firstFailure.empty())
                    c.firstFailure = fmt::format(
                        "{}: chip {} (rank {}) output element {} is {} (0x{}), the golden reference has {} (0x{})",
                        opName(s.op), g.ranks[pos].chip, pos, i / e, golden::toDouble(s.dtype, &a[i]), hexOf(&a[i], e),
                        golden::toDouble(s.dtype, &b[i]), hexOf(&b[i], e));
            }
        });
    }
    c.status = c.wrongElements ? "fail" : "pass";
    return c;
}

double expectedEthBytes(const CclOp& op) {
    // Every EDM message carries its payload and sync word; each one is
    // acknowledged twice (first-level ack and done), 16 B each.
    return double(op.edm().messages()) * (double(op.packetBytes()) + 16.0 + 32.0);
}

double busiestPairBytes(const CclOp& op, Platform& platform) {
    // Bytes per neighbour pair and direction, over the links the op uses.
    std::map<std::pair<unsigned, unsigned>, std::array<double, 2>> pairs;
    std::set<const LinkDesc*> seen;
    for (const CclGroup& g : op.groups())
        for (const CclHop& h : g.topo.hops)
            for (const auto& seg : h.segments)
                for (const LinkDesc* l : seg) {
                    if (!seen.insert(l).second) continue;
                    const auto key = std::make_pair(std::min(l->a.chip, l->b.chip), std::max(l->a.chip, l->b.chip));
                    const EthEndpoint& lo = l->a.chip == key.first ? l->a : l->b;
                    const EthEndpoint& hi = l->a.chip == key.first ? l->b : l->a;
                    pairs[key][0] += platform.chip(lo.chip).erisc(lo.chan).eth.stats().payloadBytes;
                    pairs[key][1] += platform.chip(hi.chip).erisc(hi.chan).eth.stats().payloadBytes;
                }
    double best = 0;
    for (const auto& [key, b] : pairs) best = std::max(best, op.directions() == 2 ? b[0] + b[1] : std::max(b[0], b[1]));
    return best;
}

}  // namespace cclsim::ccl
