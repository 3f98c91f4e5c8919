#include "tools/coverify/CoverifyTable.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace cclsim::coverify {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/// Parse a whole string as a finite double; false if anything is left over.
bool parseNumber(const std::string& text, double& out) {
    const std::string t = trim(text);
    if (t.empty()) return false;
    char* end = nullptr;
    out = std::strtod(t.c_str(), &end);
    return end == t.c_str() + t.size() && std::isfinite(out);
}

struct Field {
    std::string text;
    int column = 1;  ///< 1-based column of the field's first character
};

/// Split one CSV line into fields (RFC 4180 quoting, no multi-line fields).
std::vector<Field> splitCsvLine(const std::string& line, const std::string& file, int lineNo) {
    std::vector<Field> fields;
    std::size_t i = 0;
    while (true) {
        Field f;
        f.column = static_cast<int>(i) + 1;
        // Blanks before a quote are allowed ( "a", "b").
        std::size_t j = i;
        while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) ++j;
        if (j < line.size() && line[j] == '"') {
            const int quoteColumn = static_cast<int>(j) + 1;
            ++j;
            bool closed = false;
            while (j < line.size()) {
                if (line[j] == '"') {
                    if (j + 1 < line.size() && line[j + 1] == '"') {
                        f.text += '"';
                        j += 2;
                        continue;
                    }
                    closed = true;
                    ++j;
                    break;
                }
                f.text += line[j++];
            }
            if (!closed) throw TableError(file, lineNo, quoteColumn, "unterminated quoted field");
            while (j < line.size() && (line[j] == ' ' || line[j] == '\t' || line[j] == '\r')) ++j;
            if (j < line.size() && line[j] != ',')
                throw TableError(file, lineNo, static_cast<int>(j) + 1,
                                 "unexpected character after a quoted field (expected ',')");
        } else {
            const auto comma = line.find(',', i);
            const std::size_t end = comma == std::string::npos ? line.size() : comma;
            f.text = trim(line.substr(i, end - i));
            if (f.text.find('"') != std::string::npos)
                throw TableError(file, lineNo, f.column, "a quote inside an unquoted field (quote the whole field)");
            j = end;
        }
        fields.push_back(f);
        if (j >= line.size()) break;
        i = j + 1;  // past the comma
    }
    return fields;
}

const char* const kRequired[] = {"board", "workload", "options", "key", "measured", "tolerance"};
const char* const kOptional[] = {"name", "source"};

}  // namespace

TableError::TableError(const std::string& file, int line, int column, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message) {}

double Tolerance::allowed(double measured) const {
    return kind == Kind::Relative ? std::fabs(measured) * value / 100.0 : value;
}

Tolerance parseTolerance(const std::string& text) {
    Tolerance t;
    t.text = trim(text);
    std::string s = t.text;
    if (s.empty()) throw std::invalid_argument("empty tolerance (write e.g. 10% or +-45)");
    if (s.back() == '%') {
        t.kind = Tolerance::Kind::Relative;
        s.pop_back();
    } else if (s.rfind("+-", 0) == 0 || s.rfind("\xC2\xB1", 0) == 0) {  // or U+00B1 PLUS-MINUS SIGN (2 bytes in UTF-8)
        t.kind = Tolerance::Kind::Absolute;
        s = s.substr(2);
    } else {
        throw std::invalid_argument("tolerance '" + t.text +
                                    "' is neither relative (10%) nor absolute in the metric's unit (+-45)");
    }
    if (!parseNumber(s, t.value) || t.value < 0 || s.find_first_of("+-") == 0)
        throw std::invalid_argument("tolerance '" + t.text + "': '" + trim(s) + "' is not a non-negative number");
    return t;
}

std::vector<std::string> parseKeyPath(const std::string& key) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream is(key);
    if (trim(key).empty()) throw std::invalid_argument("empty key (write a dotted path such as results.one_way_ns)");
    while (std::getline(is, part, '.')) {
        if (part.empty() || trim(part) != part)
            throw std::invalid_argument("key '" + key + "' has an empty or blank-padded segment");
        parts.push_back(part);
    }
    if (key.back() == '.') throw std::invalid_argument("key '" + key + "' ends with '.'");
    return parts;
}

std::string reservedOption(const std::vector<std::string>& args) {
    for (const auto& a : args)
        if (a == "--json" || a.rfind("--json=", 0) == 0 || a == "--sweep") return a;
    return "";
}

std::vector<std::string> splitOptions(const std::string& options) {
    std::vector<std::string> args;
    std::string cur;
    bool inWord = false;
    char quote = 0;
    for (char c : options) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                cur += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            inWord = true;
        } else if (c == ' ' || c == '\t') {
            if (inWord) args.push_back(cur);
            cur.clear();
            inWord = false;
        } else {
            cur += c;
            inWord = true;
        }
    }
    if (quote) throw std::invalid_argument(std::string("unterminated ") + quote + " in the options");
    if (inWord) args.push_back(cur);
    return args;
}

Table parseTable(const std::string& text, const std::string& file, const std::vector<std::string>& knownBoards) {
    Table table;
    table.file = file;
    std::istringstream is(text);
    std::string line;
    int lineNo = 0;
    std::map<std::string, std::size_t> col;  // header name -> field index
    std::vector<Field> header;
    bool haveHeader = false;

    while (std::getline(is, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        // Spreadsheets write UTF-8 files with a byte-order mark.
        if (lineNo == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        const auto fields = splitCsvLine(line, file, lineNo);

        if (!haveHeader) {
            header = fields;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                const std::string name = fields[i].text;
                const bool known = std::find(std::begin(kRequired), std::end(kRequired), name) != std::end(kRequired) ||
                                   std::find(std::begin(kOptional), std::end(kOptional), name) != std::end(kOptional);
                if (!known)
                    throw TableError(file, lineNo, fields[i].column,
                                     "unknown column '" + name +
                                         "' (columns: board, workload, options, key, measured, tolerance; "
                                         "optional: name, source)");
                if (!col.emplace(name, i).second)
                    throw TableError(file, lineNo, fields[i].column, "column '" + name + "' appears twice");
            }
            for (const char* req : kRequired)
                if (!col.count(req))
                    throw TableError(file, lineNo, 1, std::string("the header has no '") + req + "' column");
            haveHeader = true;
            continue;
        }

        if (fields.size() != header.size()) {
            const int column =
                fields.size() > header.size() ? fields[header.size()].column : static_cast<int>(line.size()) + 1;
            throw TableError(file, lineNo, column,
                             "expected " + std::to_string(header.size()) + " fields (as in the header), found " +
                                 std::to_string(fields.size()));
        }
        auto field = [&](const char* name) -> const Field& { return fields[col.at(name)]; };
        auto has = [&](const char* name) { return col.count(name) != 0; };

        Row row;
        row.line = lineNo;
        row.board = field("board").text;
        row.workload = field("workload").text;
        row.options = field("options").text;
        row.key = field("key").text;
        if (has("name")) row.name = field("name").text;
        if (has("source")) row.source = field("source").text;

        if (row.board.empty()) throw TableError(file, lineNo, field("board").column, "empty board");
        if (!knownBoards.empty() && std::find(knownBoards.begin(), knownBoards.end(), row.board) == knownBoards.end()) {
            std::string list;
            for (const auto& b : knownBoards) list += (list.empty() ? "" : ", ") + b;
            throw TableError(file, lineNo, field("board").column,
                             "unknown board '" + row.board + "' (boards: " + list + ")");
        }
        if (row.workload.empty() || row.workload[0] == '-')
            throw TableError(file, lineNo, field("workload").column,
                             "the workload must be a name such as eth_ping (options go in the options column)");
        try {
            row.args = splitOptions(row.options);
        } catch (const std::invalid_argument& e) {
            throw TableError(file, lineNo, field("options").column, e.what());
        }
        if (const std::string a = reservedOption(row.args); !a.empty())
            throw TableError(file, lineNo, field("options").column,
                             "'" + a + "' is not allowed in the options (coverify writes the report itself)");
        try {
            parseKeyPath(row.key);
        } catch (const std::invalid_argument& e) {
            throw TableError(file, lineNo, field("key").column, e.what());
        }
        if (!parseNumber(field("measured").text, row.measured))
            throw TableError(file, lineNo, field("measured").column,
                             "measured value '" + field("measured").text + "' is not a number");
        try {
            row.tolerance = parseTolerance(field("tolerance").text);
        } catch (const std::invalid_argument& e) {
            throw TableError(file, lineNo, field("tolerance").column, e.what());
        }
        if (row.tolerance.kind == Tolerance::Kind::Relative && row.measured == 0)
            throw TableError(file, lineNo, field("tolerance").column,
                             "a relative tolerance of a measured 0 allows nothing: use an absolute one (+-x)");
        if (row.name.empty()) row.name = row.workload + " " + row.key;
        table.rows.push_back(std::move(row));
    }
    if (!haveHeader) throw TableError(file, lineNo + 1, 1, "no header row (and no rows)");
    if (table.rows.empty()) throw TableError(file, lineNo + 1, 1, "the table has a header but no rows");
    return table;
}

Table loadTable(const std::string& file, const std::vector<std::string>& knownBoards) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw TableError(file, 0, 0, "cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    return parseTable(ss.str(), file, knownBoards);
}

}  // namespace cclsim::coverify
