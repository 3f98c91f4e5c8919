// The `pto` workload of the board executables: one PTO communication op
// (firmware/api/pto_api.h) between the chips of the board, one kernel per
// chip, with the golden check and latency / bandwidth figures:
//   <board> pto --op put|get|put_async|get_async|notify|broadcast|scatter|gather|reduce
//       [--ranks N] [--root R] [--peer P] [--shape RxC] [--tile RxC]
//       [--valid-row N|dynamic] [--valid-col N|dynamic] [--ping-pong]
//       [--reduce sum|max|min|...] [--dtype T] [--inputs F] [--dump-outputs F]
#pragma once

#include "cli/Workload.h"

#include <memory>

namespace cclsim::pto {

std::unique_ptr<Workload> makePto();

}  // namespace cclsim::pto
