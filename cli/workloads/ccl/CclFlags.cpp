// CclSpec fields -> the command-line options that set them.
#include "cli/workloads/ccl/CclFlags.h"

#include <utility>

namespace cclsim::ccl {

namespace {

/// Field (CclOpError reference) -> the option of the collective workloads
/// (and of the board or the concurrent workload) that sets it.
constexpr std::pair<std::string_view, std::string_view> kFlags[] = {
    {"page_bytes", "--page-bytes"},
    {"packet_bytes", "--packet"},
    {"workers", "--workers"},
    {"links", "--links"},
    {"edm_buffers", "--edm-buffers"},
    {"edm_credit_txq", "--edm-credit-txq"},
    {"impl", "--impl"},
    {"method", "--method"},
    {"topology", "--topology"},
    {"dim", "--dim"},
    {"row_pages", "--row-pages"},
    {"root", "--root"},
    {"redop", "--op"},
    {"dtype", "--dtype"},
    {"count", "--count"},
    {"inputs", "--inputs"},
    {"cores", "--cores"},
    {"torus", "--torus"},
    {"axis", "--axis"},
    {"group", "--group"},
    {"layout", "--layout"},
    {"shard_grid", "--shard-grid"},
    {"shard_spec", "--shard-spec"},
};

}  // namespace

std::string flagSpelling(std::string_view field, std::string_view value) {
    for (const auto& [name, flag] : kFlags)
        if (name == field) return value.empty() ? std::string(flag) : std::string(flag) + " " + std::string(value);
    return CclOpError::opSpelling(field, value);  // no option sets it: the op's name
}

std::string withFlags(std::string_view message) {
    return CclOpError::render(message, flagSpelling);
}

ConfigError asFlagError(const CclOpError& e) {
    return ConfigError(e.render(flagSpelling));
}

}  // namespace cclsim::ccl
