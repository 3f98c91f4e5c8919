#include "firmware/api/api_internal.h"
#include "firmware/ccl/ccl_kernels.h"

#include <cstring>
#include <vector>

namespace cclsim::fw::ccl {

void edm_push(const EdmChannel& ch, std::uint32_t l1, std::uint32_t bytes, bool last) {
    noc_semaphore_wait(ch.local_sem, 1);
    noc_semaphore_set(ch.local_sem, 0);
    noc_async_write(l1, ch.buffer, bytes);
    // Same VC as the payload: the increment lands after it.
    noc_semaphore_inc(ch.semaphore, edm::worker_signal::kNextMessage + (last ? edm::worker_signal::kTerminate : 0));
}

void edm_pull(const EdmChannel& ch, std::uint32_t l1, std::uint32_t bytes, bool last) {
    noc_semaphore_wait(ch.local_sem, 1);
    noc_semaphore_set(ch.local_sem, 0);
    noc_async_read(ch.buffer, l1, bytes);
    noc_async_read_barrier();
    noc_semaphore_inc(ch.semaphore, edm::worker_signal::kNextMessage + (last ? edm::worker_signal::kTerminate : 0));
}

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
    const FirmwareCosts& c = k.core().costs();
    k.advance(Tick(double(bytes) / c.eltwiseBytesPerCycle) * c.cycle);
    k.sync();
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        std::vector<std::uint8_t> x(bytes), y(bytes), z(bytes);
        l1.readBytes(a, bytes, x.data());
        l1.readBytes(b, bytes, y.data());
        if (dtype == 1) {
            for (std::uint32_t i = 0; i + 4 <= bytes; i += 4) {
                std::uint32_t p, q;
                std::memcpy(&p, &x[i], 4);
                std::memcpy(&q, &y[i], 4);
                const std::uint32_t s = to_bits(to_float(p) + to_float(q));
                std::memcpy(&z[i], &s, 4);
            }
        } else {
            for (std::uint32_t i = 0; i + 2 <= bytes; i += 2) {
                std::uint16_t p, q;
                std::memcpy(&p, &x[i], 2);
                std::memcpy(&q, &y[i], 2);
                const std::uint32_t s = to_bits(to_float(std::uint32_t(p) << 16) + to_float(std::uint32_t(q) << 16));
                const std::uint16_t r = std::uint16_t((s + 0x7fffu + ((s >> 16) & 1u)) >> 16);
                std::memcpy(&z[i], &r, 2);
            }
        }
        l1.writeBytes(dst, bytes, z.data());
    }
    k.acted();
}

}  // namespace cclsim::fw::ccl
