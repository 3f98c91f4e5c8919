// When the next scheduled event that can change an endpoint's observable
// state (its L1 contents, its queues, its kernels' NoC counters) happens.
//
// Models register an effect when they schedule it (`expect`) and retire it
// when it fires (`arrived`); the bandwidth servers of the endpoint (NoC
// injection ports, Ethernet MAC) report their next completion themselves.
// A kernel whose local time is ahead of the simulation by less than the
// platform's lookahead (the shortest latency from any other process's action
// to an effect here) may then read its core's state without waiting: nothing
// can change it before its local time.
#pragma once

#include "models/common/BandwidthServer.h"
#include "models/common/Time.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace cclsim {

class ActivityLog {
public:
    /// What an effect does to the core: write its L1 (NoC writes and read
    /// responses landing, Ethernet deliveries), or anything else (others
    /// reading its L1, acks, deferred command issue).
    enum Kind : unsigned { L1Write = 0, Other = 1 };

    void expect(Tick t, Kind k) { push(pending_[k], t); }
    /// Every expect(t, k) is retired by exactly one arrived(t, k).
    /// Matched pairs are dropped at once, so the heaps hold only what is in
    /// flight even on a core whose kernels never ask (or have finished).
    void arrived(Tick t, Kind k) {
        push(retired_[k], t);
        cancel(k);
    }
    void addServer(const BandwidthServer* s) { servers_.push_back(s); }

    /// Earliest pending effect of any kind, including the core's injection
    /// ports and MAC (kNever if none).
    Tick next() {
        Tick t = std::min(nextOf(L1Write), nextOf(Other));
        for (const BandwidthServer* s : servers_) t = std::min(t, s->nextEventTick());
        return t;
    }
    /// Earliest pending write into the core's L1: all a status read of an L1
    /// word can observe.
    Tick nextL1Write() { return nextOf(L1Write); }

private:
    Tick nextOf(Kind k) {
        cancel(k);
        return pending_[k].empty() ? kNever : pending_[k].front();
    }
    void cancel(Kind k) {
        // Retired ticks cancel pending ones: both heaps hold the same ticks
        // in the same order, so equal tops cancel.
        std::vector<Tick>& p = pending_[k];
        std::vector<Tick>& r = retired_[k];
        while (!r.empty() && !p.empty() && r.front() == p.front()) {
            pop(p);
            pop(r);
        }
    }
    // Min-heaps of ticks in plain vectors: no allocation once warmed up.
    static void push(std::vector<Tick>& h, Tick t) {
        h.push_back(t);
        std::push_heap(h.begin(), h.end(), std::greater<Tick>());
    }
    static void pop(std::vector<Tick>& h) {
        std::pop_heap(h.begin(), h.end(), std::greater<Tick>());
        h.pop_back();
    }

    std::vector<Tick> pending_[2];
    std::vector<Tick> retired_[2];
    std::vector<const BandwidthServer*> servers_;
};

}  // namespace cclsim
