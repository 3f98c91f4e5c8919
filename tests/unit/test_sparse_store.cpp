// SparseStore: untouched bytes read as zero, pages are allocated only when
// written (so a gigabyte address space costs what was touched), both the
// dense (L1-sized) and hashed (DRAM-sized) page indexes, range checks, and
// page sharing: reads by reference that keep their bytes when the store is
// written again (copy-on-write), whole-page adoption, pages rebuilt from
// slices of one source page, and a DMI page that stops all sharing.
#include "models/memory/SparseStore.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace cclsim {
namespace {

constexpr std::uint32_t kPage = 4096;

TEST(SparseStore, UntouchedBytesReadAsZeroWithoutAllocating) {
    SparseStore s(1 << 20);
    std::vector<std::uint8_t> buf(3 * kPage, 0xAA);
    s.read(5000, buf.size(), buf.data());
    EXPECT_EQ(buf, std::vector<std::uint8_t>(3 * kPage, 0));
    EXPECT_EQ(s.bytesAllocated(), 0u) << "reads must not allocate pages";
    EXPECT_EQ(s.size(), 1u << 20);
}

TEST(SparseStore, AllocationGrowsWithPagesWritten) {
    SparseStore s(1 << 20);
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
    SparseStore s(size);
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
    SparseStore s(64 * 1024);
    std::uint8_t buf[16] = {};
    EXPECT_THROW(s.read(64 * 1024 - 8, 16, buf), std::out_of_range);
    EXPECT_THROW(s.write(64 * 1024, 1, buf), std::out_of_range);
    EXPECT_NO_THROW(s.write(64 * 1024 - 16, 16, buf));  // the last bytes are fine
}

std::vector<std::uint8_t> bytesOf(const Payload& p) {
    std::vector<std::uint8_t> out(p.size, 0);
    p.copyTo(out.data());
    return out;
}

TEST(PagePool, CountsReferencesAndZeroesReusedPages) {
    std::uint8_t* a = PagePool::allocate();
    EXPECT_EQ(PagePool::refs(a), 1u);
    a[17] = 0x42;
    {
        SharedPage held(a);
        EXPECT_EQ(PagePool::refs(a), 2u);
        SharedPage copy = held;
        EXPECT_EQ(PagePool::refs(a), 3u);
    }
    EXPECT_EQ(PagePool::refs(a), 1u);
    PagePool::unref(a);  // freed: the next page handed out is this one, zeroed
    std::uint8_t* b = PagePool::allocate();
    EXPECT_EQ(b, a);
    EXPECT_EQ(b[17], 0) << "a reused page must read as zero";
    PagePool::unref(b);
    std::uint8_t* z = PagePool::zeroPage();
    EXPECT_EQ(z, PagePool::zeroPage());
    EXPECT_GE(PagePool::refs(z), 1u) << "the zero page is never freed";
}

TEST(SparseStore, ReadByReferenceKeepsItsBytesWhenTheStoreIsWrittenAgain) {
    SparseStore s(1 << 20);
    const auto before = test::pattern(6000, 4);
    s.write(3000, before.size(), before.data());  // pages 0..2
    Payload p;
    p.size = 6000;
    s.shareOut(3000, 6000, p, 0);
    ASSERT_EQ(p.frags.size(), 3u) << "one fragment per page touched";
    for (const auto& f : p.frags) EXPECT_TRUE(f.shared());
    EXPECT_EQ(bytesOf(p), before);

    // The store overwrites what the payload refers to: the payload still
    // holds the bytes of the moment it was read.
    const auto after = test::pattern(6000, 5);
    s.write(3000, after.size(), after.data());
    EXPECT_EQ(bytesOf(p), before);
    std::vector<std::uint8_t> back(6000);
    s.read(3000, back.size(), back.data());
    EXPECT_EQ(back, after);

    // Untouched memory goes out as the zero page.
    Payload z;
    z.size = 100;
    s.shareOut(900000, 100, z, 0);
    EXPECT_EQ(bytesOf(z), std::vector<std::uint8_t>(100, 0));
}

TEST(SparseStore, WholePagesAreAdoptedAndWritesToSharedPagesCopyFirst) {
    SparseStore src(std::uint64_t(1) << 32), dst(std::uint64_t(1) << 32);  // hashed indexes
    const auto page = test::pattern(kPage, 6);
    src.write(8 * kPage, kPage, page.data());
    Payload p;
    p.size = kPage;
    src.shareOut(8 * kPage, kPage, p, 0);
    const std::uint64_t adoptedBefore = payloadStats().adopted;
    EXPECT_EQ(dst.landShared(5 * kPage, p.frags[0]), 0u) << "a whole page lands without a copy";
    EXPECT_EQ(payloadStats().adopted - adoptedBefore, kPage);
    EXPECT_EQ(dst.bytesAllocated(), kPage);

    // Either side writing its copy leaves the other's bytes alone.
    const std::uint8_t x = 0xEE;
    dst.write(5 * kPage + 10, 1, &x);
    std::uint8_t got = 0;
    src.read(8 * kPage + 10, 1, &got);
    EXPECT_EQ(got, page[10]);
    dst.read(5 * kPage + 10, 1, &got);
    EXPECT_EQ(got, x);
    src.write(8 * kPage + 11, 1, &x);
    dst.read(5 * kPage + 11, 1, &got);
    EXPECT_EQ(got, page[11]);
}

TEST(SparseStore, SlicesOfOneSourcePageRebuildItAndAnyOtherWriteStopsThat) {
    SparseStore src(1 << 20), dst(std::uint64_t(1) << 32);
    const auto page = test::pattern(kPage, 7);
    src.write(0, kPage, page.data());
    Payload lo, hi;
    lo.size = hi.size = kPage / 2;
    src.shareOut(0, kPage / 2, lo, 0);
    src.shareOut(kPage / 2, kPage / 2, hi, 0);

    // Two halves, each at its own offset: the second completes the page.
    const std::uint64_t adopted0 = payloadStats().adopted;
    EXPECT_EQ(dst.landShared(3 * kPage + kPage / 2, hi.frags[0]), kPage / 2);
    EXPECT_EQ(dst.landShared(3 * kPage, lo.frags[0]), kPage / 2);
    EXPECT_EQ(payloadStats().adopted - adopted0, kPage) << "the rebuilt page is the source page";
    std::vector<std::uint8_t> back(kPage);
    dst.read(3 * kPage, kPage, back.data());
    EXPECT_EQ(back, page);

    // A plain write between the halves: the page is not the source's any more.
    const std::uint64_t adopted1 = payloadStats().adopted;
    dst.landShared(7 * kPage, lo.frags[0]);
    const std::uint8_t x = 0x11;
    dst.write(7 * kPage + 5, 1, &x);
    dst.landShared(7 * kPage + kPage / 2, hi.frags[0]);
    EXPECT_EQ(payloadStats().adopted, adopted1);
    dst.read(7 * kPage, kPage, back.data());
    auto want = page;
    want[5] = x;
    EXPECT_EQ(back, want);

    // A slice landing at another offset is copied.
    EXPECT_EQ(dst.landShared(9 * kPage + 64, lo.frags[0]), kPage / 2);
    dst.read(9 * kPage + 64, kPage / 2, back.data());
    EXPECT_TRUE(std::equal(page.begin(), page.begin() + kPage / 2, back.begin()));
}

TEST(SparseStore, ADmiPageStopsSharing) {
    SparseStore s(1 << 20);
    const auto page = test::pattern(kPage, 8);
    s.write(0, kPage, page.data());
    Payload held;
    held.size = kPage;
    s.shareOut(0, kPage, held, 0);
    std::uint8_t* dmi = s.pageOf(0);
    EXPECT_NE(dmi, held.frags[0].page.get()) << "the DMI page is private";
    dmi[0] = 0x99;  // a write the store does not see
    EXPECT_EQ(bytesOf(held), page);
    EXPECT_FALSE(s.sharing());
    EXPECT_FALSE(s.adopt(kPage, held.frags[0].page));
    Payload p;
    EXPECT_THROW(s.shareOut(0, 4, p, 0), std::logic_error);
}

}  // namespace
}  // namespace cclsim
