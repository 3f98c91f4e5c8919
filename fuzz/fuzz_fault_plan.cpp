// libFuzzer harness: fault plans (`--faults FILE`, models/eth/FaultPlan.*),
// read from a file as the boards read them.
//
// Besides the rule every harness checks (a refusal is a ConfigError naming
// the file), a plan the reader accepts must mean what the file says: the
// harness reads the same text with yaml-cpp itself and checks every decoded
// figure against the number written (the seed, each entry's chip and
// channel, rate, packets, and at_us / duration_us to within a picosecond
// tick), that each entry's kind is one of the four and says where it came
// from (file:line). A figure the reader silently changed (a time that does
// not fit a Tick, say) is a finding.
#include "fuzz/FuzzSupport.h"
#include "models/common/ConfigError.h"
#include "models/eth/FaultPlan.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <string>

using namespace cclsim;

namespace {

const std::string kFile = "fault_plan_input.yaml";

/// `t` (ticks) is the time `node` gives in microseconds, to within one tick.
void expectMicroseconds(const YAML::Node& node, Tick t, const std::string& what) {
    const double us = node.as<double>();
    const double ns = us * 1000.0;
    if (!(std::fabs(ticksToNs(t) - ns) <= 1e-3 + 1e-12 * ns))
        fuzz::finding(what + ": the file says " + node.Scalar() + " us, the plan holds " + std::to_string(t) + " ps");
}

void checkPlan(const FaultPlan& plan, const std::string& text) {
    const YAML::Node root = YAML::Load(text);
    if (plan.file.find(kFile) == std::string::npos) fuzz::finding("the plan does not name its file: " + plan.file);
    const std::uint64_t seed = root["seed"] ? root["seed"].as<std::uint64_t>() : 1;
    if (plan.seed != seed)
        fuzz::finding("seed " + std::to_string(plan.seed) + ", the file says " + root["seed"].Scalar());
    const YAML::Node list = root["faults"];
    if (plan.faults.size() != list.size())
        fuzz::finding(std::to_string(plan.faults.size()) + " faults decoded of " + std::to_string(list.size()));
    for (std::size_t i = 0; i < plan.faults.size(); ++i) {
        const FaultSpec& s = plan.faults[i];
        const YAML::Node f = list[i];
        const std::string what = "fault " + std::to_string(i);
        if (s.where.find(kFile + ":") == std::string::npos)
            fuzz::finding(what + " does not say where it is: " + s.where);
        if (f["kind"].Scalar() != FaultSpec::kindName(s.kind))
            fuzz::finding(what + ": kind " + FaultSpec::kindName(s.kind) + ", the file says " + f["kind"].Scalar());
        const YAML::Node link = f["link"];
        if (s.allLinks != link.IsScalar()) fuzz::finding(what + ": link all/one mixed up");
        if (!s.allLinks && (s.chip != link["chip"].as<unsigned>() || s.channel != link["channel"].as<unsigned>()))
            fuzz::finding(what + ": chip/channel differ from the file");
        switch (s.kind) {
            case FaultSpec::Ber:
                if (!(s.rate == f["rate"].as<double>() && s.rate >= 0 && s.rate < 1))
                    fuzz::finding(what + ": rate " + std::to_string(s.rate) + ", the file says " + f["rate"].Scalar());
                break;
            case FaultSpec::Retrain:
                expectMicroseconds(f["at_us"], s.at, what + " at_us");
                expectMicroseconds(f["duration_us"], s.duration, what + " duration_us");
                if (s.duration == 0) fuzz::finding(what + ": a retrain of no time");
                break;
            case FaultSpec::Down: expectMicroseconds(f["at_us"], s.at, what + " at_us"); break;
            case FaultSpec::Drop:
                expectMicroseconds(f["at_us"], s.at, what + " at_us");
                if (s.packets == 0 || s.packets != f["packets"].as<std::uint32_t>())
                    fuzz::finding(what + ": packets " + std::to_string(s.packets) + ", the file says " +
                                  f["packets"].Scalar());
                break;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string path = fuzz::writeScratch(kFile, text);
    fuzz::runReader<ConfigError>(kFile, [&] {
        const FaultPlan plan = loadFaultPlan(path);
        // Accepted: yaml-cpp reads the same text, so the checker's own
        // conversions only throw where the reader should have refused.
        try {
            checkPlan(plan, text);
        } catch (const YAML::Exception& e) {
            fuzz::finding(std::string("the reader accepted a figure yaml-cpp cannot read: ") + e.what());
        }
    });
    return 0;
}
