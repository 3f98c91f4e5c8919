#include "host/noctrace/NocTrace.h"

#include "models/common/Report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

namespace cclsim::noctrace {

const char* opKindName(OpKind k) {
    switch (k) {
        case OpKind::Read: return "read";
        case OpKind::Write: return "write";
        case OpKind::ReadBarrier: return "read barrier";
        case OpKind::WriteBarrier: return "write barrier";
        case OpKind::AtomicBarrier: return "atomic barrier";
        case OpKind::FullBarrier: return "full barrier";
        case OpKind::WriteFlush: return "write flush";
    }
    return "?";
}

std::uint64_t TraceStream::lastCycle() const {
    if (hasEnd) return end;
    return ops.empty() ? begin : ops.back().endTimestamp;
}

std::uint64_t NocTrace::firstBegin() const {
    std::uint64_t t = UINT64_MAX;
    for (const TraceStream& s : streams) t = std::min(t, s.begin);
    return streams.empty() ? 0 : t;
}

std::uint64_t NocTrace::lastCycle() const {
    std::uint64_t t = 0;
    for (const TraceStream& s : streams) t = std::max(t, s.lastCycle());
    return t;
}

std::uint64_t NocTrace::transferBytes() const {
    std::uint64_t n = 0;
    for (const TraceStream& s : streams)
        for (const TraceOp& o : s.ops)
            if (isTransfer(o.kind)) n += o.bytes;
    return n;
}

std::size_t NocTrace::transfers() const {
    std::size_t n = 0;
    for (const TraceStream& s : streams)
        for (const TraceOp& o : s.ops) n += isTransfer(o.kind) ? 1 : 0;
    return n;
}

namespace {

using nlohmann::json;

/// What a NoC event type means for the replay.
enum class Role { Transfer, SetState, BarrierStart, BarrierEnd, SingleBarrier, NoOp };
struct TypeInfo {
    Role role;
    OpKind kind;     ///< transfer or barrier kind
    bool withState;  ///< takes coordinates and size from the last *_SET_STATE
};

const std::map<std::string, TypeInfo>& eventTypes() {
    static const std::map<std::string, TypeInfo> t = {
        {"READ", {Role::Transfer, OpKind::Read, false}},
        {"READ_WITH_STATE", {Role::Transfer, OpKind::Read, true}},
        {"READ_WITH_STATE_AND_TRID", {Role::Transfer, OpKind::Read, true}},
        {"READ_DRAM_SHARDED_WITH_STATE", {Role::Transfer, OpKind::Read, true}},
        {"READ_SET_STATE", {Role::SetState, OpKind::Read, false}},
        {"READ_DRAM_SHARDED_SET_STATE", {Role::SetState, OpKind::Read, false}},
        {"READ_SET_TRID", {Role::NoOp, OpKind::Read, false}},
        {"READ_BARRIER_START", {Role::BarrierStart, OpKind::ReadBarrier, false}},
        {"READ_BARRIER_END", {Role::BarrierEnd, OpKind::ReadBarrier, false}},
        {"READ_BARRIER_WITH_TRID", {Role::SingleBarrier, OpKind::ReadBarrier, false}},
        {"WRITE", {Role::Transfer, OpKind::Write, false}},
        {"WRITE_", {Role::Transfer, OpKind::Write, false}},  // spelling of older tt-metal traces
        {"WRITE_WITH_TRID", {Role::Transfer, OpKind::Write, false}},
        {"WRITE_INLINE", {Role::Transfer, OpKind::Write, false}},
        {"WRITE_WITH_STATE", {Role::Transfer, OpKind::Write, true}},
        {"WRITE_WITH_TRID_WITH_STATE", {Role::Transfer, OpKind::Write, true}},
        {"WRITE_SET_STATE", {Role::SetState, OpKind::Write, false}},
        {"WRITE_WITH_TRID_SET_STATE", {Role::SetState, OpKind::Write, false}},
        {"WRITE_BARRIER_START", {Role::BarrierStart, OpKind::WriteBarrier, false}},
        {"WRITE_BARRIER_END", {Role::BarrierEnd, OpKind::WriteBarrier, false}},
        {"WRITE_BARRIER_WITH_TRID", {Role::SingleBarrier, OpKind::WriteBarrier, false}},
        {"WRITE_FLUSH", {Role::SingleBarrier, OpKind::WriteFlush, false}},
        {"FULL_BARRIER", {Role::SingleBarrier, OpKind::FullBarrier, false}},
        {"ATOMIC_BARRIER", {Role::SingleBarrier, OpKind::AtomicBarrier, false}},
    };
    return t;
}

/// Decoding state of one (core, processor).
struct StreamState {
    bool begun = false;
    std::size_t lastEvent = 0;  ///< last event that carried a time (ordering check)
    std::uint64_t lastTime = 0;
    bool saved[2] = {false, false};  ///< [0] read state, [1] write state
    TraceOp savedOp[2];
    bool barrierOpen = false;  ///< a *_BARRIER_START waits for its END
};

class Decoder {
public:
    explicit Decoder(std::string file) { trace_.file = std::move(file); }

    NocTrace run(const json& doc) {
        if (!doc.is_array()) fail("the top level is not a JSON array of events (is this a tt-metal NoC event trace?)");
        trace_.events = doc.size();
        for (std::size_t i = 0; i < doc.size(); ++i) event(i, doc[i]);
        finish();
        return std::move(trace_);
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw ConfigError(fmt::format("{}: {}", trace_.file, what));
    }
    [[noreturn]] void fail(std::size_t i, const std::string& what) const {
        throw ConfigError(fmt::format("{}: event {}: {}", trace_.file, i, what));
    }

    std::int64_t integer(std::size_t i, const json& e, const char* key) const {
        const auto it = e.find(key);
        if (it == e.end()) fail(i, fmt::format("missing '{}'", key));
        if (!it->is_number_integer()) fail(i, fmt::format("'{}' is not an integer", key));
        return it->get<std::int64_t>();
    }
    std::string string(std::size_t i, const json& e, const char* key) const {
        const auto it = e.find(key);
        if (it == e.end()) fail(i, fmt::format("missing '{}'", key));
        if (!it->is_string()) fail(i, fmt::format("'{}' is not a string", key));
        return it->get<std::string>();
    }
    std::uint8_t coord(std::size_t i, const json& e, const char* key) const {
        const std::int64_t v = integer(i, e, key);
        if (v < 0 || v >= (1 << nocaddr::kCoordBits)) fail(i, fmt::format("'{}' = {} is not a NoC coordinate", key, v));
        return std::uint8_t(v);
    }

    std::size_t streamOf(std::size_t i, const std::string& proc, CoreCoord core) {
        const auto key = std::make_pair(core, proc);
        const auto it = index_.find(key);
        if (it != index_.end()) return it->second;
        TraceStream s;
        s.core = core;
        s.proc = proc;
        s.beginEvent = i;
        trace_.streams.push_back(s);
        states_.emplace_back();
        index_.emplace(key, trace_.streams.size() - 1);
        return trace_.streams.size() - 1;
    }

    /// Events of one processor must come in time order.
    void ordered(std::size_t i, std::size_t s, std::uint64_t t) {
        StreamState& st = states_[s];
        const TraceStream& ts = trace_.streams[s];
        if (st.begun || !ts.ops.empty())
            if (t < st.lastTime)
                fail(i, fmt::format("timestamp {} is earlier than event {} ({}) of {} {}: a processor's events "
                                    "must be in time order",
                                    t, st.lastEvent, st.lastTime, ts.proc, ts.core.str()));
        st.lastTime = t;
        st.lastEvent = i;
    }

    void event(std::size_t i, const json& e) {
        if (!e.is_object()) fail(i, "not a JSON object");
        const std::string proc = string(i, e, "proc");
        const std::int64_t ts = integer(i, e, "timestamp");
        if (ts < 0) fail(i, fmt::format("negative timestamp {}", ts));
        const bool isZone = e.contains("zone");
        if (proc.empty()) {
            // The profiler's own markers (e.g. PROFILER-NOC-QUICK-SEND) carry no processor.
            if (!isZone) fail(i, "a NoC event without a processor ('proc' is empty)");
            ++trace_.ignoredEvents;
            return;
        }
        if (proc != "BRISC" && proc != "NCRISC")
            fail(i, fmt::format("processor '{}': the single-chip replay takes worker data-movement processors "
                                "(BRISC, NCRISC)",
                                proc));
        const CoreCoord core{coord(i, e, "sx"), coord(i, e, "sy")};
        if (isZone)
            zone(i, e, proc, core, std::uint64_t(ts));
        else
            nocEvent(i, e, proc, core, std::uint64_t(ts));
    }

    void zone(std::size_t i, const json& e, const std::string& proc, CoreCoord core, std::uint64_t ts) {
        const std::string name = string(i, e, "zone");
        const std::string phase = string(i, e, "zone_phase");
        if (phase != "begin" && phase != "end")
            fail(i, fmt::format("zone_phase '{}' (expected 'begin' or 'end')", phase));
        if (name != proc + "-KERNEL") {  // a user zone inside the kernel: no NoC traffic of its own
            ++trace_.ignoredEvents;
            return;
        }
        const std::size_t s = streamOf(i, proc, core);
        TraceStream& st = trace_.streams[s];
        StreamState& ss = states_[s];
        if (phase == "begin") {
            if (ss.begun) {
                if (ts == st.begin) {  // re-emitted after a profiler buffer flush
                    ++trace_.ignoredEvents;
                    return;
                }
                fail(i, fmt::format("a second {} begin on {} (first at event {}): a trace replays one kernel "
                                    "run per processor",
                                    name, core.str(), st.beginEvent));
            }
            if (!st.ops.empty())
                fail(i, fmt::format("{} begin on {} comes after its NoC event {}", name, core.str(), st.ops[0].event));
            ss.begun = true;
            st.begin = ts;
            st.beginEvent = i;
            ordered(i, s, ts);
            return;
        }
        if (!ss.begun) fail(i, fmt::format("{} end on {} without a begin", name, core.str()));
        if (st.hasEnd) {
            if (ts == st.end) {
                ++trace_.ignoredEvents;
                return;
            }
            fail(i, fmt::format("a second {} end on {}", name, core.str()));
        }
        if (ss.barrierOpen)
            fail(i, fmt::format("{} ends while the barrier of event {} has no end event", name, st.ops.back().event));
        ordered(i, s, ts);
        st.hasEnd = true;
        st.end = ts;
    }

    void nocEvent(std::size_t i, const json& e, const std::string& proc, CoreCoord core, std::uint64_t ts) {
        const std::string type = string(i, e, "type");
        const auto it = eventTypes().find(type);
        if (it == eventTypes().end())
            fail(i, fmt::format("event type '{}' cannot be replayed on one chip (supported: reads, writes, their "
                                "set/with-state forms, barriers and flushes; not multicast, semaphores or "
                                "fabric events)",
                                type));
        const TypeInfo info = it->second;
        const std::size_t s = streamOf(i, proc, core);
        TraceStream& st = trace_.streams[s];
        StreamState& ss = states_[s];
        if (st.hasEnd) fail(i, fmt::format("{} on {} after its kernel zone end", type, core.str()));
        if (ss.barrierOpen && info.role != Role::BarrierEnd)
            fail(i, fmt::format("{} on {} {} before the end of the barrier started at event {}", type, proc, core.str(),
                                st.ops.back().event));
        ordered(i, s, ts);
        if (info.role == Role::NoOp) {
            ++trace_.ignoredEvents;
            return;
        }
        if (info.role == Role::BarrierEnd) {
            if (!ss.barrierOpen || st.ops.back().kind != info.kind)
                fail(i, fmt::format("{} without a matching {}_START on {} {}", type, type.substr(0, type.size() - 4),
                                    proc, core.str()));
            st.ops.back().endTimestamp = ts;
            st.ops.back().hasEnd = true;
            ss.barrierOpen = false;
            return;
        }
        TraceOp op;
        op.kind = info.kind;
        op.event = i;
        op.timestamp = ts;
        op.endTimestamp = ts;
        op.noc = nocOf(i, e);
        if (info.role == Role::BarrierStart || info.role == Role::SingleBarrier) {
            st.ops.push_back(op);
            ss.barrierOpen = info.role == Role::BarrierStart;
            return;
        }
        const unsigned dir = info.kind == OpKind::Read ? 0 : 1;
        const std::int64_t bytes = e.contains("num_bytes") ? integer(i, e, "num_bytes") : 0;
        if (bytes < 0 || bytes > INT32_MAX) fail(i, fmt::format("num_bytes {} out of range", bytes));
        if (info.role == Role::SetState) {
            op.remote = {coord(i, e, "dx"), coord(i, e, "dy")};
            op.bytes = std::uint32_t(bytes);
            ss.savedOp[dir] = op;
            ss.saved[dir] = true;
            ++trace_.ignoredEvents;
            return;
        }
        if (info.withState) {
            if (!ss.saved[dir])
                fail(i, fmt::format("{} without an earlier {}_SET_STATE on {} {}", type, dir == 0 ? "READ" : "WRITE",
                                    proc, core.str()));
            op.remote = ss.savedOp[dir].remote;
            op.bytes = bytes > 0 ? std::uint32_t(bytes) : ss.savedOp[dir].bytes;
        } else {
            op.remote = {coord(i, e, "dx"), coord(i, e, "dy")};
            op.bytes = std::uint32_t(bytes);
            if (type == "WRITE_INLINE" && op.bytes == 0) op.bytes = 4;  // one 32-bit word carried in the command
        }
        if (op.bytes == 0) fail(i, fmt::format("{} of 0 bytes (num_bytes missing or 0)", type));
        st.ops.push_back(op);
    }

    unsigned nocOf(std::size_t i, const json& e) const {
        const std::string n = string(i, e, "noc");
        if (n == "NOC_0") return 0;
        if (n == "NOC_1") return 1;
        fail(i, fmt::format("noc '{}' (expected NOC_0 or NOC_1)", n));
    }

    void finish() {
        if (trace_.streams.empty()) fail("no kernel events (a trace needs BRISC/NCRISC kernel zones and NoC events)");
        for (std::size_t s = 0; s < trace_.streams.size(); ++s) {
            const TraceStream& st = trace_.streams[s];
            if (!states_[s].begun)
                fail(st.ops.empty() ? st.beginEvent : st.ops[0].event,
                     fmt::format("{} {} has NoC events but no {}-KERNEL zone begin", st.proc, st.core.str(), st.proc));
            if (states_[s].barrierOpen)
                fail(st.ops.back().event, fmt::format("barrier on {} {} has no end event", st.proc, st.core.str()));
        }
    }

    NocTrace trace_;
    std::vector<StreamState> states_;
    std::map<std::pair<CoreCoord, std::string>, std::size_t> index_;
};

}  // namespace

NocTrace parseNocTrace(const std::string& text, const std::string& file) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw ConfigError(fmt::format("{}: not valid JSON (byte {}): {}", file, e.byte, e.what()));
    }
    return Decoder(file).run(doc);
}

NocTrace loadNocTrace(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError(fmt::format("{}: cannot open the NoC trace file", path));
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseNocTrace(ss.str(), path);
}

}  // namespace cclsim::noctrace
