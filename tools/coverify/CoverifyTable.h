// The co-verification table: rows of measured figures read from a CSV file.
//
// A table is what a user measured on hardware (or what a paper published),
// one figure per row: which board executable and workload to run with which
// options, where the figure is in the board's --json report, the measured
// value and how far the model may be from it. Format
// (docs/reference/coverify-csv.md):
//
//   # comment lines start with '#'; blank lines are skipped
//   name,board,workload,options,key,measured,tolerance,source
//   ping,n300,eth_ping,"--samples 20",results.one_way_ns,575,+-45,Ethernet guide
//
// Columns are found by their header name, in any order; board, workload,
// options, key, measured and tolerance are required, name and source are
// optional. Fields may be quoted ("a, b"; "" is a quote inside quotes); a
// quoted field does not span lines. Every error names file:line:column.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace cclsim::coverify {

/// A table error; what() is "file:line:column: message".
class TableError : public std::runtime_error {
public:
    TableError(const std::string& file, int line, int column, const std::string& message);
};

/// How far the model may be from the measured value.
struct Tolerance {
    enum class Kind { Relative, Absolute };
    Kind kind = Kind::Relative;
    double value = 0;  ///< percent of |measured| (Relative) or in the metric's own unit (Absolute)
    std::string text;  ///< as written in the table

    /// The largest |model - measured| allowed.
    double allowed(double measured) const;
};

/// Parse "10%" (relative to the measured value) or "+-45" / "±45" (absolute, in
/// the unit of the metric: ns for a *_ns key). Throws std::invalid_argument.
Tolerance parseTolerance(const std::string& text);

/// Split a dotted JSON path ("results.hops.0.ns"); empty segments are an error
/// (std::invalid_argument).
std::vector<std::string> parseKeyPath(const std::string& key);

/// Split an options field into arguments at blanks; single or double quotes
/// group words ("--inputs 'my file.bin'"). Throws std::invalid_argument.
std::vector<std::string> splitOptions(const std::string& options);

/// The first of `args` coverify sets itself (--json, --sweep), or "" if none.
std::string reservedOption(const std::vector<std::string>& args);

struct Row {
    int line = 0;  ///< line in the file (1-based)
    std::string name;
    std::string board;
    std::string workload;
    std::string options;  ///< as written
    std::vector<std::string> args;
    std::string key;
    double measured = 0;
    Tolerance tolerance;
    std::string source;
};

struct Table {
    std::string file;
    std::vector<Row> rows;
};

/// Parse `text` (the contents of `file`). A board not in `knownBoards` is an
/// error at its field.
Table parseTable(const std::string& text, const std::string& file, const std::vector<std::string>& knownBoards);

/// Read and parse a file (an unreadable file is a TableError at line 0).
Table loadTable(const std::string& file, const std::vector<std::string>& knownBoards);

}  // namespace cclsim::coverify
