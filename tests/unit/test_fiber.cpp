// Fiber: the stackful coroutine a kernel runs on (models/core/Fiber.h).
// Pure logic, no simulation: resume runs the body until it yields, yield
// returns to the resumer, locals survive across switches, an exception
// leaves through resume(), and misuse is refused.
#include "models/core/Fiber.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace cclsim {
namespace {

TEST(Fiber, ResumeAndYieldAlternate) {
    std::vector<std::string> log;
    Fiber f(
        [&] {
            log.push_back("body 1");
            Fiber::yield();
            log.push_back("body 2");
            Fiber::yield();
            log.push_back("body 3");
        },
        Fiber::defaultStackBytes());
    EXPECT_FALSE(f.started());
    log.push_back("resumer 1");
    f.resume();
    EXPECT_TRUE(f.started());
    EXPECT_FALSE(f.finished());
    log.push_back("resumer 2");
    f.resume();
    log.push_back("resumer 3");
    f.resume();
    EXPECT_TRUE(f.finished());
    EXPECT_EQ(log, (std::vector<std::string>{"resumer 1", "body 1", "resumer 2", "body 2", "resumer 3", "body 3"}));
    EXPECT_EQ(Fiber::current(), nullptr);
}

TEST(Fiber, LocalsAndFloatingPointSurviveSwitches) {
    // Two fibers interleaved: each keeps its own stack, and the callee-saved
    // state (here a double accumulated across yields) is restored.
    double a = 0, b = 0;
    auto body = [](double* out, double step) {
        return [out, step] {
            double acc = 0;
            char buffer[4096];  // stack use across the switch
            for (int i = 0; i < 8; ++i) {
                buffer[i * 100] = char(i);
                acc += step * std::sqrt(double(i + 1));
                Fiber::yield();
            }
            *out = acc + buffer[700];
        };
    };
    Fiber fa(body(&a, 1.0), Fiber::defaultStackBytes());
    Fiber fb(body(&b, 2.0), Fiber::defaultStackBytes());
    while (!fa.finished() || !fb.finished()) {
        if (!fa.finished()) fa.resume();
        if (!fb.finished()) fb.resume();
    }
    double expect = 0;
    for (int i = 0; i < 8; ++i) expect += std::sqrt(double(i + 1));
    EXPECT_DOUBLE_EQ(a, expect + 7);
    EXPECT_DOUBLE_EQ(b, 2 * expect + 7);
}

TEST(Fiber, AnExceptionLeavesThroughResume) {
    Fiber f(
        [] {
            Fiber::yield();
            throw std::runtime_error("firmware API misuse");
        },
        Fiber::defaultStackBytes());
    f.resume();
    try {
        f.resume();
        ADD_FAILURE() << "the body's exception did not reach the resumer";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "firmware API misuse");
    }
    EXPECT_TRUE(f.finished());
    EXPECT_THROW(f.resume(), std::logic_error) << "a finished fiber cannot be resumed";
}

TEST(Fiber, MisuseIsRefused) {
    EXPECT_THROW(Fiber::yield(), std::logic_error) << "yield outside a fiber";
    Fiber inner([] {}, Fiber::defaultStackBytes());
    bool refused = false;
    Fiber outer(
        [&] {
            try {
                inner.resume();
            } catch (const std::logic_error&) {
                refused = true;
            }
        },
        Fiber::defaultStackBytes());
    outer.resume();
    EXPECT_TRUE(refused) << "a fiber may not resume another";
    EXPECT_TRUE(outer.finished());
}

TEST(Fiber, StackIsWholePagesOfAtLeastTheRequest) {
    Fiber f([] {}, 10'000);
    EXPECT_GE(f.stackBytes(), 10'000u);
    EXPECT_EQ(f.stackBytes() % 4096, 0u);
    f.resume();
    EXPECT_TRUE(f.finished());
}

}  // namespace
}  // namespace cclsim
