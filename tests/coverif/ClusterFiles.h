// User-written cluster descriptors for tests: chains and rings of any length
// (odd rings do not exist on the shipped boards).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <unistd.h>

namespace cclsim::test {

/// A descriptor of `n` Wormhole chips in a line (closed into a ring with
/// `ring`), one link per neighbour pair on channels 0 <-> 1; written to a
/// temp file of this process whose path is returned.
inline std::string writeChainDescriptor(const std::string& name, unsigned n, bool ring) {
    const std::string path =
        std::string(::testing::TempDir()) + "cclsim_" + name + "_" + std::to_string(getpid()) + ".yaml";
    std::ofstream os(path);
    os << "name: " << name << "\narch: " << CCLSIM_SOURCE_DIR << "/platforms/arch/wormhole_b0.yaml\nchips:\n";
    for (unsigned c = 0; c < n; ++c) os << "  - {id: " << c << ", location: [" << c << ", 0, 0, 0], pcie: true}\n";
    os << "links:\n";
    for (unsigned c = 0; c + 1 < n; ++c)
        os << "  - {a: {chip: " << c << ", chan: 0}, b: {chip: " << c + 1 << ", chan: 1}}\n";
    if (ring) os << "  - {a: {chip: " << n - 1 << ", chan: 0}, b: {chip: 0, chan: 1}}\n";
    return path;
}

}  // namespace cclsim::test
