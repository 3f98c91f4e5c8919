// Shared plumbing of the firmware API implementation (not for kernels).
#pragma once

#include "models/common/Report.h"
#include "models/core/KernelContext.h"
#include "models/core/ProgrammableCore.h"
#include "models/erisc/EriscCore.h"

namespace cclsim::fw::detail {

inline KernelContext& ctx() {
    return KernelContext::current();
}

/// Keys that identify what a poll reads (see KernelContext::poll).
inline std::uint64_t l1Key(std::uint32_t addr) {
    return KernelContext::l1WordKey(addr);
}
inline std::uint64_t nocKey(unsigned noc, unsigned what) {
    return (std::uint64_t{2} << 48) | (noc << 8) | what;
}
inline std::uint64_t txqKey(unsigned q) {
    return (std::uint64_t{3} << 48) | q;
}

/// The ERISC a kernel runs on; an error on any other core.
EriscCore& erisc(KernelContext& k, const char* api);
unsigned resolveNoc(KernelContext& k, std::uint8_t noc);
void checkLocal(KernelContext& k, const char* api, std::uint64_t addr, std::uint64_t size);

/// Spin until `eval` is true, waiting event-driven on the L1 word at `addr`.
template <class Eval>
void waitL1(KernelContext& k, const char* api, std::uint32_t addr, std::uint32_t expect, Eval&& eval) {
    const PollDesc d{PollDesc::L1Word, api, addr, expect};
    while (!k.poll(l1Key(addr), d, eval)) {
    }
}

}  // namespace cclsim::fw::detail
