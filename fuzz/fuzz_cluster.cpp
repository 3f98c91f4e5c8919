// libFuzzer harness: cluster descriptors (platforms/ClusterDescriptor.*),
// written out or generated from a mesh spec (platforms/MeshSpec.*: `mesh:
// {rows, cols, links_per_pair, ...}`), and tt-metal's cluster descriptors
// (platforms/TtClusterDescriptor.*: seeds tt_*.yaml), with and without --torus.
// The input is the descriptor; `arch: arch/wormhole_b0.yaml` resolves to the
// shipped arch file.
#include "fuzz/ConfigScratch.h"
#include "models/common/ConfigError.h"
#include "platforms/ClusterDescriptor.h"

using namespace cclsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool linked = (fuzz::linkShippedConfig(), true);
    (void)linked;
    const std::string path = fuzz::writeScratch("cluster_input.yaml", {reinterpret_cast<const char*>(data), size});
    for (const bool torus : {false, true}) {
        // An error may name the descriptor or its arch file (both in the scratch directory).
        fuzz::runReader<ConfigError>(fuzz::scratchDir() + "/", [&] {
            const ClusterDescriptor d = loadClusterDescriptor(path, "", torus);
            // The queries the platform builds from: every chip pair's links, every endpoint.
            for (const ChipDesc& a : d.chips)
                for (const ChipDesc& b : d.chips) d.userLinksBetween(a.id, b.id);
            for (const LinkDesc& l : d.links) {
                if (d.linkAt(l.a) != &l && d.linkAt(l.b) != &l)
                    fuzz::finding("linkAt does not find a link by its own endpoint");
            }
        });
    }
    return 0;
}
