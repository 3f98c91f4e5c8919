// What a run prints on the terminal (TerminalReport.h).
#include "cli/TerminalReport.h"

#include <fmt/format.h>

#include <iostream>
#include <unistd.h>

namespace cclsim {

TerminalReport::TerminalReport(bool quiet)
    : quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0), t0_(std::chrono::steady_clock::now()) {}

void TerminalReport::linksSkipped(const std::vector<const LinkDesc*>& links) {
    if (!quiet_) std::cout << skippedLinksText(links);
}

void TerminalReport::simulationStarts() {
    t0_ = std::chrono::steady_clock::now();
}

void TerminalReport::progress(Tick simNow, const std::function<double()>& fractionDone) {
    if (quiet_) return;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (wall < 2.0 || wall - last_ < (tty_ ? 1.0 : 10.0)) return;
    last_ = wall;
    const double f = fractionDone();
    std::string line = fmt::format("  ... simulated {:.1f} us", ticksToNs(simNow) / 1000.0);
    if (f >= 0) line += fmt::format(", {:.0f}% of bytes moved", 100.0 * f);
    line += fmt::format(", {:.0f} s wall", wall);
    std::cerr << (tty_ ? "\r" + line + "   " : line + "\n") << std::flush;
    printed_ = true;
}

void TerminalReport::simulationEnds() {
    if (printed_ && tty_) std::cerr << "\n";
}

void TerminalReport::linkHealth(const std::vector<LinkHealthRow>& rows) {
    if (!quiet_) std::cout << linkHealthText(rows);
}

void TerminalReport::summary(const Workload& workload, const nlohmann::json& report, const std::string& vcd,
                             const std::string& json) const {
    if (quiet_) return;
    std::cout << workload.summary(report["results"]);
    std::cout << runSummaryText(report, vcd, json);
}

std::string TerminalReport::skippedLinksText(const std::vector<const LinkDesc*>& links) {
    std::string out = fmt::format("  skipping {} link(s) that retrained at init:", links.size());
    for (const LinkDesc* l : links)
        out += fmt::format(" chip {} ch {} <-> chip {} ch {};", l->a.chip, l->a.chan, l->b.chip, l->b.chan);
    return out + "\n";
}

std::string TerminalReport::linkHealthText(const std::vector<LinkHealthRow>& rows) {
    bool any = false;
    for (const LinkHealthRow& row : rows) any |= row.health->any();
    if (!any) return {};
    std::string out =
        "  link health (per direction, tt-metal's counters):\n"
        "    chip ch -> chip ch   retrains  crc_errors  corrected_cw  uncorrected_cw  retransmitted  lost_pkts\n";
    for (const LinkHealthRow& row : rows) {
        const LinkHealth& h = *row.health;
        if (!h.any()) continue;
        out += fmt::format("    {:4} {:2} -> {:4} {:2} {:10} {:11} {:13} {:15} {:14} {:10}\n", row.chip, row.channel,
                           row.peerChip, row.peerChannel, h.retrainCount, h.crcErrors, h.correctedCodewords,
                           h.uncorrectedCodewords, h.retransmittedFrames, h.lostFrames);
    }
    return out;
}

std::string TerminalReport::runSummaryText(const nlohmann::json& report, const std::string& vcd,
                                           const std::string& json) {
    std::string out = fmt::format("  simulated {:.3f} us in {:.2f} s wall, data check: {}\n",
                                  report["sim_time_ns"].get<double>() / 1000.0, report["wall_seconds"].get<double>(),
                                  report["data_check"].get<std::string>());
    // --fast-forward: say what was estimated rather than simulated.
    const auto results = report.find("results");
    if (results != report.end() && results->is_object() && results->contains("fast_forward")) {
        const auto& ff = (*results)["fast_forward"];
        if (ff.value("periods", 0) > 0)
            out += fmt::format(
                "  fast-forward: {} skip(s), {:.1f} of {:.1f} us estimated at measured rates, not simulated "
                "(within 1 % of exact on the default configurations, not on every one: docs/known-limits.md)\n",
                ff["periods"].get<int>(), ff["sim_us_skipped"].get<double>(),
                report["sim_time_ns"].get<double>() / 1000.0);
        else
            out += "  fast-forward: nothing skipped (" + ff.value("why_none", std::string()) + ")\n";
    }
    if (!vcd.empty()) out += "  trace: " + vcd + " (open with: gtkwave " + vcd.substr(0, vcd.rfind('.')) + ".gtkw)\n";
    if (!json.empty()) out += "  report: " + json + "\n";
    return out;
}

}  // namespace cclsim
