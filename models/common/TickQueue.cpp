#include "models/common/TickQueue.h"

#include <algorithm>

namespace cclsim {

void TickQueue::pushFar(const Entry& e) {
    far_.push_back(e);
    std::push_heap(far_.begin(), far_.end(), later);
}

void TickQueue::insert(Bucket& b, const Entry& e) {
    // Insertion from the back: a new entry is usually close to the latest of
    // its bucket. A Galaxy's buckets hold ~30 entries from its thousands of
    // cores, and there an entry lands anywhere: a binary search and one move
    // (5.13 G -> 4.90 G instructions, galaxy all_gather 1 MiB).
    std::size_t i = b.v.size();
    if (i - b.head > kLinearInsert && before(e, b.v[i - kLinearInsert])) {
        b.v.insert(std::upper_bound(b.v.begin() + std::ptrdiff_t(b.head), b.v.end(), e,
                                    [](const Entry& x, const Entry& y) { return before(x, y); }),
                   e);
        return;
    }
    b.v.push_back(e);
    while (i > b.head && before(e, b.v[i - 1])) {
        b.v[i] = b.v[i - 1];
        --i;
    }
    b.v[i] = e;
}

std::size_t TickQueue::firstBucket() const {
    if (wheelCount_ == 0) return kBuckets;
    const std::size_t start = std::size_t(base_ % kBuckets);
    constexpr std::size_t words = kBuckets / 64;
    std::size_t w = start / 64;
    // The first word from the start bit on; then whole words, wrapping round
    // to the start word's bits below the start.
    std::uint64_t bits = bits_[w] & (~std::uint64_t{0} << (start % 64));
    for (std::size_t n = 0; n <= words; ++n) {
        if (bits) return w * 64 + std::size_t(__builtin_ctzll(bits));
        w = (w + 1) % words;
        bits = bits_[w];
    }
    return kBuckets;  // unreachable while wheelCount_ > 0
}

const TickQueue::Entry& TickQueue::wheelTop() const {
    if (minBucket_ == kUnknown) {
        const std::size_t idx = firstBucket();
        minBucket_ = base_ + (idx + kBuckets - std::size_t(base_ % kBuckets)) % kBuckets;
    }
    const Bucket& b = buckets_[std::size_t(minBucket_ % kBuckets)];
    return b.v[b.head];
}

const TickQueue::Entry* TickQueue::locate() const {
    if (wheelCount_ == 0) return &far_.front();
    const Entry& w = wheelTop();
    return !far_.empty() && before(far_.front(), w) ? &far_.front() : &w;
}

void TickQueue::pop() {
    if (wheelCount_ != 0) {
        const Entry& w = wheelTop();
        if (far_.empty() || !before(far_.front(), w)) {
            // Nothing in the wheel is earlier than this entry's bucket now.
            base_ = minBucket_;
            const std::size_t idx = std::size_t(minBucket_ % kBuckets);
            Bucket& b = buckets_[idx];
            --wheelCount_;
            if (++b.head == b.v.size()) {
                b.v.clear();
                b.head = 0;
                bits_[idx / 64] &= ~(std::uint64_t{1} << (idx % 64));
                minBucket_ = kUnknown;
            }
            return;
        }
    }
    // The far heap's head is the earliest entry: every wheel entry is at or
    // after its bucket.
    base_ = std::max(base_, far_.front().when >> kBucketShift);
    std::pop_heap(far_.begin(), far_.end(), later);
    far_.pop_back();
}

}  // namespace cclsim
