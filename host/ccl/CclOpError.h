// The error of a collective op in its own terms: which CclSpec field is at
// fault and why, with no command-line flag in it.
//
// A message names fields by backquoted references: `workers` (a field) or
// `page_bytes=100` (a field and its value). what() spells them in the op's
// terms (workers, page_bytes=100); a front end that set the fields from its
// own options spells them its way with render() — the command line maps
// `page_bytes=100` to "--page-bytes 100" (cli/workloads/ccl/CclFlags), so
// the user reads the options they typed. Reference names are the snake_case
// spellings of CclSpec fields (page_bytes, packet_bytes, workers, links,
// edm_buffers, impl, method, topology, dim, row_pages, root, redop, dtype,
// count, inputs, cores = sharing.cores) and the board settings an op cannot
// change but a user can (torus).
//
// Header-only, so that readers compiled on their own (fuzz harnesses of
// CclTopology / MethodTable) need no extra source.
#pragma once

#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <functional>
#include <string>
#include <string_view>

namespace cclsim::ccl {

/// A backquoted reference to a field for a CclOpError message: `name`.
inline std::string specRef(std::string_view name) {
    return fmt::format("`{}`", name);
}

/// A backquoted reference to a field and its value: `name=value`.
template <class T> std::string specRef(std::string_view name, const T& value) {
    return fmt::format("`{}={}`", name, value);
}

class CclOpError : public ConfigError {
public:
    /// How a front end spells a reference: (field, value or "") -> text.
    using Speller = std::function<std::string(std::string_view field, std::string_view value)>;

    /// `field`: the CclSpec field at fault; `message`: the reason, naming
    /// fields with specRef().
    CclOpError(std::string field, std::string message)
        : ConfigError(render(message, opSpelling)), field_(std::move(field)), message_(std::move(message)) {}

    /// The field at fault (snake_case).
    const std::string& field() const { return field_; }
    /// The message with its references unspelled.
    const std::string& message() const { return message_; }
    /// The message with every reference spelled by `spell`.
    std::string render(const Speller& spell) const { return render(message_, spell); }

    /// The op's spelling: `name` -> name, `name=value` -> name=value.
    static std::string opSpelling(std::string_view field, std::string_view value) {
        return value.empty() ? std::string(field) : fmt::format("{}={}", field, value);
    }

    /// Spell every reference of `message` (text outside references stays).
    static std::string render(std::string_view message, const Speller& spell) {
        std::string out;
        std::size_t at = 0;
        for (;;) {
            const std::size_t open = message.find('`', at);
            const std::size_t close = open == std::string_view::npos ? open : message.find('`', open + 1);
            if (close == std::string_view::npos) break;
            out.append(message.substr(at, open - at));
            const std::string_view ref = message.substr(open + 1, close - open - 1);
            const std::size_t eq = ref.find('=');
            out += spell(ref.substr(0, eq), eq == std::string_view::npos ? std::string_view() : ref.substr(eq + 1));
            at = close + 1;
        }
        out.append(message.substr(at));
        return out;
    }

private:
    std::string field_;
    std::string message_;
};

}  // namespace cclsim::ccl
