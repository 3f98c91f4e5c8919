// Ops in sequence on a chip (Runtime::createOpGate): the kernels after a
// gate start when every kernel before it has returned, plus the done report
// and the go signal, and not before; their dispatch is not in the chip's
// plan (written while the first op runs). Each case in its own process.
#include "firmware/api/dataflow_api.h"
#include "models/common/ConfigError.h"
#include "models/core/KernelContext.h"
#include "runtime/Runtime.h"
#include "tests/coverif/N300Bench.h"

#include <gtest/gtest.h>

namespace cclsim {
namespace {

using Board = test::N300Bench;
using test::coreAt;

TEST(OpGates, TheSecondOpStartsWhenTheFirstHasReturnedOnItsChip) {
    Board b;
    const unsigned gate = b.rt.createOpGate(0);
    KernelConfig first, second, other;
    first.ends = gate;
    second.after = gate;
    Tick started[3] = {0, 0, 0};
    Tick finished[3] = {0, 0, 0};
    auto kernel = [&](unsigned i, Tick busy) {
        return [&, i, busy] {
            started[i] = KernelContext::current().localTime();
            KernelContext::current().advance(busy);
            finished[i] = KernelContext::current().localTime();
        };
    };
    Program& p = b.rt.program(0);
    p.createKernel("op1_a", kernel(0, 5000 * kTicksPerNs), coreAt(1, 1), first);
    p.createKernel("op1_b", kernel(1, 9000 * kTicksPerNs), coreAt(2, 1), first);
    p.createKernel("op2", kernel(2, 1000 * kTicksPerNs), coreAt(3, 1), second);
    // A kernel of chip 1 is not part of chip 0's sequence.
    b.rt.program(1).createKernel(
        "other", [] { KernelContext::current().advance(100 * kTicksPerNs); }, coreAt(1, 1), other);
    const RunResult r = b.rt.run();
    ASSERT_TRUE(r.completed) << r.report;
    const DispatchPlan& plan = b.rt.dispatchPlan(0);
    // Both first-op kernels start at the chip's launch; the second op after
    // the later one's return (its finish is its last sync) + done + go.
    for (unsigned i : {0u, 1u}) {
        EXPECT_GE(started[i], b.rt.launchTime(0));
        EXPECT_LT(started[i], b.rt.launchTime(0) + 1000 * kTicksPerNs);
    }
    EXPECT_GE(started[2], finished[1] + plan.completion + plan.goSignal);
    EXPECT_LT(started[2], finished[1] + plan.completion + plan.goSignal + 1000 * kTicksPerNs);
    EXPECT_GT(finished[1], finished[0]);
    // The chip's dispatch plans the first op only.
    EXPECT_EQ(plan.kernels, 2u);
}

TEST(OpGates, ASecondOpWithNothingBeforeItStartsAtTheChipsLaunch) {
    Board b;
    const unsigned gate = b.rt.createOpGate(0);
    KernelConfig second;
    second.after = gate;
    Tick started = 0;
    b.rt.program(0).createKernel(
        "op2", [&] { started = KernelContext::current().localTime(); }, coreAt(1, 1), second);
    const RunResult r = b.rt.run();
    ASSERT_TRUE(r.completed) << r.report;
    EXPECT_LT(started, b.rt.launchTime(0) + 1000 * kTicksPerNs);
    EXPECT_GE(started, b.rt.launchTime(0));
}

TEST(OpGates, MisuseIsAConfigurationError) {
    Board b;
    const unsigned gate = b.rt.createOpGate(0);
    KernelConfig both;
    both.ends = both.after = gate;
    EXPECT_THROW(b.rt.program(0).createKernel(
                     "k", [] {}, coreAt(1, 1), both),
                 ConfigError);
    KernelConfig wrongChip;
    wrongChip.after = gate;
    EXPECT_THROW(b.rt.program(1).createKernel(
                     "k", [] {}, coreAt(1, 1), wrongChip),
                 ConfigError);
    KernelConfig unknown;
    unknown.ends = gate + 1;
    EXPECT_THROW(b.rt.program(0).createKernel(
                     "k", [] {}, coreAt(1, 1), unknown),
                 ConfigError);
}

}  // namespace
}  // namespace cclsim
