// Plots of a sweep (--plot FILE.png|FILE.svg), drawn by gnuplot.
//
// The input is what a sweep produces: the JSON reports of its points, in
// point order (a board executable's --sweep, or the sweep tool's points), and
// optionally the series each point belongs to (its configuration). What is
// drawn follows from the workload's results:
//   collectives (results.busbw_GBps)        busbw and linkbw vs size, one line per
//                                           series, the links' framing limit
//                                           line rate x P/(P + 50*ceil(P/1500)) for
//                                           the packet size P drawn in
//   eth_bandwidth                           payload bandwidth vs packet size, with
//                                           the framing-limit curve over P
//   fabric_bandwidth                        payload bandwidth vs packet size, with
//                                           each point's framing limit
//   ping workloads (results.round_trip_ns)  latency vs hops (ring_ping) or vs
//                                           packet size (eth_ping)
// Beside FILE.png go FILE.dat (the rows, one gnuplot data block per series)
// and FILE.gp (the script), so a user can restyle and re-run gnuplot.
// Points that failed are named in a comment of the data file, not drawn.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace cclsim::sweep {

/// Bad input to a plot (unknown image type, nothing to draw) or gnuplot failing.
class PlotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PlotFiles {
    std::string image;
    std::string data;
    std::string script;
};

/// Write the gnuplot data and script for `reports` and run gnuplot on them.
/// `series[i]` names the configuration of `reports[i]` (empty vector: one
/// series named by the workload).
PlotFiles writePlot(const std::string& image, const std::vector<nlohmann::json>& reports,
                    const std::vector<std::string>& series);

/// The data and script only (no gnuplot run): what writePlot writes before it
/// runs gnuplot. Tests use it to check the rows.
PlotFiles writePlotFiles(const std::string& image, const std::vector<nlohmann::json>& reports,
                         const std::vector<std::string>& series);

}  // namespace cclsim::sweep
