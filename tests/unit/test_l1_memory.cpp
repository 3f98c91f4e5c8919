// L1Memory: byte and word access, data mode vs timing mode (control ranges),
// Payload snapshot/apply, write watchers, range errors, and the TLM-2.0
// target interface (payload extension, plain data pointer, atomic
// extension, address error response).
//
// Everything except the TLM case is plain logic on a module that is never
// simulated; the TLM case elaborates (sockets bind at end of elaboration).
#include "models/common/Simulate.h"
#include "models/memory/L1Memory.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace cclsim {
namespace {

/// A fragment that owns its bytes, at `offset` within its payload.
Payload::Fragment owned(std::uint32_t offset, ByteBuffer bytes) {
    Payload::Fragment f;
    f.offset = offset;
    f.bytes = std::move(bytes);
    return f;
}

using test::CallbackWatcher;
using test::pattern;
using test::readL1;

constexpr std::uint64_t kL1Bytes = 256 * 1024;

L1Config dataMode() {
    return L1Config{kL1Bytes, true};
}
L1Config timingMode() {
    return L1Config{kL1Bytes, false};
}

TEST(L1Memory, UntouchedBytesReadZeroAndAllocationFollowsWrites) {
    L1Memory l1("l1", dataMode());
    EXPECT_EQ(readL1(l1, 0x1000, 64), std::vector<std::uint8_t>(64, 0));
    EXPECT_EQ(l1.readU32(0x3FFFC), 0u);
    EXPECT_EQ(l1.bytesAllocated(), 0u);

    const auto data = pattern(6000, 1);  // spans pages 4..5 (4 KiB pages)
    l1.writeBytes(0x4000, std::uint32_t(data.size()), data.data());
    EXPECT_EQ(readL1(l1, 0x4000, std::uint32_t(data.size())), data);
    EXPECT_EQ(l1.bytesAllocated(), 2u * 4096);
    l1.writeU32(0x20000, 0xDEADBEEF);
    EXPECT_EQ(l1.readU32(0x20000), 0xDEADBEEFu);
    EXPECT_EQ(l1.bytesAllocated(), 3u * 4096);
}

TEST(L1Memory, AtomicAddReturnsPreviousValueAndWraps) {
    L1Memory l1("l1", dataMode());
    EXPECT_EQ(l1.atomicAdd(0x100, 5), 0u);
    EXPECT_EQ(l1.atomicAdd(0x100, 7), 5u);
    EXPECT_EQ(l1.readU32(0x100), 12u);
    l1.writeU32(0x104, 0xFFFFFFFF);
    EXPECT_EQ(l1.atomicAdd(0x104, 2), 0xFFFFFFFFu);
    EXPECT_EQ(l1.readU32(0x104), 1u);
}

TEST(L1Memory, TimingModeKeepsOnlyControlRangesButAlwaysWords) {
    L1Memory l1("l1", timingMode());
    EXPECT_FALSE(l1.storesPayload());
    // Two control words inside a 1 KiB bulk write, one of them given as two
    // touching ranges (merged).
    l1.markControl(0x1100, 8);
    l1.markControl(0x1108, 8);
    l1.markControl(0x1300, 4);
    EXPECT_TRUE(l1.isControl(0x1100, 16));
    EXPECT_TRUE(l1.isControl(0x1300, 4));
    EXPECT_FALSE(l1.isControl(0x10FC, 8));  // half outside
    EXPECT_FALSE(l1.isControl(0x1200, 4));

    const auto data = pattern(1024, 2);
    l1.writeBytes(0x1000, 1024, data.data());
    const auto back = readL1(l1, 0x1000, 1024);
    for (std::uint32_t i = 0; i < 1024; ++i) {
        const std::uint32_t a = 0x1000 + i;
        const bool control = (a >= 0x1100 && a < 0x1110) || (a >= 0x1300 && a < 0x1304);
        ASSERT_EQ(back[i], control ? data[i] : 0) << "byte at 0x" << std::hex << a;
    }
    // Only the page holding the control words was touched.
    EXPECT_EQ(l1.bytesAllocated(), 4096u);

    // A bulk write that misses every control range stores nothing...
    l1.writeBytes(0x8000, 1024, data.data());
    EXPECT_EQ(readL1(l1, 0x8000, 16), std::vector<std::uint8_t>(16, 0));
    EXPECT_EQ(l1.bytesAllocated(), 4096u);
    // ...but word accesses (semaphores set by firmware) are always stored.
    l1.writeU32(0x9000, 42);
    EXPECT_EQ(l1.readU32(0x9000), 42u);
    EXPECT_EQ(l1.atomicAdd(0x9000, 1), 42u);
    EXPECT_EQ(l1.readU32(0x9000), 43u);
}

TEST(L1Memory, SnapshotAndApplyInDataMode) {
    L1Memory src("src", dataMode());
    L1Memory dst("dst", dataMode());
    const auto data = pattern(3000, 3);
    src.writeBytes(0x2000, 3000, data.data());

    Payload p;
    src.snapshot(0x2000, 3000, p);
    EXPECT_EQ(p.size, 3000u);
    ASSERT_TRUE(p.hasAllBytes());
    EXPECT_EQ(std::vector<std::uint8_t>(p.frags[0].bytes.begin(), p.frags[0].bytes.end()), data);

    dst.apply(0x10000, p);
    EXPECT_EQ(readL1(dst, 0x10000, 3000), data);
    EXPECT_EQ(readL1(dst, 0x10000 + 3000, 4), std::vector<std::uint8_t>(4, 0));

    // A fragmented payload (what a timing-mode source produces) writes only
    // its fragments: bytes between them keep their old contents.
    dst.writeBytes(0x20000, 64, std::vector<std::uint8_t>(64, 0xEE).data());
    Payload frag;
    frag.size = 64;
    frag.frags.push_back(owned(8, {1, 2, 3, 4}));
    frag.frags.push_back(owned(60, {9, 9, 9, 9}));
    dst.apply(0x20000, frag);
    const auto got = readL1(dst, 0x20000, 64);
    for (std::uint32_t i = 0; i < 64; ++i) {
        std::uint8_t want = 0xEE;
        if (i >= 8 && i < 12) want = std::uint8_t(i - 7);
        if (i >= 60) want = 9;
        ASSERT_EQ(got[i], want) << "offset " << i;
    }
}

TEST(L1Memory, LandedPageSlicesGoOnByReferenceUntilOverwritten) {
    // Bytes that landed as slices of a shared page (a DRAM read by reference)
    // leave the L1 by reference again; a later write to part of them turns
    // just that part into copied bytes.
    SparseStore dram(1 << 20);
    const auto page = pattern(4096, 9);
    dram.write(0, 4096, page.data());
    Payload in;
    in.size = 4096;
    dram.shareOut(0, 4096, in, 0);

    L1Memory l1("l1", dataMode());
    const std::uint64_t copied0 = payloadStats().copied;
    l1.apply(0x8010, in);
    EXPECT_EQ(payloadStats().copied - copied0, 4096u) << "the L1 keeps its own copy for the firmware";
    EXPECT_EQ(readL1(l1, 0x8010, 4096), page);

    Payload out;
    const std::uint64_t copied1 = payloadStats().copied;
    l1.snapshot(0x8000, 0x1020, out);  // 16 bytes before, 16 after
    EXPECT_EQ(payloadStats().copied - copied1, 32u) << "only the bytes around the landed slice are copied";
    ASSERT_EQ(out.frags.size(), 3u);
    EXPECT_FALSE(out.frags[0].shared());
    EXPECT_TRUE(out.frags[1].shared());
    EXPECT_EQ(out.frags[1].page.get(), in.frags[0].page.get());
    EXPECT_FALSE(out.frags[2].shared());
    std::vector<std::uint8_t> bytes(out.size);
    out.copyTo(bytes.data());
    EXPECT_EQ(bytes, readL1(l1, 0x8000, 0x1020));

    // Firmware stores a word in the middle: the slice splits around it.
    l1.writeU32(0x8010 + 100, 0xCAFEF00D);
    l1.snapshot(0x8010, 4096, out);
    ASSERT_EQ(out.frags.size(), 3u);
    EXPECT_TRUE(out.frags[0].shared());
    EXPECT_EQ(out.frags[0].length(), 100u);
    EXPECT_FALSE(out.frags[1].shared());
    EXPECT_TRUE(out.frags[2].shared());
    EXPECT_EQ(out.frags[2].pageOffset, 104u);
    out.copyTo(bytes.data());
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.begin() + 4096, readL1(l1, 0x8010, 4096).begin()));
    EXPECT_EQ(l1.readU32(0x8010 + 100), 0xCAFEF00Du);

    // The DRAM page changing afterwards changes nothing the L1 holds or sends.
    const auto other = pattern(4096, 10);
    dram.write(0, 4096, other.data());
    l1.snapshot(0x8010, 4096, out);
    out.copyTo(bytes.data());
    auto want = page;
    const std::uint32_t word = 0xCAFEF00D;
    std::memcpy(want.data() + 100, &word, 4);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), bytes.begin()));
}

TEST(L1Memory, SnapshotAndApplyInTimingModeCarryControlFragments) {
    L1Memory src("src", timingMode());
    src.markControl(0x3010, 16);
    src.markControl(0x3100, 4);
    src.writeU32(0x3010, 0x11111111);
    src.writeU32(0x3100, 0x22222222);

    Payload p;
    src.snapshot(0x3000, 0x200, p);
    EXPECT_EQ(p.size, 0x200u);
    EXPECT_FALSE(p.hasAllBytes());
    ASSERT_EQ(p.frags.size(), 2u);
    EXPECT_EQ(p.frags[0].offset, 0x10u);
    EXPECT_EQ(p.frags[0].bytes.size(), 16u);
    EXPECT_EQ(p.frags[1].offset, 0x100u);
    EXPECT_EQ(std::vector<std::uint8_t>(p.frags[1].bytes.begin(), p.frags[1].bytes.end()),
              (std::vector<std::uint8_t>{0x22, 0x22, 0x22, 0x22}));

    // Into a data-mode L1 the fragments land at their offsets.
    L1Memory dst("dst", dataMode());
    dst.apply(0x8000, p);
    EXPECT_EQ(dst.readU32(0x8010), 0x11111111u);
    EXPECT_EQ(dst.readU32(0x8100), 0x22222222u);
    EXPECT_EQ(dst.readU32(0x8000), 0u);

    // Into a timing-mode L1 a full payload keeps only the destination's own
    // control bytes.
    L1Memory timed("timed", timingMode());
    timed.markControl(0x4004, 4);
    Payload full;
    full.size = 16;
    const auto pat = pattern(16, 4);
    full.frags.push_back(owned(0, ByteBuffer(pat.begin(), pat.end())));
    timed.apply(0x4000, full);
    const auto want = pattern(16, 4);
    EXPECT_EQ(readL1(timed, 0x4000, 16),
              (std::vector<std::uint8_t>{0, 0, 0, 0, want[4], want[5], want[6], want[7], 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(L1Memory, TimingModeTransfersCarryWordsWrittenByFirmware) {
    // Regression test (was a bug, models/memory/L1Memory.cpp, snapshot in timing mode): writeU32()
    // always stores the word ("word accesses are always stored"), but
    // snapshot() only copies bytes inside control ranges, so a word that
    // firmware wrote outside one is readable locally yet travels as nothing.
    // noc_semaphore_set_remote(src, dst) from a local scratch word that the
    // host did not mark (the tt-metal idiom: noc_semaphore_set(local, v);
    // noc_semaphore_set_remote(local, remote)) therefore delivers v in data
    // mode but leaves the remote semaphore unchanged under --no-data: the
    // waiter deadlocks, so timing is not "identical" as the README promises.
    // Fix: in timing mode treat every word written through writeU32() /
    // atomicAdd() as control (call the markControl logic for [addr, addr+4)),
    // or have snapshot() also copy stored words.
    L1Memory src("src", timingMode());
    L1Memory dst("dst", timingMode());
    dst.markControl(0x7000, 4);  // the remote semaphore
    src.writeU32(0x5000, 7);     // noc_semaphore_set on an unmarked local word
    ASSERT_EQ(src.readU32(0x5000), 7u);
    Payload p;
    src.snapshot(0x5000, 4, p);
    dst.apply(0x7000, p);
    EXPECT_EQ(dst.readU32(0x7000), 7u);
}

TEST(L1Memory, WatchersFireOnOverlappingWritesOnly) {
    L1Memory l1("l1", dataMode());
    int hits = 0, other = 0;
    CallbackWatcher sem([&] { ++hits; });
    CallbackWatcher far([&] { ++other; });
    l1.watch(0x2000, 4, &sem);
    l1.watch(0x2000, 4, &sem);  // duplicate registration: still one call per write
    l1.watch(0x9000, 4, &far);

    const std::uint8_t buf[16] = {};
    l1.writeBytes(0x1FF0, 16, buf);  // ends exactly at the word: no overlap
    l1.writeU32(0x2004, 1);          // starts right after it
    EXPECT_EQ(hits, 0);
    l1.writeBytes(0x2003, 1, buf);  // last byte of the word
    EXPECT_EQ(hits, 1);
    const std::vector<std::uint8_t> big(0x200, 0);
    l1.writeBytes(0x1F00, 0x200, big.data());  // covers it
    EXPECT_EQ(hits, 2);
    l1.atomicAdd(0x2000, 1);
    EXPECT_EQ(hits, 3);
    Payload p;
    p.size = 8;
    p.frags.push_back(owned(0, ByteBuffer(8, 1)));
    l1.apply(0x1FFC, p);
    EXPECT_EQ(hits, 4);
    EXPECT_EQ(other, 0);

    l1.unwatch(0x2000, 4, &sem);
    l1.writeU32(0x2000, 5);
    EXPECT_EQ(hits, 4);
    l1.writeU32(0x9000, 5);
    EXPECT_EQ(other, 1);
}

TEST(L1Memory, WatcherMayUnwatchItselfFromCallback) {
    L1Memory l1("l1", dataMode());
    int a = 0, b = 0;
    CallbackWatcher* self = nullptr;
    CallbackWatcher once([&] {
        ++a;
        l1.unwatchAll(self);
    });
    self = &once;
    CallbackWatcher steady([&] { ++b; });
    l1.watch(0x100, 4, &once);
    l1.watch(0x104, 4, &once);
    l1.watch(0x100, 8, &steady);
    l1.writeBytes(0x100, 8, std::vector<std::uint8_t>(8, 1).data());  // overlaps both of `once`'s words
    EXPECT_EQ(a, 1) << "a watcher that unwatched itself gets no further calls for the same write";
    EXPECT_EQ(b, 1);
    l1.writeU32(0x104, 2);
    EXPECT_EQ(a, 1);
    EXPECT_EQ(b, 2);
}

TEST(L1Memory, OutOfRangeAccessReportsError) {
    L1Memory l1("l1", dataMode());
    std::uint8_t buf[8] = {};
    // The message names the component, the access and the L1 size.
    const std::string msg = test::thrownMessage([&] { l1.readU32(std::uint32_t(kL1Bytes) - 2); });
    test::expectContains(msg, {"in l1:", "read of 4 bytes at 0x3fffe", "outside L1", "0x40000"});
    EXPECT_ANY_THROW(l1.writeU32(std::uint32_t(kL1Bytes), 1));
    EXPECT_ANY_THROW(l1.writeBytes(std::uint32_t(kL1Bytes) - 4, 8, buf));
    EXPECT_ANY_THROW(l1.readBytes(std::uint32_t(kL1Bytes), 1, buf));
    EXPECT_ANY_THROW(l1.markControl(std::uint32_t(kL1Bytes) - 2, 4));
    Payload p;
    EXPECT_ANY_THROW(l1.snapshot(std::uint32_t(kL1Bytes) - 4, 8, p));
    p.size = 8;
    EXPECT_ANY_THROW(l1.apply(std::uint32_t(kL1Bytes) - 4, p));
    EXPECT_NO_THROW(l1.writeBytes(std::uint32_t(kL1Bytes) - 8, 8, buf));
    EXPECT_TRUE(l1.contains(kL1Bytes - 8, 8));
    EXPECT_FALSE(l1.contains(kL1Bytes - 8, 9));
}

/// Drives an L1 through its TLM-2.0 target socket.
class TlmInitiator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<TlmInitiator> socket{"socket"};
    explicit TlmInitiator(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {}

    template <class Ext = PayloadExtension> tlm::tlm_response_status access(tlm::tlm_command cmd, std::uint64_t addr,
                                                                            std::uint32_t n, std::uint8_t* data,
                                                                            Ext* ext = nullptr) {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(data);
        gp.set_data_length(n);
        gp.set_streaming_width(n);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (ext) gp.set_extension(ext);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(gp, delay);
        if (ext) gp.clear_extension(ext);
        return gp.get_response_status();
    }
};

TEST(L1Memory, TlmTargetHandlesPayloadPlainAndAtomicTransactions) {
    L1Memory l1("l1", dataMode());
    TlmInitiator ini("ini");
    ini.socket.bind(l1.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // complete the binding

    // Plain data pointer (a foreign TLM initiator).
    auto data = pattern(128, 5);
    EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x500, 128, data.data()), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(readL1(l1, 0x500, 128), data);
    std::vector<std::uint8_t> back(128);
    EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x500, 128, back.data()), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(back, data);

    // Payload extension: the read fills the payload, the write applies it.
    Payload p;
    PayloadExtension pe;
    pe.payload = &p;
    EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x500, 128, nullptr, &pe), tlm::TLM_OK_RESPONSE);
    ASSERT_TRUE(p.hasAllBytes());
    EXPECT_EQ(std::vector<std::uint8_t>(p.frags[0].bytes.begin(), p.frags[0].bytes.end()), data);
    EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x900, 128, nullptr, &pe), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(readL1(l1, 0x900, 128), data);

    // Atomic increment returns the previous value.
    l1.writeU32(0x40, 10);
    AtomicExtension inc;
    inc.addend = 3;
    EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x40, 4, nullptr, &inc), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(inc.previous, 10u);
    EXPECT_EQ(l1.readU32(0x40), 13u);

    // Out of range: an address error response, no exception, nothing written.
    EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, kL1Bytes - 64, 128, data.data()), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(readL1(l1, std::uint32_t(kL1Bytes) - 64, 64), std::vector<std::uint8_t>(64, 0));
}

}  // namespace
}  // namespace cclsim
