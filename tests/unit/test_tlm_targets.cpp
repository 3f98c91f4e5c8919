// cclsim's memory targets as any TLM-2.0 initiator sees them: the base
// protocol on L1Memory and DramChannel (valid data pointer, byte enables,
// streaming width, response status, annotated delay), transport_dbg, and
// DMI (granted in data mode, refused in timing mode; read-only on an L1).
//
// Each case elaborates (sockets bind at the end of elaboration) and then
// calls the targets from sc_main: b_transport of cclsim's memories never waits.
#include "models/common/Simulate.h"
#include "models/memory/DramChannel.h"
#include "models/memory/L1Memory.h"

#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <vector>

namespace cclsim {
namespace {

struct Initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
    explicit Initiator(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}

    tlm::tlm_response_status access(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
                                    sc_core::sc_time* delay = nullptr, const std::uint8_t* be = nullptr,
                                    unsigned beLen = 0, unsigned width = 0) {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(data);
        gp.set_data_length(len);
        gp.set_streaming_width(width ? width : len);
        gp.set_byte_enable_ptr(const_cast<std::uint8_t*>(be));
        gp.set_byte_enable_length(beLen);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time d = delay ? *delay : sc_core::SC_ZERO_TIME;
        socket->b_transport(gp, d);
        if (delay) *delay = d;
        return gp.get_response_status();
    }
    unsigned debug(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len) {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(data);
        gp.set_data_length(len);
        return socket->transport_dbg(gp);
    }
    bool dmi(tlm::tlm_command cmd, std::uint64_t addr, tlm::tlm_dmi& out) {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(addr);
        return socket->get_direct_mem_ptr(gp, out);
    }
};

constexpr std::uint64_t kL1 = 64 * 1024;

TEST(TlmTargets, L1HonoursByteEnablesStreamingWidthAndErrorResponses) {
    L1Memory l1("l1", L1Config{kL1, true});
    Initiator ini("ini");
    ini.socket.bind(l1.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // completes the socket bindings
    std::vector<std::uint8_t> v{1, 2, 3, 4, 5, 6, 7, 8};
    ASSERT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x100, v.data(), 8), tlm::TLM_OK_RESPONSE);

    // Byte enables: bytes whose mask byte is 0x00 are left alone (mask repeats).
    std::vector<std::uint8_t> w(8, 0xEE);
    const std::uint8_t be[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};
    ASSERT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x100, w.data(), 8, nullptr, be, 2), tlm::TLM_OK_RESPONSE);
    std::vector<std::uint8_t> r(8, 0);
    ASSERT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x100, r.data(), 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r, (std::vector<std::uint8_t>{0xEE, 2, 0xEE, 4, 0xEE, 6, 0xEE, 8}));
    // A read with byte enables leaves the disabled bytes of the data array alone.
    std::vector<std::uint8_t> r2(8, 0x55);
    ASSERT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x100, r2.data(), 8, nullptr, be, 2), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r2, (std::vector<std::uint8_t>{0xEE, 0x55, 0xEE, 0x55, 0xEE, 0x55, 0xEE, 0x55}));

    // Streaming width 4: eight bytes into one 4-byte window, the last four win.
    std::vector<std::uint8_t> s{10, 11, 12, 13, 14, 15, 16, 17};
    ASSERT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x200, s.data(), 8, nullptr, nullptr, 0, 4), tlm::TLM_OK_RESPONSE);
    std::vector<std::uint8_t> r3(8, 0);
    ASSERT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x200, r3.data(), 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r3, (std::vector<std::uint8_t>{14, 15, 16, 17, 0, 0, 0, 0}));

    // Errors: no data pointer, outside the L1, a mask pointer with length 0.
    EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x100, nullptr, 8), tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, kL1 - 4, r.data(), 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x100, r.data(), 8, nullptr, be, 0),
              tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    // The L1 adds no delay: its time is the NoC's.
    sc_core::sc_time d(7, sc_core::SC_NS);
    ASSERT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0x100, r.data(), 8, &d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d, sc_core::sc_time(7, sc_core::SC_NS));
}

TEST(TlmTargets, L1WritesThroughTheSocketWakeWatchers) {
    L1Memory l1("l1", L1Config{kL1, true});
    Initiator ini("ini");
    ini.socket.bind(l1.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // completes the socket bindings
    struct W : MemoryWatcher {
        std::vector<std::uint32_t> hits;
        void onWatchedWrite(std::uint32_t a) override { hits.push_back(a); }
    } w;
    l1.watch(0x400, 4, &w);
    std::uint32_t one = 1;
    ASSERT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0x400, reinterpret_cast<std::uint8_t*>(&one), 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(w.hits, std::vector<std::uint32_t>{0x400});
    EXPECT_EQ(l1.readU32(0x400), 1u);
}

TEST(TlmTargets, DebugTransportMovesBytesWithoutTimeAndStopsAtTheEnd) {
    L1Memory l1("l1", L1Config{kL1, true});
    Initiator ini("ini");
    ini.socket.bind(l1.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // completes the socket bindings
    std::vector<std::uint8_t> v{9, 8, 7, 6};
    EXPECT_EQ(ini.debug(tlm::TLM_WRITE_COMMAND, 0x300, v.data(), 4), 4u);
    EXPECT_EQ(l1.readU32(0x300), 0x06070809u);
    std::vector<std::uint8_t> r(16, 0);
    EXPECT_EQ(ini.debug(tlm::TLM_READ_COMMAND, kL1 - 8, r.data(), 16), 8u);  // truncated at the end
    EXPECT_EQ(ini.debug(tlm::TLM_READ_COMMAND, kL1, r.data(), 4), 0u);
}

TEST(TlmTargets, L1GrantsReadOnlyDmiInDataModeAndNoneInTimingMode) {
    L1Memory data("data", L1Config{kL1, true});
    L1Memory timing("timing", L1Config{kL1, false});
    Initiator a("a"), b("b");
    a.socket.bind(data.socket);
    b.socket.bind(timing.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // completes the socket bindings
    data.writeU32(0x1234, 0xCAFEF00D);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(a.dmi(tlm::TLM_READ_COMMAND, 0x1234, dmi));
    EXPECT_TRUE(dmi.is_read_allowed());
    EXPECT_FALSE(dmi.is_write_allowed());  // writes must wake watchers
    ASSERT_LE(dmi.get_start_address(), 0x1234u);
    ASSERT_GE(dmi.get_end_address(), 0x1237u);
    std::uint32_t v = 0;
    std::memcpy(&v, dmi.get_dmi_ptr() + (0x1234 - dmi.get_start_address()), 4);
    EXPECT_EQ(v, 0xCAFEF00Du);
    tlm::tlm_dmi none;
    EXPECT_FALSE(b.dmi(tlm::TLM_READ_COMMAND, 0x1234, none));
}

DramChannelConfig dramConfig(bool store) {
    DramChannelConfig c;
    c.bankBytes = 1 << 20;
    c.banks = 2;
    c.pseudoChannels = 1;
    c.interleaveBytes = 256;
    c.bytesPerNs = 32;
    c.readLatency = nsToTicks(100);
    c.writeLatency = nsToTicks(50);
    c.storePayload = store;
    return c;
}

TEST(TlmTargets, DramStartsAnAccessAtTheAnnotatedDelayAndReturnsItsCompletion) {
    DramChannel dram("dram", dramConfig(true));
    Initiator ini("ini");
    ini.socket.bind(dram.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // completes the socket bindings
    std::vector<std::uint8_t> v(320, 0xAB);
    // 320 B at 32 B/ns = 10 ns on the bank, then the 50 ns write latency.
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    ASSERT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0, v.data(), 320, &d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d, sc_core::sc_time(60, sc_core::SC_NS));
    // An access annotated to arrive 1 us later meets an idle bank then.
    sc_core::sc_time later(1000, sc_core::SC_NS);
    std::vector<std::uint8_t> r(320, 0);
    ASSERT_EQ(ini.access(tlm::TLM_READ_COMMAND, 0, r.data(), 320, &later), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(later, sc_core::sc_time(1110, sc_core::SC_NS));
    EXPECT_EQ(r, v);
    // Errors.
    EXPECT_EQ(ini.access(tlm::TLM_READ_COMMAND, (2u << 20) - 4, r.data(), 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(ini.access(tlm::TLM_WRITE_COMMAND, 0, nullptr, 8), tlm::TLM_GENERIC_ERROR_RESPONSE);
}

TEST(TlmTargets, DramGrantsReadWriteDmiInDataModeAndNoneInTimingMode) {
    DramChannel data("data", dramConfig(true));
    DramChannel timing("timing", dramConfig(false));
    Initiator a("a"), b("b");
    a.socket.bind(data.socket);
    b.socket.bind(timing.socket);
    cclsim::simulate(sc_core::SC_ZERO_TIME);  // completes the socket bindings
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(a.dmi(tlm::TLM_WRITE_COMMAND, 0x5000, dmi));
    EXPECT_TRUE(dmi.is_read_write_allowed());
    EXPECT_EQ(dmi.get_read_latency(), sc_core::sc_time(100, sc_core::SC_NS));
    dmi.get_dmi_ptr()[0x5000 - dmi.get_start_address()] = 0x7F;
    std::uint8_t byte = 0;
    EXPECT_EQ(a.debug(tlm::TLM_READ_COMMAND, 0x5000, &byte, 1), 1u);
    EXPECT_EQ(byte, 0x7F);
    tlm::tlm_dmi none;
    EXPECT_FALSE(b.dmi(tlm::TLM_READ_COMMAND, 0x5000, none));
}

}  // namespace
}  // namespace cclsim
