#include "models/common/Report.h"

namespace cclsim {

std::string timeStamp() {
    return fmt::format("{:.3f} ns", ticksToNs(now()));
}

void reportError(const std::string& where, const std::string& what) {
    const std::string msg = fmt::format("at {} in {}: {}", timeStamp(), where, what);
    SC_REPORT_ERROR("cclsim", msg.c_str());
    // SC_ERROR's default action throws; keep the promise even if a user changed it.
    throw std::runtime_error(msg);
}

void reportWarning(const std::string& where, const std::string& what) {
    const std::string msg = fmt::format("at {} in {}: {}", timeStamp(), where, what);
    SC_REPORT_WARNING("cclsim", msg.c_str());
}

void reportInfo(const std::string& where, const std::string& what, int verbosity) {
    const std::string msg = fmt::format("at {} in {}: {}", timeStamp(), where, what);
    SC_REPORT_INFO_VERB("cclsim", msg.c_str(), verbosity);
}

}  // namespace cclsim
