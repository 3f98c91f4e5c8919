#include "golden/Golden.h"

#include <cstring>
#include <stdexcept>

namespace cclsim::golden {

namespace {

std::uint64_t mix(std::uint64_t x) {
    // A 64-bit finaliser (xorshift-multiply); independent of the model's generators.
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

float bitsToFloat(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

std::uint32_t floatToBits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

std::uint16_t roundToBf16(float f) {
    const std::uint32_t b = floatToBits(f);
    const std::uint32_t lsb = (b >> 16) & 1u;
    return std::uint16_t((b + 0x7fffu + lsb) >> 16);
}

}  // namespace

std::size_t elementBytes(DType t) { return t == DType::BF16 ? 2 : 4; }

DType parseDType(const std::string& s) {
    if (s == "bf16") return DType::BF16;
    if (s == "fp32") return DType::FP32;
    throw std::invalid_argument("unknown dtype '" + s + "' (bf16 or fp32)");
}

void inputPage(std::uint64_t seed, unsigned rank, std::uint64_t page, std::uint32_t pageBytes, DType t,
               std::uint8_t* out) {
    const std::size_t eb = elementBytes(t);
    const std::uint64_t base = mix(seed * 0x9e3779b97f4a7c15ULL + rank * 0x100000001b3ULL + page * 0x5851f42d4c957f2dULL);
    for (std::uint32_t i = 0; i < pageBytes / eb; ++i) {
        const std::uint64_t r = mix(base + i);
        // sign, exponent in [-6, 1], random mantissa: |x| in [2^-6, 4).
        const std::uint32_t sign = std::uint32_t(r & 1u) << 31;
        const std::uint32_t exponent = std::uint32_t(121 + ((r >> 1) % 8)) << 23;
        const std::uint32_t mantissa = std::uint32_t(r >> 8) & 0x7fffffu;
        const std::uint32_t bits = sign | exponent | mantissa;
        if (t == DType::FP32) {
            std::memcpy(out + 4 * i, &bits, 4);
        } else {
            const std::uint16_t h = std::uint16_t(bits >> 16);
            std::memcpy(out + 2 * i, &h, 2);
        }
    }
}

void add(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::uint32_t bytes, DType t) {
    if (t == DType::FP32) {
        for (std::uint32_t i = 0; i < bytes; i += 4) {
            std::uint32_t x, y;
            std::memcpy(&x, a + i, 4);
            std::memcpy(&y, b + i, 4);
            const std::uint32_t s = floatToBits(bitsToFloat(x) + bitsToFloat(y));
            std::memcpy(out + i, &s, 4);
        }
        return;
    }
    for (std::uint32_t i = 0; i < bytes; i += 2) {
        std::uint16_t x, y;
        std::memcpy(&x, a + i, 2);
        std::memcpy(&y, b + i, 2);
        const float s = bitsToFloat(std::uint32_t(x) << 16) + bitsToFloat(std::uint32_t(y) << 16);
        const std::uint16_t r = roundToBf16(s);
        std::memcpy(out + i, &r, 2);
    }
}

std::vector<unsigned> ringReductionOrder(unsigned c, unsigned n) {
    std::vector<unsigned> order;
    for (unsigned k = 1; k <= n; ++k) order.push_back((c + k) % n);
    return order;
}

}  // namespace cclsim::golden
