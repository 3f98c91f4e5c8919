// Kernels of the `pto` workload (firmware/pto/pto_kernels.cpp).
#pragma once

namespace cclsim::fw::pto {

/// One rank of the pto workload: runs --op as the root (or initiator), or
/// waits for the root's notification (firmware/pto/pto_args.h).
void pto_bench_main();

}  // namespace cclsim::fw::pto
