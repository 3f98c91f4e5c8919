// The TLM-2.0 base protocol's plain read and write, decoded once for every
// cclsim memory target (L1, DRAM channel, SRAM pool).
//
// A foreign initiator may send any legal generic payload: the data pointer
// must be valid (an error response otherwise), the byte-enable mask is
// honoured (byte i of the data is accessed when mask[i % length] is
// TLM_BYTE_ENABLED; on a read the disabled bytes of the data array are left
// alone), and a streaming width below the data length repeats the window
// [address, address + width) (byte i goes to address + i % width). The memory
// supplies two functions that move a contiguous run of bytes.
#pragma once

#include <tlm>

#include <algorithm>
#include <cstdint>

namespace cclsim {

/// Access [addr, ...) of a memory of `size` bytes. `read(a, n, out)` and
/// `write(a, n, in)` move contiguous bytes. Sets the response status; returns
/// true if the memory was accessed.
template <class Read, class Write>
bool plainTlmAccess(tlm::tlm_generic_payload& gp, std::uint64_t size, Read&& read, Write&& write) {
    const std::uint64_t addr = gp.get_address();
    const std::uint32_t len = gp.get_data_length();
    std::uint32_t width = gp.get_streaming_width();
    if (width == 0 || width > len) width = len;
    unsigned char* data = gp.get_data_ptr();
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return false;
    }
    if (!data && len) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
    }
    if (addr > size || width > size - addr) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return false;
    }
    const unsigned char* be = gp.get_byte_enable_ptr();
    const std::uint32_t beLen = be ? gp.get_byte_enable_length() : 0;
    if (be && beLen == 0) {
        gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return false;
    }
    const bool isWrite = gp.is_write();
    if (!be && width == len) {
        if (isWrite)
            write(addr, len, data);
        else
            read(addr, len, data);
    } else {
        // Runs of enabled bytes inside one streaming window.
        std::uint32_t i = 0;
        while (i < len) {
            auto enabled = [&](std::uint32_t k) { return !be || be[k % beLen] == TLM_BYTE_ENABLED; };
            if (!enabled(i)) {
                ++i;
                continue;
            }
            std::uint32_t j = i + 1;
            while (j < len && enabled(j) && j % width != 0) ++j;
            const std::uint64_t a = addr + i % width;
            if (isWrite)
                write(a, j - i, data + i);
            else
                read(a, j - i, data + i);
            i = j;
        }
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

/// transport_dbg: command, address, data pointer and length only (the
/// standard ignores byte enables and streaming width here). Returns the
/// bytes moved: fewer than asked when the access runs past the memory's end.
template <class Read, class Write>
unsigned debugTlmAccess(tlm::tlm_generic_payload& gp, std::uint64_t size, Read&& read, Write&& write) {
    const std::uint64_t addr = gp.get_address();
    unsigned char* data = gp.get_data_ptr();
    if (!data || addr >= size || gp.get_command() == tlm::TLM_IGNORE_COMMAND) return 0;
    const auto n = unsigned(std::min<std::uint64_t>(gp.get_data_length(), size - addr));
    if (gp.is_write())
        write(addr, n, data);
    else
        read(addr, n, data);
    return n;
}

/// Grant DMI to the page at `page` (`pageBytes` long, holding `addr`) of a
/// memory of `size` bytes; the caller sets the access and latencies.
inline void dmiPage(tlm::tlm_dmi& dmi, std::uint8_t* page, std::uint64_t addr, std::uint64_t pageBytes,
                    std::uint64_t size) {
    const std::uint64_t start = addr / pageBytes * pageBytes;
    dmi.set_dmi_ptr(page);
    dmi.set_start_address(start);
    dmi.set_end_address(std::min(start + pageBytes, size) - 1);
}

/// Refuse DMI for the whole memory of `size` bytes.
inline bool dmiRefused(tlm::tlm_dmi& dmi, std::uint64_t size) {
    dmi.set_start_address(0);
    dmi.set_end_address(size - 1);
    dmi.allow_none();
    return false;
}

}  // namespace cclsim
