// A sweep spec: one YAML file describing a study of many points.
//
//   board: t3000                 # a board executable beside the sweep tool
//   workload: all_gather         # its workload (subcommand)
//   options:                     # fixed options of every point (optional)
//     impl: fabric
//     no-data: true              # true: the flag is given; false: left out
//   sweep:                       # lists; the points are their cross product,
//     chips: [2, 4, 8]           #   the first key outermost
//     topology: [ring, line]
//     size: [4K, 64K, 1M]
//
// Keys under options and sweep are the board's option names without the
// dashes ("size" -> --size, "b" -> -b); a list value inside a point
// ([0, 1]) is passed comma-separated. Decoding is strict: an unknown key,
// an empty list or a value of the wrong shape is an error naming the file,
// line and key; options the board does not take are rejected by
// checkOptions() with the same kind of message.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cclsim::sweep {

/// A bad spec, sweep directory or option: the message names the file, line and key.
class SweepError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One option as the board takes it: "--size" "4K", or a flag "--no-data".
struct OptionValue {
    std::string key;    ///< as written in the spec ("size")
    std::string value;  ///< text of the value ("4K"); empty for a flag
    bool flag = false;  ///< given without a value (true in YAML)
    bool omit = false;  ///< false in YAML: the flag is not given
};

struct SweepSpec {
    std::string file;
    std::string board;
    std::string workload;
    std::vector<OptionValue> fixed;
    /// The swept keys in spec order, each with its values.
    std::vector<std::pair<std::string, std::vector<OptionValue>>> axes;
    /// Where each key was written ("spec.yaml:7: key 'sweep.size'"), for errors
    /// found later (checkOptions).
    std::vector<std::pair<std::string, std::string>> keyPlaces;

    std::size_t points() const;
    /// The options of point `i` (fixed first, then one value per axis).
    std::vector<OptionValue> pointOptions(std::size_t i) const;
    /// The swept values of point `i`, one per axis, as text ("true"/"false" for flags).
    std::vector<std::string> pointValues(std::size_t i) const;
    std::vector<std::string> sweptKeys() const;
};

/// Read and check a spec file (SweepError with file:line:key on bad input).
SweepSpec loadSpec(const std::string& file);
SweepSpec loadSpecString(const std::string& text, const std::string& pseudoFile);

/// Reject options the board does not take. `help` is the text of
/// `<board> <workload> --help` and `<board> --help`.
void checkOptions(const SweepSpec& spec, const std::string& help);

/// "--size" for "size", "-b" for "b".
std::string optionFlag(const std::string& key);

/// The command-line words of a set of options.
std::vector<std::string> optionArgs(const std::vector<OptionValue>& options);

}  // namespace cclsim::sweep
