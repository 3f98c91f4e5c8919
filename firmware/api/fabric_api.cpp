#include "firmware/api/fabric_api.h"

#include "firmware/api/api_internal.h"

namespace cclsim::fw {

using namespace cclsim::fabric;

void fabric_write_header(std::uint32_t l1_addr, const PacketHeader& h, std::uint32_t bytes) {
    KernelContext& k = detail::ctx();
    if (bytes % 4 || bytes > 4 * hdr::kWords)
        CCLSIM_ERROR(k.name(), "fabric_write_header: {} B is not a header size (multiple of 4, at most {})", bytes,
                     4 * hdr::kWords);
    detail::checkLocal(k, "fabric_write_header", l1_addr, bytes);
    // One store per word (a header is a few dozen bytes).
    k.advance(Tick(bytes / 4) * k.core().costs().l1Access);
    k.syncForStore();
    k.core().l1.writeWords(l1_addr, h.words, bytes / 4);
    k.acted();
}

PacketHeader fabric_read_header(std::uint32_t l1_addr, std::uint32_t bytes) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "fabric_read_header", l1_addr, bytes);
    k.sync();
    k.advance(Tick(bytes / 4) * k.core().costs().l1Access);
    PacketHeader h;
    for (std::uint32_t i = 0; i < bytes / 4 && i < hdr::kWords; ++i) h.words[i] = k.core().l1.readU32(l1_addr + 4 * i);
    return h;
}

void WorkerToFabricEdmSender::open() {
    KernelContext& k = detail::ctx();
    if (open_) CCLSIM_ERROR(k.name(), "fabric connection to core {}-{} opened twice", a_.x, a_.y);
    if (a_.num_slots == 0) CCLSIM_ERROR(k.name(), "fabric connection has no slots (connection arguments not set)");
    k.setWaypoint("FOPN");
    // Learn where the channel's counters stand (an earlier connection may have used it).
    noc_async_read(get_noc_addr(a_.x, a_.y, a_.rd_counter), a_.local_scratch, 4);
    noc_async_read(get_noc_addr(a_.x, a_.y, a_.wr_counter), a_.local_scratch + 4, 4);
    noc_async_read_barrier();
    const std::uint32_t rd = l1_read_u32(a_.local_scratch);
    wr_ = l1_read_u32(a_.local_scratch + 4);
    if (rd != wr_)
        CCLSIM_ERROR(k.name(),
                     "fabric connection to core {}-{}: the channel still holds {} packets of an earlier "
                     "connection that did not close",
                     a_.x, a_.y, wr_ - rd);
    l1_write_u32(a_.local_rd, rd);
    l1_write_u32(a_.local_teardown, 0);
    const std::uint64_t blk = get_noc_addr(a_.x, a_.y, a_.location);
    noc_inline_dw_write(blk + conn::kWorkerXY, packXY(my_x(), my_y()));
    noc_inline_dw_write(blk + conn::kWorkerRd, a_.local_rd);
    noc_inline_dw_write(blk + conn::kWorkerTeardown, a_.local_teardown);
    // Same VC: the state lands after the location words.
    noc_inline_dw_write(blk + conn::kState, conn::kOpen);
    open_ = true;
    k.setWaypoint("FOPD");
}

void WorkerToFabricEdmSender::close() {
    KernelContext& k = detail::ctx();
    if (!open_) CCLSIM_ERROR(k.name(), "fabric connection to core {}-{} closed but not open", a_.x, a_.y);
    k.setWaypoint("FCLW");
    noc_inline_dw_write(get_noc_addr(a_.x, a_.y, a_.location + conn::kState), conn::kCloseRequested);
    while (!l1_word_is(a_.local_teardown, 1)) {
    }
    noc_async_write_barrier();
    open_ = false;
    k.setWaypoint("FCLD");
}

bool WorkerToFabricEdmSender::edm_has_space_for_packet() {
    // Free-running counters: slots freed >= packets written - slots + 1
    // (the first num_slots packets always fit).
    if (wr_ < a_.num_slots) return true;
    return l1_word_at_least(a_.local_rd, wr_ + 1 - a_.num_slots);
}

void WorkerToFabricEdmSender::wait_for_empty_write_slot() {
    KernelContext& k = detail::ctx();
    if (!open_) CCLSIM_ERROR(k.name(), "fabric send on a connection to core {}-{} that is not open", a_.x, a_.y);
    k.setWaypoint("FSLW");
    while (!edm_has_space_for_packet()) {
    }
    k.setWaypoint("FSLD");
}

std::uint64_t WorkerToFabricEdmSender::next_slot_noc_addr() const {
    return get_noc_addr(a_.x, a_.y, a_.buffer + (wr_ % a_.num_slots) * a_.slot_bytes);
}

void WorkerToFabricEdmSender::send_payload_without_header_non_blocking_from_address(std::uint32_t src,
                                                                                    std::uint32_t size) {
    KernelContext& k = detail::ctx();
    if (size + a_.header_bytes > a_.slot_bytes)
        CCLSIM_ERROR(k.name(), "fabric send of {} B exceeds the channel's largest payload of {} B", size,
                     a_.slot_bytes - a_.header_bytes);
    if (size) noc_async_write(src, next_slot_noc_addr() + a_.header_bytes, size);
}

void WorkerToFabricEdmSender::send_payload_flush_non_blocking_from_address(std::uint32_t header_l1,
                                                                           std::uint32_t header_size) {
    KernelContext& k = detail::ctx();
    if (header_size != a_.header_bytes)
        CCLSIM_ERROR(k.name(), "fabric packet header of {} B but the fabric's headers are {} B", header_size,
                     a_.header_bytes);
    noc_async_write(header_l1, next_slot_noc_addr(), header_size);
    // The counter increment rides the same VC: it lands after payload and header.
    noc_semaphore_inc(get_noc_addr(a_.x, a_.y, a_.wr_counter), 1);
    ++wr_;
}

void WorkerToFabricEdmSender::send_slot_from_address(std::uint32_t src, std::uint32_t bytes, std::uint32_t trid) {
    KernelContext& k = detail::ctx();
    if (bytes > a_.slot_bytes)
        CCLSIM_ERROR(k.name(), "fabric send of a {} B packet exceeds the channel's {} B slots", bytes, a_.slot_bytes);
    noc_async_write_one_packet_with_trid(src, next_slot_noc_addr(), bytes, trid);
    noc_semaphore_inc(get_noc_addr(a_.x, a_.y, a_.wr_counter), 1);
    ++wr_;
}

void WorkerToFabricEdmSender::send_packet(const PacketHeader& h, std::uint32_t payload_src,
                                          std::uint32_t payload_size) {
    KernelContext& k = detail::ctx();
    if (h.payload_size_bytes() != payload_size)
        CCLSIM_ERROR(k.name(), "fabric packet header says {} B of payload but {} B are sent", h.payload_size_bytes(),
                     payload_size);
    wait_for_empty_write_slot();
    // The pool slot of packet wr was last used by packet wr - num_slots, which
    // the router has taken (its slot is free again): its header has left L1.
    const std::uint32_t header_l1 = a_.header_pool + (wr_ % a_.num_slots) * a_.header_bytes;
    fabric_write_header(header_l1, h, a_.header_bytes);
    send_payload_without_header_non_blocking_from_address(payload_src, payload_size);
    send_payload_flush_non_blocking_from_address(header_l1, a_.header_bytes);
}

}  // namespace cclsim::fw
