// Text forms of a collective's report, from its JSON results.
#include "cli/workloads/ccl/CollectiveReport.h"

#include <fmt/format.h>

namespace cclsim::ccl {

std::string collectiveSizeText(std::uint64_t b) {
    if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{}G", b >> 30);
    if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{}M", b >> 20);
    if (b >= (1ull << 10) && b % (1ull << 10) == 0) return fmt::format("{}K", b >> 10);
    return fmt::format("{}", b);
}

std::string collectiveTableHeader() {
    return fmt::format(
        "# {:>10}  {:>12}  {:>6}  {:>10}  {:>4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}  {}\n"
        "# {:>10}  {:>12}  {:>6}  {:>10}  {:>4}  {:>10}  {:>7}  {:>7}  {:>7}  {:>5}\n",
        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "linkbw", "check", "method", "(B)",
        "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "(GB/s)", "");
}

std::string collectiveSummary(const std::string& name, const nlohmann::json& r) {
    if (r.contains("skipped")) return fmt::format("{}: skipped ({})\n", name, r["skipped"].get<std::string>());
    std::string out = fmt::format(
        "{} over {} {} of {} chips {}{}, {} link(s) per hop{}\n"
        "  {} worker unit(s) per link{}, {} worker cores per chip, {}\n",
        name, r["groups"].get<unsigned>() > 1 ? fmt::format("{} x", r["groups"].get<unsigned>()) : "a",
        r["topology"].get<std::string>(), r["n_chips"].get<unsigned>(), r["orders"][0].dump(),
        r["groups"].get<unsigned>() > 1 ? fmt::format(" (first group; groups {})", r["group"].get<std::string>()) : "",
        r["links"].get<unsigned>(),
        r["relayed_hops"].get<unsigned>()
            ? fmt::format(", {} hop(s) relayed through {} chip visit(s)", r["relayed_hops"].get<unsigned>(),
                          r["relay_chip_visits"].get<unsigned>())
            : "",
        r["workers"].get<unsigned>(), r["directions"].get<unsigned>() > 1 ? " and direction" : "",
        r["worker_cores_per_chip"].get<unsigned>(),
        r["impl"] == "fabric" && r["edm_channels_per_core"].get<unsigned>() == 0
            ? fmt::format("fabric packets of up to {} B payload", r["packet_bytes"].get<unsigned>())
            : fmt::format("EDM packet {} B, {} EDM channels per Ethernet core", r["packet_bytes"].get<unsigned>(),
                          r["edm_channels_per_core"].get<unsigned>()));
    if (!r.value("replica_choice", std::string()).empty())
        out += fmt::format("  replicas: {} (chips {})\n", r["replica_choice"].get<std::string>(), r["replicas"].dump());
    if (r.value("layout", std::string("interleaved")) != "interleaved")
        out += fmt::format("  tensors: input {}; output {}\n", r["input_shards"].get<std::string>(),
                           r["output_shards"].get<std::string>());
    out += collectiveTableHeader() + collectiveSweepRow(nlohmann::json{{"results", r}});
    out += fmt::format(
        "  impl {}, method {} ({}); busbw = algbw x {:.4f}; linkbw normalised by {}; time = device "
        "kernel time on chip {} (started last), kernels end to end {:.3f} us\n",
        r["impl"].get<std::string>(), r["method"].get<std::string>(),
        r["method_rule"] == "given" ? "given" : "auto: " + r["method_rule"].get<std::string>(),
        r["bus_factor"].get<double>(), r["linkbw_normalised_by"].get<std::string>(),
        r["measured_on_chip"].get<unsigned>(), r["end_to_end_us"].get<double>());
    out += fmt::format(
        "  with dispatch: end to end {:.3f} us (first enqueue to last program complete); dispatch of "
        "chip {} {:.3f} us ({} binaries, {} B, {} kernel groups), completion {:.3f} us\n",
        r["end_to_end_with_dispatch_us"].get<double>(), r["measured_on_chip"].get<unsigned>(),
        r["dispatch_us"].get<double>(), r["dispatch_binaries"].get<unsigned>(),
        r["dispatch_binary_bytes"].get<std::uint64_t>(), r["dispatch_kernel_groups"].get<unsigned>(),
        r["completion_us"].get<double>());
    return out;
}

std::string collectiveSweepRow(const nlohmann::json& report) {
    const nlohmann::json& r = report.at("results");
    if (r.contains("skipped"))
        return fmt::format("  {:>10}  (skipped: {})\n", r["size_bytes"].get<std::uint64_t>(),
                           r["skipped"].get<std::string>());
    return fmt::format("  {:>10}  {:>12}  {:>6}  {:>10}  {:>4}  {:>10.2f}  {:>7.3f}  {:>7.3f}  {:>7.3f}  {:>5}  {}\n",
                       r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(),
                       r["dtype"].get<std::string>(), r["reduce_op"].get<std::string>(), r["root"].get<int>(),
                       r["sim_time_us"].get<double>(), r["algbw_GBps"].get<double>(), r["busbw_GBps"].get<double>(),
                       r["linkbw_GBps"].get<double>(), r["data_check"].get<std::string>(),
                       r["method"].get<std::string>());
}

std::vector<std::string> collectiveSweepSeries(const std::vector<nlohmann::json>& reports) {
    std::vector<std::string> out;
    for (const nlohmann::json& rep : reports) {
        const nlohmann::json r = rep.value("results", nlohmann::json::object());
        // Not the method: --method auto picks one per size, and a sweep is one line.
        out.push_back(!r.contains("n_chips") ? std::string()
                                             : fmt::format("{} chips {}, {} link(s), {}", r["n_chips"].get<unsigned>(),
                                                           r["topology"].get<std::string>(), r["links"].get<unsigned>(),
                                                           r["impl"].get<std::string>()));
    }
    return out;
}

std::string collectiveCsvHeader() {
    return "op,impl,n_chips,groups,topology,method,reduce_op,links,workers,packet_bytes,page_bytes,size_bytes,"
           "count,"
           "dtype,time_us,algbw_GBps,busbw_GBps,linkbw_GBps,data_check,wall_seconds,dispatch_us,"
           "end_to_end_with_dispatch_us";
}

std::string collectiveCsvRow(const std::string& name, const nlohmann::json& rep) {
    const nlohmann::json& r = rep.at("results");
    if (r.contains("skipped")) return {};
    return fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f},{},{:.3f},{:.4f},{:.4f}", name,
        r["impl"].get<std::string>(), r["n_chips"].get<unsigned>(), r["groups"].get<unsigned>(),
        r["topology"].get<std::string>(), r["method"].get<std::string>(), r["reduce_op"].get<std::string>(),
        r["links"].get<unsigned>(), r["workers"].get<unsigned>(), r["packet_bytes"].get<unsigned>(),
        r["page_bytes"].get<unsigned>(), r["size_bytes"].get<std::uint64_t>(), r["count"].get<std::uint64_t>(),
        r["dtype"].get<std::string>(), r["sim_time_us"].get<double>(), r["algbw_GBps"].get<double>(),
        r["busbw_GBps"].get<double>(), r["linkbw_GBps"].get<double>(), r["data_check"].get<std::string>(),
        rep.value("wall_seconds", 0.0), r["dispatch_us"].get<double>(), r["end_to_end_with_dispatch_us"].get<double>());
}

}  // namespace cclsim::ccl
