#include "firmware/api/compute_api.h"

#include "firmware/api/api_internal.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace cclsim::fw {

namespace {

float f32(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
std::uint32_t bits32(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// bf16: the upper half of an fp32; rounding to nearest even on the dropped half.
float bf16_to_f32(std::uint16_t h) {
    return f32(std::uint32_t(h) << 16);
}
std::uint16_t f32_to_bf16(float f) {
    const std::uint32_t b = bits32(f);
    if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu)) return std::uint16_t((b >> 16) | 0x0040u);
    const std::uint32_t rounding = 0x7fffu + ((b >> 16) & 1u);
    return std::uint16_t((b + rounding) >> 16);
}

// fp16 (IEEE binary16) by bit manipulation of the fp32 pattern.
float fp16_to_f32(std::uint16_t h) {
    const std::uint32_t s = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return f32(s | 0x7f800000u | (m << 13));
    if (e == 0) {
        if (m == 0) return f32(s);
        // Normalise the subnormal: shift the mantissa up until its leading 1 is implicit.
        int shift = 0;
        while (!(m & 0x400u)) {
            m <<= 1;
            ++shift;
        }
        m &= 0x3ffu;
        return f32(s | (std::uint32_t(127 - 15 + 1 - shift) << 23) | (m << 13));
    }
    return f32(s | ((e + 127 - 15) << 23) | (m << 13));
}

std::uint16_t f32_to_fp16(float f) {
    const std::uint32_t b = bits32(f);
    const std::uint16_t s = std::uint16_t((b >> 16) & 0x8000u);
    const std::uint32_t e = (b >> 23) & 0xffu, m = b & 0x7fffffu;
    if (e == 0xff) return std::uint16_t(s | 0x7c00u | (m ? 0x200u : 0u));
    const int E = int(e) - 127 + 15;  // biased fp16 exponent
    if (E >= 0x1f) return std::uint16_t(s | 0x7c00u);
    std::uint32_t mant;
    int shift;
    if (E <= 0) {
        // Subnormal result: the value is (1.m) x 2^(E-1-14+...); keep 10 - (1 - E) bits.
        if (E < -10) return s;  // below half the smallest subnormal: rounds to zero
        mant = m | 0x800000u;   // with the implicit 1
        shift = 14 - E;         // 24-bit significand down to the subnormal's bits
    } else {
        mant = m;
        shift = 13;
    }
    const std::uint32_t kept = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    std::uint32_t r = kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
    if (E <= 0) return std::uint16_t(s | r);  // a carry into bit 10 makes the smallest normal
    std::uint32_t exp = std::uint32_t(E);
    if (r == 0x400u) {  // mantissa overflow
        r = 0;
        ++exp;
        if (exp >= 0x1f) return std::uint16_t(s | 0x7c00u);
    }
    return std::uint16_t(s | (exp << 10) | r);
}

float load_float(dtype_code t, const std::uint8_t* p) {
    std::uint16_t h;
    switch (t) {
        case dtype_code::bf16: std::memcpy(&h, p, 2); return bf16_to_f32(h);
        case dtype_code::fp16: std::memcpy(&h, p, 2); return fp16_to_f32(h);
        default: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
    }
}
void store_float(dtype_code t, std::uint8_t* p, float v) {
    std::uint16_t h;
    switch (t) {
        case dtype_code::bf16:
            h = f32_to_bf16(v);
            std::memcpy(p, &h, 2);
            return;
        case dtype_code::fp16:
            h = f32_to_fp16(v);
            std::memcpy(p, &h, 2);
            return;
        default: std::memcpy(p, &v, 4); return;
    }
}

bool is_float(dtype_code t) {
    return t == dtype_code::bf16 || t == dtype_code::fp16 || t == dtype_code::fp32;
}

float op_float(reduce_op op, float a, float b) {
    switch (op) {
        case reduce_op::mul: return a * b;
        // Keep a unless b is strictly smaller (larger), or the same zero with the smaller (larger) sign.
        case reduce_op::min: return b < a || (a == b && std::signbit(b) && !std::signbit(a)) ? b : a;
        case reduce_op::max: return b > a || (a == b && !std::signbit(b) && std::signbit(a)) ? b : a;
        default: return a + b;
    }
}

template <class T> T op_int(reduce_op op, T a, T b) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
        case reduce_op::mul: return T(U(a) * U(b));
        case reduce_op::min: return a < b ? a : b;
        case reduce_op::max: return a > b ? a : b;
        default: return T(U(a) + U(b));
    }
}

template <class T> void reduce_ints(reduce_op op, std::uint8_t* x, const std::uint8_t* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        T a, b;
        std::memcpy(&a, x + i * sizeof(T), sizeof(T));
        std::memcpy(&b, y + i * sizeof(T), sizeof(T));
        const T r = op_int<T>(op, a, b);
        std::memcpy(x + i * sizeof(T), &r, sizeof(T));
    }
}

template <class T> void square_ints(std::uint8_t* x, std::size_t n) {
    using U = std::make_unsigned_t<T>;
    for (std::size_t i = 0; i < n; ++i) {
        T a;
        std::memcpy(&a, x + i * sizeof(T), sizeof(T));
        const T r = T(U(a) * U(a));
        std::memcpy(x + i * sizeof(T), &r, sizeof(T));
    }
}

bool allowed(reduce_op op, dtype_code t) {
    switch (op) {
        case reduce_op::add:
        case reduce_op::mul: return t != dtype_code::uint32 && t != dtype_code::boolean;
        case reduce_op::mean: return is_float(t);
        case reduce_op::min:
        case reduce_op::max:
        case reduce_op::square_add: return t != dtype_code::boolean;
        case reduce_op::logical_and:
        case reduce_op::logical_or: return t == dtype_code::boolean;
    }
    return false;
}

void check(KernelContext& k, const char* api, reduce_op op, dtype_code t, std::uint32_t bytes) {
    if (std::uint32_t(t) > std::uint32_t(dtype_code::boolean))
        CCLSIM_ERROR(k.name(), "{}: data type code {} is not one of bf16..bool (0..7)", api, std::uint32_t(t));
    if (std::uint32_t(op) > std::uint32_t(reduce_op::logical_or))
        CCLSIM_ERROR(k.name(), "{}: reduction operator code {} is not one of add..logical_or (0..7)", api,
                     std::uint32_t(op));
    if (!allowed(op, t))
        CCLSIM_ERROR(k.name(), "{}: operator code {} does not apply to data type code {}", api, std::uint32_t(op),
                     std::uint32_t(t));
    if (bytes % dtype_bytes(t))
        CCLSIM_ERROR(k.name(), "{}: {} B is not a whole number of {} B elements", api, bytes, dtype_bytes(t));
}

/// Charge the engine's time and sync before touching L1 (data mode).
void charge(KernelContext& k, std::uint32_t bytes) {
    const FirmwareCosts& c = k.core().costs();
    k.advance(Tick(double(bytes) / c.eltwiseBytesPerCycle) * c.cycle);
    k.syncForStore();
}

std::vector<std::uint8_t>& scratch(int i) {
    static thread_local std::vector<std::uint8_t> s[2];
    return s[i];
}

}  // namespace

std::uint32_t dtype_bytes(dtype_code t) {
    switch (t) {
        case dtype_code::bf16:
        case dtype_code::fp16: return 2;
        case dtype_code::fp32:
        case dtype_code::int32:
        case dtype_code::uint32: return 4;
        case dtype_code::int64:
        case dtype_code::uint64: return 8;
        case dtype_code::boolean: return 1;
    }
    return 1;
}

void eltwise_reduce(std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::uint32_t bytes, reduce_op op,
                    dtype_code t) {
    KernelContext& k = detail::ctx();
    for (std::uint32_t addr : {dst, a, b}) detail::checkLocal(k, "eltwise_reduce", addr, bytes);
    check(k, "eltwise_reduce", op, t, bytes);
    charge(k, bytes);
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        std::vector<std::uint8_t>& x = scratch(0);
        std::vector<std::uint8_t>& y = scratch(1);
        x.resize(bytes);
        y.resize(bytes);
        l1.readBytes(a, bytes, x.data());
        l1.readBytes(b, bytes, y.data());
        const std::size_t e = dtype_bytes(t), n = bytes / e;
        switch (t) {
            case dtype_code::bf16:
            case dtype_code::fp16:
            case dtype_code::fp32:
                for (std::size_t i = 0; i < n; ++i)
                    store_float(t, &x[i * e], op_float(op, load_float(t, &x[i * e]), load_float(t, &y[i * e])));
                break;
            case dtype_code::int32: reduce_ints<std::int32_t>(op, x.data(), y.data(), n); break;
            case dtype_code::uint32: reduce_ints<std::uint32_t>(op, x.data(), y.data(), n); break;
            case dtype_code::int64: reduce_ints<std::int64_t>(op, x.data(), y.data(), n); break;
            case dtype_code::uint64: reduce_ints<std::uint64_t>(op, x.data(), y.data(), n); break;
            case dtype_code::boolean:
                for (std::size_t i = 0; i < n; ++i) {
                    const bool p = x[i] != 0, q = y[i] != 0;
                    x[i] = op == reduce_op::logical_and ? std::uint8_t(p && q) : std::uint8_t(p || q);
                }
                break;
        }
        l1.writeBytes(dst, bytes, x.data());
    }
    k.acted();
}

void eltwise_prepare(std::uint32_t dst, std::uint32_t src, std::uint32_t bytes, reduce_op op, dtype_code t) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "eltwise_prepare", dst, bytes);
    detail::checkLocal(k, "eltwise_prepare", src, bytes);
    check(k, "eltwise_prepare", op, t, bytes);
    if (op != reduce_op::square_add && dst == src) return;  // g(x) = x, in place: nothing to do
    charge(k, bytes);
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        std::vector<std::uint8_t>& x = scratch(0);
        x.resize(bytes);
        l1.readBytes(src, bytes, x.data());
        if (op == reduce_op::square_add) {
            const std::size_t e = dtype_bytes(t), n = bytes / e;
            switch (t) {
                case dtype_code::int32: square_ints<std::int32_t>(x.data(), n); break;
                case dtype_code::uint32: square_ints<std::uint32_t>(x.data(), n); break;
                case dtype_code::int64: square_ints<std::int64_t>(x.data(), n); break;
                case dtype_code::uint64: square_ints<std::uint64_t>(x.data(), n); break;
                default:
                    for (std::size_t i = 0; i < n; ++i) {
                        const float v = load_float(t, &x[i * e]);
                        store_float(t, &x[i * e], v * v);
                    }
            }
        }
        l1.writeBytes(dst, bytes, x.data());
    }
    k.acted();
}

void eltwise_copy(std::uint32_t dst, std::uint32_t src, std::uint32_t bytes) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "eltwise_copy", dst, bytes);
    detail::checkLocal(k, "eltwise_copy", src, bytes);
    if (bytes == 0) return;
    charge(k, bytes);
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        std::vector<std::uint8_t>& x = scratch(0);
        x.resize(bytes);
        l1.readBytes(src, bytes, x.data());
        l1.writeBytes(dst, bytes, x.data());
    }
    k.acted();
}

void eltwise_fill_zero(std::uint32_t dst, std::uint32_t bytes) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "eltwise_fill_zero", dst, bytes);
    if (bytes == 0) return;
    charge(k, bytes);
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        std::vector<std::uint8_t>& x = scratch(0);
        x.assign(bytes, 0);
        l1.writeBytes(dst, bytes, x.data());
    }
    k.acted();
}

void eltwise_finalize(std::uint32_t dst, std::uint32_t bytes, reduce_op op, dtype_code t, std::uint32_t group_size) {
    KernelContext& k = detail::ctx();
    detail::checkLocal(k, "eltwise_finalize", dst, bytes);
    check(k, "eltwise_finalize", op, t, bytes);
    if (op != reduce_op::mean) return;
    if (group_size == 0) CCLSIM_ERROR(k.name(), "eltwise_finalize: mean over a group of 0");
    charge(k, bytes);
    L1Memory& l1 = k.core().l1;
    if (l1.storesPayload()) {
        std::vector<std::uint8_t>& x = scratch(0);
        x.resize(bytes);
        l1.readBytes(dst, bytes, x.data());
        const std::size_t e = dtype_bytes(t);
        for (std::size_t i = 0; i < bytes / e; ++i)
            store_float(t, &x[i * e], load_float(t, &x[i * e]) / float(group_size));
        l1.writeBytes(dst, bytes, x.data());
    }
    k.acted();
}

}  // namespace cclsim::fw
