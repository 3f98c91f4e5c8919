// The text forms of a collective's report (nccl-tests style): the terminal
// summary, the table of a sweep, the plot series and the CSV rows, each made
// from the `results` object of the JSON report alone.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim::ccl {

/// A byte count as the sweep header writes it: 4K, 64M, 1G, or plain bytes.
std::string collectiveSizeText(std::uint64_t bytes);
/// The two header lines of the results table.
std::string collectiveTableHeader();
/// The terminal summary of collective `name`'s results `r`.
std::string collectiveSummary(const std::string& name, const nlohmann::json& r);
/// One table row of a report (a sweep point, or the single run).
std::string collectiveSweepRow(const nlohmann::json& report);
/// The plot series of every sweep point's report.
std::vector<std::string> collectiveSweepSeries(const std::vector<nlohmann::json>& reports);
/// The CSV header, and one report's row ("" for a skipped point).
std::string collectiveCsvHeader();
std::string collectiveCsvRow(const std::string& name, const nlohmann::json& report);

}  // namespace cclsim::ccl
