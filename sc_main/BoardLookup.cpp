#include "sc_main/Boards.h"

#include <fmt/format.h>

#include <stdexcept>

namespace cclsim {

const BoardInfo& boardNamed(const std::string& name) {
    std::string known;
    for (const BoardInfo& b : allBoards()) {
        if (b.name == name) return b;
        known += (known.empty() ? "" : ", ") + b.name;
    }
    throw std::invalid_argument(fmt::format("no board '{}' in this build (boards: {})", name, known));
}

}  // namespace cclsim
