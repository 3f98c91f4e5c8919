// Compute on a worker core's local L1 (the compute engine as the data-
// movement kernels see it): elementwise reductions with a cost per byte.
//
// Data types and operators are GCL's (GCL user guide 3.1, plus bf16).
// Semantics: bf16 and fp16 operands are widened to fp32, the operation is
// done in fp32 and the result rounded to nearest even into the type (fp16:
// overflow to infinity, subnormals kept); fp32 is IEEE single; integers wrap
// (two's complement); bool is one byte, 0 or 1. MIN/MAX order -0 below +0.
// SQUARE_ADD squares each rank's contribution (eltwise_prepare) and adds;
// MEAN adds and divides the final value by the group size (eltwise_finalize).
// Costs: bytes / eltwise_bytes_per_cycle cycles per call (the arch YAML).
#pragma once

#include <cstdint>

namespace cclsim::fw {

enum class dtype_code : std::uint32_t { bf16 = 0, fp16, fp32, int32, uint32, int64, uint64, boolean };
enum class reduce_op : std::uint32_t { add = 0, mean, mul, min, max, square_add, logical_and, logical_or };

std::uint32_t dtype_bytes(dtype_code t);

/// dst = a (+) b elementwise (dst may alias a or b).
void eltwise_reduce(std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::uint32_t bytes, reduce_op op,
                    dtype_code t);
/// dst = g(src): src * src for square_add; a copy otherwise (no cost when dst == src).
void eltwise_prepare(std::uint32_t dst, std::uint32_t src, std::uint32_t bytes, reduce_op op, dtype_code t);
/// The final step of a reduced value: mean divides by `group_size`; nothing for the others.
void eltwise_finalize(std::uint32_t dst, std::uint32_t bytes, reduce_op op, dtype_code t, std::uint32_t group_size);

/// Copy `bytes` within L1 at any byte alignment (the engine's unaligned move).
void eltwise_copy(std::uint32_t dst, std::uint32_t src, std::uint32_t bytes);

/// Fill `bytes` of L1 at `dst` with zeros (padding of a partial output page).
void eltwise_fill_zero(std::uint32_t dst, std::uint32_t bytes);

/// dst = a + b (eltwise_reduce with add).
inline void eltwise_add(std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::uint32_t bytes, dtype_code t) {
    eltwise_reduce(dst, a, b, bytes, reduce_op::add, t);
}

}  // namespace cclsim::fw
