#include "runtime/Workload.h"

namespace cclsim {

std::string Workload::dataCheck(Runtime& rt) const {
    const Scoreboard& sb = rt.scoreboard();
    if (sb.bytesChecked() == 0) return "off";
    return sb.ok() ? "pass" : "fail";
}

}  // namespace cclsim
