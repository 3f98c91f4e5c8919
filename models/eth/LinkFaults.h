// Ethernet faults on one link direction, and the link layer that answers
// them (models/eth/FaultPlan.h says how a run asks for them).
//
// Bit errors. Every frame travels as FEC codewords (arch YAML eth.fec: an
// RS(n, k) code over s-bit symbols that corrects t symbols). At bit error
// rate p a codeword of n bits collects Poisson(n p) bit errors, each taken to
// hit its own symbol: up to t are corrected (corrected_codewords), more fail
// the frame's CRC (uncorrected_codewords, crc_errors). The link layer
// recovers with Go-Back-N over its sequence-numbered frames, as tt-metal's
// TT-link mode describes: the receiver drops the bad frame and everything
// after it until the sender, told by the negative ack one round trip later,
// sends them again. The cost is the frames the wire carried in that round
// trip (at least the bad one), sent twice (retransmitted_frames): the MAC
// serialises them on top of the command, so nothing is lost and the time is
// paid where the wire really spends it. Errors are drawn per codeword from
// the run's seeded generator (geometric gaps between erroneous codewords, so
// a clean link costs nothing per frame).
//
// Retrain, down, drop: see LinkFaultController (both directions of a link).
#pragma once

#include "models/common/EventQueue.h"
#include "models/common/Time.h"
#include "models/eth/EthConfig.h"

#include <cstdint>
#include <random>
#include <string>

namespace cclsim {

/// Per link direction, named as tt-metal's link health counters.
struct LinkHealth {
    std::uint64_t retrainCount = 0;
    std::uint64_t crcErrors = 0;
    std::uint64_t correctedCodewords = 0;
    std::uint64_t uncorrectedCodewords = 0;
    std::uint64_t retransmittedFrames = 0;
    // Lost above the link layer (drop) or with the link (down): not counters
    // of the hardware, what the diagnosis reports.
    std::uint64_t lostFrames = 0;
    std::uint64_t lostCommands = 0;
    double lostBytes = 0;
    /// Go-Back-N could not get frames through: at this error rate a frame
    /// fails more often than once per round trip of frames, so replays never
    /// converge; the link is unusable (treated as down from then on).
    bool unusable = false;
    bool any() const {
        return retrainCount || crcErrors || correctedCodewords || uncorrectedCodewords || retransmittedFrames ||
               lostFrames || lostCommands;
    }
};

class LinkFaults {
public:
    LinkFaults(const EthConfig& eth, std::uint64_t seed);

    void addBitErrorRate(double rate);
    /// `frames` frames whose last bit leaves at or after `at` are lost.
    void addDrop(Tick at, std::uint32_t frames);
    void setDown(Tick at);
    /// The link stops at `at` (a retrain or going down): a command whose last
    /// frame left before then but arrives after is in flight at the stop.
    Tick nextStop(Tick from) const;
    void addStop(Tick at);

    /// Extra wire bytes the CRC failures among a payload's frames cost
    /// (Go-Back-N replays); updates the counters.
    double replayWireBytes(std::uint32_t payloadBytes);
    /// A command of `payloadBytes` whose last frame left at `t`: true if the
    /// drop fault eats one of its frames (the command never lands).
    bool dropsCommand(std::uint32_t payloadBytes, Tick t);
    bool downAt(Tick t) const { return t >= downAt_ || health.unusable; }
    Tick downTick() const { return downAt_; }
    /// A command lost with the link (down): all its frames.
    void lose(std::uint32_t payloadBytes);

    LinkHealth health;

private:
    void record(std::uint32_t frames, std::uint32_t payloadBytes);
    /// Codewords until the next one with an error (geometric), drawn anew after each.
    std::uint64_t drawGap();

    EthConfig eth_;
    std::mt19937_64 rng_;
    double ber_ = 0;
    double lambda_ = 0;      ///< expected bit errors per codeword
    std::uint64_t gap_ = 0;  ///< clean codewords before the next erroneous one
    Tick dropAt_ = kNever;
    std::uint32_t dropLeft_ = 0;
    Tick downAt_ = kNever;
    std::vector<Tick> stops_;
};

}  // namespace cclsim
