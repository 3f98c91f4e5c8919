// Checks of a CclSpec on its own and of its groups, as CclOpErrors naming the field.
#include "host/ccl/CclValidator.h"

#include "firmware/edm/edm_types.h"
#include "host/ccl/CclOpError.h"
#include "host/ccl/Collectives.h"

namespace cclsim::ccl {

void validateSpec(const CclSpec& s) {
    if (s.groups.empty()) throw CclOpError("groups", "a collective needs a chip order");
    const std::uint32_t e = std::uint32_t(golden::elementBytes(s.dtype));
    if (s.pageBytes == 0 || s.pageBytes % 32)
        throw CclOpError("page_bytes",
                         fmt::format("{}: must be a non-zero multiple of 32", specRef("page_bytes", s.pageBytes)));
    if (s.pageBytes % e)
        throw CclOpError("page_bytes", fmt::format("{} does not hold whole {} elements",
                                                   specRef("page_bytes", s.pageBytes), golden::dtypeName(s.dtype)));
    if (s.workers == 0) throw CclOpError("workers", fmt::format("{} must be at least 1", specRef("workers")));
    if (s.edmBuffers < 1 || s.edmBuffers > edm::kMaxBuffersPerChannel)
        throw CclOpError("edm_buffers", fmt::format("{}: must be 1..{}", specRef("edm_buffers", s.edmBuffers),
                                                    edm::kMaxBuffersPerChannel));
    if (s.edmCreditTxq > 1)
        throw CclOpError("edm_credit_txq", fmt::format("{}: must be 0 or 1 (the two tx_cmd_qs)",
                                                       specRef("edm_credit_txq", s.edmCreditTxq)));
    if (collective(s.op).reduces && !golden::supports(s.redop, s.dtype))
        throw CclOpError(
            "redop", fmt::format("{} does not support {}: {} takes {}", specRef("redop", golden::redOpName(s.redop)),
                                 specRef("dtype", golden::dtypeName(s.dtype)), golden::redOpName(s.redop),
                                 golden::supportedTypes(s.redop)));
}

void validateGroups(const std::vector<CclTopology>& topologies) {
    for (const CclTopology& t : topologies)
        if (t.size() != topologies.front().size())
            throw CclOpError("groups", "every group of a collective must have the same size");
}

}  // namespace cclsim::ccl
