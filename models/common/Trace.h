// Value-change tracing to VCD, written by the model itself.
//
// Models own TraceSignal members and register them once, before simulation
// starts, through their `trace(TraceFile&)` method (the platform calls it for
// its children; sc_main only opens the file). A signal writes a value change
// only when its value actually changes, so tracing costs nothing per time step
// and the VCD is byte-identical across runs (no dates, no tool banners).
// `writeGtkw` emits a GTKWave save file with signals grouped per chip and core.
//
// Enum-valued signals carry a TraceEnum (the value -> name table kept next to
// the C++ enum it describes). writeGtkw writes one GTKWave translate filter
// file per enum beside the save file (filters/<enum>.txt) and references it
// from every signal of that enum, so the viewer shows names, not numbers.
//
// Sampled signals (per-window utilisation) are computed by their owner at
// window boundaries. The trace schedules no simulation event for them: when
// simulated time next advances past a boundary (the next value change
// anywhere, or close()), the file asks each sampler for the window's value
// and writes it at the boundary's time. Samplers must only read state that
// changes together with a traced signal (see addSampler).
#pragma once

#include "models/common/Time.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cclsim {

enum class TraceFormat { Decimal, Hex, Binary, Ascii };

/// Names of an enum's values, for GTKWave translate filters.
struct TraceEnum {
    std::string name;                     ///< file stem, e.g. "edm_channel_state"
    std::vector<std::string> valueNames;  ///< index = value; empty = no name
};

/// A kernel-owned trace value: its name and, for an enum, its value names.
struct TraceSlot {
    TraceSlot(std::string n, const TraceEnum* v = nullptr) : name(std::move(n)), values(v) {}
    TraceSlot(const char* n, const TraceEnum* v = nullptr) : name(n), values(v) {}
    std::string name;
    const TraceEnum* values = nullptr;  ///< must outlive the run (a static table)
};

/// The translate filter file for `e`: "<value> <name>" lines, values in
/// decimal as GTKWave prints a decimal-formatted signal.
std::string translateFilterText(const TraceEnum& e);

class TraceFile {
public:
    explicit TraceFile(const std::string& path);
    ~TraceFile();
    TraceFile(const TraceFile&) = delete;
    TraceFile& operator=(const TraceFile&) = delete;

    /// Declare a signal `hierName` (dot-separated scopes). Only before begin().
    /// `values` (optional, must outlive the file) names an enum signal's values.
    unsigned declare(const std::string& hierName, unsigned width, TraceFormat format, std::uint64_t initial,
                     const TraceEnum* values = nullptr);
    /// Write the header; later declarations are an error.
    void begin();
    void change(unsigned id, std::uint64_t value);
    void close();

    /// Window of the sampled signals (default kDefaultSampleWindow). Only
    /// before begin(); windows start at time 0.
    void setSampleWindow(Tick window);
    Tick sampleWindow() const { return window_; }
    static constexpr Tick kDefaultSampleWindow = 1000 * kTicksPerNs;
    /// `sample(windowStart, windowEnd)` sets its signals for the window that
    /// just ended (the last one may be shorter: it ends at close()). It runs
    /// before the value changes of a later time are written, so it must see
    /// state valid over the whole window: state that changes only together
    /// with (and after) a traced signal's set() qualifies. Only before begin().
    void addSampler(std::function<void(Tick windowStart, Tick windowEnd)> sample);
    /// Fast-forward: does the window [start, end) lie inside a skipped
    /// stretch, whose traffic was not simulated? (Set by the controller;
    /// default: never.) Utilisation samplers then show the average of the
    /// windows before the stretch instead of the idle links they see.
    void setSkippedQuery(std::function<bool(Tick start, Tick end)> q) { skipped_ = std::move(q); }
    bool skipped(Tick start, Tick end) const { return skipped_ && skipped_(start, end); }

    /// The workload's own signals, shown first in the save file (the group
    /// `title`): the signals whose whole dotted names match one of `patterns`
    /// (globMatch: `*` any text, `#` one or more digits), one subgroup per
    /// core, for the first `maxCores` such cores in board order (the others
    /// are in their chip's group as always). Set before writeGtkw(); no
    /// patterns: no such group.
    struct Focus {
        std::string title;
        std::vector<std::string> patterns;
        unsigned maxCores = 8;
    };
    void setFocus(Focus f) { focus_ = std::move(f); }

    /// GTKWave save file listing every signal: the workload's own signals
    /// (setFocus) first, then a link-utilisation group, then groups per chip
    /// (board.chip) and per core (board.chip.core), plus the translate
    /// filter files its enum signals use, written to filters/ beside it.
    void writeGtkw(const std::string& gtkwPath) const;

    const std::string& path() const { return path_; }
    std::size_t signalCount() const { return decls_.size(); }
    bool begun() const { return begun_; }

private:
    struct Decl {
        std::string name;
        unsigned width;
        TraceFormat format;
        std::uint64_t initial;
        std::string code;
        const TraceEnum* values;
        bool nonZero;  ///< ever held a non-zero value
    };
    void writeValue(const Decl& d, std::uint64_t v);
    void stamp(Tick t);
    /// Run the samplers of every window that ends before `t` (at `t` too when `inclusive`).
    void sampleUpTo(Tick t, bool inclusive);

    std::string path_;
    std::FILE* fp_ = nullptr;
    std::vector<Decl> decls_;
    bool begun_ = false;
    Tick curTime_ = kNever;
    Tick window_ = kDefaultSampleWindow;
    Focus focus_;
    Tick windowStart_ = 0;
    Tick sampleAt_ = kNever;  ///< the boundary being sampled, or kNever
    Tick endTime_ = 0;        ///< when close() ran
    std::vector<std::function<void(Tick, Tick)>> samplers_;
    std::function<bool(Tick, Tick)> skipped_;
};

/// A traced integer value owned by a model.
class TraceSignal {
public:
    TraceSignal() = default;
    explicit TraceSignal(unsigned width, TraceFormat format = TraceFormat::Decimal, const TraceEnum* values = nullptr)
        : width_(width), format_(format), values_(values) {}

    void attach(TraceFile& file, const std::string& hierName) {
        file_ = &file;
        id_ = file.declare(hierName, width_, format_, value_, values_);
    }
    void set(std::uint64_t v) {
        if (v == value_) return;
        value_ = v;
        if (file_) file_->change(id_, v);
    }
    void add(std::int64_t delta) { set(std::uint64_t(std::int64_t(value_) + delta)); }
    std::uint64_t value() const { return value_; }
    bool attached() const { return file_ != nullptr; }

private:
    TraceFile* file_ = nullptr;
    unsigned id_ = 0;
    unsigned width_ = 32;
    TraceFormat format_ = TraceFormat::Decimal;
    const TraceEnum* values_ = nullptr;
    std::uint64_t value_ = 0;
};

/// Does the whole of `name` match `pattern`? `*` matches any text (dots
/// too), `#` one or more digits, every other character itself.
bool globMatch(const std::string& pattern, const std::string& name);

/// Pack up to four characters into a 32-bit word shown as ASCII in GTKWave
/// (the waypoint convention of tt-metal kernels: "NSW", "ETXW", "DONE").
std::uint32_t packWaypoint(const char* code);
std::string unpackWaypoint(std::uint32_t word);

}  // namespace cclsim
