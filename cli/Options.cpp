#include "cli/Options.h"

#include <CLI/CLI.hpp>

namespace cclsim {

Option* Option::check(const opt::Range& r) {
    switch (r.kind) {
        case opt::Range::Kind::Floating: o_->check(CLI::Range(double(r.lo), double(r.hi))); break;
        case opt::Range::Kind::Signed:
            o_->check(CLI::Range(static_cast<long long>(r.lo), static_cast<long long>(r.hi)));
            break;
        case opt::Range::Kind::Unsigned:
            o_->check(CLI::Range(static_cast<unsigned long long>(r.lo), static_cast<unsigned long long>(r.hi)));
            break;
    }
    return this;
}

Option* Option::check(const opt::IsMember& m) {
    o_->check(CLI::IsMember(m.choices));
    return this;
}

Option* Option::transform(const opt::Transform& t) {
    o_->transform(CLI::Validator(t.fn, t.description));
    return this;
}

Option* Option::delimiter(char c) {
    o_->delimiter(c);
    return this;
}

Option* Option::expected(int n) {
    o_->expected(n);
    return this;
}

Option* Option::required(bool value) {
    o_->required(value);
    return this;
}

Option* Options::keep(CLI::Option* o) {
    return &options_.emplace_back(o);
}

template <class T> Option* Options::add_option(const std::string& names, T& value, const std::string& help) {
    return keep(app_.add_option(names, value, help));
}

Option* Options::add_flag(const std::string& names, bool& value, const std::string& help) {
    return keep(app_.add_flag(names, value, help));
}

void Options::parseLine(const std::string& name, const std::function<void(Options&)>& add, const std::string& args) {
    CLI::App app{"op", name};
    Options options(app);
    add(options);
    try {
        app.parse(args, false);
    } catch (const CLI::ParseError& err) {
        throw OptionsError(err.what());
    }
}

// The option types the workloads use.
template Option* Options::add_option(const std::string&, bool&, const std::string&);
template Option* Options::add_option(const std::string&, int&, const std::string&);
template Option* Options::add_option(const std::string&, unsigned&, const std::string&);
template Option* Options::add_option(const std::string&, unsigned long&, const std::string&);
template Option* Options::add_option(const std::string&, unsigned long long&, const std::string&);
template Option* Options::add_option(const std::string&, double&, const std::string&);
template Option* Options::add_option(const std::string&, std::string&, const std::string&);
template Option* Options::add_option(const std::string&, std::vector<unsigned>&, const std::string&);
template Option* Options::add_option(const std::string&, std::vector<std::string>&, const std::string&);

}  // namespace cclsim
