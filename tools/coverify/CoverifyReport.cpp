#include "tools/coverify/CoverifyReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cclsim::coverify {

namespace {

std::string fmtNumber(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string fmtPct(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.2f%%", v);
    return buf;
}

const char* statusText(RowResult::Status s) {
    switch (s) {
        case RowResult::Status::Pass: return "pass";
        case RowResult::Status::Fail: return "FAIL";
        case RowResult::Status::Error: return "ERROR";
    }
    return "?";
}

}  // namespace

double lookupKey(const nlohmann::json& report, const std::string& key) {
    const nlohmann::json* node = &report;
    std::string path;
    for (const auto& seg : parseKeyPath(key)) {
        path += (path.empty() ? "" : ".") + seg;
        if (node->is_object()) {
            const auto it = node->find(seg);
            if (it == node->end()) throw std::invalid_argument("the report has no '" + path + "'");
            node = &*it;
        } else if (node->is_array()) {
            char* end = nullptr;
            const unsigned long idx = std::strtoul(seg.c_str(), &end, 10);
            if (end != seg.c_str() + seg.size() || idx >= node->size())
                throw std::invalid_argument("the report has no '" + path + "' (an array of " +
                                            std::to_string(node->size()) + ")");
            node = &(*node)[idx];
        } else {
            throw std::invalid_argument("the report has no '" + path + "' (its parent is not an object)");
        }
    }
    if (!node->is_number())
        throw std::invalid_argument("'" + key + "' is not a number in the report (" + node->dump() + ")");
    return node->get<double>();
}

RowResult judgeRow(const Row& row, int exitCode, const nlohmann::json& report) {
    RowResult r;
    if (exitCode != 0) {
        r.status = RowResult::Status::Error;
        r.message = "the board exited with code " + std::to_string(exitCode);
        if (report.is_object() && report.contains("error") && report["error"].is_string())
            r.message += ": " + report["error"].get<std::string>();
        return r;
    }
    if (report.is_null()) {
        r.status = RowResult::Status::Error;
        r.message = "the board wrote no readable JSON report";
        return r;
    }
    try {
        r.model = lookupKey(report, row.key);
    } catch (const std::invalid_argument& e) {
        r.status = RowResult::Status::Error;
        r.message = e.what();
        return r;
    }
    const double diff = *r.model - row.measured;
    if (row.measured != 0) r.errorPct = diff / std::fabs(row.measured) * 100.0;
    const double allowed = row.tolerance.allowed(row.measured);
    if (std::fabs(diff) <= allowed * (1 + 1e-12)) {
        r.status = RowResult::Status::Pass;
    } else {
        r.status = RowResult::Status::Fail;
        r.message = "model " + fmtNumber(*r.model) + " vs measured " + fmtNumber(row.measured) + ": off by " +
                    fmtNumber(diff) + (row.measured != 0 ? " (" + fmtPct(r.errorPct) + ")" : "") +
                    ", outside the tolerance " + row.tolerance.text;
    }
    return r;
}

std::optional<double> geomeanAbsErrorPct(const Table& table, const std::vector<RowResult>& results) {
    double sumLog = 0;
    int n = 0;
    for (std::size_t i = 0; i < results.size() && i < table.rows.size(); ++i) {
        if (!results[i].model || table.rows[i].measured == 0) continue;
        sumLog += std::log1p(std::fabs(results[i].errorPct) / 100.0);
        ++n;
    }
    if (n == 0) return std::nullopt;
    return std::expm1(sumLog / n) * 100.0;
}

void printReport(std::ostream& os, const Table& table, const std::vector<RowResult>& results) {
    // Column widths from the contents, so that long keys and workloads line up.
    std::size_t wBoard = 5, wWorkload = 8, wKey = 3, wMeasured = 8, wModel = 5, wTol = 3;
    std::vector<std::string> model(table.rows.size()), err(table.rows.size()), measured(table.rows.size());
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const Row& row = table.rows[i];
        const RowResult& r = results[i];
        measured[i] = fmtNumber(row.measured);
        model[i] = r.model ? fmtNumber(*r.model) : "-";
        err[i] = r.model && row.measured != 0 ? fmtPct(r.errorPct) : "-";
        wBoard = std::max(wBoard, row.board.size());
        wWorkload = std::max(wWorkload, row.workload.size());
        wKey = std::max(wKey, row.key.size());
        wMeasured = std::max(wMeasured, measured[i].size());
        wModel = std::max(wModel, model[i].size());
        wTol = std::max(wTol, row.tolerance.text.size());
    }
    auto pad = [](const std::string& s, std::size_t w, bool right) {
        const std::string fill(w > s.size() ? w - s.size() : 0, ' ');
        return right ? fill + s : s + fill;
    };
    os << pad("line", 4, true) << "  " << pad("board", wBoard, false) << "  " << pad("workload", wWorkload, false)
       << "  " << pad("key", wKey, false) << "  " << pad("measured", wMeasured, true) << "  "
       << pad("model", wModel, true) << "  " << pad("error", 9, true) << "  " << pad("tol", wTol, true)
       << "  result  row\n";
    int pass = 0, fail = 0, error = 0;
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const Row& row = table.rows[i];
        const RowResult& r = results[i];
        os << pad(std::to_string(row.line), 4, true) << "  " << pad(row.board, wBoard, false) << "  "
           << pad(row.workload, wWorkload, false) << "  " << pad(row.key, wKey, false) << "  "
           << pad(measured[i], wMeasured, true) << "  " << pad(model[i], wModel, true) << "  " << pad(err[i], 9, true)
           << "  " << pad(row.tolerance.text, wTol, true) << "  " << pad(statusText(r.status), 6, false) << "  "
           << row.name;
        if (!row.options.empty()) os << " [" << row.options << "]";
        os << "\n";
        if (r.status != RowResult::Status::Pass) os << "      " << r.message << "\n";
        (r.status == RowResult::Status::Pass ? pass : r.status == RowResult::Status::Fail ? fail : error)++;
    }
    const auto g = geomeanAbsErrorPct(table, results);
    os << "geometric-mean |error|: " << (g ? fmtPct(*g).substr(1) : std::string("n/a")) << " over " << (pass + fail)
       << " row(s) with a model value\n";
    os << table.rows.size() << " row(s): " << pass << " pass, " << fail << " fail, " << error << " error\n";
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    for (unsigned char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // Control characters other than tab/newline are not allowed in XML 1.0.
                if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                    out += ' ';
                else
                    out += static_cast<char>(c);
        }
    }
    return out;
}

void writeJunit(std::ostream& os, const Table& table, const std::vector<RowResult>& results) {
    int failures = 0, errors = 0;
    double total = 0;
    for (const auto& r : results) {
        failures += r.status == RowResult::Status::Fail;
        errors += r.status == RowResult::Status::Error;
        total += r.wallSeconds;
    }
    std::string suite = table.file;
    const auto slash = suite.find_last_of('/');
    if (slash != std::string::npos) suite = suite.substr(slash + 1);
    const auto g = geomeanAbsErrorPct(table, results);
    char t[64];
    std::snprintf(t, sizeof t, "%.3f", total);

    os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    os << "<testsuites name=\"coverify\" tests=\"" << table.rows.size() << "\" failures=\"" << failures
       << "\" errors=\"" << errors << "\" time=\"" << t << "\">\n";
    os << "  <testsuite name=\"" << xmlEscape(suite) << "\" tests=\"" << table.rows.size() << "\" failures=\""
       << failures << "\" errors=\"" << errors << "\" skipped=\"0\" time=\"" << t << "\">\n";
    os << "    <properties>\n      <property name=\"file\" value=\"" << xmlEscape(table.file) << "\"/>\n"
       << "      <property name=\"geomean_abs_error_pct\" value=\"" << (g ? fmtNumber(*g) : "n/a") << "\"/>\n"
       << "    </properties>\n";
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const Row& row = table.rows[i];
        const RowResult& r = results[i];
        std::snprintf(t, sizeof t, "%.3f", r.wallSeconds);
        os << "    <testcase classname=\"" << xmlEscape(row.board + "." + row.workload) << "\" name=\""
           << xmlEscape("line " + std::to_string(row.line) + ": " + row.name) << "\" time=\"" << t << "\"";
        std::string out = "command: " + r.command + "\nkey: " + row.key + "\nmeasured: " + fmtNumber(row.measured) +
                          "\nmodel: " + (r.model ? fmtNumber(*r.model) : std::string("-")) +
                          "\ntolerance: " + row.tolerance.text + "\n";
        if (!row.source.empty()) out += "source: " + row.source + "\n";
        os << ">\n";
        if (r.status == RowResult::Status::Fail)
            os << "      <failure type=\"outside-tolerance\" message=\"" << xmlEscape(r.message) << "\"/>\n";
        else if (r.status == RowResult::Status::Error)
            os << "      <error type=\"no-value\" message=\"" << xmlEscape(r.message) << "\"/>\n";
        os << "      <system-out>" << xmlEscape(out) << "</system-out>\n";
        os << "    </testcase>\n";
    }
    os << "  </testsuite>\n</testsuites>\n";
}

}  // namespace cclsim::coverify
