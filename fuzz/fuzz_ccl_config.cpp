// libFuzzer harness: ccl.yaml, the PE_IPCQ process group configuration
// (host/ipcq/IpcqConfig.*): parsing, then resolving the default algorithm
// and every algorithm the file names.
#include "fuzz/FuzzSupport.h"
#include "host/ipcq/IpcqConfig.h"
#include "models/common/ConfigError.h"

using namespace cclsim;
using namespace cclsim::ipcq;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string file = "ccl_input.yaml";
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::runReader<ConfigError>(file, [&] {
        const IpcqConfig cfg = parseIpcqConfig(text, file);
        fuzz::runReader<ConfigError>(file, [&] { resolve(cfg, ""); });
        for (const std::string& name : cfg.names())
            fuzz::runReader<ConfigError>(file, [&] { resolve(cfg, name, "--algorithm"); });
    });
    return 0;
}
