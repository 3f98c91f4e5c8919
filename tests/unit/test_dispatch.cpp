// The dispatch model (runtime/Dispatch.h) as pure logic: a program's kernels
// -> the dispatcher's work, and the arch YAML's dispatch section decoded
// strictly. The shipped parameters reproduce tt-metal's program-dispatch
// figures on 256 cores (more than a Wormhole chip has, so only the planner
// can place them; the dispatch workload checks the same figures on a chip).
#include "models/chip/ArchConfig.h"
#include "models/common/Report.h"
#include "runtime/Dispatch.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

namespace cclsim {
namespace {

const std::string kArchPath = test::sourcePath("platforms/arch/wormhole_b0.yaml");

void kernelA() {}
void kernelB() {}

std::uintptr_t id(void (*f)()) {
    return reinterpret_cast<std::uintptr_t>(f);
}

CoreCoord core(unsigned i) {
    return CoreCoord{std::uint8_t(i % 16), std::uint8_t(i / 16)};
}

/// test_pgm_dispatch's program: an empty kernel on each of `processors` RISC-Vs of `cores` cores.
std::vector<DispatchKernel> emptyProgram(unsigned cores, unsigned processors, std::uint32_t bytes) {
    static const char* procs[] = {"brisc", "ncrisc", "trisc0", "trisc1", "trisc2"};
    std::vector<DispatchKernel> out;
    for (unsigned c = 0; c < cores; ++c)
        for (unsigned p = 0; p < processors; ++p) {
            DispatchKernel k;
            k.name = "dispatch_empty";
            k.binaryBytes = bytes;
            k.processor = procs[p];
            k.entry = id(kernelA);
            k.core = core(c);
            out.push_back(k);
        }
    return out;
}

/// Enqueue -> program complete for an empty program: launch, the worker's
/// start-up firmware, the completion report.
double programUs(const ArchConfig& a, const DispatchPlan& p) {
    return ticksToNs(p.launch() + a.worker.costs.kernelStart + p.completion) / 1000.0;
}

TEST(DispatchFit, ReproducesTtMetalProgramDispatchFigures) {
    const ArchConfig a = loadArchConfig(kArchPath);
    ASSERT_TRUE(a.dispatch.present);
    // One processor on 256 cores 2.7 us; all five 3.1 us; all with 12 KB binaries 6.2 us (traced).
    EXPECT_NEAR(programUs(a, planDispatch(a.dispatch, emptyProgram(256, 1, 1024), 0)), 2.7, 0.05);
    EXPECT_NEAR(programUs(a, planDispatch(a.dispatch, emptyProgram(256, 5, 1024), 0)), 3.1, 0.05);
    EXPECT_NEAR(programUs(a, planDispatch(a.dispatch, emptyProgram(256, 5, 12288), 0)), 6.2, 0.05);
    // Binaries are multicast: without per-core arguments the core count does not matter.
    EXPECT_EQ(planDispatch(a.dispatch, emptyProgram(256, 1, 1024), 0).launch(),
              planDispatch(a.dispatch, emptyProgram(80, 1, 1024), 0).launch());
}

DispatchArch simpleArch() {
    DispatchArch d;
    d.present = true;
    d.programOverhead = nsToTicks(1000);
    d.launchMessage = nsToTicks(10);
    d.binaryWrite = nsToTicks(40);
    d.binaryBytesPerNs = 10;
    d.unicastWrite = nsToTicks(20);
    d.argBytesPerNs = 4;
    d.goSignal = nsToTicks(100);
    d.completion = nsToTicks(200);
    d.tunnelHop = nsToTicks(500);
    d.defaultBinaryBytes = 1000;
    d.binaryBytes = {{"edm", 2000}, {"edm_big", 3000}};
    return d;
}

TEST(DispatchPlan, EachTermFromTheProgramsStructure) {
    const DispatchArch d = simpleArch();
    std::vector<DispatchKernel> ks;
    // Two cores run kernel A (same compile-time args): one multicast binary.
    for (unsigned c = 0; c < 2; ++c) ks.push_back({"worker", 0, "brisc", id(kernelA), core(c), false, {1}, 4, 2});
    // A third core runs A with other compile-time args: another binary, another group.
    ks.push_back({"worker", 0, "brisc", id(kernelA), core(2), false, {2}, 0, 0});
    // Two Ethernet cores run the same EDM code: one unicast write each.
    for (unsigned c = 3; c < 5; ++c) ks.push_back({"edm_x", 0, "erisc", id(kernelB), core(c), true, {}, 8, 0});
    const DispatchPlan p = planDispatch(d, ks, 2);
    EXPECT_EQ(p.kernels, 5u);
    EXPECT_EQ(p.cores, 5u);
    EXPECT_EQ(p.binaries, 4u);  // A{1}, A{2}, EDM x 2
    EXPECT_EQ(p.binaryBytes, 1000u + 1000 + 2000 + 2000);
    EXPECT_EQ(p.kernelGroups, 3u);  // {A1} x2, {A2}, {EDM} x2
    EXPECT_EQ(p.binaryWrites, 4 * nsToTicks(40) + nsToTicks(6000.0 / 10));
    // Config bytes: cores 0-1 4 args + 2 semaphores (24 B), core 2 none, EDM cores 8 args (32 B).
    EXPECT_EQ(p.argBytes, 2u * 24 + 2 * 32);
    EXPECT_EQ(p.argWrites, 2 * (nsToTicks(20) + nsToTicks(24.0 / 4)) + 2 * (nsToTicks(20) + nsToTicks(32.0 / 4)));
    EXPECT_EQ(p.tunnel, 2 * nsToTicks(500));
    EXPECT_EQ(p.launchMessages, 3 * nsToTicks(10));
    EXPECT_EQ(p.launch(),
              p.tunnel + nsToTicks(1000) + p.launchMessages + p.binaryWrites + p.argWrites + nsToTicks(100));
    EXPECT_EQ(p.completion, nsToTicks(200));
}

TEST(DispatchPlan, ProcessorsAreSeparateBinariesOfOneGroup) {
    const DispatchArch d = simpleArch();
    const DispatchPlan p = planDispatch(d, emptyProgram(8, 5, 0), 0);
    EXPECT_EQ(p.binaries, 5u);
    EXPECT_EQ(p.kernelGroups, 1u);
    EXPECT_EQ(p.binaryBytes, 5000u);  // 0: the default size
}

TEST(DispatchPlan, DifferentCodeIsADifferentBinary) {
    const DispatchArch d = simpleArch();
    std::vector<DispatchKernel> ks{{"w", 0, "brisc", id(kernelA), core(0), false, {}, 0, 0},
                                   {"w", 0, "brisc", id(kernelB), core(1), false, {}, 0, 0}};
    EXPECT_EQ(planDispatch(d, ks, 0).binaries, 2u);
    EXPECT_EQ(planDispatch(d, ks, 0).kernelGroups, 2u);
}

TEST(DispatchPlan, NoSectionOrNoKernelsMeansNoDispatch) {
    DispatchArch off = simpleArch();
    off.present = false;
    EXPECT_EQ(planDispatch(off, emptyProgram(4, 1, 64), 3).launch(), 0u);
    EXPECT_EQ(planDispatch(off, emptyProgram(4, 1, 64), 3).completion, 0u);
    EXPECT_EQ(planDispatch(simpleArch(), {}, 3).launch(), 0u);
}

TEST(DispatchPlan, BinarySizeByLongestNamePrefix) {
    const DispatchArch d = simpleArch();
    EXPECT_EQ(d.binaryBytesOf("edm_big_0"), 3000u);
    EXPECT_EQ(d.binaryBytesOf("edm_3"), 2000u);
    EXPECT_EQ(d.binaryBytesOf("worker"), 1000u);
    EXPECT_EQ(d.binaryBytesOf("ed"), 1000u);
}

// ---- decoding ---------------------------------------------------------------------

std::string replaceLine(const std::string& text, const std::string& needle, const std::string& line) {
    const auto at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    const auto begin = text.rfind('\n', at) + 1;
    const auto end = text.find('\n', at);
    return text.substr(0, begin) + line + (line.empty() ? "" : "\n") + text.substr(end + 1);
}

class DispatchConfigErrors : public ::testing::Test {
protected:
    test::ScratchDir dir;
    const std::string original = test::readText(kArchPath);
    std::string load(const std::string& text) {
        const std::string path = dir.write("arch.yaml", text);
        return test::thrownMessage([&] { loadArchConfig(path); });
    }
};

TEST_F(DispatchConfigErrors, ShippedValuesDecode) {
    const ArchConfig a = loadArchConfig(kArchPath);
    EXPECT_EQ(a.dispatch.binaryBytesOf("edm"), 8192u);
    EXPECT_EQ(a.dispatch.binaryBytesOf("fabric_router_E0"), 12288u);
    EXPECT_EQ(a.dispatch.binaryBytesOf("gather_fabric"), 4096u);
    EXPECT_GT(a.worker.costs.kernelStart, 0u);
    EXPECT_GT(a.erisc.costs.kernelStart, 0u);
}

TEST_F(DispatchConfigErrors, NegativeCost) {
    const std::string text = replaceLine(original, "go_signal_ns:", "  go_signal_ns: -5");
    test::expectContains(load(text), {"arch.yaml:" + std::to_string(test::lineOf(text, "go_signal_ns")),
                                      "dispatch.go_signal_ns", "must be >= 0"});
}

TEST_F(DispatchConfigErrors, ZeroRate) {
    const std::string text = replaceLine(original, "  binary_bytes_per_ns: 18.2", "  binary_bytes_per_ns: 0");
    test::expectContains(load(text), {"dispatch.binary_bytes_per_ns", "must be > 0"});
}

TEST_F(DispatchConfigErrors, BinarySizeNotWords) {
    const std::string text = replaceLine(original, "    edm: 8192", "    edm: 8190");
    test::expectContains(load(text), {"dispatch.kernel_binary_bytes.edm", "4-byte words"});
}

TEST_F(DispatchConfigErrors, MissingDefaultBinarySize) {
    const std::string text = replaceLine(original, "    default: 4096", "");
    test::expectContains(load(text), {"dispatch.kernel_binary_bytes", "default"});
}

TEST_F(DispatchConfigErrors, UnknownKey) {
    const std::string text = replaceLine(original, "go_signal_ns:", "  go_signal_ns: 100\n  go_sigal_ns: 100");
    test::expectContains(load(text), {"dispatch.go_sigal_ns"});
}

TEST_F(DispatchConfigErrors, MissingStartUpCost) {
    const std::string text = replaceLine(original, "kernel_start_cycles:", "");
    test::expectContains(load(text), {"kernel_start_cycles"});
}

}  // namespace
}  // namespace cclsim
