// Error reporting and logging on top of SC_REPORT_*.
//
// Every message names the component (its hierarchical name, e.g.
// "n300.chip0.eth8") and carries the simulated time, so a user can find the
// place in the VCD. Errors throw (SystemC's default SC_THROW action for
// SC_ERROR); the executables catch them, print one paragraph and exit non-zero.
#pragma once

#include "models/common/ConfigError.h"
#include "models/common/Time.h"

#include <fmt/format.h>
#include <systemc>

#include <string>

namespace cclsim {

/// "1234.500 ns" — the simulated time in the form used by every message.
std::string timeStamp();

/// Report an error from `where` (a hierarchical name). Never returns.
[[noreturn]] void reportError(const std::string& where, const std::string& what);
void reportWarning(const std::string& where, const std::string& what);
void reportInfo(const std::string& where, const std::string& what, int verbosity);

}  // namespace cclsim

#define CCLSIM_ERROR(where, ...) ::cclsim::reportError((where), fmt::format(__VA_ARGS__))
#define CCLSIM_WARN(where, ...) ::cclsim::reportWarning((where), fmt::format(__VA_ARGS__))
#define CCLSIM_INFO(where, ...)                                                            \
    do {                                                                                   \
        if (::sc_core::sc_report_handler::get_verbosity_level() >= ::sc_core::SC_MEDIUM)   \
            ::cclsim::reportInfo((where), fmt::format(__VA_ARGS__), ::sc_core::SC_MEDIUM); \
    } while (0)
#ifdef NDEBUG
#define CCLSIM_DEBUG(where, ...) \
    do {                         \
    } while (0)
#else
#define CCLSIM_DEBUG(where, ...)                                                          \
    do {                                                                                  \
        if (::sc_core::sc_report_handler::get_verbosity_level() >= ::sc_core::SC_DEBUG)   \
            ::cclsim::reportInfo((where), fmt::format(__VA_ARGS__), ::sc_core::SC_DEBUG); \
    } while (0)
#endif
