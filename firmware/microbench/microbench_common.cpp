#include "firmware/api/api_internal.h"
#include "firmware/microbench/microbench_kernels.h"

namespace cclsim::fw::microbench {

void check_end_marker(int idx) {
    if (get_arg_count() <= std::uint32_t(idx) || get_arg_val<std::uint32_t>(idx) != kArgsEndMarker)
        CCLSIM_ERROR(detail::ctx().name(),
                     "runtime argument {} is not the end marker 0x{:x}: host and kernel disagree on the "
                     "argument list ({} arguments given)",
                     idx, kArgsEndMarker, get_arg_count());
}

}  // namespace cclsim::fw::microbench
