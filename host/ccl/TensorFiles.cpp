#include "host/ccl/TensorFiles.h"

#include "models/common/Report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

namespace cclsim::ccl {

namespace {

const char* npyDescr(golden::DType t) {
    switch (t) {
        case golden::DType::BF16: return "<u2";
        case golden::DType::FP16: return "<f2";
        case golden::DType::FP32: return "<f4";
        case golden::DType::INT32: return "<i4";
        case golden::DType::UINT32: return "<u4";
        case golden::DType::INT64: return "<i8";
        case golden::DType::UINT64: return "<u8";
        case golden::DType::BOOL: return "|b1";
    }
    return "?";
}

bool isDir(const std::string& p) {
    return !p.empty() && p.back() == '/';
}

/// One JSON value into element bytes.
void element(const nlohmann::json& v, golden::DType t, std::uint8_t* out, const std::string& where) {
    using golden::DType;
    try {
        if (v.is_boolean()) {
            if (t != DType::BOOL) throw std::invalid_argument("true/false is only a bool value");
            *out = v.get<bool>() ? 1 : 0;
            return;
        }
        if (!v.is_number()) throw std::invalid_argument("not a number");
        if (v.is_number_integer() && (t == DType::INT64 || t == DType::UINT64)) {
            if (t == DType::INT64) {
                if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
                    throw std::invalid_argument("out of int64 range");
                const std::int64_t x = v.get<std::int64_t>();
                std::memcpy(out, &x, 8);
            } else {
                if (!v.is_number_unsigned()) throw std::invalid_argument("negative for uint64");
                const std::uint64_t x = v.get<std::uint64_t>();
                std::memcpy(out, &x, 8);
            }
            return;
        }
        golden::fromDouble(t, v.get<double>(), out);
    } catch (const std::exception& e) {
        throw ConfigError(
            fmt::format("{}: {} is not a {} value ({})", where, v.dump(), golden::dtypeName(t), e.what()));
    }
}

nlohmann::json value(golden::DType t, const std::uint8_t* p) {
    using golden::DType;
    switch (t) {
        case DType::BOOL: return *p != 0;
        case DType::INT32: {
            std::int32_t x;
            std::memcpy(&x, p, 4);
            return x;
        }
        case DType::UINT32: {
            std::uint32_t x;
            std::memcpy(&x, p, 4);
            return x;
        }
        case DType::INT64: {
            std::int64_t x;
            std::memcpy(&x, p, 8);
            return x;
        }
        case DType::UINT64: {
            std::uint64_t x;
            std::memcpy(&x, p, 8);
            return x;
        }
        default: return golden::toDouble(t, p);  // exact: every bf16/fp16/fp32 value is a double
    }
}

/// A directory opens like a file and fails only when read (an exception
/// without the file's name): refuse it first.
void expectFile(const std::string& file, const std::string& what) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw ConfigError(fmt::format("{}{}: is a directory, not a file{}", what, file,
                                      what.empty() ? "" : " (a directory of .npy files ends in '/')"));
}

std::vector<golden::Tensor> loadJson(const std::string& file, golden::DType t) {
    expectFile(file, "--inputs ");
    std::ifstream is(file);
    if (!is) throw ConfigError(fmt::format("--inputs {}: cannot open file", file));
    nlohmann::json j;
    try {
        is >> j;
    } catch (const nlohmann::json::parse_error& e) {
        throw ConfigError(fmt::format("--inputs {}: not JSON ({})", file, e.what()));
    } catch (const nlohmann::json::exception& e) {  // valid JSON the library cannot hold: a number beyond double
        throw ConfigError(fmt::format("--inputs {}: unreadable JSON ({})", file, e.what()));
    }
    if (!j.is_object() || !j.contains("ranks") || !j["ranks"].is_array())
        throw ConfigError(fmt::format("--inputs {}: expected {{\"ranks\": [[...], [...], ...]}}", file));
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "ranks") throw ConfigError(fmt::format("--inputs {}: unknown key '{}'", file, it.key()));
    const std::size_t e = golden::elementBytes(t);
    std::vector<golden::Tensor> out;
    for (std::size_t r = 0; r < j["ranks"].size(); ++r) {
        const nlohmann::json& a = j["ranks"][r];
        if (!a.is_array()) throw ConfigError(fmt::format("--inputs {}: ranks[{}] is not an array", file, r));
        golden::Tensor x(a.size() * e);
        for (std::size_t i = 0; i < a.size(); ++i)
            element(a[i], t, x.data() + i * e, fmt::format("--inputs {}: ranks[{}][{}]", file, r, i));
        out.push_back(std::move(x));
    }
    return out;
}

}  // namespace

golden::Tensor readNpy(const std::string& file, golden::DType t) {
    expectFile(file, "");
    std::ifstream is(file, std::ios::binary);
    if (!is) throw ConfigError(fmt::format("{}: cannot open file", file));
    // The whole file: every size the header gives is checked against it
    // before anything is allocated or read.
    const std::string bytes((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
    if (bytes.size() < 8 || bytes.compare(0, 6, "\x93NUMPY") != 0)
        throw ConfigError(fmt::format("{}: not a .npy file", file));
    const unsigned major = std::uint8_t(bytes[6]);
    if (major < 1 || major > 3)
        throw ConfigError(fmt::format("{}: .npy format version {} (this reader knows 1, 2 and 3)", file, major));
    const std::size_t lenBytes = major == 1 ? 2 : 4;  // version 1: a 16-bit header length, else 32-bit
    if (bytes.size() < 8 + lenBytes) throw ConfigError(fmt::format("{}: the header length is cut off", file));
    std::uint64_t headerLen = 0;
    for (std::size_t i = 0; i < lenBytes; ++i) headerLen |= std::uint64_t(std::uint8_t(bytes[8 + i])) << (8 * i);
    const std::uint64_t dataStart = 8 + lenBytes + headerLen;
    if (dataStart > bytes.size())
        throw ConfigError(
            fmt::format("{}: the header is {} B long, the file only {} B", file, headerLen, bytes.size()));
    const std::string header = bytes.substr(8 + lenBytes, headerLen);
    auto field = [&](const std::string& key) {
        const auto k = header.find("'" + key + "'");
        const auto colon = k == std::string::npos ? k : header.find(':', k);
        if (colon == std::string::npos) throw ConfigError(fmt::format("{}: header has no '{}'", file, key));
        return header.substr(colon + 1);
    };
    const std::string descr = field("descr");
    const std::string want = npyDescr(t);
    if (descr.find("'" + want + "'") == std::string::npos)
        throw ConfigError(fmt::format("{}: dtype {} does not match {} (expected '{}')", file,
                                      descr.substr(0, descr.find(',')), golden::dtypeName(t), want));
    if (field("fortran_order").find("True") < field("fortran_order").find(','))
        throw ConfigError(fmt::format("{}: Fortran-order arrays are not supported", file));
    const std::string shape = field("shape");
    const auto open = shape.find('('), close = shape.find(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        throw ConfigError(fmt::format("{}: the shape is not a tuple", file));
    const std::size_t e = golden::elementBytes(t);
    const std::uint64_t dataBytes = bytes.size() - dataStart;
    std::uint64_t count = 1;
    {
        std::stringstream ss(shape.substr(open + 1, close - open - 1));
        std::string d;
        while (std::getline(ss, d, ',')) {
            const auto b = d.find_first_not_of(' '), z = d.find_last_not_of(' ');
            if (b == std::string::npos) continue;  // the empty item after a trailing comma: (4,)
            const std::string dim = d.substr(b, z - b + 1);
            std::uint64_t n = 0;
            for (const char c : dim) {
                if (c < '0' || c > '9' || n > (std::numeric_limits<std::uint64_t>::max() - 9) / 10)
                    throw ConfigError(fmt::format("{}: shape dimension '{}' is not a count", file, dim));
                n = n * 10 + std::uint64_t(c - '0');
            }
            // Stop as soon as the shape asks for more than the file holds (no overflow, no huge allocation).
            count = n == 0 ? 0 : (count > dataBytes / e / n ? dataBytes / e + 1 : count * n);
        }
    }
    if (count > dataBytes / e || count * e != dataBytes)
        throw ConfigError(fmt::format("{}: {} B of data, the header's shape {} needs {}", file, dataBytes,
                                      shape.substr(open, close - open + 1),
                                      count > dataBytes / e ? "more" : fmt::format("{} B", count * e)));
    return golden::Tensor(bytes.begin() + std::ptrdiff_t(dataStart), bytes.end());
}

void writeNpy(const std::string& file, const golden::Tensor& data, golden::DType t) {
    const std::size_t e = golden::elementBytes(t);
    std::string header =
        fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}", npyDescr(t), data.size() / e);
    const std::size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream os(file, std::ios::binary);
    if (!os) throw ConfigError(fmt::format("cannot write {}", file));
    os.write("\x93NUMPY\x01\x00", 8);
    const std::uint16_t len = std::uint16_t(header.size());
    os.write(reinterpret_cast<const char*>(&len), 2);
    os << header;
    os.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
}

std::vector<golden::Tensor> loadInputs(const std::string& path, golden::DType t, unsigned ranks) {
    std::vector<golden::Tensor> out;
    if (isDir(path)) {
        for (unsigned r = 0; r < ranks; ++r) out.push_back(readNpy(fmt::format("{}rank{}.npy", path, r), t));
    } else {
        out = loadJson(path, t);
    }
    if (out.size() != ranks)
        throw ConfigError(
            fmt::format("--inputs {}: {} ranks, the collective has {} replicas", path, out.size(), ranks));
    for (std::size_t r = 1; r < out.size(); ++r)
        if (out[r].size() != out[0].size())
            throw ConfigError(fmt::format("--inputs {}: rank {} has {} elements, rank 0 has {}", path, r,
                                          out[r].size() / golden::elementBytes(t),
                                          out[0].size() / golden::elementBytes(t)));
    if (out.empty() || out[0].empty()) throw ConfigError(fmt::format("--inputs {}: no elements", path));
    return out;
}

void writeOutputs(const std::string& path, const std::vector<golden::Tensor>& outputs, golden::DType t) {
    if (isDir(path)) {
        std::filesystem::create_directories(path);
        for (std::size_t r = 0; r < outputs.size(); ++r) writeNpy(fmt::format("{}rank{}.npy", path, r), outputs[r], t);
        return;
    }
    const std::size_t e = golden::elementBytes(t);
    nlohmann::json ranks = nlohmann::json::array();
    for (const golden::Tensor& x : outputs) {
        nlohmann::json a = nlohmann::json::array();
        for (std::size_t i = 0; i < x.size(); i += e) a.push_back(value(t, x.data() + i));
        ranks.push_back(std::move(a));
    }
    std::ofstream os(path);
    if (!os) throw ConfigError(fmt::format("--dump-outputs {}: cannot write", path));
    os << nlohmann::json{{"ranks", ranks}}.dump() << "\n";
}

}  // namespace cclsim::ccl
