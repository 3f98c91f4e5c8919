// SparseStore: untouched bytes read as zero, pages are allocated only when
// written (so a gigabyte address space costs what was touched), both the
// dense (L1-sized) and hashed (DRAM-sized) page indexes, and range checks.
#include "models/memory/SparseStore.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <vector>

namespace cclsim {
namespace {

constexpr std::uint32_t kPage = 4096;

TEST(SparseStore, UntouchedBytesReadAsZeroWithoutAllocating) {
    SparseStore s(1 << 20, kPage);
    std::vector<std::uint8_t> buf(3 * kPage, 0xAA);
    s.read(5000, buf.size(), buf.data());
    EXPECT_EQ(buf, std::vector<std::uint8_t>(3 * kPage, 0));
    EXPECT_EQ(s.bytesAllocated(), 0u) << "reads must not allocate pages";
    EXPECT_EQ(s.size(), 1u << 20);
}

TEST(SparseStore, AllocationGrowsWithPagesWritten) {
    SparseStore s(1 << 20, kPage);
    const std::uint8_t one = 0x5A;
    s.write(5000, 1, &one);  // page 1
    EXPECT_EQ(s.bytesAllocated(), 1u * kPage);
    s.write(5001, 1, &one);  // same page: no growth
    EXPECT_EQ(s.bytesAllocated(), 1u * kPage);

    // A write straddling pages 2 and 3 allocates both.
    const auto data = test::pattern(64, 3);
    const std::uint64_t straddle = 3 * kPage - 32;
    s.write(straddle, data.size(), data.data());
    EXPECT_EQ(s.bytesAllocated(), 3u * kPage);

    std::vector<std::uint8_t> back(data.size());
    s.read(straddle, back.size(), back.data());
    EXPECT_EQ(back, data);
    // Neighbouring bytes of a written page stay zero.
    std::uint8_t around[3] = {0xFF, 0xFF, 0xFF};
    s.read(4999, 3, around);
    EXPECT_EQ(around[0], 0);
    EXPECT_EQ(around[1], one);
    EXPECT_EQ(around[2], one);
}

TEST(SparseStore, HugeAddressSpaceCostsOnlyTouchedPages) {
    // 4 GiB = 1 Mi pages: beyond the dense index, so pages live in a hash map.
    const std::uint64_t size = std::uint64_t(4) << 30;
    SparseStore s(size, kPage);
    const auto data = test::pattern(2 * kPage, 9);
    const std::uint64_t hi = size - data.size();  // the very last two pages
    s.write(hi, data.size(), data.data());
    const std::uint8_t b = 7;
    s.write(std::uint64_t(3) << 30, 1, &b);
    EXPECT_EQ(s.bytesAllocated(), 3u * kPage);

    std::vector<std::uint8_t> back(data.size());
    s.read(hi, back.size(), back.data());
    EXPECT_EQ(back, data);
    std::uint8_t z = 0xFF;
    s.read(std::uint64_t(2) << 30, 1, &z);
    EXPECT_EQ(z, 0);
    EXPECT_EQ(s.bytesAllocated(), 3u * kPage);
}

TEST(SparseStore, OutOfRangeAccessThrows) {
    SparseStore s(64 * 1024, kPage);
    std::uint8_t buf[16] = {};
    EXPECT_THROW(s.read(64 * 1024 - 8, 16, buf), std::out_of_range);
    EXPECT_THROW(s.write(64 * 1024, 1, buf), std::out_of_range);
    EXPECT_NO_THROW(s.write(64 * 1024 - 16, 16, buf));  // the last bytes are fine
    EXPECT_THROW(SparseStore(1024, 3000), std::invalid_argument) << "page size must be a power of two";
    EXPECT_THROW(SparseStore(1024, 0), std::invalid_argument);
}

}  // namespace
}  // namespace cclsim
