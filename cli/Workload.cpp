#include "cli/Workload.h"

#include "models/common/Report.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cclsim {

std::string Workload::dataCheck(Runtime& rt) const {
    const Scoreboard& sb = rt.scoreboard();
    if (sb.bytesChecked() == 0) return "off";
    return sb.ok() ? "pass" : "fail";
}

std::uint64_t parseBytes(const std::string& text, const std::string& option) {
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    std::string unit = text.substr(used);
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    double mult = 1;
    if (unit == "" || unit == "B")
        mult = 1;
    else if (unit == "K" || unit == "KB" || unit == "KIB")
        mult = 1024.0;
    else if (unit == "M" || unit == "MB" || unit == "MIB")
        mult = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GIB")
        mult = 1024.0 * 1024 * 1024;
    else
        used = 0;
    if (used == 0 || !(v >= 0) || v * mult > 1e15)
        throw ConfigError(fmt::format("{} {}: expected a byte count such as 4096, 64K, 1M or 1G", option, text));
    return std::uint64_t(std::llround(v * mult));
}

}  // namespace cclsim
