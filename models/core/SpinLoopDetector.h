// The spin-loop idle detector: decides when a kernel re-reading a status
// word would see nothing new, so the model can put it to sleep instead of
// executing the loop (KernelContext::poll does the sleeping; this class only
// keeps the books, and has no SystemC in it).
//
// Every status read is recorded as a condition: the thing read (a key: an L1
// word, a tx queue, a NoC counter) and the test applied to it (the API name
// and the expected value), with what the read found. A kernel about to
// re-read a condition it found unmet is idle when its loop has provably gone
// round unchanged:
//
//   - nothing the condition reads has been written since its last read
//     (wordWritten clears that for every test of the word);
//   - no novelty since the condition's second-to-last read: no new condition,
//     no read that found a different result or a changed word, no action of
//     the kernel (noteNovelty), so the last full pass saw exactly what the
//     pass before it saw;
//   - the reads since its last read repeat exactly the reads between its last
//     two reads, so a condition read twice per pass (A X A Y) is not taken
//     for a full pass: the detector waits for the pass to close.
//
// Sequence of a loop that reads A (unmet) over and over:
//
//   poll  1  A  new condition: novelty at 1
//   poll  2  A  repeat (its previous read, 1, is not after the novelty)
//   poll  3  A  repeat (previous read 2 is after the novelty: one clean pass)
//   poll  4  -- idle: the reads 2 -> 3 repeated 1 -> 2 unchanged; sleep
//
// Reads are compared by a running sum of a hash of every read (condition,
// result): the sum's difference between two points is the multiset of reads
// in between, so comparing two segments costs one subtraction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cclsim {

/// What a poll read, for the blocked-kernel report.
struct PollDesc {
    enum Kind : std::uint8_t { L1Word, TxQueue, NocCounter, Other };
    Kind kind = Other;
    const char* api = "";
    std::uint32_t addr = 0;    ///< L1 address, queue index or NoC index
    std::uint32_t expect = 0;  ///< what the caller waits for (for the report)
};

/// Keeps the record of a kernel's status reads and answers whether re-reading
/// a condition now would show nothing new (see the file comment).
class SpinLoopDetector {
public:
    /// One condition the kernel's loop reads: the thing read (`key`) and
    /// the test applied to it (`desc.api` with `desc.expect`). The same word
    /// tested against different values in one pass is several conditions;
    /// a test whose value keeps changing (a free-running counter) reuses its
    /// least recently read variant, so records stay bounded.
    struct PollRecord {
        std::uint64_t key;
        PollDesc desc;
        bool lastResult;
        bool readSinceChange;           ///< nothing it reads changed since its last read
        std::uint64_t lastSeq;          ///< poll sequence number of the last read
        std::uint64_t prevSeq = 0;      ///< ... and of the read before it
        std::uint64_t prefixAfter = 0;  ///< readSum_ just after the last read
        std::uint64_t lastSegment = 0;  ///< readSum_ difference between the last two reads
        std::uint32_t nextVariant;      ///< next record of the same (key, api), another expected value
        std::uint32_t nextOfWord;       ///< next record reading the same L1 word
    };

    /// Expected values kept per (key, api): enough for a loop that tests one
    /// word against a few counters.
    static constexpr unsigned kMaxVariants = 4;

    /// Would re-reading the condition (`key`, `desc.api`, `desc.expect`) now
    /// show nothing new? (Found unmet at its last read, and the loop has gone
    /// round unchanged since; see the file comment.) Call before the read.
    bool wouldSpin(std::uint64_t key, const PollDesc& desc) { return loopIsIdle(find(key, desc)); }
    /// Record a status read of the condition and its result; counts one poll.
    /// True if the read created a new record of an L1 word (`desc.kind ==
    /// L1Word`): the caller must then watch `desc.addr` and report its writes
    /// through wordWritten (records() lists every word to unwatch later).
    bool record(std::uint64_t key, const PollDesc& desc, bool result) {
        return recordAt(find(key, desc), key, desc, result);
    }

    /// The same two steps with one lookup (a poll asks wouldSpin, reads, then
    /// records): `lookup` finds the condition's record (nullptr: never read),
    /// which stays valid until the next recordAt or clear.
    const PollRecord* lookup(std::uint64_t key, const PollDesc& desc) { return find(key, desc); }
    bool wouldSpin(const PollRecord* r) const { return loopIsIdle(r); }
    bool recordAt(const PollRecord* found, std::uint64_t key, const PollDesc& desc, bool result) {
        if (!found) return recordNew(key, desc, result);
        // Every poll comes here: a condition read before, inline.
        PollRecord* r = &polls_[std::size_t(found - polls_.data())];
        // A read that is not an exact repeat (a changed word, a different
        // result) means the loop has not gone round unchanged yet.
        const bool novel = !r->readSinceChange || r->lastResult != result;
        noteRead(r, result, novel);
        return false;
    }
    /// Something happened that the loop has not seen yet (the kernel acted, or
    /// a queue or counter it may poll changed): it must go round once more.
    void noteNovelty() { lastNoveltySeq_ = pollSeq_; }
    /// The thing read under `key` (an L1 word) was written: every test of it
    /// must be read again before the loop can be idle.
    void wordWritten(std::uint64_t key);
    /// Forget every condition (the kernel returned); the poll count stays.
    void clear();

    /// Every condition read so far, in order of first read.
    const std::vector<PollRecord>& records() const { return polls_; }
    /// Status reads recorded so far (the sequence number of the last one).
    std::uint64_t polls() const { return pollSeq_; }
    /// The poll after which the last novelty happened.
    std::uint64_t lastNovelty() const { return lastNoveltySeq_; }

private:
    static constexpr std::uint32_t kNone = ~0u;

    PollRecord* find(std::uint64_t key, const PollDesc& desc) {
        // A loop reads the same few conditions over and over: a small cache of
        // recent ones answers most lookups before the table does.
        std::uint32_t& cached = cache_[cacheSlot(key, desc.api, desc.expect)];
        if (cached != kNone) {
            PollRecord& r = polls_[cached];
            if (r.key == key && r.desc.api == desc.api && r.desc.expect == desc.expect) return &r;
        }
        return findInTable(key, desc, cached);
    }
    /// find() past the cache; a record found there takes the cache slot `cached`.
    PollRecord* findInTable(std::uint64_t key, const PollDesc& desc, std::uint32_t& cached);
    /// recordAt() of a condition never read (or whose record was reused).
    bool recordNew(std::uint64_t key, const PollDesc& desc, bool result);
    /// The record `r` was read now with `result`.
    void noteRead(PollRecord* r, bool result, bool novel) {
        r->lastResult = result;
        r->readSinceChange = true;
        // The reads since this condition's last read form its latest segment.
        r->lastSegment = readSum_ - r->prefixAfter;
        r->prevSeq = r->lastSeq;
        r->lastSeq = ++pollSeq_;
        const std::uint64_t id = std::uint64_t(r - polls_.data()) + 1;
        readSum_ += (id * 0x9E3779B97F4A7C15ull) ^ (result ? 0xD6E8FEB86659FD93ull : 0);
        r->prefixAfter = readSum_;
        if (novel) noteNovelty();
    }
    /// Re-reading `r` now cannot show anything new: it was unmet and nothing
    /// it reads has changed; no novelty since its second-to-last read; and
    /// the reads since its last read repeat the reads between its last two.
    bool loopIsIdle(const PollRecord* r) const {
        return r && !r->lastResult && r->readSinceChange && r->prevSeq > lastNoveltySeq_ &&
               readSum_ - r->prefixAfter == r->lastSegment;
    }
    /// A full 64-bit mix: the API name is a string literal's address, and how
    /// addresses fall must not decide how long probes are.
    static std::uint64_t mix(std::uint64_t h) {
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 33;
        h *= 0xC4CEB9FE1A85EC53ull;
        return h ^ (h >> 33);
    }
    static std::size_t hashOf(std::uint64_t key, const char* api) {
        return std::size_t(mix(key * 0x9E3779B97F4A7C15ull ^ std::uint64_t(reinterpret_cast<std::uintptr_t>(api))));
    }
    /// The recent-condition cache's slot of a condition (with its value).
    static std::size_t cacheSlot(std::uint64_t key, const char* api, std::uint32_t expect) {
        const std::uint64_t h = (key ^ std::uint64_t(reinterpret_cast<std::uintptr_t>(api)) * 0x9E3779B97F4A7C15ull) +
                                std::uint64_t(expect) * 0xC2B2AE3D27D4EB4Full;
        return std::size_t((h ^ (h >> 29) ^ (h >> 47)) & (kCacheSlots - 1));
    }
    std::int32_t slotOf(std::uint64_t key, const char* api) const;
    void indexHead(std::uint32_t index);
    /// A record for a condition read for the first time (a new one, or the
    /// least recently read variant of its (key, api) reused). `watch` is set
    /// if the new record reads an L1 word.
    PollRecord* addRecord(std::uint64_t key, const PollDesc& desc, bool result, bool& watch);

    std::uint64_t pollSeq_ = 0;
    std::uint64_t lastNoveltySeq_ = 0;  ///< poll after which the last novelty happened
    std::uint64_t readSum_ = 0;         ///< running sum of a hash of every read (condition, result)
    std::vector<PollRecord> polls_;
    /// (key, api) -> first record of its variant chain: open addressing,
    /// linear probing, power-of-two size (a kernel reads a few dozen keys).
    std::vector<std::uint32_t> pollSlots_;
    /// L1 word key -> first record reading it (chained through nextOfWord).
    std::vector<std::pair<std::uint64_t, std::uint32_t>> wordHeads_;
    /// Records of recently read conditions by cacheSlot (checked on use, so
    /// a stale slot only costs the table lookup): a loop reads a few
    /// conditions in turn, and this finds them without the table's probes.
    /// 64 slots (256 B a kernel): with 16, a quarter of the T3000 fabric
    /// all-gather's polls went on to the table (2 % of its instructions).
    static constexpr std::size_t kCacheSlots = 64;
    static constexpr std::array<std::uint32_t, kCacheSlots> emptyCache() {
        std::array<std::uint32_t, kCacheSlots> c{};
        for (std::uint32_t& x : c) x = kNone;
        return c;
    }
    std::array<std::uint32_t, kCacheSlots> cache_ = emptyCache();
};

}  // namespace cclsim
