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

std::uint32_t LinkFaults::framesOf(std::uint32_t payloadBytes) const {
    return std::max<std::uint32_t>(1, (payloadBytes + eth_.maxPacketBytes - 1) / eth_.maxPacketBytes);
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
    const std::uint32_t frames = framesOf(payloadBytes);
    const double dataBits = double(eth_.fecDataSymbols) * eth_.fecSymbolBits;
    const double frameWire = eth_.wireBytes(std::min(payloadBytes, eth_.maxPacketBytes));
    // Frames the wire carries in one round trip: sent again after a bad one.
    const double rttBytes = 2.0 * ticksToNs(eth_.latency) * eth_.lineBytesPerNs;
    const std::uint32_t window = std::max<std::uint32_t>(1, std::uint32_t(std::ceil(rttBytes / frameWire)));
    double extra = 0;
    // Retransmitted frames travel as codewords too: walk until every frame is through.
    std::uint64_t pending = frames;
    std::uint64_t replayedTotal = 0;
    for (int round = 0; pending; ++round) {
        if (round >= 32 || replayedTotal > 64ull * frames * window) {
            // Replays of replays do not converge: give up on the link.
            health.unusable = true;
            break;
        }
        const std::uint64_t perFrame = std::uint64_t(std::ceil(frameWire * 8.0 / dataBits));
        std::uint64_t left = pending * perFrame;
        std::uint64_t failedFrames = 0;
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
                ++failedFrames;
            }
            gap_ = drawGap();
        }
        gap_ -= left;
        if (!failedFrames) break;
        const std::uint64_t replayed = failedFrames * window;
        health.retransmittedFrames += replayed;
        replayedTotal += replayed;
        extra += double(replayed) * frameWire;
        pending = replayed;
    }
    return extra;
}

bool LinkFaults::dropsCommand(std::uint32_t payloadBytes, Tick t) {
    if (dropLeft_ == 0 || t < dropAt_) return false;
    const std::uint32_t frames = framesOf(payloadBytes);
    const std::uint32_t lost = std::min(frames, dropLeft_);
    dropLeft_ -= lost;
    health.lostFrames += lost;
    ++health.lostCommands;
    health.lostBytes += payloadBytes;
    return true;
}

void LinkFaults::lose(std::uint32_t payloadBytes, std::uint32_t frames) {
    health.lostFrames += frames;
    ++health.lostCommands;
    health.lostBytes += payloadBytes;
}

}  // namespace cclsim
