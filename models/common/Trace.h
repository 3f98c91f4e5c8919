// Value-change tracing to VCD, written by the model itself.
//
// Models own TraceSignal members and register them once, before simulation
// starts, through their `trace(TraceFile&)` method (the platform calls it for
// its children; sc_main only opens the file). A signal writes a value change
// only when its value actually changes, so tracing costs nothing per time step
// and the VCD is byte-identical across runs (no dates, no tool banners).
// `writeGtkw` emits a GTKWave save file with signals grouped per chip and core.
#pragma once

#include "models/common/Time.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace cclsim {

enum class TraceFormat { Decimal, Hex, Binary, Ascii };

class TraceFile {
public:
    explicit TraceFile(const std::string& path);
    ~TraceFile();
    TraceFile(const TraceFile&) = delete;
    TraceFile& operator=(const TraceFile&) = delete;

    /// Declare a signal `hierName` (dot-separated scopes). Only before begin().
    unsigned declare(const std::string& hierName, unsigned width, TraceFormat format, std::uint64_t initial);
    /// Write the header; later declarations are an error.
    void begin();
    void change(unsigned id, std::uint64_t value);
    void close();

    /// GTKWave save file listing every signal, grouped by the first
    /// `groupDepth` name components (board.chip, then board.chip.core).
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
    };
    void writeValue(const Decl& d, std::uint64_t v);

    std::string path_;
    std::FILE* fp_ = nullptr;
    std::vector<Decl> decls_;
    bool begun_ = false;
    Tick curTime_ = kNever;
};

/// A traced integer value owned by a model.
class TraceSignal {
public:
    TraceSignal() = default;
    explicit TraceSignal(unsigned width, TraceFormat format = TraceFormat::Decimal)
        : width_(width), format_(format) {}

    void attach(TraceFile& file, const std::string& hierName) {
        file_ = &file;
        id_ = file.declare(hierName, width_, format_, value_);
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
    std::uint64_t value_ = 0;
};

/// Pack up to four characters into a 32-bit word shown as ASCII in GTKWave
/// (the waypoint convention of tt-metal kernels: "NSW", "ETXW", "DONE").
std::uint32_t packWaypoint(const char* code);
std::string unpackWaypoint(std::uint32_t word);

}  // namespace cclsim
