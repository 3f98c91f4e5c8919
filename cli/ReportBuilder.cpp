// The JSON report of one run and the report files (ReportBuilder.h).
#include "cli/ReportBuilder.h"

#include "models/common/ConfigError.h"
#include "models/common/Payload.h"

#include <fmt/format.h>

#include <fstream>

namespace cclsim {

ReportBuilder::ReportBuilder(const std::string& board, const std::string& workload, const nlohmann::json& params,
                             double simTimeNs, double wallSeconds, double peakRssMiB)
    : report_{{"board", board},           {"workload", workload},        {"params", params},
              {"sim_time_ns", simTimeNs}, {"wall_seconds", wallSeconds}, {"peak_rss_mib", peakRssMiB}} {}

void ReportBuilder::addLinkHealth(const std::vector<LinkHealthRow>& rows) {
    nlohmann::json out = nlohmann::json::array();
    for (const LinkHealthRow& row : rows) {
        const LinkHealth& h = *row.health;
        out.push_back({{"chip", row.chip},
                       {"channel", row.channel},
                       {"direction", "tx"},
                       {"peer_chip", row.peerChip},
                       {"peer_channel", row.peerChannel},
                       {"retrain_count", h.retrainCount},
                       {"crc_errors", h.crcErrors},
                       {"corrected_codewords", h.correctedCodewords},
                       {"uncorrected_codewords", h.uncorrectedCodewords},
                       {"retransmitted_frames", h.retransmittedFrames},
                       {"lost_packets", h.lostFrames},
                       {"lost_messages", h.lostCommands},
                       {"lost_bytes", h.lostBytes}});
    }
    report_["link_health"] = out;
}

void ReportBuilder::addSkippedLinks(const std::vector<const LinkDesc*>& links) {
    nlohmann::json skipped = nlohmann::json::array();
    for (const LinkDesc* l : links)
        skipped.push_back(
            {{"chip", l->a.chip}, {"channel", l->a.chan}, {"peer_chip", l->b.chip}, {"peer_channel", l->b.chan}});
    report_["skipped_links"] = skipped;
}

RunOutcome ReportBuilder::stopped(const std::string& stopReport, const std::optional<std::string>& loss) {
    report_["data_check"] = "off";
    report_["error"] = stopReport;
    report_["results"] = nlohmann::json::object();
    // Not a firmware deadlock when the faults lost something: the op could
    // not finish with what they took.
    return blameFaults(RunOutcome::stuck(stopReport), loss, "lost to a fault:\n", stopReport, "");
}

void ReportBuilder::addResults(const nlohmann::json& results) {
    report_["results"] = results;
    // Data mode: what moving the payload bytes cost (see models/common/Payload.h).
    const PayloadStats& p = payloadStats();
    if (p.landed > 0 && report_["results"].is_object()) report_["results"]["copies_per_hop"] = p.copiesPerHop();
}

void ReportBuilder::addStats(const EthStats& eth, std::uint64_t events, double wallSeconds) {
    report_["stats"] = {{"eth_commands", eth.commands},
                        {"eth_packets", eth.frames},
                        {"eth_payload_bytes", eth.payloadBytes},
                        {"eth_packets_per_wall_second", wallSeconds > 0 ? double(eth.frames) / wallSeconds : 0.0},
                        {"eth_commands_per_wall_second", wallSeconds > 0 ? double(eth.commands) / wallSeconds : 0.0},
                        {"events", events}};
    const PayloadStats& p = payloadStats();
    if (p.landed > 0) {
        report_["stats"]["payload_bytes_landed"] = p.landed;
        report_["stats"]["payload_bytes_copied"] = p.copied;
        report_["stats"]["payload_bytes_adopted"] = p.adopted;
    }
}

void ReportBuilder::addFastForward(const FastForward& ff) {
    nlohmann::json j = {{"periods", ff.skips()},
                        {"packets_skipped", ff.packetsSkipped()},
                        {"sim_us_skipped", ticksToNs(ff.timeSkipped()) / 1000.0},
                        {"steady_loops", ff.loopsSeen()}};
    if (ff.skips() == 0) j["why_none"] = ff.whyNone();
    // Where the skipped stretches lie (the first 256): the rest of the run
    // was simulated exactly (the start, the windows between skips, the end).
    constexpr std::size_t kStretchesReported = 256;
    nlohmann::json st = nlohmann::json::array();
    for (const FastForward::Stretch& s : ff.stretches()) {
        if (st.size() == kStretchesReported) break;
        st.push_back({{"from_us", ticksToNs(s.from) / 1000.0}, {"us", ticksToNs(s.length) / 1000.0}});
    }
    j["stretches"] = std::move(st);
    report_["results"]["fast_forward"] = std::move(j);
}

RunOutcome ReportBuilder::checked(const std::string& verdict, const std::string& firstFailure,
                                  const std::optional<std::string>& loss) {
    report_["data_check"] = verdict;
    if (verdict != "fail") return RunOutcome::ok();
    report_["data_check_failure"] = firstFailure;
    // The firmware finished without noticing a loss (e.g. a dropped payload
    // whose completion still arrived): the check found it.
    return blameFaults(RunOutcome::dataCheckFailed(firstFailure), loss,
                       "lost to a fault: the op finished with wrong data\n", "",
                       "the op finished but its output differs from the golden reference: " + firstFailure);
}

RunOutcome ReportBuilder::blameFaults(RunOutcome otherwise, const std::optional<std::string>& loss,
                                      const std::string& headline, const std::string& blocked,
                                      const std::string& data) {
    if (!loss) return otherwise;
    report_["fault_diagnosis"] = {{"links", *loss}, {"blocked", blocked}};
    if (!data.empty()) report_["fault_diagnosis"]["data"] = data;
    const std::string error = headline + *loss + blocked;
    report_["error"] = error;
    return RunOutcome::lostToFault(error);
}

void writeJson(const std::string& path, const nlohmann::json& report) {
    std::ofstream os(path);
    if (!os) throw ConfigError(fmt::format("cannot write JSON report '{}'", path));
    os << report.dump(2) << "\n";
}

std::string csvText(const Workload& workload, const std::vector<nlohmann::json>& reports) {
    if (workload.csvHeader().empty())
        throw ConfigError(fmt::format("--csv: workload {} has no CSV report", workload.name()));
    std::string out = workload.csvHeader() + "\n";
    for (const nlohmann::json& r : reports) {
        const bool ran = r.contains("results") && !r.contains("error") && !r["results"].empty();
        const std::string row = ran ? workload.csvRow(r) : std::string();
        if (!row.empty()) out += row + "\n";
    }
    return out;
}

void writeCsv(const std::string& path, const Workload& workload, const std::vector<nlohmann::json>& reports) {
    const std::string text = csvText(workload, reports);
    std::ofstream os(path);
    if (!os) throw ConfigError(fmt::format("cannot write CSV report '{}'", path));
    os << text;
}

}  // namespace cclsim
