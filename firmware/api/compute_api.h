// Compute on a worker core's local L1 (the compute engine as the data-
// movement kernels see it): elementwise operations with a cost per byte.
#pragma once

#include <cstdint>

namespace cclsim::fw {

/// Elementwise dst = a + b on the worker's compute engine (dtype 0 bf16,
/// 1 fp32): each pairwise add in fp32, bf16 results rounded to nearest even.
/// Costs bytes / eltwise_bytes_per_cycle cycles.
void eltwise_add(std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::uint32_t bytes, std::uint32_t dtype);

}  // namespace cclsim::fw
