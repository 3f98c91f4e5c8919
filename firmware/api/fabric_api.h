// Worker-side fabric API (tt-metal: edm_fabric_worker_adapters.hpp and
// fabric_edm_packet_header.hpp): a kernel on a worker core connects to a
// channel of its chip's fabric router (or of a fabric mux), waits for a free
// slot, writes payload and packet header into the slot over the NoC and hands
// the slot to the router by incrementing the channel's "packets written"
// counter. The router forwards the packet hop by hop; the destination chip's
// router performs the header's NoC command (write, inline write, atomic
// increment, fused write + increment, or read with a reply).
//
//   worker                                       router / mux channel
//   open():  read rd_counter, wr_counter -------> (its copies)
//            inline-write xy, rd addr, teardown,
//            state = open ----------------------> sees "open": credits go to us
//   per packet:
//     wait  wr - rd < num_slots  <--------------- rd (slots freed) written into our L1
//     write payload  -> slot[wr % n] + header_bytes
//     write header   -> slot[wr % n]
//     inc wr_counter -----------------------------> a packet to send
//   close(): state = close requested -----------> when every slot is freed:
//            wait teardown == 1  <--------------- teardown = 1, state = closed
//
// The payload's source buffer may be reused once the writes have left L1
// (noc_async_writes_flushed), as with any NoC write.
#pragma once

#include "firmware/api/dataflow_api.h"
#include "firmware/fabric/fabric_types.h"

#include <cstdint>

namespace cclsim::fw {

/// Store a header image at `l1_addr` (firmware word stores, `bytes` bytes).
void fabric_write_header(std::uint32_t l1_addr, const fabric::PacketHeader& h, std::uint32_t bytes);
/// Load a header image from L1.
fabric::PacketHeader fabric_read_header(std::uint32_t l1_addr, std::uint32_t bytes);

class WorkerToFabricEdmSender {
public:
    WorkerToFabricEdmSender() = default;
    explicit WorkerToFabricEdmSender(const fabric::FabricConnectionArgs& args) : a_(args) {}

    /// Connect to the channel (it serves one connection at a time).
    void open();
    /// Wait until every packet we wrote has been taken, then disconnect.
    void close();
    bool is_open() const { return open_; }

    /// Status read: is the next slot free?
    bool edm_has_space_for_packet();
    void wait_for_empty_write_slot();
    /// Write `size` payload bytes from L1 into the next slot (after its header space).
    void send_payload_without_header_non_blocking_from_address(std::uint32_t src, std::uint32_t size);
    /// Write the header at `header_l1` into the next slot and hand the slot to the router.
    void send_payload_flush_non_blocking_from_address(std::uint32_t header_l1, std::uint32_t header_size);
    /// wait_for_empty_write_slot, then the payload (if any) and `h` (staged in
    /// the connection's header pool) into the slot, handed over.
    void send_packet(const fabric::PacketHeader& h, std::uint32_t payload_src, std::uint32_t payload_size);

    /// Hand over a whole packet (header followed by `bytes` - header of
    /// payload, as it sits in another channel's slot) with one NoC write
    /// counted under `trid` (a mux forwarding its clients' slots).
    void send_slot_from_address(std::uint32_t src, std::uint32_t bytes, std::uint32_t trid);

    /// NoC address of the next slot.
    std::uint64_t next_slot_noc_addr() const;
    const fabric::FabricConnectionArgs& args() const { return a_; }
    std::uint32_t packets_sent() const { return wr_; }

private:
    fabric::FabricConnectionArgs a_;
    std::uint32_t wr_ = 0;
    bool open_ = false;
};

}  // namespace cclsim::fw
