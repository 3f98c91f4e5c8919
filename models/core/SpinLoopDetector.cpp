// The spin-loop idle detector's books: finding a condition's record (a
// cache of recent conditions, then an open-addressed table of variant
// chains), adding records, and the running read sum. See SpinLoopDetector.h
// for the rule.
#include "models/core/SpinLoopDetector.h"

namespace cclsim {

SpinLoopDetector::PollRecord* SpinLoopDetector::findInTable(std::uint64_t key, const PollDesc& desc,
                                                            std::uint32_t& cached) {
    const std::int32_t slot = slotOf(key, desc.api);
    if (slot < 0) return nullptr;
    for (std::uint32_t i = pollSlots_[std::size_t(slot)]; i != kNone; i = polls_[i].nextVariant) {
        if (polls_[i].desc.expect == desc.expect) {
            cached = i;
            return &polls_[i];
        }
    }
    return nullptr;
}

std::int32_t SpinLoopDetector::slotOf(std::uint64_t key, const char* api) const {
    if (pollSlots_.empty()) return -1;
    const std::size_t mask = pollSlots_.size() - 1;
    for (std::size_t i = hashOf(key, api) & mask;; i = (i + 1) & mask) {
        const std::uint32_t idx = pollSlots_[i];
        if (idx == kNone) return -1;
        if (polls_[idx].key == key && polls_[idx].desc.api == api) return std::int32_t(i);
    }
}

void SpinLoopDetector::indexHead(std::uint32_t index) {
    // Keep the table at most half full (chain heads only).
    std::size_t heads = 1;
    for (std::uint32_t h : pollSlots_) heads += h != kNone;
    if (2 * heads > pollSlots_.size()) {
        std::size_t size = 16;
        while (size < 4 * heads) size *= 2;  // a power of two
        std::vector<std::uint32_t> old;
        for (std::uint32_t h : pollSlots_)
            if (h != kNone) old.push_back(h);
        pollSlots_.assign(size, kNone);
        for (std::uint32_t h : old) indexHead(h);
    }
    const std::size_t mask = pollSlots_.size() - 1;
    std::size_t j = hashOf(polls_[index].key, polls_[index].desc.api) & mask;
    while (pollSlots_[j] != kNone) j = (j + 1) & mask;
    pollSlots_[j] = index;
}

SpinLoopDetector::PollRecord* SpinLoopDetector::addRecord(std::uint64_t key, const PollDesc& desc, bool result,
                                                          bool& watch) {
    const std::int32_t slot = slotOf(key, desc.api);
    unsigned variants = 0;
    std::uint32_t lru = kNone;
    if (slot >= 0) {
        for (std::uint32_t i = pollSlots_[std::size_t(slot)]; i != kNone; i = polls_[i].nextVariant) {
            ++variants;
            if (lru == kNone || polls_[i].lastSeq < polls_[lru].lastSeq) lru = i;
        }
    }
    if (variants >= kMaxVariants) {
        // Reuse the variant read longest ago: a new condition.
        PollRecord* r = &polls_[lru];
        r->desc = desc;
        r->lastSeq = r->prevSeq = 0;
        r->prefixAfter = readSum_;
        cache_[cacheSlot(key, desc.api, desc.expect)] = lru;
        return r;
    }
    const auto index = std::uint32_t(polls_.size());
    std::uint32_t nextOfWord = kNone;
    if (desc.kind == PollDesc::L1Word) {
        watch = true;
        bool linked = false;
        for (auto& [k, head] : wordHeads_) {
            if (k != key) continue;
            nextOfWord = head;
            head = index;
            linked = true;
            break;
        }
        if (!linked) wordHeads_.emplace_back(key, index);
    }
    const std::uint32_t nextVariant = slot >= 0 ? pollSlots_[std::size_t(slot)] : kNone;
    polls_.push_back(PollRecord{key, desc, result, true, 0, 0, 0, 0, nextVariant, nextOfWord});
    if (slot >= 0)
        pollSlots_[std::size_t(slot)] = index;  // the new record heads its chain
    else
        indexHead(index);
    cache_[cacheSlot(key, desc.api, desc.expect)] = index;
    return &polls_.back();
}

bool SpinLoopDetector::recordNew(std::uint64_t key, const PollDesc& desc, bool result) {
    bool watch = false;
    noteRead(addRecord(key, desc, result, watch), result, true);
    return watch;
}

void SpinLoopDetector::wordWritten(std::uint64_t key) {
    noteNovelty();
    for (const auto& [k, head] : wordHeads_) {
        if (k != key) continue;
        for (std::uint32_t i = head; i != kNone; i = polls_[i].nextOfWord) polls_[i].readSinceChange = false;
        break;
    }
}

void SpinLoopDetector::clear() {
    polls_.clear();
    pollSlots_.clear();
    wordHeads_.clear();
    cache_ = emptyCache();
}

}  // namespace cclsim
