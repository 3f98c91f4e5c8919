#include "tools/sweep/SweepPlot.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sys/wait.h>

namespace cclsim::sweep {

namespace {

enum class Kind { Collective, EthBandwidth, FabricBandwidth, Latency };

struct Column {
    std::string name;
    std::function<double(const nlohmann::json&)> value;  ///< of a point's report
};

bool ok(const nlohmann::json& rep) {
    return !rep.contains("error") && rep.contains("results") && rep["results"].is_object() &&
           !rep["results"].contains("skipped");
}

double num(const nlohmann::json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_number())
        throw PlotError(fmt::format("--plot: a point's report has no number '{}'", key));
    return j[key].get<double>();
}

Kind kindOf(const nlohmann::json& rep) {
    const nlohmann::json& r = rep["results"];
    const std::string w = rep.value("workload", "");
    if (r.contains("busbw_GBps")) return Kind::Collective;
    if (r.contains("payload_GBps_per_direction")) return Kind::EthBandwidth;
    if (r.contains("payload_GBps") && r.contains("framing_limit_GBps")) return Kind::FabricBandwidth;
    if (r.contains("round_trip_ns")) return Kind::Latency;
    throw PlotError(
        fmt::format("--plot: workload '{}' has no plot form (plots exist for the collectives, "
                    "eth_bandwidth, fabric_bandwidth and the ping workloads)",
                    w));
}

/// Whether `key` of the reports' params takes more than one value.
bool varies(const std::vector<const nlohmann::json*>& reps, const char* key) {
    for (const nlohmann::json* r : reps)
        if (r->at("params").value(key, nlohmann::json()) != reps.front()->at("params").value(key, nlohmann::json()))
            return true;
    return false;
}

std::string quoteGp(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string baseName(const std::string& p) {
    const auto s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

std::string dirName(const std::string& p) {
    const auto s = p.rfind('/');
    return s == std::string::npos ? "." : s == 0 ? "/" : p.substr(0, s);
}

}  // namespace

PlotFiles writePlotFiles(const std::string& image, const std::vector<nlohmann::json>& reports,
                         const std::vector<std::string>& series) {
    const auto dot = image.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : image.substr(dot);
    if (ext != ".png" && ext != ".svg")
        throw PlotError(fmt::format("--plot {}: the image must end in .png or .svg", image));
    if (!series.empty() && series.size() != reports.size())
        throw PlotError("--plot: one series label per point is needed");
    const std::string stem = image.substr(0, dot);
    PlotFiles files{image, stem + ".dat", stem + ".gp"};

    // The points to draw, grouped by series in order of first appearance.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const nlohmann::json*>> bySeries;
    std::vector<const nlohmann::json*> good;
    std::string failed;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        if (!ok(reports[i])) {
            failed += fmt::format("# point {} not drawn: {}\n", i,
                                  reports[i].contains("error") ? reports[i]["error"].dump()
                                  : reports[i].contains("results") && reports[i]["results"].contains("skipped")
                                      ? reports[i]["results"]["skipped"].dump()
                                      : std::string("no results"));
            continue;
        }
        const std::string s = series.empty() || series[i].empty() ? reports[i].value("workload", "sweep") : series[i];
        if (!bySeries.count(s)) order.push_back(s);
        bySeries[s].push_back(&reports[i]);
        good.push_back(&reports[i]);
    }
    if (good.empty())
        throw PlotError(fmt::format("--plot {}: no point of the sweep completed; nothing to draw", image));
    const Kind kind = kindOf(*good.front());
    for (const nlohmann::json* r : good)
        if (kindOf(*r) != kind) throw PlotError("--plot: the points are of different workloads");

    // Columns of the data file and what the script draws.
    std::vector<Column> cols;
    std::string title, xlabel, setup;
    const std::string board = good.front()->value("board", "");
    const std::string workload = good.front()->value("workload", "");
    const auto res = [](const char* k) { return [k](const nlohmann::json& r) { return num(r["results"], k); }; };
    const auto par = [](const char* k) { return [k](const nlohmann::json& r) { return num(r["params"], k); }; };
    // Sizes and packet sizes: a log2 x axis labelled in binary prefixes (4Ki, 1Mi).
    static const char* const kLogBytesAxis = "set logscale x 2\nset format x \"%.0b%B\"\n";
    bool latencyByHops = false;
    switch (kind) {
        case Kind::Collective:
            cols = {{"size_bytes", res("size_bytes")},   {"busbw_GBps", res("busbw_GBps")},
                    {"linkbw_GBps", res("linkbw_GBps")}, {"algbw_GBps", res("algbw_GBps")},
                    {"time_us", res("sim_time_us")},     {"packet_bytes", res("packet_bytes")}};
            title = fmt::format("{} {}", board, workload);
            xlabel = "size (bytes)";
            setup = kLogBytesAxis;
            break;
        case Kind::EthBandwidth:
            cols = {{"packet_bytes", par("packet")},
                    {"payload_GBps_per_direction", res("payload_GBps_per_direction")},
                    {"framing_limit_GBps", res("framing_limit_GBps")},
                    {"channels", par("channels_used")}};
            title = fmt::format("{} eth_bandwidth: payload bandwidth per direction vs packet size", board);
            xlabel = "packet payload P (bytes)";
            setup = kLogBytesAxis;
            break;
        case Kind::FabricBandwidth:
            cols = {{"packet_bytes", res("packet_bytes")},
                    {"payload_GBps", res("payload_GBps")},
                    {"framing_limit_GBps", res("framing_limit_GBps")}};
            title = fmt::format("{} fabric_bandwidth: payload bandwidth vs packet size", board);
            xlabel = "packet payload (bytes)";
            setup = kLogBytesAxis;
            break;
        case Kind::Latency: {
            latencyByHops = workload == "ring_ping" && (varies(good, "hops") || !varies(good, "packet"));
            const bool ring = good.front()->at("results").contains("per_hop_ns");
            cols = {{latencyByHops ? "hops" : "packet_bytes", par(latencyByHops ? "hops" : "packet")},
                    {"round_trip_ns", res("round_trip_ns")},
                    {ring ? "per_hop_ns" : "one_way_ns", res(ring ? "per_hop_ns" : "one_way_ns")}};
            title = fmt::format("{} {}: latency vs {}", board, workload, latencyByHops ? "hops" : "packet size");
            xlabel = latencyByHops ? "hops" : "packet payload (bytes)";
            setup = latencyByHops ? "" : kLogBytesAxis;
            break;
        }
    }

    // Data: one block per series, separated by two blank lines (gnuplot's `index`).
    std::ofstream dat(files.data);
    if (!dat) throw PlotError(fmt::format("--plot: cannot write '{}'", files.data));
    dat << fmt::format("# {} sweep, {} point(s) drawn of {}; columns:", workload, good.size(), reports.size());
    for (const Column& c : cols) dat << " " << c.name;
    dat << "\n" << failed;
    for (std::size_t s = 0; s < order.size(); ++s) {
        if (s) dat << "\n\n";
        dat << "# series " << s << ": " << order[s] << "\n";
        for (const nlohmann::json* r : bySeries[order[s]]) {
            std::string line;
            for (const Column& c : cols) line += fmt::format("{}{:.6g}", line.empty() ? "" : " ", c.value(*r));
            dat << line << "\n";
        }
    }
    dat.close();
    if (!dat) throw PlotError(fmt::format("--plot: cannot write '{}'", files.data));

    // Script: run from its own directory, so that it names its files without a path.
    const std::string data = quoteGp(baseName(files.data));
    const bool png = ext == ".png";
    const int panels = kind == Kind::Collective || kind == Kind::Latency ? 2 : 1;

    // Reference lines (framing limits): what they plot and their titles, with
    // fixed colours so the key panel below can repeat them.
    struct Ref {
        std::string what, title;
    };
    static const char* kRefColours[] = {"#555555", "#c0392b", "#2471a3", "#7d3c98"};
    std::vector<Ref> refs;
    std::string functions;
    switch (kind) {
        case Kind::Collective: {
            // The framing limit for each packet size in the sweep: line rate x P/(P + O*ceil(P/M));
            // packet sizes with the same limit (to 1 MB/s) share one line.
            std::map<double, double> limits;
            for (const nlohmann::json* r : good)
                if (r->at("results").contains("framing_limit_GBps"))
                    limits[num(r->at("results"), "packet_bytes")] = num(r->at("results"), "framing_limit_GBps");
            std::map<std::string, std::string> byLimit;
            for (const auto& [p, l] : limits) {
                std::string& sizes = byLimit[fmt::format("{:.3f}", l)];
                sizes += fmt::format("{}{:.0f}", sizes.empty() ? "" : "/", p);
            }
            for (const auto& [l, sizes] : byLimit)
                refs.push_back({l, fmt::format("framing limit, {} B packets: {} GB/s", sizes, l)});
            break;
        }
        case Kind::EthBandwidth: {
            const nlohmann::json& r = good.front()->at("results");
            if (r.contains("frame_overhead_bytes") && r.contains("frame_payload_bytes")) {
                functions +=
                    fmt::format("line = {:.6g}   # line rate (GB/s), from the arch YAML\n", num(r, "line_rate_GBps"));
                functions += fmt::format("overhead = {:.6g}   # wire bytes per frame beyond the payload\n",
                                         num(r, "frame_overhead_bytes"));
                functions +=
                    fmt::format("frame = {:.6g}   # largest payload per frame\n", num(r, "frame_payload_bytes"));
                functions += "framing(P) = line * P / (P + overhead * ceil(P / frame))\nset samples 1000\n";
                refs.push_back({"framing(x)", fmt::format("framing limit {:.1f} x P/(P+{:.0f}*ceil(P/{:.0f}))",
                                                          num(r, "line_rate_GBps"), num(r, "frame_overhead_bytes"),
                                                          num(r, "frame_payload_bytes"))});
            } else {
                refs.push_back({data + " index 0 using 1:3", "framing limit"});
            }
            break;
        }
        case Kind::FabricBandwidth:
            refs.push_back({data + " index 0 using 1:3", "framing limit (with the packet header)"});
            break;
        case Kind::Latency: break;
    }
    const auto refLines = [&](bool inKey) {
        std::string p;
        for (std::size_t i = 0; i < refs.size(); ++i)
            p += fmt::format(", {} with lines dt 2 lw 2 lc rgb \"{}\" title {}", inKey ? "NaN" : refs[i].what,
                             kRefColours[i % 4], quoteGp(refs[i].title));
        return p;
    };
    const auto lines = [&](int ycol, bool inKey) {
        std::string p;
        for (std::size_t s = 0; s < order.size(); ++s)
            p += fmt::format("{}{} with linespoints lt {} dt {} pt 7 ps 0.8 title {}", p.empty() ? "" : ", ",
                             inKey ? std::string("NaN") : fmt::format("{} index {} using 1:{}", data, s, ycol),
                             s % 8 + 1, s / 8 % 5 + 1, quoteGp(order[s]));
        return p;
    };

    // Many configurations: the key gets a panel of its own below the plots
    // (a key inside would hide the lines); past 8 lines the dash pattern changes too.
    const bool keyBelow = order.size() > 6;
    const std::size_t keyRows = (order.size() + refs.size() + 1) / 2;
    const int width = panels == 2 ? 1400 : 900;
    const int height = keyBelow ? 480 + 18 * int(keyRows) : 560;
    const double keyFrac = keyBelow ? double(18 * keyRows + 20) / height : 0.0;

    std::string gp = fmt::format("# {}: written by cclsim; re-draw with: cd {} && gnuplot {}\n", baseName(files.script),
                                 dirName(files.script), baseName(files.script));
    gp += fmt::format("set terminal {} size {},{} {}\n", png ? "pngcairo" : "svg", width, height,
                      png ? "font \",10\"" : "dynamic font \",10\"");
    gp += fmt::format("set output {}\n", quoteGp(baseName(image)));
    gp += "set termoption noenhanced\nset grid\nset autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n";
    gp += keyBelow ? "unset key\n" : "set key bottom right\n";
    gp += setup + functions;
    gp += fmt::format("set xlabel {}\n", quoteGp(xlabel));
    if (panels == 2 || keyBelow) gp += fmt::format("set multiplot title {}\n", quoteGp(title));
    const auto panel = [&](int i, const std::string& panelTitle, const std::string& ylabel, const std::string& plot) {
        std::string out;
        if (panels == 2 || keyBelow)
            out += fmt::format("set origin {:.4f},{:.4f}\nset size {:.4f},{:.4f}\n", double(i) / panels, keyFrac,
                               1.0 / panels, 1.0 - keyFrac - (panels == 2 || keyBelow ? 0.04 : 0.0));
        if (!panelTitle.empty()) out += fmt::format("set title {}\n", quoteGp(panelTitle));
        return out + fmt::format("set ylabel {}\nset yrange [0:*]\nplot {}\n", quoteGp(ylabel), plot);
    };
    switch (kind) {
        case Kind::Collective:
            gp += panel(0, "bus bandwidth", "busbw (GB/s)", lines(2, false));
            gp += panel(1, "link bandwidth", "linkbw (GB/s per link and direction)", lines(3, false) + refLines(false));
            break;
        case Kind::EthBandwidth:
            gp += panel(0, keyBelow ? "" : title, "GB/s per direction", lines(2, false) + refLines(false));
            break;
        case Kind::FabricBandwidth:
            gp += panel(0, keyBelow ? "" : title, "GB/s", lines(2, false) + refLines(false));
            break;
        case Kind::Latency:
            gp += panel(0, "round trip", "ns", lines(2, false));
            gp += panel(1, cols[2].name == "per_hop_ns" ? "per hop" : "one way", "ns", lines(3, false));
            break;
    }
    if (keyBelow) {
        // The key panel: invisible plots of NaN carry the titles.
        gp += fmt::format(
            "set origin 0,0\nset size 1,{:.4f}\nunset border\nunset tics\nunset grid\nunset title\n"
            "unset xlabel\nunset ylabel\nunset logscale\nset xrange [0:1]\nset yrange [0:1]\n"
            "set key center center maxrows {} font \",9\"\nplot {}{}\n",
            keyFrac, keyRows, lines(2, true), refLines(true));
    }
    if (panels == 2 || keyBelow) gp += "unset multiplot\n";
    std::ofstream os(files.script);
    if (!os) throw PlotError(fmt::format("--plot: cannot write '{}'", files.script));
    os << gp;
    os.close();
    if (!os) throw PlotError(fmt::format("--plot: cannot write '{}'", files.script));
    return files;
}

PlotFiles writePlot(const std::string& image, const std::vector<nlohmann::json>& reports,
                    const std::vector<std::string>& series) {
    PlotFiles files = writePlotFiles(image, reports, series);
    std::remove(image.c_str());  // a stale image must not pass for a new one
    const std::string cmd =
        fmt::format("cd {} && gnuplot {} 2>&1", shellQuote(dirName(files.script)), shellQuote(baseName(files.script)));
    std::FILE* p = popen(cmd.c_str(), "r");
    if (!p) throw PlotError("--plot: cannot start gnuplot");
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int st = pclose(p);
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (code == 127)
        throw PlotError(
            "--plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox; ./cclsim build installs "
            "it)");
    if (code != 0) throw PlotError(fmt::format("--plot: gnuplot {} failed: {}", files.script, out));
    std::ifstream img(image);
    if (!img) throw PlotError(fmt::format("--plot: gnuplot wrote no image '{}': {}", image, out));
    return files;
}

}  // namespace cclsim::sweep
