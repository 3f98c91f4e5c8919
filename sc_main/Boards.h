// The boards of this build. The list is written once, in
// sc_main/CMakeLists.txt (cclsim_board); allBoards() is generated from it
// into the build tree (BoardList.cpp from BoardList.cpp.in).
#pragma once

#include "cli/BoardMain.h"

#include <string>
#include <vector>

namespace cclsim {

/// The boards of this build, in the order of sc_main/CMakeLists.txt.
const std::vector<BoardInfo>& allBoards();

/// The board called `name`; std::invalid_argument naming the boards if none is.
const BoardInfo& boardNamed(const std::string& name);

}  // namespace cclsim
