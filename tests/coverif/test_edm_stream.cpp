// worker -> EDM -> Ethernet -> EDM -> worker: bytes exact in every mode.
#include "tests/coverif/CoverifHelpers.h"

using cclsim::test::result;
using cclsim::test::runN300;

TEST(EdmStream, MessageCountBytesExact) {
    const auto rep = runN300({"edm_stream", "--packets", "64", "--packet", "4096", "--channels", "2"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_EQ(result(rep, "bytes_checked"), 64.0 * 4096 * 2);
}

TEST(EdmStream, WorkerInitiatedBytesExact) {
    const auto rep = runN300(
        {"edm_stream", "--packets", "50", "--packet", "2048", "--channels", "3", "--termination", "worker_initiated"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_EQ(result(rep, "bytes_checked"), 50.0 * 2048 * 3);
}

TEST(EdmStream, BidirectionalBytesExact) {
    const auto rep = runN300({"edm_stream", "--packets", "40", "--packet", "1024", "--channels", "4", "--bidir"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_EQ(result(rep, "bytes_checked"), 2 * 40.0 * 1024 * 4);
}

// Chip 1 starts its program 40 us after chip 0: the EDM handshake holds chip
// 0's data back until chip 1 is ready, and every byte still arrives exact.
TEST(EdmStream, SkewedStartBytesExact) {
    const auto rep = runN300({"edm_stream", "--packets", "32", "--channels", "2", "--bidir", "--start", "1:40000",
                              "--termination", "worker_initiated"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_GT(rep["sim_time_ns"].get<double>(), 40000.0);
}

TEST(EdmStream, ChipZeroLateBytesExact) {
    const auto rep = runN300({"edm_stream", "--packets", "32", "--channels", "2", "--start", "0:25000"});
    EXPECT_EQ(rep["data_check"], "pass");
}

// Enough channels keep the link busy: the EDM path reaches most of the line rate.
TEST(EdmStream, ManyChannelsApproachLineRate) {
    const auto rep = runN300({"edm_stream", "--packets", "128", "--packet", "4096", "--channels", "8", "--no-data"});
    EXPECT_GT(result(rep, "line_rate_pct"), 70.0);
    EXPECT_EQ(rep["data_check"], "off");
}

// Channels of several slots (tt-metal's num_buffers_per_channel): the workers
// and both EDMs walk the slots in the same order; a packet count that is not
// a multiple of the slot count ends part-way round the ring.
TEST(EdmStream, MultiSlotBidirectionalBytesExact) {
    const auto rep =
        runN300({"edm_stream", "--packets", "41", "--packet", "2048", "--channels", "2", "--buffers", "3", "--bidir"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_EQ(result(rep, "bytes_checked"), 2 * 41.0 * 2048 * 2);
    EXPECT_EQ(result(rep, "buffers_per_channel"), 3.0);
}

TEST(EdmStream, MultiSlotWorkerInitiatedBytesExact) {
    const auto rep = runN300({"edm_stream", "--packets", "33", "--packet", "1024", "--channels", "3", "--buffers", "2",
                              "--termination", "worker_initiated", "--credit-txq", "0"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_EQ(result(rep, "bytes_checked"), 33.0 * 1024 * 3);
}

// A late receiver: the sender may fill every slot, then waits for the dones.
TEST(EdmStream, MultiSlotSkewedStartBytesExact) {
    const auto rep =
        runN300({"edm_stream", "--packets", "20", "--channels", "1", "--buffers", "4", "--start", "1:30000"});
    EXPECT_EQ(rep["data_check"], "pass");
    EXPECT_GT(rep["sim_time_ns"].get<double>(), 30000.0);
}
