// Golden reference of the PE_IPCQ all-reduce algorithms: what every rank's
// tensor must hold afterwards, computed from each algorithm's definition
// (its own index arithmetic; nothing shared with the kernels).
//
// Rank r's input is a deterministic function of (seed, r): finite bf16 or
// fp32 values (golden::fillInput, as for the collectives). Reduction orders (every
// pairwise add in fp32; bf16 partials rounded to nearest even):
//
//   ring, n ranks in send order ring[0..n-1], the tensor in n equal chunks;
//   chunk f ends on ring position f:
//     unidirectional  ((x[f+1] + x[f+2]) + ...) + x[f]   (positions mod n)
//     bidirectional   first half of chunk f as above; second half travels
//                     the other way: ((x[f-1] + x[f-2]) + ...) + x[f]
//   mesh rows x cols (rank = row * cols + col): a unidirectional ring over
//     every row (positions = cols), then over every column (positions =
//     rows) on the row results
//   binary tree in heap order: s(r) = (x[r] + s(2r+1)) + s(2r+2), missing
//     children left out; the result is s(0)
#pragma once

#include "golden/Types.h"

#include <cstdint>
#include <vector>

namespace cclsim::golden {

using Tensors = std::vector<std::vector<std::uint8_t>>;

/// Rank `rank`'s input tensor of `bytes` bytes (whole elements; golden::fillInput).
std::vector<std::uint8_t> rankTensor(std::uint64_t seed, unsigned rank, DType t, std::uint64_t bytes);

std::vector<std::uint8_t> ringAllReduce(const Tensors& x, const std::vector<unsigned>& ring, bool bidir, DType t);
std::vector<std::uint8_t> meshAllReduce(const Tensors& x, unsigned rows, unsigned cols, DType t);
std::vector<std::uint8_t> treeAllReduce(const Tensors& x, DType t);

}  // namespace cclsim::golden
