// EventQueue: the calendar every timing model schedules on. Callbacks run
// at their tick, same-tick callbacks in scheduling order (determinism),
// callbacks may schedule more work (also for the current tick), and a time
// in the past is clamped to now. Kernel resumptions follow the same-tick
// rule of docs/engine.md: delta rounds, model callbacks before kernels,
// kernels least recently served first.
#include "models/common/EventQueue.h"
#include "models/common/Report.h"
#include "models/common/Simulate.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>
#include <systemc>

#include <functional>
#include <memory>
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

/// A calendar task that logs its name when it runs, and may run more code.
struct LoggingTask final : CalendarTask {
    std::vector<std::string>* log = nullptr;
    std::string name;
    std::function<void()> then;
    void onCalendar(std::uint64_t /*arg*/) override {
        log->push_back(name);
        if (then) then();
    }
};

TEST(EventQueue, SameTickOrderRoundsPhasesAndLeastRecentlyServed) {
    EventQueue eq("eq");
    std::vector<std::string> log;
    auto task = [&](const char* name) {
        auto t = std::make_unique<LoggingTask>();
        t->log = &log;
        t->name = name;
        return t;
    };
    auto m1 = task("model 1"), m2 = task("model 2"), m3 = task("model 3, from a kernel");
    auto m4 = task("model 4, from a model callback");
    auto k1 = task("kernel served at 5"), k2 = task("kernel served at 3"), k3 = task("kernel woken by a kernel");
    const Tick t = nsToTicks(10);
    // Kernels scheduled first, callbacks after: the phase decides, not the order.
    eq.atKernel(t, 5, *k1, 0);
    eq.atKernel(t, 3, *k2, 0);
    eq.at(t, *m1, 0);
    eq.at(t, *m2, 0);
    // A callback scheduling a callback for its own tick: the same round.
    m1->then = [&] { eq.at(now(), *m4, 0); };
    // A kernel acting at the tick: what it schedules for the tick runs in the next round.
    k2->then = [&] {
        eq.atKernel(now(), 1, *k3, 0);
        eq.at(now(), *m3, 0);
    };
    cclsim::simulate();
    EXPECT_EQ(log,
              (std::vector<std::string>{"model 1", "model 2", "model 4, from a model callback", "kernel served at 3",
                                        "kernel served at 5", "model 3, from a kernel", "kernel woken by a kernel"}));
    EXPECT_EQ(now(), t);
}

}  // namespace
}  // namespace cclsim
