#include "firmware/microbench/microbench_kernels.h"

#include <fmt/format.h>

namespace cclsim::fw::microbench {

void check_end_marker(int idx) {
    fw_assert(get_arg_count() > std::uint32_t(idx) && get_arg_val<std::uint32_t>(idx) == kArgsEndMarker,
              "runtime arguments do not end with the end marker 0xE7D0: host and kernel disagree on the argument list");
}

}  // namespace cclsim::fw::microbench
