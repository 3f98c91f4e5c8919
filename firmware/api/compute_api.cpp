#include "firmware/api/compute_api.h"

#include "firmware/api/api_internal.h"

#include <cstring>
#include <vector>

namespace cclsim::fw {

namespace {
float to_float(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
std::uint32_t to_bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
}  // namespace

void eltwise_add(std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::uint32_t bytes, std::uint32_t dtype) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "eltwise_add", dst, bytes);
    detail::checkLocal(k, "eltwise_add", a, bytes);
    detail::checkLocal(k, "eltwise_add", b, bytes);
    if (dtype > 1) CCLSIM_ERROR(k.name(), "eltwise_add: dtype {} is neither bf16 (0) nor fp32 (1)", dtype);
    const FirmwareCosts& c = k.core().costs();
    k.advance(Tick(double(bytes) / c.eltwiseBytesPerCycle) * c.cycle);
    k.syncForStore();
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        static thread_local std::vector<std::uint8_t> x, y;
        x.resize(bytes);
        y.resize(bytes);
        l1.readBytes(a, bytes, x.data());
        l1.readBytes(b, bytes, y.data());
        if (dtype == 1) {
            for (std::uint32_t i = 0; i + 4 <= bytes; i += 4) {
                std::uint32_t p, q;
                std::memcpy(&p, &x[i], 4);
                std::memcpy(&q, &y[i], 4);
                const std::uint32_t s = to_bits(to_float(p) + to_float(q));
                std::memcpy(&x[i], &s, 4);
            }
        } else {
            for (std::uint32_t i = 0; i + 2 <= bytes; i += 2) {
                std::uint16_t p, q;
                std::memcpy(&p, &x[i], 2);
                std::memcpy(&q, &y[i], 2);
                // fp32 add, then round to nearest even into bf16.
                const std::uint32_t s = to_bits(to_float(std::uint32_t(p) << 16) + to_float(std::uint32_t(q) << 16));
                const std::uint16_t r = std::uint16_t((s + 0x7fffu + ((s >> 16) & 1u)) >> 16);
                std::memcpy(&x[i], &r, 2);
            }
        }
        l1.writeBytes(dst, bytes, x.data());
    }
    k.acted();
}

}  // namespace cclsim::fw
