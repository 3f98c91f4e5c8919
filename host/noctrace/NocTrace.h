// A tt-metal device-profiler NoC event trace, decoded for replay.
//
// tt-metal's profiler (built with its NoC event tracing on) writes one JSON
// array per op: one object per event, grouped by issuing core (sx, sy) and
// processor (BRISC / NCRISC), each group in time order. Event objects are
// either kernel zone markers ({"zone": "BRISC-KERNEL", "zone_phase":
// "begin"|"end"}) or NoC events ({"type": "READ", "noc": "NOC_0", "dx", "dy",
// "num_bytes", ...}); timestamps are AICLK cycles of the chip's wall clock, and
// coordinates are physical (NoC0) coordinates whichever NoC the event used.
// Public sources: tt-metal tt_metal/tools/profiler (noc_event_profiler, the
// event metadata), tt-npe tt_npe/doc/noc_trace_format.md and its trace ingest.
//
// This file is pure logic (no SystemC): it turns the array into one ordered
// op stream per (core, processor) with the recorded timestamps kept, so the
// replay kernel can issue each op at the recorded gap after the previous one.
// What it does with each event:
//   * READ / WRITE (and their _WITH_STATE forms, which take coordinates and
//     size from the processor's last _SET_STATE event): one transfer;
//   * *_BARRIER_START + *_BARRIER_END: one barrier op holding both times;
//     FULL_BARRIER, ATOMIC_BARRIER, WRITE_FLUSH (single events): a barrier op;
//   * kernel zone begin / end: the stream's start and (when recorded) end; a
//     begin repeated with the same timestamp (the profiler re-emits open
//     zones after a mid-kernel buffer flush) is dropped;
//   * other zones (user zones, the profiler's own "PROFILER-NOC-QUICK-SEND"
//     with an empty "proc"), *_SET_STATE and *_SET_TRID: no op;
//   * anything else (multicast, semaphores, fabric events, ...): an error
//     naming the file, the event index and the type, since replaying it
//     without its cross-core dependencies would give silent wrong timing.
// Every malformed event is an error naming the file and the event index.
#pragma once

#include "models/noc/NocTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim::noctrace {

enum class OpKind : std::uint8_t {
    Read,           ///< noc_async_read of `bytes` from `remote` into this core
    Write,          ///< noc_async_write of `bytes` from this core to `remote`
    ReadBarrier,    ///< noc_async_read_barrier
    WriteBarrier,   ///< noc_async_write_barrier
    AtomicBarrier,  ///< noc_async_atomic_barrier
    FullBarrier,    ///< noc_async_full_barrier (reads, writes and atomics)
    WriteFlush,     ///< noc_async_writes_flushed
};
const char* opKindName(OpKind k);
inline bool isTransfer(OpKind k) {
    return k == OpKind::Read || k == OpKind::Write;
}

struct TraceOp {
    OpKind kind = OpKind::Read;
    std::size_t event = 0;           ///< index of the (first) event in the file's array
    std::uint64_t timestamp = 0;     ///< recorded issue (or barrier start) cycle
    std::uint64_t endTimestamp = 0;  ///< barrier end cycle (= timestamp for single-event barriers)
    bool hasEnd = false;             ///< a barrier recorded as START + END events
    unsigned noc = 0;
    CoreCoord remote;  ///< data source of a read, destination of a write
    std::uint32_t bytes = 0;
};

/// One processor's kernel: its zone and its ops in issue order.
struct TraceStream {
    CoreCoord core;
    std::string proc;            ///< "BRISC" or "NCRISC"
    std::size_t beginEvent = 0;  ///< index of the kernel zone begin
    std::uint64_t begin = 0;     ///< kernel zone begin cycle
    bool hasEnd = false;
    std::uint64_t end = 0;  ///< kernel zone end cycle (when recorded)
    std::vector<TraceOp> ops;
    /// The last recorded cycle of this kernel: its zone end, else its last op.
    std::uint64_t lastCycle() const;
};

struct NocTrace {
    std::string file;
    std::vector<TraceStream> streams;  ///< in file order
    std::size_t events = 0;            ///< objects in the array
    std::size_t ignoredEvents = 0;     ///< zones other than kernel zones, set-state/trid events, duplicates
    std::uint64_t firstBegin() const;  ///< earliest kernel zone begin
    std::uint64_t lastCycle() const;   ///< latest stream lastCycle()
    /// Hardware duration: last kernel end (zone end, or last event where a
    /// trace has no zone ends) minus the first kernel zone begin.
    std::uint64_t measuredCycles() const { return lastCycle() - firstBegin(); }
    std::uint64_t transferBytes() const;
    std::size_t transfers() const;
};

/// Decode the JSON text of a trace; `file` names it in errors. Throws
/// ConfigError ("<file>: event <i>: ...") on anything malformed or unsupported.
NocTrace parseNocTrace(const std::string& text, const std::string& file);
/// Read and decode a trace file (ConfigError if it cannot be read).
NocTrace loadNocTrace(const std::string& path);

}  // namespace cclsim::noctrace
