#include "models/common/Scoreboard.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

namespace cclsim {

namespace {
inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
inline std::uint64_t refWord(std::uint32_t stream, std::uint64_t index) {
    return splitmix64((std::uint64_t(stream) << 40) ^ index ^ (std::uint64_t(stream) * 0x632be59bd9b4e019ULL));
}
}  // namespace

void refStreamFill(std::uint32_t stream, std::uint64_t offset, std::uint8_t* out, std::uint64_t n) {
    while (n) {
        const std::uint64_t idx = offset / 8;
        const unsigned skip = unsigned(offset % 8);
        const std::uint64_t w = refWord(stream, idx);
        std::uint8_t bytes[8];
        std::memcpy(bytes, &w, 8);
        const std::uint64_t k = std::min<std::uint64_t>(n, 8 - skip);
        std::memcpy(out, bytes + skip, k);
        out += k;
        offset += k;
        n -= k;
    }
}

void Scoreboard::check(const std::uint8_t* data, std::uint64_t n, std::uint32_t stream, std::uint64_t offset,
                       const std::string& where) {
    std::vector<std::uint8_t> ref(n);
    refStreamFill(stream, offset, ref.data(), n);
    checked_ += n;
    if (std::memcmp(ref.data(), data, n) == 0) return;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (ref[i] == data[i]) continue;
        ++mismatches_;
        if (first_.empty())
            first_ = fmt::format("{}: byte {} of stream {} offset {} is 0x{:02x}, expected 0x{:02x}", where, i, stream,
                                 offset + i, data[i], ref[i]);
    }
}

void Scoreboard::record(std::uint64_t bytes, bool ok, const std::string& failure) {
    checked_ += bytes;
    if (ok) return;
    ++mismatches_;
    if (first_.empty()) first_ = failure;
}

}  // namespace cclsim
