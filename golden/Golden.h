// Golden reference of the collectives: what every rank's output must hold,
// computed from the op's definition (GCL user guide, section 3.3) on
// logical tensors — arrays of elements, no pages, no devices. It shares no
// code with the model or the firmware.
//
// Shapes (E = input elements per rank, n = ranks of the group):
//   all_gather      output n x E, the ranks' inputs in rank order
//   reduce_scatter  output F = ceil(E / n) per rank: rank f holds elements
//                   [f*F, (f+1)*F) of the reduction, the tail past E zero
//   all_reduce      output E
//   all_to_all      E = n x K; output block s of rank d = input block d of rank s
//   broadcast       every rank's output = the root's input
//
// Reduction order. Element i of fracture f (f = i / F) is
//     finalize(((L (+) g(x[own])) (+) R))
// with L the left-to-right fold of g(x[r]) over the positions `left`, R over
// `right` (an empty side is left out), positions taken in the group's order.
// The method fixes the recipe of every fracture (h = ceil((n-1)/2)):
//   clockwise ring      left f+1, f+2, ..., f-1   own f   right -
//   anticlockwise ring  left -                     own f   right f-1, f-2, ..., f+1
//   bidirectional pair  the first ceil(B/2) of the fracture's B pages
//                       clockwise, the rest anticlockwise; or, with
//                       pairWorkers > 0 (tt-metal's reduce_scatter_minimal_async),
//                       the B pages cut into pairWorkers contiguous ranges
//                       (range w: pages [w B / W, (w+1) B / W)), each range's
//                       pages in turns: clockwise takes min(rest / 2, G), then
//                       anticlockwise min(rest, G), ... (G = pairChunkPages)
//   meet in the middle  left f-h, ..., f-1         own f   right f+(n-1-h), ..., f+1
//   line                left 0, ..., f-1           own f   right n-1, ..., f+1
//   broadcast           left 0, 1, ..., n-2        own n-1 right -   (every fracture)
//   direct              left 0, ..., f-1, f+1, ..., n-1   own f   right -
//                       (tt-metal's one-shot reduce-scatter: every rank's block
//                       sent straight to its owner, folded there)
// (positions mod n on rings; a page holds `pageElements` elements).
#pragma once

#include "golden/Types.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cclsim::golden {

enum class Op { AllGather, ReduceScatter, AllReduce, AllToAll, Broadcast };
/// Every collective the reference defines, in enum order (a new Op goes here too).
inline constexpr Op kAllOps[] = {Op::AllGather, Op::ReduceScatter, Op::AllReduce, Op::AllToAll, Op::Broadcast};
enum class Method { Clockwise, Anticlockwise, BidirPair, MeetInMiddle, Line, Broadcast, Direct };

using Tensor = std::vector<std::uint8_t>;  ///< packed elements

struct Collective {
    Op op = Op::AllGather;
    RedOp redop = RedOp::Add;
    DType dtype = DType::BF16;
    Method method = Method::Clockwise;
    unsigned ranks = 0;
    std::uint64_t count = 0;            ///< E: input elements per rank
    std::uint32_t pageElements = 1024;  ///< elements per page (bidirectional pair split)
    unsigned root = 0;                  ///< broadcast
    unsigned gatherDim = 0;             ///< all_gather: 0, or 1 with rows of `rowElements`
    std::uint64_t rowElements = 0;
    std::uint32_t pairWorkers = 0;  ///< bidirectional pair: 0 halves, else ranges in turns (see above)
    std::uint32_t pairChunkPages = 1;

    std::uint64_t fracture() const { return (count + ranks - 1) / ranks; }  ///< F
    std::uint64_t outputCount() const;
};

/// Every rank's expected output from every rank's input (`inputs[r]` holds
/// count elements). std::invalid_argument on an impossible request.
std::vector<Tensor> expectedOutputs(const Collective& c, const std::vector<Tensor>& inputs);
/// The same, one rank at a time: `f(rank, output)` in rank order, with at
/// most one output tensor alive (the tensor is valid during the call only).
void forEachExpectedOutput(const Collective& c, const std::vector<Tensor>& inputs,
                           const std::function<void(unsigned, const Tensor&)>& f);

/// The recipe of fracture f's element k (exposed for tests).
struct Recipe {
    std::vector<unsigned> left;
    unsigned own = 0;
    std::vector<unsigned> right;
};
Recipe recipe(const Collective& c, unsigned f, std::uint64_t k);

/// The input tensor of a rank (identity = its chip): fillInput over the count.
Tensor makeInput(const Collective& c, std::uint64_t seed, unsigned id);

const char* opName(Op op);
const char* methodName(Method m);
Method parseMethod(const std::string& s);

}  // namespace cclsim::golden
