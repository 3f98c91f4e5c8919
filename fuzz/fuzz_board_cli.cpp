// libFuzzer harness: the command line of the board executables
// (cli/BoardMain.*, through checkInProcess: CLI11 parsing, the workload
// options, then reading and checking the configuration a run starts from,
// without elaborating). Input: one argument per line; the board is picked by
// the first byte of the input (modulo the boards of this build).
// Every input must end as a report with exit code 0, 2 or 3; an exception
// escaping checkInProcess is a finding.
#include "fuzz/ConfigScratch.h"
#include "sc_main/Boards.h"

#include <iostream>

using namespace cclsim;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setenv("CCLSIM_CONFIG_DIR", fuzz::platformsDir().c_str(), 0);
    std::cout.setstate(std::ios::failbit);  // --help prints through CLI11 exceptions, never here; quiet anyway
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const auto& boards = allBoards();
    const BoardInfo& board = boards[data[0] % boards.size()];
    std::vector<std::string> args;
    std::string cur;
    for (std::size_t i = 1; i < size; ++i) {
        if (data[i] == '\n') {
            args.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(char(data[i]));
        }
    }
    if (!cur.empty()) args.push_back(cur);
    int code = -1;
    nlohmann::json rep;
    try {
        rep = checkInProcess(board, args, code);
    } catch (const std::exception& e) {
        fuzz::finding(std::string("exception escaped checkInProcess: ") + typeid(e).name() + ": " + e.what());
    }
    static const bool verbose = std::getenv("CCLSIM_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "exit %d: %.300s\n", code, rep.dump().c_str());
    if (code != 0 && code != 2 && code != 3) fuzz::finding("exit code " + std::to_string(code));
    if (code != 0 && (!rep.contains("error") || rep["error"].get<std::string>().empty()))
        fuzz::finding("a refusal without a message");
    return 0;
}
