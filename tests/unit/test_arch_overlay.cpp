// Arch overlays: an arch YAML with `base: <file>` holds only what differs
// from its base (platforms/arch/wormhole_b0_hbm.yaml over wormhole_b0.yaml).
//
// The shipped HBM overlay must decode to exactly the configuration of the
// self-contained copy it replaced (kept as tests/data/arch/
// wormhole_b0_hbm_expanded.yaml), compared field by field. The error cases
// check that an overlay stays as strict as a plain file: an unknown key, a
// bad value, a missing base or a cycle of bases names the file (the overlay's
// or the base's, whichever holds the culprit), the line and the key.
#include "models/chip/ArchConfig.h"
#include "models/common/Report.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <string>

namespace cclsim {
namespace {

using test::lineOf;
using test::ScratchDir;

const std::string kBasePath = test::sourcePath("platforms/arch/wormhole_b0.yaml");
const std::string kHbmPath = test::sourcePath("platforms/arch/wormhole_b0_hbm.yaml");
const std::string kHbmExpandedPath = test::sourcePath("tests/data/arch/wormhole_b0_hbm_expanded.yaml");

#define CCLSIM_SAME(field) EXPECT_EQ(a.field, b.field) << #field

void expectSameCosts(const FirmwareCosts& a, const FirmwareCosts& b, const std::string& which) {
    SCOPED_TRACE(which);
    CCLSIM_SAME(cycle);
    CCLSIM_SAME(l1Access);
    CCLSIM_SAME(pollIteration);
    CCLSIM_SAME(nocCmdIssue);
    CCLSIM_SAME(timerRead);
    CCLSIM_SAME(ethSendIssue);
    CCLSIM_SAME(runRouting);
    CCLSIM_SAME(kernelStart);
    CCLSIM_SAME(semaphoreInit);
    CCLSIM_SAME(eltwiseBytesPerCycle);
}

void expectSameMemory(const DramChannelConfig& a, const DramChannelConfig& b, const std::string& which) {
    SCOPED_TRACE(which);
    CCLSIM_SAME(bankBytes);
    CCLSIM_SAME(banks);
    CCLSIM_SAME(pseudoChannels);
    CCLSIM_SAME(interleaveBytes);
    CCLSIM_SAME(bytesPerNs);
    CCLSIM_SAME(readLatency);
    CCLSIM_SAME(writeLatency);
    CCLSIM_SAME(refreshInterval);
    CCLSIM_SAME(refreshTicks);
    CCLSIM_SAME(storePayload);
}

/// Every decoded field of two arch configs but the file they came from.
void expectSameArch(const ArchConfig& a, const ArchConfig& b) {
    CCLSIM_SAME(name);
    CCLSIM_SAME(aiclkMhz);
    // NoC
    CCLSIM_SAME(noc.gridX);
    CCLSIM_SAME(noc.gridY);
    CCLSIM_SAME(noc.linkBytesPerNs);
    CCLSIM_SAME(noc.hopLatency);
    CCLSIM_SAME(noc.startupLatency);
    CCLSIM_SAME(noc.maxPacketBytes);
    CCLSIM_SAME(noc.headerBytes);
    CCLSIM_SAME(noc.routerBufferBytes);
    CCLSIM_SAME(noc.cmdBufBusy);
    CCLSIM_SAME(noc.cmdQueueDepth);
    CCLSIM_SAME(noc.absorbBytesPerNs);
    CCLSIM_SAME(noc.requestAccept);
    // Workers
    CCLSIM_SAME(workers);
    CCLSIM_SAME(workerUnreservedBase);
    CCLSIM_SAME(worker.l1.sizeBytes);
    CCLSIM_SAME(worker.l1.storePayload);
    CCLSIM_SAME(worker.dma.chunkBytes);
    CCLSIM_SAME(worker.dma.computeWeight);
    CCLSIM_SAME(worker.dma.commWeight);
    CCLSIM_SAME(worker.dma.responseWeight);
    CCLSIM_SAME(worker.dma.injectBytesPerNs);
    CCLSIM_SAME(worker.ipcq.registerBase);
    CCLSIM_SAME(worker.ipcq.opCost);
    CCLSIM_SAME(worker.ipcq.wakeCost);
    expectSameCosts(a.worker.costs, b.worker.costs, "worker.costs");
    // Ethernet cores
    CCLSIM_SAME(ethCores);
    CCLSIM_SAME(erisc.l1.sizeBytes);
    CCLSIM_SAME(erisc.l1.storePayload);
    CCLSIM_SAME(erisc.syncInfoBase);
    CCLSIM_SAME(erisc.maxConcurrentTransactions);
    CCLSIM_SAME(erisc.unreservedBase);
    CCLSIM_SAME(erisc.barrierBytes);
    CCLSIM_SAME(erisc.injectBytesPerNs);
    CCLSIM_SAME(erisc.niuChunkBytes);
    CCLSIM_SAME(erisc.eth.lineBytesPerNs);
    CCLSIM_SAME(erisc.eth.wordBytes);
    CCLSIM_SAME(erisc.eth.minPacketBytes);
    CCLSIM_SAME(erisc.eth.maxPacketBytes);
    CCLSIM_SAME(erisc.eth.packetOverheadBytes);
    CCLSIM_SAME(erisc.eth.latency);
    CCLSIM_SAME(erisc.eth.storeAndForward);
    CCLSIM_SAME(erisc.eth.txQueues);
    CCLSIM_SAME(erisc.eth.txQueueDepth);
    expectSameCosts(a.erisc.costs, b.erisc.costs, "erisc.costs");
    // DRAM
    CCLSIM_SAME(dram.kind);
    CCLSIM_SAME(dram.channelEndpoints);
    CCLSIM_SAME(dram.banksPerChannel);
    CCLSIM_SAME(dram.bankBytes);
    CCLSIM_SAME(dram.bankEndpoints);
    CCLSIM_SAME(dram.endpointInjectBytesPerNs);
    CCLSIM_SAME(dram.niuChunkBytes);
    expectSameMemory(a.dram.channel, b.dram.channel, "dram.channel");
    // SRAM pool
    CCLSIM_SAME(sram.endpoints);
    CCLSIM_SAME(sram.endpointInjectBytesPerNs);
    CCLSIM_SAME(sram.niuChunkBytes);
    expectSameMemory(a.sram.channel, b.sram.channel, "sram.channel");
    // Fabric
    CCLSIM_SAME(fabric.present);
    CCLSIM_SAME(fabric.maxPayloadBytes);
    CCLSIM_SAME(fabric.headerBytes1d);
    CCLSIM_SAME(fabric.headerBytes1dLong);
    CCLSIM_SAME(fabric.headerBytes2d);
    CCLSIM_SAME(fabric.slotOptions);
    CCLSIM_SAME(fabric.replySlots);
    CCLSIM_SAME(fabric.vc1Slots);
    CCLSIM_SAME(fabric.readMaxBytes);
    CCLSIM_SAME(fabric.muxClientSlots);
    CCLSIM_SAME(fabric.readRelaySlots);
    CCLSIM_SAME(fabric.readRelayRequests);
    CCLSIM_SAME(fabric.routeYFirst);
    CCLSIM_SAME(fabric.forwardNoc);
    CCLSIM_SAME(fabric.creditNoc);
    CCLSIM_SAME(fabric.routerPacketCycles);
    CCLSIM_SAME(fabric.bubbleFlowControl);
    // Dispatch
    CCLSIM_SAME(dispatch.present);
    CCLSIM_SAME(dispatch.programOverhead);
    CCLSIM_SAME(dispatch.launchMessage);
    CCLSIM_SAME(dispatch.binaryWrite);
    CCLSIM_SAME(dispatch.binaryBytesPerNs);
    CCLSIM_SAME(dispatch.unicastWrite);
    CCLSIM_SAME(dispatch.argBytesPerNs);
    CCLSIM_SAME(dispatch.goSignal);
    CCLSIM_SAME(dispatch.completion);
    CCLSIM_SAME(dispatch.tunnelHop);
    CCLSIM_SAME(dispatch.defaultBinaryBytes);
    CCLSIM_SAME(dispatch.binaryBytes);
}

using test::expectLocated;

std::string loadError(const std::string& path) {
    return test::configError([&] { loadArchConfig(path); });
}

TEST(ArchOverlay, HbmOverlayEqualsTheExpandedCopyFieldByField) {
    const ArchConfig overlay = loadArchConfig(kHbmPath);
    const ArchConfig expanded = loadArchConfig(kHbmExpandedPath);
    expectSameArch(overlay, expanded);
    // The comparison is not vacuous: the HBM file differs from its base.
    EXPECT_EQ(overlay.dram.kind, "hbm");
    EXPECT_EQ(overlay.dram.channels(), 9u);
    EXPECT_EQ(overlay.dram.channel.pseudoChannels, 2u);
    EXPECT_EQ(loadArchConfig(kBasePath).dram.kind, "gddr6");
}

TEST(ArchOverlay, HbmOverlayHoldsOnlyWhatDiffers) {
    // No section of the base is repeated: the overlay names its base and
    // touches only name, the DRAM absorption rate and the dram section.
    const std::string text = test::readText(kHbmPath);
    EXPECT_NE(text.find("base: wormhole_b0.yaml"), std::string::npos);
    for (const char* section : {"\nworker:", "\neth:", "\nsram:", "\nfabric:", "\ndispatch:", "\ngrid:"})
        EXPECT_EQ(text.find(section), std::string::npos) << section << " is repeated in the overlay";
}

TEST(ArchOverlay, AnOverlayOfOnlyANameEqualsItsBase) {
    ScratchDir dir;
    const std::string path = dir.write("same.yaml", "base: " + kBasePath + "\nname: wormhole_b0\n");
    expectSameArch(loadArchConfig(path), loadArchConfig(kBasePath));
}

TEST(ArchOverlay, MappingsMergeKeyByKeyAndListsAreReplacedWhole) {
    ScratchDir dir;
    dir.write("base.yaml", test::readText(kBasePath));
    const std::string path = dir.write("o.yaml",
                                       "base: base.yaml\n"
                                       "name: merged\n"
                                       "noc:\n"
                                       "  absorb_bytes_per_cycle: {dram: 30}\n"
                                       "eth:\n"
                                       "  cores: [9-0, 1-0]\n"
                                       "  tx_cmd_q: {depth: 3}\n");
    const ArchConfig base = loadArchConfig(kBasePath);
    const ArchConfig a = loadArchConfig(path);
    EXPECT_EQ(a.name, "merged");
    // absorb_bytes_per_cycle keeps the base's worker and eth rates.
    const auto cell = [&](CoreCoord c) { return std::size_t(c.y) * a.noc.gridX + c.x; };
    EXPECT_DOUBLE_EQ(a.noc.absorbBytesPerNs[cell(a.dram.channelEndpoints[0][0])], 30.0);
    EXPECT_DOUBLE_EQ(a.noc.absorbBytesPerNs[cell(a.workers[0])], base.noc.absorbBytesPerNs[cell(base.workers[0])]);
    // The Ethernet core list is the overlay's, not an extension of the base's.
    EXPECT_EQ(a.ethCores, (std::vector<CoreCoord>{{9, 0}, {1, 0}}));
    EXPECT_EQ(a.erisc.eth.txQueueDepth, 3u);
    EXPECT_EQ(a.erisc.eth.txQueues, base.erisc.eth.txQueues);
    EXPECT_EQ(a.erisc.eth.latency, base.erisc.eth.latency);
}

TEST(ArchOverlay, AnEmptyValueRemovesAnOptionalSection) {
    ScratchDir dir;
    const std::string path = dir.write("nosram.yaml", "base: " + kBasePath + "\nname: no_sram\nsram:\n");
    EXPECT_TRUE(loadArchConfig(kBasePath).sram.present());
    EXPECT_FALSE(loadArchConfig(path).sram.present());
}

TEST(ArchOverlay, BasesChain) {
    ScratchDir dir;
    dir.write("mid.yaml", "base: " + kHbmPath + "\nname: mid\ndram: {pseudo_channels: 4}\n");
    const std::string path = dir.write("top.yaml", "base: mid.yaml\nname: top\n");
    const ArchConfig a = loadArchConfig(path);
    EXPECT_EQ(a.name, "top");
    EXPECT_EQ(a.dram.kind, "hbm");
    EXPECT_EQ(a.dram.channel.pseudoChannels, 4u);
}

TEST(ArchOverlay, UnknownKeyInTheOverlayNamesTheOverlay) {
    ScratchDir dir;
    const std::string text = "base: " + kBasePath + "\nname: x\nnoc:\n  hop_latncy_cycles: 12\n";
    const std::string path = dir.write("typo.yaml", text);
    expectLocated(loadError(path), path, lineOf(text, "hop_latncy"), "noc.hop_latncy_cycles", {"unknown key"});
}

TEST(ArchOverlay, UnknownKeyInTheBaseNamesTheBase) {
    ScratchDir dir;
    const std::string baseText = test::readText(kBasePath) + "\nextra_section: {a: 1}\n";
    const std::string base = dir.write("base.yaml", baseText);
    const std::string path = dir.write("o.yaml", "base: base.yaml\nname: x\n");
    expectLocated(loadError(path), base, lineOf(baseText, "extra_section"), "extra_section", {"unknown key"});
}

TEST(ArchOverlay, BadValueInTheOverlayNamesTheOverlay) {
    ScratchDir dir;
    const std::string text = "base: " + kBasePath + "\nname: x\ndram:\n  pseudo_channels: two\n";
    const std::string path = dir.write("bad.yaml", text);
    expectLocated(loadError(path), path, lineOf(text, "pseudo_channels"), "dram.pseudo_channels",
                  {"expected a non-negative integer"});
}

TEST(ArchOverlay, AnOverlayListIsCheckedAgainstTheBaseValues) {
    // The overlay's bank_endpoints must match the base's channel count.
    ScratchDir dir;
    const std::string text = "base: " + kBasePath + "\nname: x\ndram:\n  bank_endpoints: [0-11]\n";
    const std::string path = dir.write("banks.yaml", text);
    expectLocated(loadError(path), path, lineOf(text, "bank_endpoints"), "dram.bank_endpoints",
                  {"lists 1 endpoints for 12 banks"});
}

TEST(ArchOverlay, MissingBaseFile) {
    ScratchDir dir;
    const std::string text = "name: x\nbase: no_such_base.yaml\n";
    const std::string path = dir.write("orphan.yaml", text);
    expectLocated(loadError(path), path, lineOf(text, "base:"), "base", {"no_such_base.yaml", "does not exist"});
}

TEST(ArchOverlay, BaseCycle) {
    ScratchDir dir;
    const std::string a = dir.write("a.yaml", "base: b.yaml\nname: a\n");
    const std::string bText = "name: b\nbase: a.yaml\n";
    const std::string b = dir.write("b.yaml", bText);
    expectLocated(loadError(a), b, lineOf(bText, "base:"), "base", {"cycle", "a.yaml -> ", "b.yaml -> "});
    const std::string self = dir.write("self.yaml", "base: self.yaml\n");
    expectLocated(loadError(self), self, 1, "base", {"cycle"});
}

TEST(ArchOverlay, BaseMustBeAFileName) {
    ScratchDir dir;
    const std::string path = dir.write("list.yaml", "base: [a.yaml]\n");
    expectLocated(loadError(path), path, 1, "base", {"expected a string"});
}

}  // namespace
}  // namespace cclsim
