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

#include <map>
#include <vector>

namespace cclsim {

class ActivityLog {
public:
    void expect(Tick t) { ++scheduled_[t]; }
    void arrived(Tick t) {
        auto it = scheduled_.find(t);
        if (it != scheduled_.end() && --it->second == 0) scheduled_.erase(it);
    }
    void addServer(const BandwidthServer* s) { servers_.push_back(s); }

    /// Earliest pending effect (kNever if none).
    Tick next() const {
        Tick t = scheduled_.empty() ? kNever : scheduled_.begin()->first;
        for (const BandwidthServer* s : servers_) t = std::min(t, s->nextEventTick());
        return t;
    }

private:
    std::map<Tick, unsigned> scheduled_;
    std::vector<const BandwidthServer*> servers_;
};

}  // namespace cclsim
