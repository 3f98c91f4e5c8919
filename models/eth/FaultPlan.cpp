#include "models/eth/FaultPlan.h"

#include "models/common/Yaml.h"

namespace cclsim {

const char* FaultSpec::kindName(Kind k) {
    switch (k) {
        case Ber: return "ber";
        case Retrain: return "retrain";
        case Down: return "down";
        case Drop: return "drop";
    }
    return "?";
}

namespace {

// The longest time a plan may name: 1e12 us (11.6 simulated days) is 1e18
// ps, so a time, and a time plus a duration, fit a Tick (2^64 ps) with room
// to spare; a larger figure would wrap silently (found by fuzz_fault_plan).
constexpr double kMaxMicroseconds = 1e12;

Tick microseconds(const YamlMap& m, const std::string& key) {
    const double us = m.get<double>(key);
    if (!(us >= 0 && us < kMaxMicroseconds))
        m.fail(key, "must be a time in microseconds, >= 0 and below 1e12 (11.6 simulated days)");
    return nsToTicks(us * 1000.0);
}

FaultSpec decodeFault(const YamlMap& f) {
    FaultSpec s;
    s.where = f.where("kind");
    const std::string kind = f.get<std::string>("kind");
    if (kind == "ber")
        s.kind = FaultSpec::Ber;
    else if (kind == "retrain")
        s.kind = FaultSpec::Retrain;
    else if (kind == "down")
        s.kind = FaultSpec::Down;
    else if (kind == "drop")
        s.kind = FaultSpec::Drop;
    else
        f.fail("kind", "must be ber, retrain, down or drop");
    const YAML::Node link = f.raw("link");
    if (!link) f.fail("link", "is required: all, or {chip: C, channel: N} (one end of the link)");
    if (link.IsScalar()) {
        if (f.get<std::string>("link") != "all") f.fail("link", "must be all or {chip: C, channel: N}");
        s.allLinks = true;
    } else {
        const YamlMap l = f.map("link");
        s.chip = l.get<unsigned>("chip");
        s.channel = l.get<unsigned>("channel");
        l.finish();
    }
    switch (s.kind) {
        case FaultSpec::Ber:
            s.rate = f.get<double>("rate");
            if (!(s.rate >= 0 && s.rate < 1)) f.fail("rate", "must be a bit error rate in [0, 1)");
            break;
        case FaultSpec::Retrain:
            s.at = microseconds(f, "at_us");
            s.duration = microseconds(f, "duration_us");
            if (s.duration == 0) f.fail("duration_us", "must be > 0");
            break;
        case FaultSpec::Down: s.at = microseconds(f, "at_us"); break;
        case FaultSpec::Drop:
            s.at = microseconds(f, "at_us");
            s.packets = f.get<std::uint32_t>("packets");
            if (s.packets == 0) f.fail("packets", "must be >= 1");
            break;
    }
    f.finish();
    return s;
}

}  // namespace

FaultPlan decodeFaultPlan(const YamlMap& root) {
    FaultPlan p;
    p.file = root.file();
    p.seed = root.get<std::uint64_t>("seed", 1);
    const YamlSeq list = root.seq("faults");
    for (std::size_t i = 0; i < list.size(); ++i) p.faults.push_back(decodeFault(list.map(i)));
    root.finish();
    return p;
}

FaultPlan loadFaultPlan(const std::string& file) {
    return decodeFaultPlan(YamlMap::loadFile(file));
}

}  // namespace cclsim
