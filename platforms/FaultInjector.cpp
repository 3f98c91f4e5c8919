#include "platforms/FaultInjector.h"

#include "models/common/ConfigError.h"
#include "platforms/Platform.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim {

namespace {

/// One generator per direction, derived from the plan's seed (splitmix64).
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

double us(Tick t) {
    return ticksToNs(t) / 1000.0;
}

}  // namespace

FaultInjector::FaultInjector(Platform& platform, const FaultPlan& plan) : platform_(platform), plan_(plan) {
    for (const FaultSpec& f : plan_.faults) attach(f);
    for (auto& s : stops_) {
        Stop* sp = s.get();
        platform_.eq.at(sp->spec.at, [this, sp] { startStop(*sp); });
    }
}

FaultInjector::Direction& FaultInjector::direction(unsigned chip, unsigned channel) {
    for (auto& d : dirs_)
        if (d->chip == chip && d->channel == channel) return *d;
    EthSubsystem& eth = platform_.chip(chip).erisc(channel).eth;
    auto d = std::make_unique<Direction>();
    d->chip = chip;
    d->channel = channel;
    d->peerChip = eth.link().peerChip;
    d->peerChannel = eth.link().peerChannel;
    d->eth = &eth;
    d->faults = std::make_unique<LinkFaults>(eth.config(), mix(plan_.seed ^ mix(std::uint64_t(chip) << 32 | channel)));
    eth.setFaults(d->faults.get());
    dirs_.push_back(std::move(d));
    std::sort(dirs_.begin(), dirs_.end(), [](const auto& a, const auto& b) {
        return a->chip != b->chip ? a->chip < b->chip : a->channel < b->channel;
    });
    return direction(chip, channel);
}

void FaultInjector::attach(const FaultSpec& f) {
    std::vector<std::pair<unsigned, unsigned>> ends;  // one end per link
    if (f.allLinks) {
        for (const LinkDesc& l : platform_.descriptor().links) ends.push_back({l.a.chip, l.a.chan});
    } else {
        if (f.chip >= platform_.numChips())
            throw ConfigError(fmt::format("{}: fault link: chip {} does not exist (the board has {})", f.where, f.chip,
                                          platform_.numChips()));
        Chip& c = platform_.chip(f.chip);
        if (f.channel >= c.numEthChannels())
            throw ConfigError(fmt::format("{}: fault link: chip {} has no Ethernet channel {} (it has {})", f.where,
                                          f.chip, f.channel, c.numEthChannels()));
        if (!c.erisc(f.channel).eth.link().connected)
            throw ConfigError(fmt::format("{}: fault link: chip {} channel {} is not cabled on this board", f.where,
                                          f.chip, f.channel));
        ends.push_back({f.chip, f.channel});
    }
    for (const auto& [chip, channel] : ends) {
        // Directions are heap objects: their addresses outlive re-sorting.
        Direction* pa = &direction(chip, channel);
        Direction* pb = &direction(pa->peerChip, pa->peerChannel);
        for (Direction* d : {pa, pb}) {
            switch (f.kind) {
                case FaultSpec::Ber: d->faults->addBitErrorRate(f.rate); break;
                case FaultSpec::Drop: d->faults->addDrop(f.at, f.packets); break;
                case FaultSpec::Down: d->faults->setDown(f.at); break;
                case FaultSpec::Retrain: d->faults->addStop(f.at); break;
            }
        }
        if (f.kind == FaultSpec::Down || f.kind == FaultSpec::Retrain) {
            auto s = std::make_unique<Stop>();
            s->spec = f;
            s->a = pa;
            s->b = pb;
            stops_.push_back(std::move(s));
        }
    }
}

void FaultInjector::startStop(Stop& s) {
    for (Direction* d : {s.a, s.b}) {
        d->eth->stopLink();
        if (s.spec.kind == FaultSpec::Retrain) ++d->faults->health.retrainCount;
    }
    if (s.spec.kind == FaultSpec::Retrain) {
        Stop* sp = &s;
        platform_.eq.at(s.spec.at + s.spec.duration, [this, sp] { retrainTrained(*sp); });
    }
}

void FaultInjector::retrainTrained(Stop& s) {
    // Trained; the retrain completes when both cores' base firmware has run.
    struct Wait {
        unsigned left = 2;
        Tick ready = 0;
    };
    auto w = std::make_shared<Wait>();
    w->ready = now();
    Stop* sp = &s;
    auto turn = [this, sp, w](Tick at) {
        w->ready = std::max(w->ready, at);
        if (--w->left) return;
        platform_.eq.at(w->ready, [sp] {
            sp->a->eth->resumeLink();
            sp->b->eth->resumeLink();
            sp->completed = true;
        });
    };
    platform_.chip(s.a->chip).erisc(s.a->channel).atNextRoutingTurn(turn);
    platform_.chip(s.b->chip).erisc(s.b->channel).atNextRoutingTurn(turn);
}

std::vector<LinkHealthRow> FaultInjector::health() const {
    std::vector<LinkHealthRow> rows;
    for (const auto& d : dirs_) rows.push_back({d->chip, d->channel, d->peerChip, d->peerChannel, &d->faults->health});
    return rows;
}

bool FaultInjector::retrainsAtInit(unsigned chip, unsigned channel) const {
    for (const auto& s : stops_)
        if (s->spec.kind == FaultSpec::Retrain && s->spec.at == 0)
            for (const Direction* d : {s->a, s->b})
                if (d->chip == chip && d->channel == channel) return true;
    return false;
}

bool FaultInjector::lostAnything() const {
    for (const auto& d : dirs_)
        if (d->faults->health.lostCommands || d->faults->downAt(now())) return true;
    for (const auto& s : stops_)
        if (s->spec.kind == FaultSpec::Retrain && !s->completed && s->spec.at <= now()) return true;
    return false;
}

std::string FaultInjector::diagnosis() const {
    std::string out;
    for (const auto& d : dirs_) {
        const LinkHealth& h = d->faults->health;
        const bool down = d->faults->downAt(now());
        if (!h.lostCommands && !down) continue;
        out += fmt::format("  link chip {} ch {} -> chip {} ch {}:", d->chip, d->channel, d->peerChip, d->peerChannel);
        if (h.unusable)
            out +=
                fmt::format(" unusable: {} CRC errors, Go-Back-N replays could not get frames through;", h.crcErrors);
        else if (down)
            out += fmt::format(" down since {:.3f} us;", us(d->faults->downTick()));
        if (h.lostCommands)
            out += fmt::format(" lost {} message(s), {:.0f} B ({} Ethernet packet(s));", h.lostCommands, h.lostBytes,
                               h.lostFrames);
        const BandwidthServer& mac = d->eth->mac();
        std::size_t queued = 0;
        double queuedBytes = 0;
        for (unsigned q = 0; q < mac.numClasses(); ++q) {
            queued += mac.jobsQueued(q);
            queuedBytes += mac.bytesQueued(q);
        }
        if (queued)
            out += fmt::format(" {} command(s), {:.0f} wire B, queued in tx_cmd_q never sent;", queued, queuedBytes);
        out.back() = '\n';
    }
    for (const auto& s : stops_) {
        if (s->spec.kind != FaultSpec::Retrain || s->completed || s->spec.at > now()) continue;
        out +=
            fmt::format("  link chip {} ch {} <-> chip {} ch {}: retrain at {:.3f} us for {:.3f} us has not completed",
                        s->a->chip, s->a->channel, s->b->chip, s->b->channel, us(s->spec.at), us(s->spec.duration));
        std::string who;
        for (Direction* d : {s->a, s->b})
            if (platform_.chip(d->chip).erisc(d->channel).kernelRunning())
                who += fmt::format("{}chip {} ch {}", who.empty() ? "" : " and ", d->chip, d->channel);
        out += who.empty() ? "\n"
                           : fmt::format(
                                 ": the ERISC kernel on {} has not called run_routing() since, so the base "
                                 "firmware cannot finish it\n",
                                 who);
    }
    return out;
}

}  // namespace cclsim
