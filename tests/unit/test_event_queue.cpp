// EventQueue: the calendar every timing model schedules on. Callbacks run
// at their tick, same-tick callbacks in scheduling order (determinism),
// callbacks may schedule more work (also for the current tick), and a time
// in the past is clamped to now.
#include "models/common/EventQueue.h"
#include "models/common/Report.h"
#include "models/common/Simulate.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>
#include <systemc>

#include <string>
#include <vector>

namespace cclsim {
namespace {

TEST(EventQueue, RefusesAnotherSystemCTimeResolution) {
    // A user's top level set 1 ns before elaborating: every tick would be
    // read as a nanosecond. Elaboration stops with the reason instead.
    sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
    try {
        EventQueue eq("eq");
        ADD_FAILURE() << "an EventQueue elaborated at 1 ns resolution";
    } catch (const ConfigError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("time resolution is 1 ns"), std::string::npos) << msg;
        EXPECT_NE(msg.find("needs 1 ps"), std::string::npos) << msg;
    }
}

TEST(EventQueue, RunsCallbacksAtTheirTickInSchedulingOrder) {
    EventQueue eq("eq");
    std::vector<std::pair<std::string, Tick>> log;
    auto mark = [&](std::string tag) { return [&log, tag] { log.push_back({tag, now()}); }; };
    // Scheduled out of time order, with ties.
    eq.at(nsToTicks(30), mark("c"));
    eq.at(nsToTicks(10), mark("a1"));
    eq.at(nsToTicks(20), mark("b"));
    eq.at(nsToTicks(10), mark("a2"));
    eq.at(0, mark("zero"));
    EXPECT_EQ(eq.pending(), 5u);
    cclsim::simulate();

    using Log = std::vector<std::pair<std::string, Tick>>;
    EXPECT_EQ(log, (Log{{"zero", 0}, {"a1", 10'000}, {"a2", 10'000}, {"b", 20'000}, {"c", 30'000}}));
    EXPECT_EQ(eq.pending(), 0u);
    EXPECT_EQ(eq.fired(), 5u);
    EXPECT_EQ(now(), 30'000u) << "the simulation ends at the last event";
}

TEST(EventQueue, CallbacksMayScheduleMoreWork) {
    EventQueue eq("eq");
    std::vector<std::pair<std::string, Tick>> log;
    auto mark = [&](std::string tag) { log.push_back({tag, now()}); };
    eq.at(nsToTicks(10), [&] {
        mark("first");
        eq.at(now(), [&] { mark("same tick"); });              // runs in this tick, after "first"
        eq.at(now() - 5'000, [&] { mark("past, clamped"); });  // clamped to now
        eq.after(nsToTicks(5), [&] {
            mark("later");
            eq.after(0, [&] { mark("nested zero delay"); });
        });
        // An earlier tick than anything pending re-arms the calendar.
        eq.at(nsToTicks(12), [&] { mark("earlier than later"); });
    });
    eq.at(nsToTicks(100), [&] { mark("last"); });
    cclsim::simulate();

    using Log = std::vector<std::pair<std::string, Tick>>;
    EXPECT_EQ(log, (Log{{"first", 10'000},
                        {"same tick", 10'000},
                        {"past, clamped", 10'000},
                        {"earlier than later", 12'000},
                        {"later", 15'000},
                        {"nested zero delay", 15'000},
                        {"last", 100'000}}));
}

TEST(EventQueue, SchedulingBetweenSimulationSlices) {
    EventQueue eq("eq");
    std::vector<Tick> ran;
    eq.at(nsToTicks(10), [&] { ran.push_back(now()); });
    cclsim::simulate(sc_core::sc_time(5, sc_core::SC_NS));
    EXPECT_TRUE(ran.empty());
    // From the testbench while the simulation is paused at 5 ns.
    eq.at(nsToTicks(7), [&] { ran.push_back(now()); });
    eq.at(nsToTicks(1), [&] { ran.push_back(now()); });  // in the past: runs at 5 ns
    cclsim::simulate();
    EXPECT_EQ(ran, (std::vector<Tick>{5'000, 7'000, 10'000}));
}

}  // namespace
}  // namespace cclsim
