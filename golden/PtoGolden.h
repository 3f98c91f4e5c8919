// Golden reference of the PTO communication ops (pto-isa's communication ISA pages, docs/isa/comm and
// pto-isa's per-op definitions), on row-major tensors of packed elements.
// Shares no code with the firmware's pto_api.
//
//   put / get   the destination = the source
//   broadcast   every rank = the root's tensor
//   scatter     rank r = rows [r H, (r+1) H) of the root's N H x C tensor
//   gather      rows [r H, (r+1) H) of the root's output = rank r's tensor
//   reduce      per element: fin(((g(x_root) (+) g(x_a)) (+) g(x_b)) ...) over
//               the other ranks a < b < ... in rank order
#pragma once

#include "golden/Types.h"

#include <cstdint>
#include <vector>

namespace cclsim::golden {

using PtoTensor = std::vector<std::uint8_t>;

/// Rows [r * rows, (r + 1) * rows) of a rows-per-rank split (scatter).
PtoTensor ptoScatterPart(const PtoTensor& root, unsigned rank, std::uint64_t rowsPerRank, std::uint64_t cols, DType t);
/// The ranks' tensors stacked along rows (gather).
PtoTensor ptoGather(const std::vector<PtoTensor>& ranks);
/// The root's TREDUCE output.
PtoTensor ptoReduce(const std::vector<PtoTensor>& ranks, unsigned root, RedOp op, DType t);

}  // namespace cclsim::golden
