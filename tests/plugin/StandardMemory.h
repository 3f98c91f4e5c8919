// A memory written only against the SystemC and TLM-2.0 standard headers:
// what a user's own model looks like when it is plugged into cclsim. It
// knows nothing of cclsim.
//
// Loosely timed: b_transport either wait()s its latency inside the call
// (mode "wait": legal because the caller is a SystemC thread) or returns
// at once with the latency added to the annotated delay (mode "annotate").
// The bytes live in 4 KiB pages allocated on first write, so a 2 GB DRAM
// channel costs only what is written. It implements transport_dbg, rejects
// byte enables (TLM_BYTE_ENABLE_ERROR_RESPONSE) and streaming (TLM_BURST_ERROR_RESPONSE),
// and counts what it served.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

class StandardMemory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<StandardMemory> socket{"socket"};

    StandardMemory(const sc_core::sc_module_name& name, std::uint64_t size, sc_core::sc_time latency, bool waitInside)
        : sc_core::sc_module(name), size_(size), latency_(latency), waitInside_(waitInside) {
        socket.register_b_transport(this, &StandardMemory::b_transport);
        socket.register_transport_dbg(this, &StandardMemory::transport_dbg);
    }

    std::uint64_t reads = 0, writes = 0, bytes = 0;

private:
    static constexpr std::uint64_t kPage = 4096;
    using Page = std::array<unsigned char, kPage>;

    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
        const std::uint64_t addr = gp.get_address();
        const unsigned len = gp.get_data_length();
        if (gp.get_byte_enable_ptr()) {
            gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
            return;
        }
        if (gp.get_streaming_width() < len) {
            gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        if (addr >= size_ || len > size_ - addr || !gp.get_data_ptr()) {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (gp.is_write()) {
            copyIn(addr, len, gp.get_data_ptr());
            ++writes;
        } else if (gp.is_read()) {
            copyOut(addr, len, gp.get_data_ptr());
            ++reads;
        }
        bytes += len;
        if (waitInside_)
            wait(delay + latency_);  // LT with wait: the caller's thread sleeps
        else
            delay += latency_;
        if (waitInside_) delay = sc_core::SC_ZERO_TIME;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
        const std::uint64_t addr = gp.get_address();
        if (addr >= size_ || !gp.get_data_ptr()) return 0;
        const unsigned n = unsigned(std::min<std::uint64_t>(gp.get_data_length(), size_ - addr));
        if (gp.is_write())
            copyIn(addr, n, gp.get_data_ptr());
        else if (gp.is_read())
            copyOut(addr, n, gp.get_data_ptr());
        return n;
    }

    void copyIn(std::uint64_t addr, std::uint64_t n, const unsigned char* in) {
        while (n) {
            const std::uint64_t off = addr % kPage, k = std::min(n, kPage - off);
            auto& p = pages_[addr / kPage];
            if (!p) p = std::make_unique<Page>(Page{});
            std::memcpy(p->data() + off, in, k);
            addr += k;
            in += k;
            n -= k;
        }
    }
    void copyOut(std::uint64_t addr, std::uint64_t n, unsigned char* out) const {
        while (n) {
            const std::uint64_t off = addr % kPage, k = std::min(n, kPage - off);
            auto it = pages_.find(addr / kPage);
            if (it == pages_.end())
                std::memset(out, 0, k);
            else
                std::memcpy(out, it->second->data() + off, k);
            addr += k;
            out += k;
            n -= k;
        }
    }

    std::uint64_t size_;
    sc_core::sc_time latency_;
    bool waitInside_;
    std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
};
