// Entry points of the NoC trace replay kernels.
#pragma once

namespace cclsim::fw::noctrace {

/// One processor of one core replays its recorded NoC commands (noc_trace_replay_kernel.cpp).
void noc_trace_replay_kernel_main();

}  // namespace cclsim::fw::noctrace
