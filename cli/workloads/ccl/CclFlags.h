// The command line's names for the fields of a collective op: the one place
// that turns an op's error (CclOpError, in the op's own terms: `page_bytes=100`)
// into the options the user typed (--page-bytes 100), so that a collective's
// messages read as they always did.
#pragma once

#include "host/ccl/CclOpError.h"

#include <string>
#include <string_view>

namespace cclsim::ccl {

/// The option that sets `field` (page_bytes -> --page-bytes, redop -> --op,
/// ...), followed by `value` when there is one.
std::string flagSpelling(std::string_view field, std::string_view value);

/// A message with specRef references (an op error's, MethodTable's reasons)
/// spelled as options.
std::string withFlags(std::string_view message);

/// The op error as the user's options name it.
ConfigError asFlagError(const CclOpError& e);

}  // namespace cclsim::ccl
