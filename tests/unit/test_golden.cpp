// The golden reference on its own: data types, reduction operators and their
// rounding, the GCL example tables, and each op's shapes and reduction orders
// from first principles (no simulation).
#include "golden/Golden.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace cclsim::golden;

namespace {

Tensor values(DType t, const std::vector<double>& v) {
    Tensor out(v.size() * elementBytes(t));
    for (std::size_t i = 0; i < v.size(); ++i) fromDouble(t, v[i], out.data() + i * elementBytes(t));
    return out;
}

std::vector<double> numbers(DType t, const Tensor& x) {
    std::vector<double> out;
    for (std::size_t i = 0; i < x.size(); i += elementBytes(t)) out.push_back(toDouble(t, x.data() + i));
    return out;
}

Collective make(Op op, unsigned n, std::uint64_t count, DType t = DType::BF16, RedOp r = RedOp::Add,
                Method m = Method::Clockwise) {
    Collective c;
    c.op = op;
    c.ranks = n;
    c.count = count;
    c.dtype = t;
    c.redop = r;
    c.method = m;
    c.pageElements = 4;
    return c;
}

std::vector<Tensor> inputs(const Collective& c) {
    std::vector<Tensor> x;
    for (unsigned r = 0; r < c.ranks; ++r) x.push_back(makeInput(c, 7, 10 + r));
    return x;
}

std::uint16_t bits16(const Tensor& t) {
    std::uint16_t h;
    std::memcpy(&h, t.data(), 2);
    return h;
}

Tensor raw16(std::uint16_t h) {
    Tensor t(2);
    std::memcpy(t.data(), &h, 2);
    return t;
}

Tensor apply(RedOp op, DType t, const Tensor& a, const Tensor& b) {
    Tensor out(a.size());
    combine(op, t, a.data(), b.data(), out.data(), a.size() / elementBytes(t));
    return out;
}

}  // namespace

// ---- types and operators --------------------------------------------------------------

TEST(GoldenTypes, NamesAndGclAliasesParse) {
    EXPECT_EQ(parseDType("float"), DType::FP32);
    EXPECT_EQ(parseDType("HALF"), DType::FP16);
    EXPECT_EQ(parseDType("int"), DType::INT32);
    EXPECT_EQ(parseDType("unsigned_int"), DType::UINT32);
    EXPECT_EQ(parseDType("long_long"), DType::INT64);
    EXPECT_EQ(parseDType("unsigned_long_long"), DType::UINT64);
    EXPECT_EQ(parseDType("bool"), DType::BOOL);
    for (unsigned i = 0; i < kDTypes; ++i) EXPECT_EQ(parseDType(dtypeName(DType(i))), DType(i));
    for (unsigned i = 0; i < kRedOps; ++i) EXPECT_EQ(parseRedOp(redOpName(RedOp(i))), RedOp(i));
    EXPECT_THROW(parseDType("int8"), std::invalid_argument);
    EXPECT_THROW(parseRedOp("xor"), std::invalid_argument);
}

TEST(GoldenTypes, SupportTableIsGcls) {
    // GCL user guide 3.1, bf16 wherever HALF is allowed.
    EXPECT_EQ(supportedTypes(RedOp::Add), "bf16, fp16, fp32, int32, int64, uint64");
    EXPECT_EQ(supportedTypes(RedOp::Mul), "bf16, fp16, fp32, int32, int64, uint64");
    EXPECT_EQ(supportedTypes(RedOp::Mean), "bf16, fp16, fp32");
    for (RedOp op : {RedOp::Min, RedOp::Max, RedOp::SquareAdd})
        EXPECT_EQ(supportedTypes(op), "bf16, fp16, fp32, int32, uint32, int64, uint64");
    EXPECT_EQ(supportedTypes(RedOp::LogicalAnd), "bool");
    EXPECT_EQ(supportedTypes(RedOp::LogicalOr), "bool");
    EXPECT_THROW(combine(RedOp::Add, DType::UINT32, nullptr, nullptr, nullptr, 0), std::invalid_argument);
}

TEST(GoldenTypes, Bf16RoundsToNearestEven) {
    // 1 + 2^-8 is halfway between 1.0 and 1.0078125: ties to even -> 1.0.
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::BF16, raw16(0x3f80), raw16(0x3b80))), 0x3f80);
    // 1.0078125 + 2^-8 ties to 1.015625 (0x3f82).
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::BF16, raw16(0x3f81), raw16(0x3b80))), 0x3f82);
}

TEST(GoldenTypes, Fp16RoundsToNearestEvenOverflowsAndKeepsSubnormals) {
    // 1 + 2^-11 ties to 1.0 (0x3c00); 1+2^-10 + 2^-11 ties to 1 + 2^-9 (0x3c02).
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::FP16, raw16(0x3c00), raw16(0x1000))), 0x3c00);
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::FP16, raw16(0x3c01), raw16(0x1000))), 0x3c02);
    // 65504 + 32 rounds up to infinity; 65504 + 8 stays 65504.
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::FP16, raw16(0x7bff), values(DType::FP16, {32}))), 0x7c00);
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::FP16, raw16(0x7bff), values(DType::FP16, {8}))), 0x7bff);
    // The smallest subnormal plus itself is exact.
    EXPECT_EQ(bits16(apply(RedOp::Add, DType::FP16, raw16(0x0001), raw16(0x0001))), 0x0002);
    // Subnormal products round to nearest even: 2^-12 * 2^-12 = 2^-24 exactly.
    EXPECT_EQ(bits16(apply(RedOp::Mul, DType::FP16, raw16(0x0c00), raw16(0x0c00))), 0x0001);
}

TEST(GoldenTypes, IntegersWrapAndMinMaxOrderSignedZeros) {
    const Tensor big = values(DType::INT32, {2147483647});
    EXPECT_EQ(numbers(DType::INT32, apply(RedOp::Add, DType::INT32, big, values(DType::INT32, {1}))),
              std::vector<double>{-2147483648.0});
    const Tensor u = values(DType::UINT64, {18446744073709549568.0});
    EXPECT_EQ(numbers(DType::UINT64, apply(RedOp::Mul, DType::UINT64, values(DType::UINT64, {4294967296.0}),
                                           values(DType::UINT64, {4294967296.0}))),
              std::vector<double>{0});
    const Tensor pz = values(DType::FP32, {0.0}), nz = values(DType::FP32, {-0.0});
    EXPECT_TRUE(std::signbit(numbers(DType::FP32, apply(RedOp::Min, DType::FP32, pz, nz))[0]));
    EXPECT_TRUE(std::signbit(numbers(DType::FP32, apply(RedOp::Min, DType::FP32, nz, pz))[0]));
    EXPECT_FALSE(std::signbit(numbers(DType::FP32, apply(RedOp::Max, DType::FP32, nz, pz))[0]));
    EXPECT_EQ(numbers(DType::UINT32, apply(RedOp::Min, DType::UINT32, values(DType::UINT32, {4000000000.0}),
                                           values(DType::UINT32, {3}))),
              std::vector<double>{3});
    (void)u;
}

TEST(GoldenTypes, InputsAreDeterministicAndRangeLocal) {
    for (unsigned i = 0; i < kDTypes; ++i) {
        const DType t = DType(i);
        const std::size_t e = elementBytes(t);
        Tensor whole(64 * e), part(16 * e), other(64 * e);
        fillInput(3, 5, t, RedOp::Add, 0, 64, whole.data());
        fillInput(3, 5, t, RedOp::Add, 20, 16, part.data());
        EXPECT_EQ(0, std::memcmp(whole.data() + 20 * e, part.data(), 16 * e)) << dtypeName(t);
        fillInput(3, 6, t, RedOp::Add, 0, 64, other.data());
        EXPECT_NE(whole, other) << dtypeName(t);
        for (std::size_t k = 0; k < 64; ++k) {
            const double v = toDouble(t, whole.data() + k * e);
            EXPECT_TRUE(std::isfinite(v));
            if (isFloat(t)) {
                EXPECT_GE(std::fabs(v), 1.0 / 64);
                EXPECT_LT(std::fabs(v), 4.0);
            }
        }
    }
}

// ---- the GCL example tables (GCL user guide 3.1 and 3.3) ---------------------------------

namespace {

struct Example {
    RedOp op;
    DType type;
    std::vector<double> in0, in1, out;
};

}  // namespace

TEST(GoldenGcl, AllReduceOperatorExamples) {
    const std::vector<double> a{1, 2, 3, 4}, b{5, 6, 7, 8}, p{1, 0, 1, 0}, q{0, 1, 1, 0};
    const std::vector<Example> table{
        {RedOp::Add, DType::INT32, a, b, {6, 8, 10, 12}},     {RedOp::Mean, DType::FP32, a, b, {3, 4, 5, 6}},
        {RedOp::Mul, DType::INT32, a, b, {5, 12, 21, 32}},    {RedOp::Min, DType::INT32, a, b, {1, 2, 3, 4}},
        {RedOp::Max, DType::INT32, a, b, {5, 6, 7, 8}},       {RedOp::SquareAdd, DType::INT32, a, b, {26, 40, 58, 80}},
        {RedOp::LogicalAnd, DType::BOOL, p, q, {0, 0, 1, 0}}, {RedOp::LogicalOr, DType::BOOL, p, q, {1, 1, 1, 0}},
    };
    for (const Example& ex : table)
        for (unsigned ti = 0; ti < kDTypes; ++ti) {
            // Every type the operator supports gives the same small exact numbers.
            const DType t = ex.type == DType::BOOL ? DType::BOOL : DType(ti);
            if (!supports(ex.op, t)) continue;
            for (Method m : {Method::Clockwise, Method::Anticlockwise, Method::MeetInMiddle, Method::Line,
                             Method::Broadcast, Method::Direct}) {
                Collective c = make(Op::AllReduce, 2, 4, t, ex.op, m);
                const auto out = expectedOutputs(c, {values(t, ex.in0), values(t, ex.in1)});
                for (const Tensor& o : out) EXPECT_EQ(numbers(t, o), ex.out) << redOpName(ex.op) << " " << dtypeName(t);
            }
            if (ex.type == DType::BOOL) break;
        }
}

TEST(GoldenGcl, ShapesOfAllGatherAllToAllBroadcastReduceScatter) {
    // AllGather of [x_r, y_r]: every replica holds x0,y0,x1,y1,x2,y2,x3,y3.
    std::vector<Tensor> x;
    for (unsigned r = 0; r < 4; ++r) x.push_back(values(DType::INT32, {10.0 * r, 10.0 * r + 1}));
    for (const Tensor& o : expectedOutputs(make(Op::AllGather, 4, 2, DType::INT32), x))
        EXPECT_EQ(numbers(DType::INT32, o), (std::vector<double>{0, 1, 10, 11, 20, 21, 30, 31}));
    // AllToAll: output of replica d = block d of every replica.
    std::vector<Tensor> y;
    for (unsigned r = 0; r < 4; ++r)
        y.push_back(values(DType::INT32, {10.0 * r, 10.0 * r + 1, 10.0 * r + 2, 10.0 * r + 3}));
    const auto a2a = expectedOutputs(make(Op::AllToAll, 4, 4, DType::INT32), y);
    for (unsigned d = 0; d < 4; ++d)
        EXPECT_EQ(numbers(DType::INT32, a2a[d]), (std::vector<double>{0.0 + d, 10.0 + d, 20.0 + d, 30.0 + d}));
    EXPECT_THROW(expectedOutputs(make(Op::AllToAll, 4, 6, DType::INT32),
                                 std::vector<Tensor>(4, values(DType::INT32, {1, 2, 3, 4, 5, 6}))),
                 std::invalid_argument);
    // Broadcast from a non-zero root.
    Collective bc = make(Op::Broadcast, 4, 4, DType::INT32);
    bc.root = 2;
    for (const Tensor& o : expectedOutputs(bc, y)) EXPECT_EQ(o, y[2]);
    // ReduceScatter of 3 elements on 2 replicas: op(x0,x1),op(y0,y1) | op(z0,z1),0.
    const auto rs = expectedOutputs(make(Op::ReduceScatter, 2, 3, DType::INT32),
                                    {values(DType::INT32, {1, 2, 3}), values(DType::INT32, {10, 20, 30})});
    EXPECT_EQ(numbers(DType::INT32, rs[0]), (std::vector<double>{11, 22}));
    EXPECT_EQ(numbers(DType::INT32, rs[1]), (std::vector<double>{33, 0}));
    // Zero-padding when ranks exceed the elements: 2 elements on 4 ranks.
    const auto rs4 = expectedOutputs(make(Op::ReduceScatter, 4, 2, DType::FP32),
                                     std::vector<Tensor>(4, values(DType::FP32, {1, 2})));
    EXPECT_EQ(numbers(DType::FP32, rs4[0]), std::vector<double>{4});
    EXPECT_EQ(numbers(DType::FP32, rs4[1]), std::vector<double>{8});
    EXPECT_EQ(numbers(DType::FP32, rs4[2]), std::vector<double>{0});
    EXPECT_EQ(numbers(DType::FP32, rs4[3]), std::vector<double>{0});
}

TEST(GoldenGcl, ForEachExpectedOutputVisitsEveryRankOnceInOrder) {
    // The one-rank-at-a-time form (used by the data check to bound memory)
    // hands out the same tensors as expectedOutputs, rank by rank.
    std::vector<Tensor> y;
    for (unsigned r = 0; r < 4; ++r)
        y.push_back(values(DType::INT32, {10.0 * r, 10.0 * r + 1, 10.0 * r + 2, 10.0 * r + 3}));
    for (Op op : {Op::AllGather, Op::AllToAll, Op::Broadcast, Op::ReduceScatter, Op::AllReduce}) {
        const Collective c = make(op, 4, 4, DType::INT32);
        const auto all = expectedOutputs(c, y);
        std::vector<unsigned> seen;
        forEachExpectedOutput(c, y, [&](unsigned d, const Tensor& t) {
            seen.push_back(d);
            EXPECT_EQ(t, all.at(d)) << opName(op) << " rank " << d;
        });
        EXPECT_EQ(seen, (std::vector<unsigned>{0, 1, 2, 3})) << opName(op);
    }
}

// ---- reduction orders ------------------------------------------------------------------

TEST(GoldenOrder, RecipesCoverEveryRankOnce) {
    for (unsigned n = 2; n <= 9; ++n)
        for (Method m : {Method::Clockwise, Method::Anticlockwise, Method::BidirPair, Method::MeetInMiddle,
                         Method::Line, Method::Broadcast, Method::Direct}) {
            Collective c = make(Op::AllReduce, n, 8 * n, DType::FP32, RedOp::Add, m);
            for (unsigned f = 0; f < n; ++f)
                for (std::uint64_t k : {std::uint64_t(0), std::uint64_t(7)}) {
                    const Recipe r = recipe(c, f, k);
                    std::vector<unsigned> all = r.left;
                    all.push_back(r.own);
                    all.insert(all.end(), r.right.begin(), r.right.end());
                    std::sort(all.begin(), all.end());
                    for (unsigned i = 0; i < n; ++i) EXPECT_EQ(all[i], i) << methodName(m) << " n " << n;
                    ASSERT_EQ(all.size(), n);
                }
        }
}

TEST(GoldenOrder, DirectFoldsTheOthersInPositionOrderThenTheOwn) {
    Collective c = make(Op::ReduceScatter, 5, 10);
    c.method = Method::Direct;
    const Recipe r = recipe(c, 2, 0);
    EXPECT_EQ(r.left, (std::vector<unsigned>{0, 1, 3, 4}));
    EXPECT_EQ(r.own, 2u);
    EXPECT_TRUE(r.right.empty());
    EXPECT_STREQ(methodName(Method::Direct), "direct");
    EXPECT_THROW(parseMethod("direct"), std::invalid_argument);  // the fabric's own op, not a --method
}

TEST(GoldenOrder, ClockwiseStartsAfterTheOwnerAndMeetInMiddleSplits) {
    Collective c = make(Op::ReduceScatter, 4, 8);
    Recipe r = recipe(c, 1, 0);
    EXPECT_EQ(r.left, (std::vector<unsigned>{2, 3, 0}));
    EXPECT_TRUE(r.right.empty());
    c.method = Method::Anticlockwise;
    EXPECT_EQ(recipe(c, 1, 0).right, (std::vector<unsigned>{0, 3, 2}));
    c.method = Method::MeetInMiddle;
    r = recipe(c, 1, 0);  // h = 2: left 3, 0; right 2
    EXPECT_EQ(r.left, (std::vector<unsigned>{3, 0}));
    EXPECT_EQ(r.right, (std::vector<unsigned>{2}));
    c.ranks = 5;
    r = recipe(c, 0, 0);  // h = 2: left 3, 4; right 2, 1
    EXPECT_EQ(r.left, (std::vector<unsigned>{3, 4}));
    EXPECT_EQ(r.right, (std::vector<unsigned>{2, 1}));
    c.method = Method::BidirPair;  // fracture of 2 elements = 1 page of 4: the first half goes clockwise
    c.count = 40;                  // F = 8 = 2 pages: page 0 clockwise, page 1 anticlockwise
    EXPECT_FALSE(recipe(c, 0, 3).left.empty());
    EXPECT_TRUE(recipe(c, 0, 4).left.empty());
}

TEST(GoldenOrder, NonAssociativeFloatsFollowTheRecipe) {
    // bf16 ADD rounds after every step: the result of fracture 2 on a line of 4
    // is ((x0 + x1) + x2) + x3 exactly.
    Collective c = make(Op::AllReduce, 4, 4, DType::BF16, RedOp::Add, Method::Line);
    const auto x = inputs(c);
    const auto out = expectedOutputs(c, x);
    const std::size_t e = 2;
    Tensor acc(x[0].begin() + 2 * e, x[0].begin() + 3 * e);
    for (unsigned r : {1u, 2u}) combine(RedOp::Add, DType::BF16, acc.data(), x[r].data() + 2 * e, acc.data(), 1);
    combine(RedOp::Add, DType::BF16, acc.data(), x[3].data() + 2 * e, acc.data(), 1);
    EXPECT_EQ(0, std::memcmp(out[0].data() + 2 * e, acc.data(), e));
}

TEST(GoldenOrder, AllGatherOfReduceScatterIsAllReduceForIntegerAdd) {
    for (unsigned n : {2u, 3u, 4u, 8u})
        for (DType t : {DType::INT32, DType::INT64, DType::UINT64})
            for (std::uint64_t count : {std::uint64_t(n * 5), std::uint64_t(n * 5 + 1)}) {
                Collective rs = make(Op::ReduceScatter, n, count, t);
                const auto x = inputs(rs);
                const auto parts = expectedOutputs(rs, x);
                Collective ag = make(Op::AllGather, n, rs.fracture(), t);
                const auto gathered = expectedOutputs(ag, parts);
                Collective ar = rs;
                ar.op = Op::AllReduce;
                ar.method = Method::MeetInMiddle;  // integer ADD is associative: any order
                const auto all = expectedOutputs(ar, x);
                for (unsigned r = 0; r < n; ++r)
                    EXPECT_EQ(0, std::memcmp(gathered[r].data(), all[r].data(), all[r].size()))
                        << n << " " << dtypeName(t);
            }
}

TEST(GoldenOrder, MeanDividesOnceAtTheEnd) {
    Collective c = make(Op::AllReduce, 3, 1, DType::FP32, RedOp::Mean);
    const auto out = expectedOutputs(c, {values(DType::FP32, {1}), values(DType::FP32, {2}), values(DType::FP32, {4})});
    EXPECT_FLOAT_EQ(float(numbers(DType::FP32, out[0])[0]), 7.0f / 3.0f);
    c.dtype = DType::INT32;
    EXPECT_THROW(expectedOutputs(c, std::vector<Tensor>(3, values(DType::INT32, {1}))), std::invalid_argument);
}

// ---- the chunked bidirectional pair (the fabric ring reduce-scatter) ---------------------

TEST(GoldenRecipe, ChunkedPairFollowsTheWorkerRangesAndTurns) {
    using namespace cclsim::golden;
    Collective c;
    c.op = Op::ReduceScatter;
    c.method = Method::BidirPair;
    c.ranks = 4;
    c.pageElements = 2;
    c.count = 4 * 2 * 20;  // F = 40 elements = 20 pages per fracture
    c.pairWorkers = 2;     // ranges of 10 pages
    c.pairChunkPages = 2;
    auto clockwise = [&](std::uint64_t page) { return !recipe(c, 1, page * 2).left.empty(); };
    // Range 0 (pages 0..9): clockwise takes min(10/2, 2) = 2, the other 2, then 2, 2, then min(2/2, 2) = 1 and 1.
    const std::vector<bool> want{true, true, false, false, true, true, false, false, true, false};
    for (std::uint64_t p = 0; p < 10; ++p) EXPECT_EQ(clockwise(p), want[p]) << p;
    // Range 1 starts over.
    for (std::uint64_t p = 10; p < 20; ++p) EXPECT_EQ(clockwise(p), want[p - 10]) << p;
    // Clockwise: x_{f+1} first, the owner last; anticlockwise: the owner's own value, then f-1, ..., f+1.
    const Recipe cw = recipe(c, 1, 0), acw = recipe(c, 1, 4);
    EXPECT_EQ(cw.left, (std::vector<unsigned>{2, 3, 0}));
    EXPECT_TRUE(cw.right.empty());
    EXPECT_EQ(acw.right, (std::vector<unsigned>{0, 3, 2}));
    EXPECT_TRUE(acw.left.empty());
    // The halves rule stays the default.
    c.pairWorkers = 0;
    EXPECT_TRUE(clockwise(9));
    EXPECT_FALSE(clockwise(10));
}
