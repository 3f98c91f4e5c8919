#include "models/common/SharePolicy.h"

#include <sstream>
#include <stdexcept>

namespace cclsim {

WeightedRoundRobin::WeightedRoundRobin(std::vector<double> weights) : weights_(std::move(weights)) {
    for (double w : weights_)
        if (!(w > 0)) throw std::invalid_argument("WeightedRoundRobin: every weight must be > 0");
}

void WeightedRoundRobin::shares(const std::vector<unsigned>& active, std::vector<double>& shares) const {
    double sum = 0;
    for (unsigned c : active) sum += weights_.at(c);
    shares.assign(active.size(), 0.0);
    for (std::size_t i = 0; i < active.size(); ++i) shares[i] = weights_.at(active[i]) / sum;
}

std::string WeightedRoundRobin::describe() const {
    std::ostringstream os;
    os << "weighted round-robin";
    for (std::size_t i = 0; i < weights_.size(); ++i) os << (i ? "/" : " ") << weights_[i];
    return os.str();
}

void StrictPriority::shares(const std::vector<unsigned>& active, std::vector<double>& shares) const {
    shares.assign(active.size(), 0.0);
    if (active.empty()) return;
    std::size_t best = 0;
    for (std::size_t i = 1; i < active.size(); ++i)
        if (active[i] < active[best]) best = i;
    shares[best] = 1.0;
}

}  // namespace cclsim
