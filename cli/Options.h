// The workloads' side of the command line: options added to a subcommand.
//
// CLI11 (Debian ships 2.1, header-only) costs ~12 s of compile time in every
// file that includes it: its validators are objects defined in the header
// and its formatter's virtual functions are emitted in every translation
// unit. So only Options.cpp and the executables' own command lines
// (BoardCli, sweep, coverify) include it; the workloads add their options
// through this small mirror of the part of its API they use:
//
//   void addOptions(Options& cmd) override {
//       cmd.add_option("--packet", packet_, "payload bytes")->check(opt::Range(16u, 65536u));
//       cmd.add_option("--topology", topology_, "ring or line")->check(opt::IsMember({"ring", "line"}));
//       cmd.add_flag("--bidir", bidir_, "both directions");
//   }
//
// Every call forwards to the same CLI11 call, so parsing, checks, errors
// and --help read exactly as with CLI11 itself. A new option type is one
// explicit instantiation at the end of Options.cpp.
#pragma once

#include <deque>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace cclsim {

namespace opt {

/// CLI::Range: the value must lie in [lo, hi] ("UINT in [lo - hi]" in --help).
struct Range {
    enum class Kind { Unsigned, Signed, Floating };
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> Range(T lo, T hi)
        : kind(std::is_floating_point_v<T> ? Kind::Floating
               : std::is_signed_v<T>       ? Kind::Signed
                                           : Kind::Unsigned),
          lo(static_cast<long double>(lo)),
          hi(static_cast<long double>(hi)) {}
    Kind kind;
    long double lo, hi;  ///< exact for every integer a 64-bit option holds
};

/// CLI::IsMember: the value must be one of `choices`.
struct IsMember {
    IsMember(std::vector<std::string> c) : choices(std::move(c)) {}
    IsMember(std::initializer_list<const char*> c) : choices(c.begin(), c.end()) {}
    std::vector<std::string> choices;
};

/// CLI::Validator used as a transform: `fn` may rewrite the text; a
/// non-empty return is the error message.
struct Transform {
    std::function<std::string(std::string&)> fn;
    std::string description;
};

}  // namespace opt

/// One option (CLI::Option*): the modifiers return the option for chaining.
class Option {
public:
    explicit Option(CLI::Option* o) : o_(o) {}
    Option* check(const opt::Range& r);
    Option* check(const opt::IsMember& m);
    Option* transform(const opt::Transform& t);
    Option* delimiter(char c);
    Option* expected(int n);
    Option* required(bool value = true);

private:
    CLI::Option* o_;
};

/// A subcommand's options (a CLI::App).
class Options {
public:
    explicit Options(CLI::App& app) : app_(app) {}
    Options(const Options&) = delete;
    Options& operator=(const Options&) = delete;

    /// CLI::App::add_option for the types of Options.cpp's instantiations.
    template <class T> Option* add_option(const std::string& names, T& value, const std::string& help);
    Option* add_flag(const std::string& names, bool& value, const std::string& help);

    /// Parse `args` (a command line without the program name) against the
    /// options `add` registers on a fresh subcommand `name`; a parse error
    /// is thrown as OptionsError with CLI11's message.
    static void parseLine(const std::string& name, const std::function<void(Options&)>& add, const std::string& args);

private:
    Option* keep(CLI::Option* o);
    CLI::App& app_;
    std::deque<Option> options_;
};

/// A command line `Options::parseLine` refused (CLI11's message).
struct OptionsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace cclsim
