// dispatch: an empty kernel, as tt-metal's program-dispatch microbenchmark
// launches (test_pgm_dispatch with its kernels nullified). Its whole cost is
// the dispatch before it and the core's start-up firmware around it.
//
// Args (runtime): any number of filler words (--rt-args), never read, as in
// the tt-metal benchmark: they cost the dispatcher, not the kernel.
#include "firmware/microbench/microbench_kernels.h"

namespace cclsim::fw::microbench {

void dispatch_empty_kernel_main() {}

}  // namespace cclsim::fw::microbench
