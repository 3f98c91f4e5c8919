// Device-side helpers shared by the collectives' worker kernels.
#include "firmware/api/api_internal.h"
#include "firmware/ccl/ccl_kernels.h"
#include "firmware/edm/edm_types.h"

#include <cstring>
#include <vector>

namespace cclsim::fw::ccl {

std::uint64_t tensor_page_addr(const TensorArgs& t, std::uint32_t page, std::uint32_t page_bytes) {
    if (t.dram) return get_noc_addr(page, InterleavedAddrGen<true>{t.base, page_bytes});
    return get_noc_addr(page, InterleavedAddrGen<false>{t.base, page_bytes});
}

void edm_push(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes) {
    noc_semaphore_wait(ch.local_sem, 1);
    // Reset before the write: the EDM's next "buffer free" must not be lost.
    noc_semaphore_set(ch.local_sem, 0);
    noc_async_write(l1, get_noc_addr(ch.x, ch.y, ch.buffer), bytes);
    // Same VC as the payload: the increment lands after it.
    noc_semaphore_inc(get_noc_addr(ch.x, ch.y, ch.semaphore), cclsim::edm::worker_signal::kNextMessage);
}

void edm_pull(const EdmPort& ch, std::uint32_t l1, std::uint32_t bytes) {
    noc_semaphore_wait(ch.local_sem, 1);
    noc_semaphore_set(ch.local_sem, 0);
    noc_async_read(get_noc_addr(ch.x, ch.y, ch.buffer), l1, bytes);
    noc_async_read_barrier();
    noc_semaphore_inc(get_noc_addr(ch.x, ch.y, ch.semaphore), cclsim::edm::worker_signal::kNextMessage);
}

void semaphore_inc(const RemoteSem& s, std::uint32_t incr) { noc_semaphore_inc(get_noc_addr(s.x, s.y, s.addr), incr); }

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

}  // namespace cclsim::fw::ccl
