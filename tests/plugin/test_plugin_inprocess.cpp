// The C++ registration hook: a model registered in-process with
// cclsim::modelRegistry() (as a user's own sc_main or test would) replaces
// the SRAM-less T3000's DRAM through the arch YAML, and the platform really
// routes the collective's traffic to it: the model counts what it served.
#include "models/plugin/ModelRegistry.h"
#include "tests/coverif/CoverifHelpers.h"
#include "tests/plugin/StandardMemory.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace cclsim {
namespace {

std::vector<StandardMemory*> built;

TEST(PluginInProcess, ARegisteredModelServesTheCollectiveAndTheHost) {
    modelRegistry().addMemory("counting_dram", [](const MemoryModelSpec& spec) {
        EXPECT_EQ(spec.role, "dram");
        EXPECT_EQ(spec.sizeBytes, 2ull << 30);  // a GDDR6 controller: two 1 GB banks
        auto m = std::make_unique<StandardMemory>(spec.name.c_str(), spec.sizeBytes,
                                                  sc_core::sc_time(80, sc_core::SC_NS), true);
        built.push_back(m.get());
        MemoryModel out;
        out.socket = &m->socket;
        out.module = std::move(m);
        return out;
    });
    const std::string arch = std::string(::testing::TempDir()) + "cclsim_inproc_" + std::to_string(getpid()) + ".yaml";
    {
        std::ofstream os(arch);
        os << "base: " << CCLSIM_SOURCE_DIR << "/platforms/arch/wormhole_b0.yaml\n"
           << "models:\n  dram: {name: counting_dram}\n";
    }
    const auto rep = test::runT3000({"--arch", arch, "all_gather", "--size", "64K", "--impl", "edm"});
    EXPECT_EQ(rep["results"].value("data_check", ""), "pass");
    ASSERT_EQ(built.size(), 8u * 6u);  // six controllers per chip
    std::uint64_t reads = 0, writes = 0;
    for (const StandardMemory* m : built) {
        reads += m->reads;
        writes += m->writes;
    }
    // Every chip's workers read their input pages and write the gathered
    // output (64 KiB x 8 ranks per chip) through the plug-in.
    EXPECT_GT(reads, 0u);
    EXPECT_GT(writes, 0u);
}

}  // namespace
}  // namespace cclsim
