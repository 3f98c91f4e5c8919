// Reference byte streams and the data-check scoreboard.
//
// A reference stream is a deterministic pseudo-random byte sequence named by
// a 32-bit id; byte `offset` of stream `s` is a pure function of (s, offset),
// so a producer can generate any slice and a checker can verify any slice
// without storing the stream. Workloads use stream ids per source (e.g. one
// per sending worker) and check bytes where they land.
#pragma once

#include <cstdint>
#include <string>

namespace cclsim {

void refStreamFill(std::uint32_t stream, std::uint64_t offset, std::uint8_t* out, std::uint64_t n);

class Scoreboard {
public:
    /// Compare `n` bytes with the stream; records the first mismatch.
    void check(const std::uint8_t* data, std::uint64_t n, std::uint32_t stream, std::uint64_t offset,
               const std::string& where);
    /// Record a comparison done elsewhere.
    void record(std::uint64_t bytes, bool ok, const std::string& failure);

    std::uint64_t bytesChecked() const { return checked_; }
    std::uint64_t mismatches() const { return mismatches_; }
    bool ok() const { return mismatches_ == 0; }
    const std::string& firstFailure() const { return first_; }

private:
    std::uint64_t checked_ = 0;
    std::uint64_t mismatches_ = 0;
    std::string first_;
};

}  // namespace cclsim
