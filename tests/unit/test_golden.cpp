// The golden reference on its own: input values, bf16 arithmetic, and each
// op's expected output from first principles (no simulation).
#include "golden/Golden.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace cclsim::golden;

namespace {

Collective make(Op op, unsigned n, std::uint64_t size, DType t = DType::BF16, bool ring = true) {
    Collective c;
    c.op = op;
    c.ring = ring;
    for (unsigned r = 0; r < n; ++r) c.chips.push_back(10 + r);
    c.sizeBytes = size;
    c.pageBytes = 64;
    c.dtype = t;
    c.seed = 7;
    return c;
}

float bf16(const std::uint8_t* p) {
    std::uint16_t h;
    std::memcpy(&h, p, 2);
    const std::uint32_t b = std::uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

}  // namespace

TEST(Golden, InputsAreDeterministicFiniteAndDistinct) {
    for (DType t : {DType::BF16, DType::FP32}) {
        const Collective c = make(Op::AllGather, 4, 4 * 4 * 64, t);
        std::vector<std::uint8_t> a(64), b(64), x(64);
        inputPage(c, 1, 2, a.data());
        inputPage(c, 1, 2, b.data());
        EXPECT_EQ(a, b);
        inputPage(c, 2, 2, x.data());
        EXPECT_NE(a, x);  // another rank
        inputPage(c, 1, 3, x.data());
        EXPECT_NE(a, x);  // another page
        for (std::size_t i = 0; i < 64; i += elementBytes(t)) {
            float v;
            if (t == DType::BF16) {
                v = bf16(&a[i]);
            } else {
                std::memcpy(&v, &a[i], 4);
            }
            EXPECT_TRUE(std::isfinite(v));
            EXPECT_GE(std::fabs(v), 1.0f / 64);
            EXPECT_LT(std::fabs(v), 4.0f);
        }
    }
}

TEST(Golden, Bf16AddRoundsToNearestEven) {
    // 1 + 2^-8 is halfway between bf16 1.0 and 1.0078125: ties to even -> 1.0.
    const std::uint16_t one = 0x3f80, tiny = 0x3b80;  // 1.0, 2^-8
    std::uint8_t a[2], b[2], out[2];
    std::memcpy(a, &one, 2);
    std::memcpy(b, &tiny, 2);
    add(a, b, out, 2, DType::BF16);
    std::uint16_t r;
    std::memcpy(&r, out, 2);
    EXPECT_EQ(r, 0x3f80);
    // 1.0078125 + 2^-8 is halfway to 1.015625: ties to even -> 1.015625 (0x3f82).
    const std::uint16_t odd = 0x3f81;
    std::memcpy(a, &odd, 2);
    add(a, b, out, 2, DType::BF16);
    std::memcpy(&r, out, 2);
    EXPECT_EQ(r, 0x3f82);
}

TEST(Golden, AllGatherConcatenatesAlongDim0AndDim1) {
    Collective c = make(Op::AllGather, 3, 3 * 4 * 64);
    ASSERT_EQ(inputPages(c), 4u);
    ASSERT_EQ(outputPages(c), 12u);
    std::vector<std::uint8_t> got(64), want(64);
    expectedOutputPage(c, 0, 9, got.data());  // rank 2, page 1
    inputPage(c, 2, 1, want.data());
    EXPECT_EQ(got, want);
    c.gatherDim = 1;
    c.rowPages = 2;  // output rows: [r0 p0 p1 | r1 p0 p1 | r2 p0 p1], [r0 p2 p3 | ...]
    expectedOutputPage(c, 1, 9, got.data());  // second row, rank 1, its page 3
    inputPage(c, 1, 3, want.data());
    EXPECT_EQ(got, want);
}

TEST(Golden, RingReduceScatterOrderStartsAfterTheOwner) {
    const unsigned n = 4;
    const Collective c = make(Op::ReduceScatter, n, n * 2 * 64);
    // Fracture 1 of rank 1: ((x2 + x3) + x0) + x1, rounded after each add.
    std::vector<std::uint8_t> want(64), x(64), got(64);
    const std::uint64_t page = 1 * 2 + 1;  // fracture 1, its second page
    inputPage(c, 2, page, want.data());
    for (unsigned r : {3u, 0u, 1u}) {
        inputPage(c, r, page, x.data());
        add(want.data(), x.data(), want.data(), 64, c.dtype);
    }
    expectedOutputPage(c, 1, 1, got.data());
    EXPECT_EQ(got, want);
}

TEST(Golden, LineReduceScatterOrderIsLeftThenOwnThenRight) {
    const unsigned n = 4;
    const Collective c = make(Op::ReduceScatter, n, n * 64, DType::FP32, false);
    // Fracture 2: ((x0 + x1) + x2) + x3.
    std::vector<std::uint8_t> want(64), x(64), got(64);
    inputPage(c, 0, 2, want.data());
    for (unsigned r : {1u, 2u}) {
        inputPage(c, r, 2, x.data());
        add(want.data(), x.data(), want.data(), 64, c.dtype);
    }
    inputPage(c, 3, 2, x.data());
    add(want.data(), x.data(), want.data(), 64, c.dtype);
    expectedOutputPage(c, 2, 0, got.data());
    EXPECT_EQ(got, want);
    // Fracture 0: x0 + (x3 + x2) + x1 in that grouping: x0 + ((x3 + x2) + x1).
    std::vector<std::uint8_t> right(64);
    inputPage(c, 3, 0, right.data());
    for (unsigned r : {2u, 1u}) {
        inputPage(c, r, 0, x.data());
        add(right.data(), x.data(), right.data(), 64, c.dtype);
    }
    inputPage(c, 0, 0, want.data());
    add(want.data(), right.data(), want.data(), 64, c.dtype);
    expectedOutputPage(c, 0, 0, got.data());
    EXPECT_EQ(got, want);
}

TEST(Golden, AllReduceIsTheReduceScatterOfEveryFracture) {
    const unsigned n = 3;
    const Collective rs = make(Op::ReduceScatter, n, n * 2 * 64);
    Collective ar = rs;
    ar.op = Op::AllReduce;
    EXPECT_EQ(outputPages(ar), 6u);
    std::vector<std::uint8_t> a(64), b(64);
    for (unsigned f = 0; f < n; ++f)
        for (unsigned p = 0; p < 2; ++p) {
            expectedOutputPage(rs, f, p, a.data());
            for (unsigned r = 0; r < n; ++r) {
                expectedOutputPage(ar, r, f * 2 + p, b.data());
                EXPECT_EQ(a, b);
            }
        }
}

TEST(Golden, AllToAllAndBroadcast) {
    const unsigned n = 3;
    const Collective c = make(Op::AllToAll, n, n * 2 * 64);
    std::vector<std::uint8_t> got(64), want(64);
    expectedOutputPage(c, 1, 5, got.data());  // block 2 (from rank 2), page 1
    inputPage(c, 2, 1 * 2 + 1, want.data());   // rank 2's block for rank 1, page 1
    EXPECT_EQ(got, want);
    Collective b = make(Op::Broadcast, n, 5 * 64);
    b.root = 2;
    EXPECT_EQ(inputPages(b), 5u);
    expectedOutputPage(b, 0, 4, got.data());
    inputPage(b, 2, 4, want.data());
    EXPECT_EQ(got, want);
}
