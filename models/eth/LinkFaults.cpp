#include "models/eth/LinkFaults.h"

#include <algorithm>
#include <cmath>

namespace cclsim {

LinkFaults::LinkFaults(const EthConfig& eth, std::uint64_t seed) : eth_(eth), rng_(seed) {}

void LinkFaults::addBitErrorRate(double rate) {
    // Several ber entries on one link add up (independent error sources).
    ber_ += rate;
    lambda_ = ber_ * double(eth_.fecCodewordSymbols) * double(eth_.fecSymbolBits);
    gap_ = drawGap();
}

void LinkFaults::addDrop(Tick at, std::uint32_t frames) {
    dropAt_ = std::min(dropAt_, at);
    dropLeft_ += frames;
}

void LinkFaults::setDown(Tick at) {
    downAt_ = std::min(downAt_, at);
    addStop(at);
}

void LinkFaults::addStop(Tick at) {
    stops_.push_back(at);
    std::sort(stops_.begin(), stops_.end());
}

Tick LinkFaults::nextStop(Tick from) const {
    auto it = std::lower_bound(stops_.begin(), stops_.end(), from);
    return it == stops_.end() ? kNever : *it;
}

std::uint64_t LinkFaults::drawGap() {
    if (!(lambda_ > 0)) return ~std::uint64_t{0};
    // P(a codeword has >= 1 bit error) = 1 - exp(-lambda).
    const double p = -std::expm1(-lambda_);
    if (p >= 1) return 0;
    std::geometric_distribution<std::uint64_t> g(p);
    return g(rng_);
}

double LinkFaults::replayWireBytes(std::uint32_t payloadBytes) {
    if (!(lambda_ > 0)) return 0;
    const double dataBits = double(eth_.fecDataSymbols) * eth_.fecSymbolBits;
    const double frameWire = eth_.wireBytes(std::min(payloadBytes, eth_.maxPacketBytes));
    // A bad frame costs the wire one round trip (the frames sent until the
    // negative ack arrives are dropped by the receiver and sent again), and
    // at least the frame itself.
    const double rttBytes = 2.0 * ticksToNs(eth_.latency) * eth_.lineBytesPerNs;
    const double replayPerFailure = std::max(rttBytes, frameWire);
    const double cap = 64.0 * (eth_.wireBytes(payloadBytes) + replayPerFailure);
    double extra = 0;
    // What is sent again travels as codewords too: walk until it all got through.
    double pendingBytes = eth_.wireBytes(payloadBytes);
    for (int round = 0; pendingBytes > 0; ++round) {
        if (round >= 32 || extra > cap) {
            // Replays of replays do not converge: give up on the link.
            health.unusable = true;
            break;
        }
        std::uint64_t left = std::uint64_t(std::ceil(pendingBytes * 8.0 / dataBits));
        std::uint64_t failures = 0;
        while (gap_ < left) {
            left -= gap_ + 1;
            // An erroneous codeword: Poisson(lambda) errors given at least one.
            std::poisson_distribution<unsigned> pois(lambda_);
            unsigned errors = 0;
            while (errors == 0) errors = pois(rng_);
            if (errors <= eth_.fecCorrectableSymbols) {
                ++health.correctedCodewords;
            } else {
                ++health.uncorrectedCodewords;
                ++health.crcErrors;
                ++failures;
            }
            gap_ = drawGap();
        }
        gap_ -= left;
        if (!failures) break;
        pendingBytes = double(failures) * replayPerFailure;
        health.retransmittedFrames += failures * std::uint64_t(std::ceil(replayPerFailure / frameWire));
        extra += pendingBytes;
    }
    return extra;
}

bool LinkFaults::dropsCommand(std::uint32_t payloadBytes, Tick t) {
    if (dropLeft_ == 0 || t < dropAt_) return false;
    const std::uint32_t lost = std::min(eth_.frames(payloadBytes), dropLeft_);
    dropLeft_ -= lost;
    record(lost, payloadBytes);
    return true;
}

void LinkFaults::lose(std::uint32_t payloadBytes) {
    record(eth_.frames(payloadBytes), payloadBytes);
}

void LinkFaults::record(std::uint32_t frames, std::uint32_t payloadBytes) {
    health.lostFrames += frames;
    ++health.lostCommands;
    health.lostBytes += payloadBytes;
}

}  // namespace cclsim
