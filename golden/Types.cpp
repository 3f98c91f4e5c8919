#include "golden/Types.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace cclsim::golden {

namespace {

constexpr const char* kNames[kDTypes] = {"bf16", "fp16", "fp32", "int32", "uint32", "int64", "uint64", "bool"};
constexpr const char* kGcl[kDTypes] = {"BFLOAT16",           "HALF", "FLOAT", "INT", "UNSIGNED_INT", "LONG_LONG",
                                       "UNSIGNED_LONG_LONG", "BOOL"};
constexpr const char* kOps[kRedOps] = {"add", "mean", "mul", "min", "max", "square_add", "logical_and", "logical_or"};

std::uint64_t mix(std::uint64_t x) {
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

// ---- bf16 / fp16 <-> fp32 (this file's own conversions) -------------------------

std::uint16_t toBf16(float f) {
    const std::uint32_t b = floatToBits(f);
    if ((b & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((b >> 16) | 0x40);  // NaN stays NaN
    return std::uint16_t((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
float fromBf16(std::uint16_t h) {
    return bitsToFloat(std::uint32_t(h) << 16);
}

float fromFp16(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h >> 15) << 31;
    const int exp = (h >> 10) & 0x1f;
    const std::uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) return bitsToFloat(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        // Subnormal (or zero): man x 2^-24.
        const float v = float(man) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return bitsToFloat(sign | (std::uint32_t(exp - 15 + 127) << 23) | (man << 13));
}

std::uint16_t toFp16(float f) {
    const std::uint32_t b = floatToBits(f);
    const std::uint16_t sign = std::uint16_t((b >> 16) & 0x8000u);
    const float a = std::fabs(f);
    if (std::isnan(f)) return std::uint16_t(sign | 0x7e00u);
    if (a >= 65520.0f) return std::uint16_t(sign | 0x7c00u);  // rounds to infinity
    if (a < 6.103515625e-05f) {
        // Subnormal range: multiples of 2^-24, round half to even.
        const float q = a * 16777216.0f;  // exact (a power-of-two scale)
        float r = std::nearbyint(q);      // default rounding mode: to nearest even
        return std::uint16_t(sign | std::uint16_t(r));
    }
    int e;
    const float m = std::frexp(a, &e);  // a = m x 2^e, m in [0.5, 1)
    // 11 significant bits: scale to an integer in [1024, 2048), round to nearest even.
    float s = std::nearbyint(std::ldexp(m, 11));
    if (s >= 2048.0f) {
        s /= 2;
        ++e;
    }
    const int exp = e - 1 + 15;
    if (exp >= 0x1f) return std::uint16_t(sign | 0x7c00u);
    return std::uint16_t(sign | (exp << 10) | (std::uint32_t(s) & 0x3ffu));
}

template <class T> T load(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <class T> void store(std::uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

float loadFloat(DType t, const std::uint8_t* p) {
    switch (t) {
        case DType::BF16: return fromBf16(load<std::uint16_t>(p));
        case DType::FP16: return fromFp16(load<std::uint16_t>(p));
        default: return load<float>(p);
    }
}
void storeFloat(DType t, std::uint8_t* p, float v) {
    switch (t) {
        case DType::BF16: store(p, toBf16(v)); break;
        case DType::FP16: store(p, toFp16(v)); break;
        default: store(p, v); break;
    }
}

float floatOp(RedOp op, float a, float b) {
    switch (op) {
        case RedOp::Mul: return a * b;
        case RedOp::Min:
            if (a == b) return std::signbit(a) ? a : b;  // -0 is the smaller zero
            return b < a ? b : a;
        case RedOp::Max:
            if (a == b) return std::signbit(a) ? b : a;
            return b > a ? b : a;
        default: return a + b;  // ADD, MEAN, SQUARE_ADD
    }
}

template <class T> T intOp(RedOp op, T a, T b) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
        case RedOp::Mul: return T(U(a) * U(b));
        case RedOp::Min: return b < a ? b : a;
        case RedOp::Max: return b > a ? b : a;
        default: return T(U(a) + U(b));
    }
}

template <class T>
void combineInt(RedOp op, const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        store(out + i * sizeof(T), intOp<T>(op, load<T>(a + i * sizeof(T)), load<T>(b + i * sizeof(T))));
}

template <class T> void squareInt(const std::uint8_t* x, std::uint8_t* out, std::size_t n) {
    using U = std::make_unsigned_t<T>;
    for (std::size_t i = 0; i < n; ++i) {
        const T v = load<T>(x + i * sizeof(T));
        store(out + i * sizeof(T), T(U(v) * U(v)));
    }
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

}  // namespace

std::size_t elementBytes(DType t) {
    switch (t) {
        case DType::BF16:
        case DType::FP16: return 2;
        case DType::FP32:
        case DType::INT32:
        case DType::UINT32: return 4;
        case DType::INT64:
        case DType::UINT64: return 8;
        case DType::BOOL: return 1;
    }
    return 1;
}

const char* dtypeName(DType t) {
    return kNames[unsigned(t)];
}
const char* gclTypeName(DType t) {
    return kGcl[unsigned(t)];
}
bool isFloat(DType t) {
    return t == DType::BF16 || t == DType::FP16 || t == DType::FP32;
}

DType parseDType(const std::string& text) {
    const std::string s = lower(text);
    for (unsigned i = 0; i < kDTypes; ++i)
        if (s == kNames[i] || s == lower(kGcl[i])) return DType(i);
    if (s == "float32") return DType::FP32;
    if (s == "float16") return DType::FP16;
    if (s == "bfloat16") return DType::BF16;
    throw std::invalid_argument(
        "unknown data type '" + text +
        "' (bf16, fp16, fp32, int32, uint32, int64, uint64, bool; or the GCL names float, half, "
        "int, unsigned_int, long_long, unsigned_long_long)");
}

const char* redOpName(RedOp op) {
    return kOps[unsigned(op)];
}

RedOp parseRedOp(const std::string& text) {
    const std::string s = lower(text);
    for (unsigned i = 0; i < kRedOps; ++i)
        if (s == kOps[i]) return RedOp(i);
    if (s == "sum") return RedOp::Add;
    throw std::invalid_argument("unknown reduction operator '" + text +
                                "' (add, mean, mul, min, max, square_add, logical_and, logical_or)");
}

bool supports(RedOp op, DType t) {
    switch (op) {
        case RedOp::Add:
        case RedOp::Mul:
            return t == DType::BF16 || t == DType::FP16 || t == DType::FP32 || t == DType::INT32 || t == DType::INT64 ||
                   t == DType::UINT64;
        case RedOp::Mean: return isFloat(t);
        case RedOp::Min:
        case RedOp::Max:
        case RedOp::SquareAdd: return t != DType::BOOL;
        case RedOp::LogicalAnd:
        case RedOp::LogicalOr: return t == DType::BOOL;
    }
    return false;
}

std::string supportedTypes(RedOp op) {
    std::string out;
    for (unsigned i = 0; i < kDTypes; ++i)
        if (supports(op, DType(i))) out += std::string(out.empty() ? "" : ", ") + kNames[i];
    return out;
}

bool hasPrepare(RedOp op) {
    return op == RedOp::SquareAdd;
}
bool hasFinalize(RedOp op) {
    return op == RedOp::Mean;
}

void combine(RedOp op, DType t, const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::size_t n) {
    if (!supports(op, t)) throw std::invalid_argument(std::string(redOpName(op)) + " does not support " + dtypeName(t));
    const std::size_t e = elementBytes(t);
    switch (t) {
        case DType::BF16:
        case DType::FP16:
        case DType::FP32:
            for (std::size_t i = 0; i < n; ++i)
                storeFloat(t, out + i * e, floatOp(op, loadFloat(t, a + i * e), loadFloat(t, b + i * e)));
            return;
        case DType::INT32: combineInt<std::int32_t>(op, a, b, out, n); return;
        case DType::UINT32: combineInt<std::uint32_t>(op, a, b, out, n); return;
        case DType::INT64: combineInt<std::int64_t>(op, a, b, out, n); return;
        case DType::UINT64: combineInt<std::uint64_t>(op, a, b, out, n); return;
        case DType::BOOL:
            for (std::size_t i = 0; i < n; ++i) {
                const bool x = a[i] != 0, y = b[i] != 0;
                out[i] = std::uint8_t(op == RedOp::LogicalAnd ? (x && y) : (x || y));
            }
            return;
    }
}

void prepare(RedOp op, DType t, const std::uint8_t* x, std::uint8_t* out, std::size_t n) {
    const std::size_t e = elementBytes(t);
    if (op != RedOp::SquareAdd) {
        if (out != x) std::memmove(out, x, n * e);
        return;
    }
    switch (t) {
        case DType::BF16:
        case DType::FP16:
        case DType::FP32:
            for (std::size_t i = 0; i < n; ++i) {
                const float v = loadFloat(t, x + i * e);
                storeFloat(t, out + i * e, v * v);
            }
            return;
        case DType::INT32: squareInt<std::int32_t>(x, out, n); return;
        case DType::UINT32: squareInt<std::uint32_t>(x, out, n); return;
        case DType::INT64: squareInt<std::int64_t>(x, out, n); return;
        case DType::UINT64: squareInt<std::uint64_t>(x, out, n); return;
        case DType::BOOL: throw std::invalid_argument("square_add does not support bool");
    }
}

void finalize(RedOp op, DType t, std::uint8_t* x, std::size_t n, unsigned groupSize) {
    if (op != RedOp::Mean) return;
    const std::size_t e = elementBytes(t);
    for (std::size_t i = 0; i < n; ++i) storeFloat(t, x + i * e, loadFloat(t, x + i * e) / float(groupSize));
}

void fillInput(std::uint64_t seed, unsigned id, DType t, RedOp op, std::uint64_t first, std::size_t n,
               std::uint8_t* out) {
    const std::uint64_t base = mix(seed * 0x9e3779b97f4a7c15ULL + std::uint64_t(id) * 0x100000001b3ULL);
    const std::size_t e = elementBytes(t);
    const bool mul = op == RedOp::Mul;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = mix(base + (first + i) * 0x5851f42d4c957f2dULL);
        const std::uint32_t m = std::uint32_t(r >> 11);
        const bool neg = (r >> 7) & 1;
        std::uint8_t* p = out + i * e;
        switch (t) {
            case DType::BF16: {
                const std::uint32_t exp = mul ? 126u + (m & 1u) : 121u + (m & 7u);
                store(p, std::uint16_t((neg ? 0x8000u : 0u) | (exp << 7) | ((m >> 3) & 0x7fu)));
                break;
            }
            case DType::FP16: {
                const std::uint32_t exp = mul ? 14u + (m & 1u) : 9u + (m & 7u);
                store(p, std::uint16_t((neg ? 0x8000u : 0u) | (exp << 10) | ((m >> 3) & 0x3ffu)));
                break;
            }
            case DType::FP32: {
                const std::uint32_t exp = mul ? 126u + (m & 1u) : 121u + (m & 7u);
                store(p, std::uint32_t((neg ? 0x80000000u : 0u) | (exp << 23) | ((r >> 32) & 0x7fffffu)));
                break;
            }
            case DType::INT32:
                store(p, std::int32_t(mul ? std::int64_t(m % 7) - 3 : std::int64_t(m % 2001) - 1000));
                break;
            case DType::UINT32: store(p, std::uint32_t(mul ? m % 4 : m % 1001)); break;
            case DType::INT64:
                store(p, std::int64_t(mul ? std::int64_t(m % 7) - 3 : std::int64_t(m % 2001) - 1000));
                break;
            case DType::UINT64: store(p, std::uint64_t(mul ? m % 4 : m % 1001)); break;
            case DType::BOOL: *p = std::uint8_t(m & 1u); break;
        }
    }
}

void fromDouble(DType t, double v, std::uint8_t* out) {
    auto whole = [&](double lo, double hi) {
        if (!(v == std::floor(v)) || v < lo || v > hi)
            throw std::invalid_argument(std::to_string(v) + " is not a " + dtypeName(t) + " value");
    };
    switch (t) {
        case DType::BF16:
        case DType::FP16:
        case DType::FP32: storeFloat(t, out, float(v)); return;
        case DType::INT32:
            whole(-2147483648.0, 2147483647.0);
            store(out, std::int32_t(v));
            return;
        case DType::UINT32:
            whole(0, 4294967295.0);
            store(out, std::uint32_t(v));
            return;
        case DType::INT64:
            whole(-9223372036854775808.0, 9223372036854774784.0);
            store(out, std::int64_t(v));
            return;
        case DType::UINT64:
            whole(0, 18446744073709549568.0);
            store(out, std::uint64_t(v));
            return;
        case DType::BOOL:
            if (v != 0 && v != 1) throw std::invalid_argument(std::to_string(v) + " is not a bool (0 or 1)");
            *out = std::uint8_t(v);
            return;
    }
}

double toDouble(DType t, const std::uint8_t* p) {
    switch (t) {
        case DType::BF16:
        case DType::FP16:
        case DType::FP32: return loadFloat(t, p);
        case DType::INT32: return load<std::int32_t>(p);
        case DType::UINT32: return load<std::uint32_t>(p);
        case DType::INT64: return double(load<std::int64_t>(p));
        case DType::UINT64: return double(load<std::uint64_t>(p));
        case DType::BOOL: return *p ? 1 : 0;
    }
    return 0;
}

}  // namespace cclsim::golden
