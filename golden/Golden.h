// Golden reference for the collectives: plain C++ that computes what each
// op's output must be from the op's definition. It shares no code with the
// model or the firmware (its own input generator, index arithmetic and bf16
// arithmetic), so a bug in either cannot hide in both.
//
// Inputs: page p of the input on the chip with id c is a deterministic
// function of (seed, c, p): finite bf16 or fp32 values with |x| in [2^-6, 4),
// so sums of many ranks stay finite and never round to zero.
//
// Sizes follow nccl-tests: S is the larger of the per-rank input and output
// (all_gather: output n*B pages, input B; reduce_scatter: input n*B, output
// B; all_reduce, all_to_all, broadcast: S in and out).
//
// Reduction order (defined here; the firmware implements the same):
//   ring reduce_scatter / all_reduce, fracture f of n ranks:
//       ((x[f+1] + x[f+2]) + ...) + x[f]          (rank indices mod n)
//     the partial starts on the rank after f and travels once round the ring.
//   line, fracture f:
//       ((L + x[f]) + R),  L = ((x[0] + x[1]) + ...) + x[f-1],
//                          R = ((x[n-1] + x[n-2]) + ...) + x[f+1]
//     (an empty side is left out: f = 0 gives x[0] + R, f = n-1 gives L + x[n-1]).
//   Every pairwise add is done in fp32; for bf16 every partial result is
//   rounded to bf16 (round to nearest, ties to even).
//
// all_gather along dim 1: the per-rank tensor has rows of `rowPages` pages;
// output row i is rank 0's row i, then rank 1's row i, ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim::golden {

enum class DType { BF16, FP32 };
enum class Op { AllGather, ReduceScatter, AllReduce, AllToAll, Broadcast };

std::size_t elementBytes(DType t);
DType parseDType(const std::string& s);
const char* dtypeName(DType t);

struct Collective {
    Op op = Op::AllGather;
    bool ring = true;
    std::vector<unsigned> chips;   ///< chip id of each rank (the identity of its input)
    std::uint64_t sizeBytes = 0;   ///< S
    std::uint32_t pageBytes = 2048;
    DType dtype = DType::BF16;
    std::uint64_t seed = 1;
    unsigned gatherDim = 0;        ///< all_gather: 0 or 1
    std::uint32_t rowPages = 1;    ///< all_gather dim 1: pages per rank row
    unsigned root = 0;             ///< broadcast: rank of the root

    unsigned ranks() const { return unsigned(chips.size()); }
};

std::uint64_t inputPages(const Collective& c);
std::uint64_t outputPages(const Collective& c);

/// The input page `page` of rank `rank` (pageBytes bytes).
void inputPage(const Collective& c, unsigned rank, std::uint64_t page, std::uint8_t* out);
/// What output page `page` of rank `rank` must hold.
void expectedOutputPage(const Collective& c, unsigned rank, std::uint64_t page, std::uint8_t* out);

/// out = a + b elementwise (bf16: fp32 add, round to nearest even).
void add(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::uint32_t bytes, DType t);

}  // namespace cclsim::golden
