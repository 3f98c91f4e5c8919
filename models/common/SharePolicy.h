// How a BandwidthServer splits its bandwidth among the classes that have work.
//
// A policy is the swappable part of an arbiter: the PE_DMA virtual-channel
// arbiter, the Ethernet MAC's choice between its two tx command queues and a
// DRAM channel's request classes all use a BandwidthServer with a policy.
#pragma once

#include <string>
#include <vector>

namespace cclsim {

class SharePolicy {
public:
    virtual ~SharePolicy() = default;
    /// Fill `shares[i]` (summing to 1) for each class index in `active`. A
    /// class alone gets exactly 1 (BandwidthServer does not ask then).
    virtual void shares(const std::vector<unsigned>& active, std::vector<double>& shares) const = 0;
    virtual std::string describe() const = 0;
};

/// Weighted round-robin at chunk granularity, served as weighted fair shares:
/// while several classes are backlogged each receives weight_i / sum(weights)
/// of the bandwidth (a class that is alone gets all of it).
class WeightedRoundRobin final : public SharePolicy {
public:
    explicit WeightedRoundRobin(std::vector<double> weights);
    void shares(const std::vector<unsigned>& active, std::vector<double>& shares) const override;
    std::string describe() const override;
    const std::vector<double>& weights() const { return weights_; }

private:
    std::vector<double> weights_;
};

/// Strict priority: the lowest-numbered backlogged class gets everything.
class StrictPriority final : public SharePolicy {
public:
    void shares(const std::vector<unsigned>& active, std::vector<double>& shares) const override;
    std::string describe() const override { return "strict priority"; }
};

}  // namespace cclsim
