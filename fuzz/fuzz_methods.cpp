// libFuzzer harness: the collective method table (collective_methods.yaml,
// host/ccl/MethodTable.*): reading, then choosing a method for every op,
// group kind and topology at a spread of ranks and sizes. A table that
// loads must always choose (it ends with a rule that always matches).
#include "fuzz/FuzzSupport.h"
#include "host/ccl/MethodTable.h"
#include "models/common/ConfigError.h"

#include <limits>

using namespace cclsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = fuzz::writeScratch("methods_input.yaml", {reinterpret_cast<const char*>(data), size});
    fuzz::runReader<ConfigError>(path, [&] {
        const ccl::MethodTable t = ccl::loadMethodTable(path);
        for (golden::Op op : golden::kAllOps)
            for (ccl::GroupKind g : {ccl::GroupKind::All, ccl::GroupKind::Consecutive, ccl::GroupKind::Orthogonal})
                for (ccl::TopologyKind k : {ccl::TopologyKind::Ring, ccl::TopologyKind::Line})
                    for (unsigned ranks : {1u, 2u, 3u, 8u, 32u})
                        for (std::uint64_t bytes : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2048),
                                                    std::uint64_t(1) << 30, std::numeric_limits<std::uint64_t>::max()})
                            ccl::chooseMethod(t, op, g, k, ranks, bytes);
    });
    return 0;
}
