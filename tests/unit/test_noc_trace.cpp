// The tt-metal NoC event trace decoder (host/noctrace/NocTrace.*): pure
// logic, no SystemC.
#include "host/noctrace/NocTrace.h"
#include "models/common/Report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using namespace cclsim;
using namespace cclsim::noctrace;

namespace {

const char* kSmall = CCLSIM_SOURCE_DIR "/tests/data/noc_trace_small.json";

std::string zone(const char* proc, int x, int y, long t, const char* phase = "begin") {
    return "{\"proc\":\"" + std::string(proc) + "\",\"zone\":\"" + proc + "-KERNEL\",\"zone_phase\":\"" + phase +
           "\",\"sx\":" + std::to_string(x) + ",\"sy\":" + std::to_string(y) + ",\"timestamp\":" + std::to_string(t) +
           "}";
}
std::string ev(const char* proc, const char* type, long t, int dx = 0, int dy = 11, int bytes = 2048,
               const char* noc = "NOC_0") {
    return "{\"proc\":\"" + std::string(proc) + "\",\"noc\":\"" + noc +
           "\",\"sx\":1,\"sy\":1,\"dx\":" + std::to_string(dx) + ",\"dy\":" + std::to_string(dy) +
           ",\"num_bytes\":" + std::to_string(bytes) + ",\"type\":\"" + type + "\",\"timestamp\":" + std::to_string(t) +
           "}";
}
std::string arr(std::initializer_list<std::string> items) {
    std::string s = "[";
    for (const auto& i : items) s += (s.size() > 1 ? "," : "") + i;
    return s + "]";
}

/// The ConfigError text of decoding `text` (empty if it decodes).
std::string errorOf(const std::string& text) {
    try {
        parseNocTrace(text, "t.json");
    } catch (const ConfigError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST(NocTrace, SmallTraceStreamsOpsAndMeasuredCycles) {
    const NocTrace t = loadNocTrace(kSmall);
    ASSERT_EQ(t.streams.size(), 3u);  // BRISC 1-1 (no ops), NCRISC 1-1, BRISC 2-1
    EXPECT_EQ(t.events, 17u);
    EXPECT_EQ(t.ignoredEvents, 3u);  // profiler flush marker, re-emitted zone begin, READ_SET_STATE
    EXPECT_EQ(t.transfers(), 6u);
    EXPECT_EQ(t.transferBytes(), 4u * 2048 + 2u * 4096);
    // Measured: the BRISC 2-1 zone end (1900 after the first zone begin).
    EXPECT_EQ(t.measuredCycles(), 1900u);

    const TraceStream& nc = t.streams[1];
    EXPECT_EQ(nc.proc, "NCRISC");
    EXPECT_EQ(nc.begin, 1000060u);
    ASSERT_EQ(nc.ops.size(), 5u);
    EXPECT_EQ(nc.ops[0].kind, OpKind::Read);
    EXPECT_EQ(nc.ops[0].remote, (CoreCoord{0, 11}));
    EXPECT_EQ(nc.ops[0].bytes, 2048u);
    EXPECT_EQ(nc.ops[4].kind, OpKind::ReadBarrier);
    EXPECT_TRUE(nc.ops[4].hasEnd);
    EXPECT_EQ(nc.ops[4].timestamp, 1000780u);
    EXPECT_EQ(nc.ops[4].endTimestamp, 1001500u);
    EXPECT_FALSE(nc.hasEnd);
    EXPECT_EQ(nc.lastCycle(), 1001500u);

    const TraceStream& br = t.streams[2];
    ASSERT_EQ(br.ops.size(), 3u);
    // READ_WITH_STATE takes coordinates and size from READ_SET_STATE.
    EXPECT_EQ(br.ops[0].remote, (CoreCoord{1, 1}));
    EXPECT_EQ(br.ops[0].bytes, 4096u);
    EXPECT_EQ(br.ops[0].noc, 1u);
    EXPECT_TRUE(br.hasEnd);
    EXPECT_EQ(br.lastCycle(), 1001900u);
}

TEST(NocTrace, SingleEventBarriersAndWrites) {
    const NocTrace t =
        parseNocTrace(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "WRITE", 10, 2, 2, 64),
                           ev("BRISC", "WRITE_FLUSH", 20, -1, -1, 0), ev("BRISC", "FULL_BARRIER", 30, -1, -1, 0)}),
                      "t.json");
    ASSERT_EQ(t.streams[0].ops.size(), 3u);
    EXPECT_EQ(t.streams[0].ops[0].kind, OpKind::Write);
    EXPECT_EQ(t.streams[0].ops[1].kind, OpKind::WriteFlush);
    EXPECT_FALSE(t.streams[0].ops[1].hasEnd);
    EXPECT_EQ(t.streams[0].ops[2].kind, OpKind::FullBarrier);
    EXPECT_EQ(t.measuredCycles(), 30u);  // no zone end: the last event
}

TEST(NocTrace, MalformedJsonNamesFile) {
    EXPECT_NE(errorOf("[{").find("t.json: not valid JSON"), std::string::npos) << errorOf("[{");
    EXPECT_NE(errorOf("{}").find("not a JSON array"), std::string::npos);
    EXPECT_NE(errorOf("[]").find("no kernel events"), std::string::npos);
}

TEST(NocTrace, MissingFieldNamesEventIndex) {
    const std::string e =
        errorOf(arr({zone("BRISC", 1, 1, 0), "{\"proc\":\"BRISC\",\"sx\":1,\"sy\":1,\"type\":\"READ\"}"}));
    EXPECT_NE(e.find("t.json: event 1: missing 'timestamp'"), std::string::npos) << e;
    const std::string b = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "READ", 5, 0, 11, 0)}));
    EXPECT_NE(b.find("event 1: READ of 0 bytes"), std::string::npos) << b;
    const std::string c = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "READ", 5, 0, 11, 64, "NOC_2")}));
    EXPECT_NE(c.find("event 1: noc 'NOC_2'"), std::string::npos) << c;
}

TEST(NocTrace, UnsupportedEventTypeIsAnError) {
    const std::string e = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "WRITE_MULTICAST", 5)}));
    EXPECT_NE(e.find("event 1: event type 'WRITE_MULTICAST' cannot be replayed"), std::string::npos) << e;
    const std::string s = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "SEMAPHORE_WAIT", 5)}));
    EXPECT_NE(s.find("'SEMAPHORE_WAIT'"), std::string::npos) << s;
    const std::string p =
        errorOf(arr({"{\"proc\":\"ERISC\",\"zone\":\"ERISC-KERNEL\",\"zone_phase\":\"begin\",\"sx\":9,"
                     "\"sy\":0,\"timestamp\":1}"}));
    EXPECT_NE(p.find("event 0: processor 'ERISC'"), std::string::npos) << p;
}

TEST(NocTrace, OrderAndPairingErrors) {
    const std::string o = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "READ", 50), ev("BRISC", "READ", 40)}));
    EXPECT_NE(o.find("event 2: timestamp 40 is earlier than event 1"), std::string::npos) << o;
    const std::string end = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "READ_BARRIER_END", 50, -1, -1, 0)}));
    EXPECT_NE(end.find("event 1: READ_BARRIER_END without a matching READ_BARRIER_START"), std::string::npos) << end;
    const std::string open = errorOf(
        arr({zone("BRISC", 1, 1, 0), ev("BRISC", "READ_BARRIER_START", 50, -1, -1, 0), ev("BRISC", "READ", 60)}));
    EXPECT_NE(open.find("event 2: READ on BRISC 1-1 before the end of the barrier started at event 1"),
              std::string::npos)
        << open;
    const std::string nobegin = errorOf(arr({ev("NCRISC", "READ", 50)}));
    EXPECT_NE(nobegin.find("event 0: NCRISC 1-1 has NoC events but no NCRISC-KERNEL zone begin"), std::string::npos)
        << nobegin;
    const std::string twice = errorOf(arr({zone("BRISC", 1, 1, 0), zone("BRISC", 1, 1, 9)}));
    EXPECT_NE(twice.find("event 1: a second BRISC-KERNEL begin"), std::string::npos) << twice;
    const std::string state = errorOf(arr({zone("BRISC", 1, 1, 0), ev("BRISC", "READ_WITH_STATE", 5)}));
    EXPECT_NE(state.find("event 1: READ_WITH_STATE without an earlier READ_SET_STATE"), std::string::npos) << state;
}

TEST(NocTrace, MissingFileIsAnError) {
    try {
        loadNocTrace("/nonexistent/trace.json");
        FAIL() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/trace.json: cannot open"), std::string::npos);
    }
}
