// Bad input: a clear error naming what and where, a non-zero exit, never a hang.
#include "firmware/api/eth_dataflow_api.h"
#include "firmware/microbench/microbench_kernels.h"
#include "host/edm/EdmBuilder.h"
#include "models/common/Report.h"
#include "runtime/Runtime.h"
#include "tests/coverif/CoverifHelpers.h"
#include "tests/coverif/N300Bench.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>

using cclsim::test::runGalaxy;
using cclsim::test::runN300;
using cclsim::test::runT3000;
using namespace cclsim;

namespace {

std::string writeTemp(const std::string& name, const std::string& text) {
    const std::string path = std::string(::testing::TempDir()) + name;
    std::ofstream(path) << text;
    return path;
}

const char* kArch = CCLSIM_SOURCE_DIR "/platforms/arch/wormhole_b0.yaml";

std::string cluster(const std::string& links, const std::string& extra = "") {
    return std::string("name: test\narch: ") + kArch + "\nchips:\n  - {id: 0, pcie: true}\n  - {id: 1}\nlinks:\n" +
           links + extra;
}

std::string errorOf(const nlohmann::json& rep) {
    return rep.value("error", std::string());
}

/// Elaborate the N300 platform and run hand-written kernels on it.
struct Bench : test::N300Bench {
    CoreCoord userEth0 = desc.arch.ethCores[9];  // chip 0 channel 9 <-> chip 1 channel 1
    CoreCoord userEth1 = desc.arch.ethCores[1];
};

}  // namespace

TEST(BadInput, UnknownWorkloadIsUsageError) {
    const auto rep = runN300({"no_such_workload"}, 2);
    EXPECT_NE(errorOf(rep).find("no_such_workload"), std::string::npos);
}

TEST(BadInput, UnknownOptionIsUsageError) {
    const auto rep = runN300({"eth_ping", "--no-such-option"}, 2);
    EXPECT_NE(errorOf(rep).find("--no-such-option"), std::string::npos);
}

TEST(BadInput, UnknownYamlKeyNamesFileLineKey) {
    const auto f = writeTemp("unknown_key.yaml",
                             cluster("  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}}\n", "colour: blue\n"));
    const auto rep = runN300({"eth_ping", "--cluster", f}, 3);
    EXPECT_NE(errorOf(rep).find(f + ":8"), std::string::npos) << errorOf(rep);
    EXPECT_NE(errorOf(rep).find("unknown key 'colour'"), std::string::npos) << errorOf(rep);
}

TEST(BadInput, WrongTypeNamesKey) {
    const auto f = writeTemp("wrong_type.yaml", cluster("  - {a: {chip: zero, chan: 9}, b: {chip: 1, chan: 1}}\n"));
    const auto rep = runN300({"eth_ping", "--cluster", f}, 3);
    EXPECT_NE(errorOf(rep).find("links[0].a.chip"), std::string::npos) << errorOf(rep);
    EXPECT_NE(errorOf(rep).find(f + ":7"), std::string::npos) << errorOf(rep);
}

TEST(BadInput, LinkToMissingChip) {
    const auto f = writeTemp("missing_chip.yaml", cluster("  - {a: {chip: 0, chan: 9}, b: {chip: 7, chan: 1}}\n"));
    const auto rep = runN300({"eth_ping", "--cluster", f}, 3);
    EXPECT_NE(errorOf(rep).find("chip 7"), std::string::npos) << errorOf(rep);
    EXPECT_NE(errorOf(rep).find("links[0].b.chip"), std::string::npos) << errorOf(rep);
}

TEST(BadInput, LinkToMissingChannel) {
    const auto f = writeTemp("missing_chan.yaml", cluster("  - {a: {chip: 0, chan: 16}, b: {chip: 1, chan: 1}}\n"));
    const auto rep = runN300({"eth_ping", "--cluster", f}, 3);
    EXPECT_NE(errorOf(rep).find("channel 16"), std::string::npos) << errorOf(rep);
}

TEST(BadInput, ChannelInTwoLinks) {
    const auto f = writeTemp("twice.yaml", cluster("  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 1}}\n"
                                                   "  - {a: {chip: 0, chan: 9}, b: {chip: 1, chan: 2}}\n"));
    const auto rep = runN300({"eth_ping", "--cluster", f}, 3);
    EXPECT_NE(errorOf(rep).find("chip 0 channel 9"), std::string::npos) << errorOf(rep);
    EXPECT_NE(errorOf(rep).find("already used"), std::string::npos) << errorOf(rep);
}

TEST(BadInput, YamlSyntaxError) {
    const auto f = writeTemp("syntax.yaml", "name: [unclosed\n");
    const auto rep = runN300({"eth_ping", "--cluster", f}, 3);
    EXPECT_NE(errorOf(rep).find("syntax error"), std::string::npos) << errorOf(rep);
}

TEST(BadInput, KernelOnDispatchLinkRefused) {
    Bench b;
    const CoreCoord dispatchEth = b.desc.arch.ethCores[8];  // chip 0 channel 8 carries dispatch
    try {
        b.rt.program(0).createKernel(
            "user", [] {}, dispatchEth, KernelConfig{});
        FAIL() << "a user kernel on the dispatch link's core must be refused";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("reserved for dispatch"), std::string::npos) << e.what();
    }
}

TEST(BadInput, MisalignedEthSendReportsCoreTimeValues) {
    Bench b;
    b.rt.setDispatchTime(1, 1000 * kTicksPerNs);
    // The word-address form cannot express a misaligned address: send bytes instead.
    b.rt.program(1).createKernel(
        "misaligned_bytes", [] { fw::eth_send_bytes(0x1A818, 0x1A810, 32, 32); }, b.userEth1, KernelConfig{});
    try {
        b.rt.run();
        FAIL() << "a misaligned send must stop the simulation";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("n300.chip1.eth1"), std::string::npos) << m;  // the core
        // The simulated time: the kernel's start, after chip 1's dispatch from its enqueue at 1000 ns.
        const Tick start = b.rt.launchTime(1);
        EXPECT_GT(start, 1000 * kTicksPerNs);
        EXPECT_NE(m.find(fmt::format("at {:.3f} ns", ticksToNs(start))), std::string::npos) << m;
        EXPECT_NE(m.find("src=0x1a818"), std::string::npos) << m;  // the values
        EXPECT_NE(m.find("16 B aligned"), std::string::npos) << m;
    }
}

TEST(BadInput, EthSendOutsideKernelRegion) {
    Bench b;
    b.rt.program(0).createKernel(
        "reserved", [] { fw::eth_send_packet(0, 0x100 >> 4, 0x1A810 >> 4, 1); }, b.userEth0, KernelConfig{});
    try {
        b.rt.run();
        FAIL() << "a send from the reserved firmware region must stop the simulation";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("outside the kernel-usable L1"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("src=0x100"), std::string::npos) << e.what();
    }
}

TEST(BadInput, EthTxqRegWriteOfAnUnmodelledRegister) {
    Bench b;
    b.rt.program(0).createKernel(
        "txq_reg", [] { fw::eth_txq_reg_write(0, 0x10, 1); }, b.userEth0, KernelConfig{});
    try {
        b.rt.run();
        FAIL() << "a write to a tx queue register the model does not have must stop the simulation";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("eth_txq_reg_write"), std::string::npos) << m;
        EXPECT_NE(m.find("0x10"), std::string::npos) << m;
        EXPECT_NE(m.find("ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD"), std::string::npos) << m;
    }
}

TEST(BadInput, EthTxqRegWriteToAQueueThatDoesNotExist) {
    Bench b;
    b.rt.program(0).createKernel(
        "txq_reg", [] { fw::eth_txq_reg_write(5, fw::ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD, 32); }, b.userEth0,
        KernelConfig{});
    try {
        b.rt.run();
        FAIL() << "a write to tx_cmd_q 5 must stop the simulation";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("tx_cmd_q 5 does not exist"), std::string::npos) << e.what();
    }
}

TEST(BadInput, NocWriteOutsideTargetL1) {
    Bench b;
    const CoreCoord w = b.desc.arch.workers[0];
    const CoreCoord other = b.desc.arch.workers[1];
    b.rt.program(0).createKernel(
        "overflow", [other] { fw::noc_async_write(0x20000, fw::get_noc_addr(other.x, other.y, 0x16E000), 0x2000); }, w,
        KernelConfig{});
    try {
        b.rt.run();
        FAIL() << "a write beyond the target's L1 must stop the simulation";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("outside the memory of core"), std::string::npos) << e.what();
    }
}

// The receiver expects more messages than the sender sends: the run ends
// quickly with a report of every blocked kernel, its waypoint and what it waits on.
TEST(BadInput, DeadlockIsReportedNotHung) {
    Bench b;
    const std::uint32_t base = b.desc.arch.erisc.unreservedBase;
    auto ping = [&](unsigned chip, CoreCoord core, bool master, std::uint32_t samples) {
        Program& p = b.rt.program(chip);
        const std::uint32_t tx = p.allocateL1(core, 32, 16), rx = p.allocateL1(core, 32, 16);
        const std::uint32_t res = p.allocateL1(core, 16, 16);
        KernelHandle k = p.createKernel(master ? "ping_master" : "ping_responder", fw::microbench::eth_ping_kernel_main,
                                        core, KernelConfig{});
        p.setRuntimeArgs(k, {master ? 1u : 0u, samples, 16, tx, rx, res, base, fw::microbench::kArgsEndMarker});
    };
    ping(0, b.userEth0, true, 5);
    ping(1, b.userEth1, false, 8);  // waits for three pings that never come
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = b.rt.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_FALSE(r.completed);
    EXPECT_LT(wall, 5.0);
    EXPECT_NE(r.report.find("deadlock"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("n300.chip1.eth1.erisc(ping_responder)"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("waypoint PONG"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("l1_word_is_not on L1 word"), std::string::npos) << r.report;
    EXPECT_EQ(r.report.find("ping_master"), std::string::npos) << "the master finished: " << r.report;
}

TEST(BadInput, DeadlockExitCode) {
    // ring_ping over chips that are not connected as a ring is refused up front.
    const auto rep = runN300({"ring_ping", "--hops", "3", "--order", "0,1,1"}, 3);
    EXPECT_NE(errorOf(rep).find("to itself"), std::string::npos) << errorOf(rep);
}

// A time limit before the next event stops the run at once (it used to spin:
// SystemC does not advance time past the last event on starvation).
TEST(BadInput, TimeLimitBeforeTheNextEventEndsTheRun) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto rep = runN300({"eth_ping", "--max-sim-us", "1"}, 5);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    EXPECT_NE(errorOf(rep).find("time limit reached"), std::string::npos) << errorOf(rep);
    // It names the limit (time stays short of it when nothing happens before it)
    // and, like every failure's report, carries the exit code.
    EXPECT_NE(errorOf(rep).find("(the limit: 1.000 us)"), std::string::npos) << errorOf(rep);
    EXPECT_EQ(rep.value("exit_code", -1), 5) << rep.dump(2);
    EXPECT_TRUE(rep.contains("params")) << rep.dump(2);
}

// Refusals found by bench/config_campaign.py name the option to change.
TEST(BadInput, RefusalsNameTheOption) {
    auto expectNamed = [](const nlohmann::json& rep, const std::string& fragment) {
        EXPECT_NE(errorOf(rep).find(fragment), std::string::npos) << errorOf(rep);
    };
    // An unknown data type names --dtype on every collective, reducing or not.
    expectNamed(runN300({"all_to_all", "--size", "32K", "--dtype", "no_such_value"}, 3), "--dtype: unknown data type");
    expectNamed(runN300({"reduce_scatter", "--size", "32K", "--op", "no_such_op"}, 3), "--op: ");
    // The IPCQ all-reduce's tensor size limit names --size.
    expectNamed(runN300({"ipcq_allreduce", "--size", "99999999999"}, 3), "--size 99999999999: a tensor of");
    // Workers that leave no core for the fabric's muxes: fewer --workers (the
    // reduce-scatter's workers; the line all-gather after it runs one per link).
    expectNamed(runGalaxy({"all_reduce", "--size", "64", "--topology", "line", "--workers", "9"}, 3),
                "fewer workers or links");
    expectNamed(runT3000({"all_reduce", "--size", "64K", "--workers", "10", "--links", "1"}, 3),
                "fewer workers per link");
    // fabric_traffic's receive buffers outgrow L1: which options size them.
    expectNamed(runN300({"edm_stream", "--packet", "4096", "--bidir", "--buffers", "8"}, 3),
                "(--buffers 8 x --packet 4096 per channel, --channels ");
    // A relayed hop without enough links per pair: fewer --links.
    expectNamed(
        runT3000({"all_gather", "--size", "100", "--impl", "edm", "--group", "orthogonal:2", "--links", "3"}, 3),
        "(fewer --links, or other chips)");
    expectNamed(runT3000({"fabric_traffic", "--messages", "64", "--max-bytes", "4096"}, 3),
                "(--messages 64 x --max-bytes 4096 per chip pair: fewer or smaller buffers fit)");
}

// CLI11 reads "-5" into an unsigned option as 2^64 - 5, and --peer -5 meant the
// default peer: negative values are usage errors naming the option.
TEST(BadInput, NegativeValuesAreRefused) {
    EXPECT_NE(errorOf(runN300({"all_gather", "--seed", "-5"}, 2)).find("--seed: must not be negative"),
              std::string::npos);
    EXPECT_NE(errorOf(runN300({"pto", "--peer", "-1"}, 2)).find("--peer: must not be negative"), std::string::npos);
    EXPECT_NE(errorOf(runN300({"fabric_ping", "--src", "-2"}, 2)).find("--src: must not be negative"),
              std::string::npos);
}

// A protocol that reads payload bytes cannot run without them: refused with
// why (exit 3), where it used to wait forever and end as a deadlock (exit 5).
TEST(BadInput, NoDataWherePayloadIsProtocol) {
    const auto ping = runN300({"fabric_ping", "--no-data"}, 3);
    EXPECT_NE(errorOf(ping).find("--mode write polls the sequence number"), std::string::npos) << errorOf(ping);
    runN300({"fabric_ping", "--no-data", "--mode", "atomic"}, 0);
    const auto pto = runN300({"pto", "--no-data"}, 3);
    EXPECT_NE(errorOf(pto).find("--no-data cannot run pto"), std::string::npos) << errorOf(pto);
}

// The two EDMs of a link must agree on the slots per channel (the workers and
// both EDMs walk the same ring of slots); a slot count out of range is refused.
TEST(BadInput, EdmPeersWithDifferentBuffersPerChannel) {
    Bench b;
    const CoreCoord w = b.desc.arch.workers[0];
    edm::EdmBuilder a(b.rt.program(0), b.userEth0, edm::TerminationMode::MESSAGE_COUNT_REACHED, 1, 2);
    edm::EdmBuilder c(b.rt.program(1), b.userEth1, edm::TerminationMode::MESSAGE_COUNT_REACHED, 1, 3);
    a.add_sender_channel(b.rt.program(0).createSemaphore(w, 0, "tx"), 4, {w}, 1024);
    c.add_receiver_channel(b.rt.program(1).createSemaphore(w, 0, "rx"), 4, {w}, 1024);
    try {
        a.check_peer(c);
        FAIL() << "check_peer accepted EDMs with 2 and 3 buffers per channel";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("have 2 and 3 buffers per channel"), std::string::npos) << e.what();
    }
    EXPECT_THROW(
        edm::EdmBuilder(b.rt.program(0), b.desc.arch.ethCores[8], edm::TerminationMode::MESSAGE_COUNT_REACHED, 1, 0),
        ConfigError);
    EXPECT_THROW(edm::EdmBuilder(b.rt.program(0), b.desc.arch.ethCores[8], edm::TerminationMode::MESSAGE_COUNT_REACHED,
                                 1, edm::kMaxBuffersPerChannel + 1),
                 ConfigError);
}
