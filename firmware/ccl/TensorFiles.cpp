#include "firmware/ccl/TensorFiles.h"

#include "models/common/Report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
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

bool isDir(const std::string& p) { return !p.empty() && p.back() == '/'; }

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
        throw ConfigError(fmt::format("{}: {} is not a {} value ({})", where, v.dump(), golden::dtypeName(t), e.what()));
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

std::vector<golden::Tensor> loadJson(const std::string& file, golden::DType t) {
    std::ifstream is(file);
    if (!is) throw ConfigError(fmt::format("--inputs {}: cannot open file", file));
    nlohmann::json j;
    try {
        is >> j;
    } catch (const nlohmann::json::parse_error& e) {
        throw ConfigError(fmt::format("--inputs {}: not JSON ({})", file, e.what()));
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
    std::ifstream is(file, std::ios::binary);
    if (!is) throw ConfigError(fmt::format("{}: cannot open file", file));
    char magic[8];
    is.read(magic, 8);
    if (!is || std::memcmp(magic, "\x93NUMPY", 6) != 0) throw ConfigError(fmt::format("{}: not a .npy file", file));
    std::uint32_t headerLen = 0;
    if (magic[6] == 1) {
        std::uint16_t h;
        is.read(reinterpret_cast<char*>(&h), 2);
        headerLen = h;
    } else {
        is.read(reinterpret_cast<char*>(&headerLen), 4);
    }
    std::string header(headerLen, '\0');
    is.read(header.data(), headerLen);
    auto field = [&](const std::string& key) {
        const auto k = header.find("'" + key + "'");
        if (k == std::string::npos) throw ConfigError(fmt::format("{}: header has no '{}'", file, key));
        return header.substr(header.find(':', k) + 1);
    };
    const std::string descr = field("descr");
    const std::string want = npyDescr(t);
    if (descr.find("'" + want + "'") == std::string::npos)
        throw ConfigError(fmt::format("{}: dtype {} does not match {} (expected '{}')", file,
                                      descr.substr(0, descr.find(',')), golden::dtypeName(t), want));
    if (field("fortran_order").find("True") < field("fortran_order").find(','))
        throw ConfigError(fmt::format("{}: Fortran-order arrays are not supported", file));
    const std::string shape = field("shape");
    std::uint64_t count = 1;
    {
        const std::string dims = shape.substr(shape.find('(') + 1, shape.find(')') - shape.find('(') - 1);
        std::stringstream ss(dims);
        std::string d;
        while (std::getline(ss, d, ','))
            if (d.find_first_not_of(" ") != std::string::npos) count *= std::stoull(d);
    }
    const std::size_t e = golden::elementBytes(t);
    golden::Tensor out(count * e);
    is.read(reinterpret_cast<char*>(out.data()), std::streamsize(out.size()));
    if (std::uint64_t(is.gcount()) != out.size())
        throw ConfigError(fmt::format("{}: {} B of data, the header promises {}", file, is.gcount(), out.size()));
    return out;
}

void writeNpy(const std::string& file, const golden::Tensor& data, golden::DType t) {
    const std::size_t e = golden::elementBytes(t);
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}", npyDescr(t),
                                     data.size() / e);
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
        throw ConfigError(fmt::format("--inputs {}: {} ranks, the collective has {} replicas", path, out.size(), ranks));
    for (std::size_t r = 1; r < out.size(); ++r)
        if (out[r].size() != out[0].size())
            throw ConfigError(fmt::format("--inputs {}: rank {} has {} elements, rank 0 has {}", path, r,
                                          out[r].size() / golden::elementBytes(t), out[0].size() / golden::elementBytes(t)));
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
