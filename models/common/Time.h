// Simulated-time helpers.
//
// The model keeps time internally as integer picoseconds (`Tick`), the SystemC
// default time resolution, so arithmetic on latencies and serialisation times is
// exact and deterministic. Convert at the SystemC boundary only.
#pragma once

#include <systemc>

#include <cmath>
#include <cstdint>

namespace cclsim {

using Tick = std::uint64_t;  ///< simulated time in picoseconds

constexpr Tick kTicksPerNs = 1000;
constexpr Tick kNever = ~Tick{0};

inline Tick nsToTicks(double ns) {
    return static_cast<Tick>(std::llround(ns * double(kTicksPerNs)));
}
inline double ticksToNs(Tick t) {
    return double(t) / double(kTicksPerNs);
}

/// SystemC's current time in ticks. Requires the SystemC resolution to be 1 ps.
inline Tick scNow() {
    return sc_core::sc_time_stamp().value();
}

namespace detail {
/// The tick of the calendar callback running ahead of SystemC time (see
/// EventQueue::drain), or kNever. Like SystemC's own current time it is
/// process-wide: one simulation runs at a time.
inline Tick calendarNow = kNever;
}  // namespace detail

/// Current simulated time in ticks: SystemC's time, or inside a calendar
/// callback that runs ahead of it, that callback's tick.
inline Tick now() {
    return detail::calendarNow != kNever ? detail::calendarNow : scNow();
}

inline sc_core::sc_time toScTime(Tick t) {
    return sc_core::sc_time::from_value(t);
}

/// Time to move `bytes` at `bytesPerNs` (== GB/s), rounded up to whole ticks.
inline Tick transferTicks(double bytes, double bytesPerNs) {
    return static_cast<Tick>(std::ceil(bytes * double(kTicksPerNs) / bytesPerNs - 1e-9));
}

}  // namespace cclsim
