// A test NoC model: the booking model with a fixed extra latency on every
// packet and every header-only message. It keeps the interconnect contract
// (models/noc/NocInterconnect.h): a constant delay keeps each lane's packets
// in order and never makes anything faster. Registered in-process by the
// co-verification tests and, through extra_latency_noc_plugin.cpp, as a
// plug-in library the board executables load from an arch YAML:
//
//   models:
//     noc: {name: extra_latency, library: <path of the .so>, params: {latency_ns: 1000}}
#pragma once

#include "models/noc/NocInterconnect.h"
#include "models/plugin/ModelRegistry.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace cclsim::test {

class ExtraLatencyNoc final : public NocInterconnect {
public:
    ExtraLatencyNoc(std::unique_ptr<NocInterconnect> inner, Tick extra)
        : NocInterconnect(inner->id(), inner->config()), inner_(std::move(inner)), extra_(extra) {}

    unsigned hops(CoreCoord src, CoreCoord dst) const override { return inner_->hops(src, dst); }
    Tick unloadedLatency(CoreCoord src, CoreCoord dst) const override {
        return inner_->unloadedLatency(src, dst) + extra_;
    }
    Tick reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd,
                       unsigned lane, Tick* sourceFree) override {
        return inner_->reservePacket(src, dst, wireBytes, injectStart, injectEnd, lane, sourceFree) + extra_;
    }
    double busiestLinkBytes() const override { return inner_->busiestLinkBytes(); }

private:
    std::unique_ptr<NocInterconnect> inner_;
    Tick extra_;
};

/// params: latency_ns (required, >= 0).
inline std::unique_ptr<NocInterconnect> makeExtraLatencyNoc(const NocModelSpec& spec,
                                                            std::unique_ptr<NocInterconnect> booking) {
    auto it = spec.params.find("latency_ns");
    if (it == spec.params.end() || spec.params.size() != 1)
        throw std::invalid_argument("extra_latency takes one parameter, latency_ns");
    std::size_t used = 0;
    double ns = -1;
    try {
        ns = std::stod(it->second, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != it->second.size() || !(ns >= 0))
        throw std::invalid_argument("extra_latency: latency_ns must be a number >= 0, not '" + it->second + "'");
    return std::make_unique<ExtraLatencyNoc>(std::move(booking), nsToTicks(ns));
}

inline void registerExtraLatencyNoc(ModelRegistry& registry) {
    registry.addNoc("extra_latency", makeExtraLatencyNoc);
}

}  // namespace cclsim::test
