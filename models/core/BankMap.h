// Where the pages of interleaved buffers live on a chip: DRAM banks (an
// endpoint and an offset in its channel) and L1 banks (worker cores). The
// chip fills it; kernels use it through InterleavedAddrGen.
#pragma once

#include "models/noc/NocTypes.h"

#include <cstdint>
#include <vector>

namespace cclsim {

struct BankMap {
    std::vector<CoreCoord> dramEndpoint;    ///< per DRAM bank
    std::vector<std::uint64_t> dramOffset;  ///< per DRAM bank: offset of the bank in its channel
    std::vector<CoreCoord> l1Cores;         ///< L1 banks: the worker cores, in order
    std::vector<CoreCoord> sramEndpoint;    ///< per SRAM pool bank (PE_IPCQ buffer_kind sram)
    std::uint64_t sramBankBytes = 0;        ///< bank b at offset b * sramBankBytes in the pool
};

}  // namespace cclsim
