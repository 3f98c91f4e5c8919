// Kernels of the fabric (router on Ethernet cores, mux on worker cores) and
// the argument reader they share.
#pragma once

#include "firmware/api/kernel_api.h"
#include "firmware/fabric/fabric_types.h"

namespace cclsim::fw::fabric_fw {

void fabric_router_main();      ///< ERISC: one per link the fabric uses (persistent)
void fabric_mux_main();         ///< worker core: several clients into one router worker channel (persistent)
void fabric_read_relay_main();  ///< worker core: serves the reads arriving at one router (persistent)

/// Read the runtime arguments of layout A and check the fabric end marker.
template <class A> A read_fabric_args() {
    A a;
    int i = 0;
    auto get = [&i](std::uint32_t& f) { f = get_arg_val<std::uint32_t>(i++); };
    a.visit(get);
    fw_assert(get_arg_count() > std::uint32_t(i) && get_arg_val<std::uint32_t>(i) == fabric::kArgsEndMarker,
              "fabric kernel runtime arguments do not end with the end marker 0xFAB0 (host/kernel layout mismatch)");
    return a;
}

}  // namespace cclsim::fw::fabric_fw
