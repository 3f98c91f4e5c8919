// Golden reference for the collectives: plain C++ that computes what each
// op's output must be from the op's definition. It shares no code with the
// model or the firmware (its own input generator and its own bf16
// arithmetic), so a bug in either cannot hide in both.
//
// Inputs: page p of rank r's input is a deterministic function of
// (seed, rank, page). Values are finite floating-point numbers (bf16 or fp32)
// with small exponents so sums stay finite.
//
// Reduction order (defined here, implemented the same way by the firmware):
//   ring reduce_scatter, chip c, fracture c:
//     (((x[c+1] + x[c+2]) + x[c+3]) + ... ) + x[c]          (ranks mod n)
//   i.e. the partial starts at the chip after c and travels once round the
//   ring, each chip adding its own contribution, c adding last.
//   Every pairwise add is done in fp32; for bf16 each partial result is
//   rounded to bf16 (round to nearest, ties to even).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim::golden {

enum class DType { BF16, FP32 };

std::size_t elementBytes(DType t);
DType parseDType(const std::string& s);

/// Rank `rank`'s input page `page` (pageBytes bytes).
void inputPage(std::uint64_t seed, unsigned rank, std::uint64_t page, std::uint32_t pageBytes, DType t,
               std::uint8_t* out);

/// out = a + b elementwise (bf16: fp32 add, round to nearest even).
void add(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::uint32_t bytes, DType t);

/// The ranks of a ring reduce_scatter partial for fracture `c`, in the order
/// they are added (see above).
std::vector<unsigned> ringReductionOrder(unsigned c, unsigned n);

}  // namespace cclsim::golden
