// Fabric mux: lets several worker cores share one router worker channel
// (tt-metal: tt_fabric_mux, used by the CCL ops when more than one worker of
// a chip sends through the same link).
//
// The mux runs on a worker core. Each client gets its own channel in the
// mux's L1 (slots of header + largest payload, a connection block, a "packets
// written" counter) and talks to it exactly as it would talk to a router
// (WorkerToFabricEdmSender). The mux holds the only connection to the
// router's worker channel and copies client packets into it whole:
//
//   client c                    mux                               router ch 0
//   write slot, inc wr[c] ----> wr[c] != taken[c], router has a slot:
//                               NoC write slot -> router slot  -----> packet
//                               inc router wr_counter ------------->
//                               (trid c) flushed: slot free again
//   rd (slots freed) <--------- inline write of rd[c]
//
// Clients are served round-robin, one packet per client per pass.
//
// Args: FabricMuxArgs (firmware/fabric/fabric_types.h), end marker 0xFAB0.
#include "firmware/api/fabric_api.h"
#include "firmware/fabric/fabric_kernels.h"

#include <vector>

namespace cclsim::fw::fabric_fw {

using namespace cclsim::fabric;

namespace {

class Mux {
public:
    explicit Mux(const FabricMuxArgs& a) : a_(a), router_(a.router), clients_(a.n_clients) {}

    void run() {
        router_.open();
        WAYPOINT("FMUX");
        for (;;) {
            steady_.point();
            for (std::uint32_t c = 0; c < a_.n_clients; ++c) {
                give_credits(c);
                take_packet(c);
                connection_step(c);
            }
        }
    }

private:
    SteadyService steady_;  ///< pauses with fast-forward skips
    struct Client {
        std::uint32_t taken = 0;  ///< packets copied to the router
        std::uint32_t freed = 0;  ///< slots given back
        bool open = false;
        std::uint32_t x = 0, y = 0, rd = 0;
    };
    std::uint32_t wr_counter(std::uint32_t c) const { return a_.counters + c * 32; }
    std::uint32_t rd_counter(std::uint32_t c) const { return a_.counters + c * 32 + 16; }
    std::uint32_t block(std::uint32_t c) const { return a_.connections + c * conn::kBytes; }
    std::uint32_t slot(std::uint32_t c, std::uint32_t i) const {
        return a_.buffers + (c * a_.client_slots + i % a_.client_slots) * a_.slot_bytes;
    }

    void take_packet(std::uint32_t c) {
        Client& cl = clients_[c];
        if (!l1_word_is_not(wr_counter(c), cl.taken)) return;
        if (!router_.edm_has_space_for_packet()) return;
        const std::uint32_t s = slot(c, cl.taken);
        const std::uint32_t payload = l1_read_u32(s) >> 16;
        router_.send_slot_from_address(s, a_.header_bytes + (payload + 15) / 16 * 16, c % NOC_MAX_TRANSACTION_ID_COUNT);
        ++cl.taken;
    }

    void give_credits(std::uint32_t c) {
        Client& cl = clients_[c];
        if (cl.freed == cl.taken || !noc_async_write_trid_flushed(c % NOC_MAX_TRANSACTION_ID_COUNT)) return;
        cl.freed = cl.taken;
        l1_write_u32(rd_counter(c), cl.freed);
        if (cl.open) noc_inline_dw_write(get_noc_addr(cl.x, cl.y, cl.rd), cl.freed);
    }

    void connection_step(std::uint32_t c) {
        Client& cl = clients_[c];
        const std::uint32_t state = block(c) + conn::kState;
        if (!cl.open) {
            // A close requested before the open was seen still made a
            // connection (the router's connection_step).
            if (!l1_word_is_not(state, conn::kClosed)) return;  // kOpen or kCloseRequested
            const std::uint32_t xy = l1_read_u32(block(c) + conn::kWorkerXY);
            cl.x = xy >> 16;
            cl.y = xy & 0xffff;
            cl.rd = l1_read_u32(block(c) + conn::kWorkerRd);
            cl.open = true;
            return;
        }
        if (!l1_word_is(state, conn::kCloseRequested)) return;
        if (!l1_word_is(wr_counter(c), cl.freed)) return;
        noc_inline_dw_write(get_noc_addr(cl.x, cl.y, l1_read_u32(block(c) + conn::kWorkerTeardown)), 1);
        l1_write_u32(state, conn::kClosed);
        cl.open = false;
    }

    FabricMuxArgs a_;
    WorkerToFabricEdmSender router_;
    std::vector<Client> clients_;
};

}  // namespace

void fabric_mux_main() {
    const FabricMuxArgs a = read_fabric_args<FabricMuxArgs>();
    fw_assert(a.n_clients >= 1 && a.n_clients <= kMaxMuxClients, "fabric mux: 1..16 clients");
    Mux m(a);
    m.run();
}

}  // namespace cclsim::fw::fabric_fw
