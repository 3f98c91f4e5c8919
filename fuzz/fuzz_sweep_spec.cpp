// libFuzzer harness: sweep specs (tools/sweep/SweepSpec.*): reading, then
// expanding every point's options (up to the first 64 points).
#include "fuzz/FuzzSupport.h"
#include "tools/sweep/SweepSpec.h"

#include <algorithm>

using namespace cclsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string file = "sweep_input.yaml";
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::runReader<sweep::SweepError>(file, [&] {
        const sweep::SweepSpec s = sweep::loadSpecString(text, file);
        for (std::size_t i = 0; i < std::min<std::size_t>(s.points(), 64); ++i) {
            sweep::optionArgs(s.pointOptions(i));
            s.pointValues(i);
        }
    });
    return 0;
}
