// Regressions of the fuzzing campaign (fuzz/, bench/fuzz.sh;
// docs/testing.md#fuzzing): every input a harness found that crashed a reader, threw an
// undocumented exception, ran out of memory or gave an error that did not
// say where, fed to the reader it broke. Inputs too big or binary to write
// inline are kept in fuzz/regressions/.
#include "host/ccl/TensorFiles.h"
#include "models/chip/ArchConfig.h"
#include "models/eth/FaultPlan.h"
#include "platforms/ClusterDescriptor.h"
#include "sc_main/Boards.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace cclsim;
using namespace cclsim::test;

namespace {

/// A .npy file of our own: version 1 header `dict`, padded as NumPy pads it, then `data`.
std::string npyFile(const ScratchDir& dir, const std::string& dict, const std::string& data) {
    std::string header = dict;
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string bytes = "\x93NUMPY\x01";
    bytes += '\0';
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    bytes += header + data;
    const std::string path = dir.path("rank0.npy");
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

// fuzz_inputs: a 72-byte file whose version byte (93) made the reader take a
// 32-bit header length of ~4 GiB and allocate the header (out of memory)
// before reading it. The version is now checked, and any header length
// against the file's size.
TEST(FuzzRegressions, NpyHeaderLengthPastTheEnd) {
    const std::string file = sourcePath("fuzz/regressions/npy_header_length_past_end.npy");
    expectContains(configError([&] { ccl::readNpy(file, golden::DType::BF16); }),
                   {file, ".npy format version 93 (this reader knows 1, 2 and 3)"});
    ScratchDir dir;
    const std::string v2 = dir.path("v2.npy");
    std::ofstream(v2, std::ios::binary) << std::string("\x93NUMPY\x02\x00\x00\x00\x00\xf0{'descr'", 20);
    expectContains(configError([&] { ccl::readNpy(v2, golden::DType::BF16); }),
                   {v2, "the header is 4026531840 B long, the file only 20 B"});
}

// A shape dimension that is not a number escaped as std::invalid_argument (std::stoull).
TEST(FuzzRegressions, NpyShapeDimensionNotACount) {
    ScratchDir dir;
    const std::string file = npyFile(dir, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", "");
    expectContains(configError([&] { ccl::readNpy(file, golden::DType::FP32); }),
                   {file, "shape dimension 'x' is not a count"});
    const std::string big =
        npyFile(dir, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", "");
    expectContains(configError([&] { ccl::readNpy(big, golden::DType::FP32); }), {big, "is not a count"});
}

// A shape whose element count overflows (or exceeds the file) allocated count x size bytes first.
TEST(FuzzRegressions, NpyShapeLargerThanTheData) {
    ScratchDir dir;
    const std::string file =
        npyFile(dir, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }",
                std::string(16, '\0'));
    expectContains(configError([&] { ccl::readNpy(file, golden::DType::FP32); }),
                   {file, "16 B of data, the header's shape (4294967296, 4294967296, 16) needs more"});
}

// Bytes after the array were silently dropped; a file must hold exactly its shape.
TEST(FuzzRegressions, NpyTrailingBytes) {
    ScratchDir dir;
    const std::string file =
        npyFile(dir, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", std::string(12, '\1'));
    expectContains(configError([&] { ccl::readNpy(file, golden::DType::FP32); }),
                   {file, "12 B of data, the header's shape (2,) needs 8 B"});
    // The exact size still reads (and a zero dimension means no data at all).
    const std::string ok =
        npyFile(dir, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\1'));
    EXPECT_EQ(ccl::readNpy(ok, golden::DType::FP32).size(), 8u);
    const std::string empty = npyFile(dir, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", "");
    EXPECT_TRUE(ccl::readNpy(empty, golden::DType::FP32).empty());
}

// fuzz_inputs: a number beyond double's range ("8E8844") is valid JSON, but
// nlohmann's out_of_range escaped the reader, which caught only parse errors.
TEST(FuzzRegressions, JsonNumberBeyondDouble) {
    ScratchDir dir;
    for (const std::string& text : {std::string("8E8844"), std::string("{\"ranks\": [[1, -1e999]]}")}) {
        const std::string file = dir.path("inputs.json");
        std::ofstream(file) << text;
        expectContains(configError([&] { ccl::loadInputs(file, golden::DType::UINT64, 1); }),
                       {"--inputs " + file + ": unreadable JSON", "number overflow"});
    }
}

// fuzz_cluster: a misspelt arch path gave "<dir>/arch/wobmhole_b0.yaml: cannot
// open file", naming neither the descriptor nor its line.
TEST(FuzzRegressions, ClusterArchFileMissing) {
    const std::string file = sourcePath("fuzz/regressions/cluster_arch_misspelt.yaml");
    const std::string msg = configError([&] { loadClusterDescriptor(file); });
    expectLocated(msg, file, 2, "arch", {"arch/wobmhole_b0.yaml, which does not exist"});
    // A directory is no arch file either; --arch names itself.
    expectContains(
        configError([&] { loadClusterDescriptor(sourcePath("platforms/n300.yaml"), sourcePath("platforms")); }),
        {"--arch " + sourcePath("platforms") + ": is not a file"});
}

// fuzz_board_cli: `--help` through the in-process entries answered with
// {"error": "This should be caught in your main function, see examples"}
// (CLI11's internal note) instead of the help text.
TEST(FuzzRegressions, BoardHelpIsTheHelpText) {
    setenv("CCLSIM_CONFIG_DIR", sourcePath("platforms").c_str(), 1);
    int code = -1;
    const nlohmann::json rep = checkInProcess(boardNamed("n300"), {"--help"}, code);
    EXPECT_EQ(code, 0);
    EXPECT_FALSE(rep.contains("error")) << rep.dump();
    expectContains(rep.value("help", ""), {"--cluster", "--start", "edm_stream"});
    // The parse-only entry still reads the configuration: a bad --start is exit 3 naming it.
    const nlohmann::json bad = checkInProcess(boardNamed("n300"), {"--start", "7:10", "edm_stream"}, code);
    EXPECT_EQ(code, 3);
    expectContains(bad.value("error", ""), {"--start 7:10: chip 7 does not exist"});
}

// Found beside fuzz_board_cli (a path argument naming a directory): every
// file reader opened a directory as a file and failed reading it with
// std::ios_base::failure ("basic_filebuf::underflow error reading the file:
// Is a directory", exit 4 without the path). Now a ConfigError naming it.
TEST(FuzzRegressions, DirectoryInsteadOfAFile) {
    ScratchDir dir;
    const std::string d = dir.path("");
    expectContains(configError([&] { loadClusterDescriptor(d); }), {d, "is a directory, not a file"});
    expectContains(configError([&] { loadArchConfig(d); }), {d, "is a directory, not a file"});
    const std::string noSlash = d.substr(0, d.size() - 1);
    expectContains(configError([&] { ccl::loadInputs(noSlash, golden::DType::FP32, 1); }),
                   {"--inputs " + noSlash + ": is a directory, not a file (a directory of .npy files ends in '/')"});
    expectContains(configError([&] { ccl::readNpy(noSlash, golden::DType::FP32); }), {noSlash, "is a directory"});
}

// fuzz_fault_plan: a time beyond what a Tick holds ("duration_us:
// 5223372038564577800", found after 128 K executions) was accepted and
// rounded to 2^63 ps, a plan that silently meant something else than the
// file. Times are now refused from 1e12 us on, naming file, line and key.
TEST(FuzzRegressions, FaultPlanTimeBeyondATick) {
    ScratchDir dir;
    const std::string file = dir.path("plan.yaml");
    std::ofstream(file)
        << "seed: 42\nfaults:\n"
           "  - {kind: retrain, link: {chip: 0, channel: 1}, at_us: 20, duration_us: 5223372038564577800}\n";
    expectContains(configError([&] { loadFaultPlan(file); }),
                   {file + ":3", "duration_us", "below 1e12 (11.6 simulated days)"});
    for (const char* at : {"1e300", "1e12", ".inf", ".nan"}) {
        std::ofstream(file) << "faults:\n  - {kind: down, link: all, at_us: " << at << "}\n";
        expectContains(configError([&] { loadFaultPlan(file); }), {file + ":2", "at_us", "below 1e12"});
    }
    // Below the limit a time is kept to the picosecond.
    std::ofstream(file) << "faults:\n  - {kind: drop, link: all, at_us: 1e11, packets: 1}\n";
    EXPECT_EQ(loadFaultPlan(file).faults.at(0).at, Tick(100000000000000000ull));
}
