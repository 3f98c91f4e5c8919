// The calendar's priority queue: entries ordered by (tick, order key), the
// earliest first. Pure bookkeeping, no SystemC (EventQueue drives it).
//
// Nearly every entry is due within a few microseconds of the current tick
// (NoC hops, bandwidth-server completions, a kernel's next poll), so a
// timing wheel serves them: the ticks [base, base + kBuckets * kBucketTicks)
// map onto kBuckets buckets of kBucketTicks each, every bucket a small
// vector kept sorted, and a bitmap of the non-empty ones finds the earliest
// in a few word scans. An entry due later than the wheel reaches goes to a
// heap beside it; the earliest of the two is the queue's head. Any
// entry whose key is unique comes out in exactly the order a single heap
// would give (the test checks it against one), so swapping this in moves no
// simulated figure.
#pragma once

#include "models/common/Time.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cclsim {

class CalendarTask;

struct CalendarEntry {
    Tick when;
    std::uint64_t order;  ///< ties at one tick: smaller first
    CalendarTask* task;
    std::uint64_t arg;
};

class TickQueue {
public:
    using Entry = CalendarEntry;

    TickQueue() : buckets_(kBuckets) { bits_.fill(0); }

    static bool before(const Entry& a, const Entry& b) {
        return a.when != b.when ? a.when < b.when : a.order < b.order;
    }

    bool empty() const { return size() == 0; }
    std::size_t size() const { return wheelCount_ + far_.size(); }

    void push(const Entry& e) {
        const std::uint64_t bn = e.when >> kBucketShift;
        // Entries before base_ cannot occur while time only moves forward, but
        // the far heap takes anything, so the wheel's invariant holds regardless.
        if (bn < base_ || bn - base_ >= kBuckets) return pushFar(e);
        const std::size_t idx = std::size_t(bn % kBuckets);
        Bucket& b = buckets_[idx];
        // A new entry is usually the latest of its bucket: appended here.
        if (b.head == b.v.size() || !before(e, b.v.back()))
            b.v.push_back(e);
        else
            insert(b, e);
        bits_[idx / 64] |= std::uint64_t{1} << (idx % 64);
        if (wheelCount_++ == 0)
            minBucket_ = bn;
        else if (bn < minBucket_ && minBucket_ != kUnknown)
            minBucket_ = bn;
    }
    /// The earliest entry (the queue must not be empty).
    const Entry& top() const { return *locate(); }
    /// Remove the earliest entry (the queue must not be empty).
    void pop();

    /// Width of one wheel bucket in ticks (picoseconds) and their number:
    /// 1.024 ns x 1024, a 1.05 us reach. The T3000 all-gather schedules 98 %
    /// of its entries within 0.52 us of the current tick and all but 0.02 %
    /// within 1.05 us. A small wheel keeps the bucket headers in cache:
    /// 8192 buckets of 512 ps took 13 % fewer instructions than the heap but
    /// 2 % more wall time; 1024 of 1.024 ns take 13 % fewer and 8 % less
    /// (16 MiB all-gather, paired runs; 2048 x 512 ps and 512 x 2 ns lie
    /// between).
    static constexpr unsigned kBucketShift = 10;
    static constexpr std::size_t kBuckets = 1024;
    /// A new entry that goes before the last this many of its bucket is
    /// placed by binary search instead of shifting entries one by one.
    static constexpr std::size_t kLinearInsert = 4;

private:
    struct Bucket {
        std::vector<Entry> v;  ///< sorted; entries before `head` are gone
        std::uint32_t head = 0;
    };
    /// The earliest entry, in the wheel or the far heap.
    const Entry* locate() const;
    /// The earliest wheel entry (the wheel must not be empty).
    const Entry& wheelTop() const;
    /// Index of the first non-empty bucket from base_ on (circularly);
    /// kBuckets if the wheel is empty.
    std::size_t firstBucket() const;
    /// An entry that goes before the last of its bucket: placed in order.
    static void insert(Bucket& b, const Entry& e);
    void pushFar(const Entry& e);
    /// The far heap's order (std heaps keep the greatest on top).
    static bool later(const Entry& a, const Entry& b) { return before(b, a); }

    std::vector<Bucket> buckets_;
    std::array<std::uint64_t, kBuckets / 64> bits_;  ///< non-empty buckets
    std::uint64_t base_ = 0;                         ///< bucket number (tick >> shift) no wheel entry is below
    std::size_t wheelCount_ = 0;
    std::vector<Entry> far_;  ///< heap (std::push_heap) of entries beyond the wheel's reach: 0.02 % of them
    /// Bucket number of the earliest non-empty bucket while the wheel holds
    /// entries, or kUnknown (found by a scan of the bitmap when asked): kept
    /// across pushes, so the calendar's next entry is found without a scan.
    static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
    mutable std::uint64_t minBucket_ = kUnknown;
};

}  // namespace cclsim
