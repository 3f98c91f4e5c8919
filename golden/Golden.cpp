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

/// Pages of one rank's block: the unit all_gather gathers and the fracture
/// reduce_scatter scatters.
std::uint64_t blockPages(const Collective& c) {
    const std::uint64_t pages = c.sizeBytes / c.pageBytes;
    return c.op == Op::Broadcast ? pages : pages / c.ranks();
}

/// The reduced value of input page `page` (of fracture f) over all ranks, in
/// the order the header defines.
void reducedPage(const Collective& c, std::uint64_t page, std::uint64_t f, std::uint8_t* out) {
    const unsigned n = c.ranks();
    const std::uint32_t pb = c.pageBytes;
    std::vector<std::uint8_t> x(pb);
    auto accumulate = [&](std::vector<std::uint8_t>& acc, bool& have, unsigned rank) {
        inputPage(c, rank, page, x.data());
        if (!have) {
            acc = x;
            have = true;
        } else {
            add(acc.data(), x.data(), acc.data(), pb, c.dtype);
        }
    };
    std::vector<std::uint8_t> acc(pb);
    bool have = false;
    if (c.ring) {
        for (unsigned k = 1; k <= n; ++k) accumulate(acc, have, unsigned((f + k) % n));
    } else {
        for (unsigned r = 0; r <= f; ++r) accumulate(acc, have, r);  // (L + x[f])
        std::vector<std::uint8_t> right(pb);
        bool haveRight = false;
        for (unsigned r = n - 1; r > f; --r) accumulate(right, haveRight, r);  // R
        if (haveRight) add(acc.data(), right.data(), acc.data(), pb, c.dtype);
    }
    std::memcpy(out, acc.data(), pb);
}

}  // namespace

std::size_t elementBytes(DType t) { return t == DType::BF16 ? 2 : 4; }
const char* dtypeName(DType t) { return t == DType::BF16 ? "bf16" : "fp32"; }

DType parseDType(const std::string& s) {
    if (s == "bf16") return DType::BF16;
    if (s == "fp32") return DType::FP32;
    throw std::invalid_argument("unknown dtype '" + s + "' (bf16 or fp32)");
}

std::uint64_t inputPages(const Collective& c) {
    const std::uint64_t pages = c.sizeBytes / c.pageBytes;
    return c.op == Op::AllGather ? pages / c.ranks() : pages;
}

std::uint64_t outputPages(const Collective& c) {
    const std::uint64_t pages = c.sizeBytes / c.pageBytes;
    return c.op == Op::ReduceScatter ? pages / c.ranks() : pages;
}

void inputPage(const Collective& c, unsigned rank, std::uint64_t page, std::uint8_t* out) {
    const std::uint64_t base =
        mix(c.seed * 0x9e3779b97f4a7c15ULL + std::uint64_t(c.chips.at(rank)) * 0x100000001b3ULL + page * 0x5851f42d4c957f2dULL);
    // One 64-bit draw per 8 bytes: four bf16 or two fp32 values, each with a
    // random sign, an exponent in [-6, 1] and a random mantissa.
    for (std::uint32_t w = 0; w < c.pageBytes / 8; ++w) {
        const std::uint64_t r = mix(base + w);
        if (c.dtype == DType::FP32) {
            for (unsigned k = 0; k < 2; ++k) {
                const std::uint32_t v = std::uint32_t(r >> (32 * k));
                const std::uint32_t bits = (v & 0x80000000u) | ((121u + ((v >> 23) & 7u)) << 23) | (v & 0x7fffffu);
                std::memcpy(out + 8 * w + 4 * k, &bits, 4);
            }
        } else {
            for (unsigned k = 0; k < 4; ++k) {
                const std::uint32_t v = std::uint32_t(r >> (16 * k)) & 0xffffu;
                const std::uint16_t bits = std::uint16_t((v & 0x8000u) | ((121u + ((v >> 7) & 7u)) << 7) | (v & 0x7fu));
                std::memcpy(out + 8 * w + 2 * k, &bits, 2);
            }
        }
    }
}

void expectedOutputPage(const Collective& c, unsigned rank, std::uint64_t page, std::uint8_t* out) {
    const unsigned n = c.ranks();
    const std::uint64_t B = blockPages(c);
    switch (c.op) {
        case Op::AllGather: {
            unsigned origin;
            std::uint64_t p;
            if (c.gatherDim == 0) {
                origin = unsigned(page / B);
                p = page % B;
            } else {
                const std::uint64_t rowOut = std::uint64_t(n) * c.rowPages;  // output row width
                const std::uint64_t row = page / rowOut, within = page % rowOut;
                origin = unsigned(within / c.rowPages);
                p = row * c.rowPages + within % c.rowPages;
            }
            inputPage(c, origin, p, out);
            return;
        }
        case Op::ReduceScatter: reducedPage(c, rank * B + page, rank, out); return;
        case Op::AllReduce: reducedPage(c, page, page / B, out); return;
        case Op::AllToAll: inputPage(c, unsigned(page / B), rank * B + page % B, out); return;
        case Op::Broadcast: inputPage(c, c.root, page, out); return;
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

}  // namespace cclsim::golden
