// Judging a row's run against its measured value, and reporting a whole table:
// the text table, the geometric-mean error and JUnit XML for CI systems.
#pragma once

#include "tools/coverify/CoverifyTable.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cclsim::coverify {

/// What became of one row.
struct RowResult {
    enum class Status { Pass, Fail, Error };
    Status status = Status::Error;
    std::optional<double> model;  ///< the model's value (Pass and Fail)
    double errorPct = 0;          ///< (model - measured) / |measured| x 100 (if measured != 0)
    std::string message;          ///< why it failed or errored
    double wallSeconds = 0;
    std::string command;  ///< the command line that ran
};

/// Look up a dotted path in a report; an array segment is an index. The value
/// must be a number (a bool is not). Throws std::invalid_argument naming the
/// segment that is missing.
double lookupKey(const nlohmann::json& report, const std::string& key);

/// Judge a row from the board's exit code and its --json report (an unreadable
/// or missing report is passed as a null json).
RowResult judgeRow(const Row& row, int exitCode, const nlohmann::json& report);

/// exp(mean(ln(1 + |e|))) - 1 over the rows that produced a value with a non-zero
/// measured value (e = relative error); nullopt when there is none. Unlike the
/// plain geometric mean of |e| it stays meaningful when one row is exact.
std::optional<double> geomeanAbsErrorPct(const Table& table, const std::vector<RowResult>& results);

/// The text table (CSV-row order) and the summary lines.
void printReport(std::ostream& os, const Table& table, const std::vector<RowResult>& results);

/// JUnit XML: one testsuite for the table, one testcase per row (failure for a
/// row outside its tolerance, error for a board that failed or a missing key).
void writeJunit(std::ostream& os, const Table& table, const std::vector<RowResult>& results);

/// Escape text for XML attributes and character data.
std::string xmlEscape(const std::string& text);

}  // namespace cclsim::coverify
