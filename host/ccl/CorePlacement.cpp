#include "host/ccl/CorePlacement.h"

#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <cstdlib>

namespace cclsim::ccl {

namespace {

/// "A-B" or "A" -> [A, B] of a list of `workers` cores.
void parseRange(OpCores& op, std::size_t workers) {
    const std::string& t = op.given;
    const std::size_t dash = t.find('-');
    const std::string a = t.substr(0, dash), b = dash == std::string::npos ? a : t.substr(dash + 1);
    auto digits = [](const std::string& s) {
        return !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(a) || !digits(b))
        throw ConfigError(fmt::format("{}: --cores '{}' is not a range of worker indices like 0-15", op.where, t));
    op.first = unsigned(std::strtoul(a.c_str(), nullptr, 10));
    op.last = unsigned(std::strtoul(b.c_str(), nullptr, 10));
    if (op.first > op.last)
        throw ConfigError(fmt::format("{}: --cores {}: the range is empty (first > last)", op.where, t));
    if (op.last >= workers)
        throw ConfigError(fmt::format("{}: --cores {}: the chip has worker cores 0-{}", op.where, t, workers - 1));
}

}  // namespace

void placeOpCores(std::vector<OpCores>& ops, const std::vector<CoreCoord>& workers, const std::set<unsigned>& reserved,
                  const std::string& reservedBy) {
    constexpr int kReserved = -2;
    std::vector<int> owner(workers.size(), -1);
    for (unsigned k : reserved)
        if (k < owner.size()) owner[k] = kReserved;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        OpCores& op = ops[i];
        if (op.given.empty()) continue;
        parseRange(op, workers.size());
        for (unsigned k = op.first; k <= op.last; ++k) {
            if (owner[k] == kReserved)
                throw ConfigError(fmt::format("{}: --cores {} overlaps the cores of {} at worker {} (core {})",
                                              op.where, op.given, reservedBy, k, workers[k].str()));
            if (owner[k] >= 0) {
                const OpCores& o = ops[std::size_t(owner[k])];
                throw ConfigError(
                    fmt::format("{}: --cores {} overlaps the cores {}-{} of {} at worker {} (core {}); "
                                "ops that run at once take disjoint worker cores",
                                op.where, op.given, o.first, o.last, o.where, k, workers[k].str()));
            }
            owner[k] = int(i);
        }
    }
    // The rest: the free cores in order, an equal run each.
    std::vector<unsigned> free;
    for (unsigned k = 0; k < workers.size(); ++k)
        if (owner[k] == -1) free.push_back(k);  // neither given nor reserved
    std::size_t rest = 0;
    for (const OpCores& op : ops) rest += op.given.empty();
    if (!rest) return;
    const std::size_t share = free.size() / rest;
    if (share == 0)
        throw ConfigError(fmt::format("{} op(s) without --cores but {} free worker core(s) left; give every op --cores",
                                      rest, free.size()));
    std::size_t at = 0;
    for (OpCores& op : ops) {
        if (!op.given.empty()) continue;
        op.first = free[at];
        op.last = free[at + share - 1];
        if (op.last - op.first + 1 != share)
            throw ConfigError(
                fmt::format("{}: the worker cores left between the given --cores ranges are not one "
                            "run; give every op --cores",
                            op.where));
        at += share;
    }
}

}  // namespace cclsim::ccl
