// libFuzzer harness: the tensor files of `--inputs` (firmware/ccl/
// TensorFiles.*): the JSON form and the NumPy .npy form.
// Input layout: byte 0 picks the reader and the element type (bit 7: .npy,
// else JSON; bits 0-2: the golden::DType), byte 1 the number of ranks
// (1 + byte % 8, JSON only); the rest is the file.
#include "fuzz/FuzzSupport.h"
#include "host/ccl/TensorFiles.h"
#include "models/common/ConfigError.h"

using namespace cclsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const bool npy = (data[0] & 0x80) != 0;
    const auto type = golden::DType(data[0] % golden::kDTypes);
    const unsigned ranks = 1 + data[1] % 8;
    const std::string_view file(reinterpret_cast<const char*>(data) + 2, size - 2);
    if (npy) {
        const std::string path = fuzz::writeScratch("rank0.npy", file);
        fuzz::runReader<ConfigError>(path, [&] { ccl::readNpy(path, type); });
    } else {
        const std::string path = fuzz::writeScratch("inputs.json", file);
        fuzz::runReader<ConfigError>(path, [&] {
            const auto t = ccl::loadInputs(path, type, ranks);
            if (t.size() != ranks) fuzz::finding("loadInputs returned a wrong number of ranks");
        });
    }
    return 0;
}
