#include "models/common/Trace.h"

#include "models/common/Report.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>

namespace cclsim {

namespace {

std::string vcdCode(unsigned index) {
    // Printable ASCII '!'..'~' in base 94.
    std::string s;
    do {
        s.push_back(char('!' + index % 94));
        index /= 94;
    } while (index);
    return s;
}

std::vector<std::string> splitDots(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = s.find('.', start);
        out.push_back(s.substr(start, dot - start));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return out;
}

struct ScopeNode {
    std::map<std::string, std::unique_ptr<ScopeNode>> children;
    std::vector<std::size_t> vars;  // indices into decls, in declaration order
};

}  // namespace

TraceFile::TraceFile(const std::string& path) : path_(path) {
    fp_ = std::fopen(path.c_str(), "w");
    if (!fp_) throw ConfigError("cannot open trace file '" + path + "' for writing");
}

TraceFile::~TraceFile() { close(); }

unsigned TraceFile::declare(const std::string& hierName, unsigned width, TraceFormat format, std::uint64_t initial) {
    if (begun_) throw std::logic_error("trace signal '" + hierName + "' declared after the trace began");
    if (width == 0 || width > 64) throw std::logic_error("trace signal '" + hierName + "': width must be 1..64");
    const unsigned id = unsigned(decls_.size());
    decls_.push_back(Decl{hierName, width, format, initial, vcdCode(id)});
    return id;
}

void TraceFile::writeValue(const Decl& d, std::uint64_t v) {
    if (d.width == 1) {
        std::fprintf(fp_, "%c%s\n", (v & 1) ? '1' : '0', d.code.c_str());
        return;
    }
    char buf[72];
    int n = 0;
    if (d.width < 64) v &= (std::uint64_t{1} << d.width) - 1;
    if (v == 0) {
        buf[n++] = '0';
    } else {
        int top = 63;
        while (!((v >> top) & 1)) --top;
        for (int b = top; b >= 0; --b) buf[n++] = ((v >> b) & 1) ? '1' : '0';
    }
    buf[n] = 0;
    std::fprintf(fp_, "b%s %s\n", buf, d.code.c_str());
}

void TraceFile::begin() {
    if (begun_) return;
    begun_ = true;
    ScopeNode root;
    for (std::size_t i = 0; i < decls_.size(); ++i) {
        auto parts = splitDots(decls_[i].name);
        ScopeNode* node = &root;
        for (std::size_t p = 0; p + 1 < parts.size(); ++p) {
            auto& child = node->children[parts[p]];
            if (!child) child = std::make_unique<ScopeNode>();
            node = child.get();
        }
        node->vars.push_back(i);
    }
    std::fprintf(fp_, "$comment cclsim value-change trace $end\n$timescale 1ps $end\n");
    auto emit = [&](auto&& self, const ScopeNode& node) -> void {
        for (std::size_t i : node.vars) {
            const Decl& d = decls_[i];
            const std::string leaf = d.name.substr(d.name.rfind('.') + 1);
            if (d.width == 1)
                std::fprintf(fp_, "$var wire 1 %s %s $end\n", d.code.c_str(), leaf.c_str());
            else
                std::fprintf(fp_, "$var wire %u %s %s [%u:0] $end\n", d.width, d.code.c_str(), leaf.c_str(),
                             d.width - 1);
        }
        for (const auto& [name, child] : node.children) {
            std::fprintf(fp_, "$scope module %s $end\n", name.c_str());
            self(self, *child);
            std::fprintf(fp_, "$upscope $end\n");
        }
    };
    emit(emit, root);
    std::fprintf(fp_, "$enddefinitions $end\n#%llu\n$dumpvars\n", static_cast<unsigned long long>(now()));
    for (const Decl& d : decls_) writeValue(d, d.initial);
    std::fprintf(fp_, "$end\n");
    curTime_ = now();
}

void TraceFile::change(unsigned id, std::uint64_t value) {
    if (!fp_) return;
    if (!begun_) {
        decls_[id].initial = value;
        return;
    }
    const Tick t = now();
    if (t != curTime_) {
        std::fprintf(fp_, "#%llu\n", static_cast<unsigned long long>(t));
        curTime_ = t;
    }
    writeValue(decls_[id], value);
}

void TraceFile::close() {
    if (!fp_) return;
    if (!begun_) begin();
    // Close the last time step so viewers show the final values' extent.
    const Tick t = now();
    if (t != curTime_) std::fprintf(fp_, "#%llu\n", static_cast<unsigned long long>(t));
    std::fclose(fp_);
    fp_ = nullptr;
}

void TraceFile::writeGtkw(const std::string& gtkwPath) const {
    std::ofstream os(gtkwPath);
    if (!os) throw ConfigError("cannot write GTKWave save file '" + gtkwPath + "'");
    const std::string vcdName = path_.substr(path_.rfind('/') == std::string::npos ? 0 : path_.rfind('/') + 1);
    os << "[*] cclsim GTKWave save file: signals grouped per chip, then per core\n";
    os << "[dumpfile] \"" << vcdName << "\"\n";
    os << "[timestart] 0\n[size] 1600 900\n[pos] -1 -1\n[sst_width] 320\n[signals_width] 420\n";
    os << "[sst_expanded] 1\n[sst_vpaned_height] 300\n";
    // GTKWave trace flags (hex): 0x20 right-justify, 0x4 decimal, 0x2 hex,
    // 0x8 binary, 0x800 ASCII, 0x800000 group begin, 0x1000000 group end,
    // 0x200 blank (group label rows), 0x400000 closed group.
    auto flags = [](const Decl& d) -> const char* {
        if (d.width == 1) return "@28";
        switch (d.format) {
            case TraceFormat::Ascii: return "@820";
            case TraceFormat::Hex: return "@22";
            case TraceFormat::Binary: return "@28";
            case TraceFormat::Decimal: break;
        }
        return "@24";
    };
    // Group key: first two components (board.chipN) and the first three (core).
    std::vector<std::size_t> order(decls_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto prefix = [&](std::size_t i, std::size_t depth) {
        const auto parts = splitDots(decls_[i].name);
        std::string p;
        for (std::size_t k = 0; k < std::min(depth, parts.size() - 1); ++k) p += (k ? "." : "") + parts[k];
        return p;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return prefix(a, 3) < prefix(b, 3); });
    std::string chipOpen, coreOpen, queueOpen;
    // PE_IPCQ signals get a group per queue ("<core>.pe_ipcq.E": my_head,
    // my_tail, peer_head_cache, peer_tail_cache) inside their core's group.
    auto queueOf = [&](std::size_t i) {
        const auto parts = splitDots(decls_[i].name);
        return parts.size() >= 6 && parts[3] == "pe_ipcq" ? prefix(i, 5) : std::string();
    };
    auto closeQueue = [&] {
        if (!queueOpen.empty()) os << "@1000200\n-" << queueOpen << "\n";
        queueOpen.clear();
    };
    auto closeCore = [&] {
        closeQueue();
        if (!coreOpen.empty()) os << "@1000200\n-" << coreOpen << "\n";
        coreOpen.clear();
    };
    auto closeChip = [&] {
        closeCore();
        if (!chipOpen.empty()) os << "@1000200\n-" << chipOpen << "\n";
        chipOpen.clear();
    };
    for (std::size_t i : order) {
        const std::string chip = prefix(i, 2);
        const std::string core = prefix(i, 3);
        if (chip != chipOpen) {
            closeChip();
            chipOpen = chip;
            os << "@800200\n-" << chip << "\n";
        }
        if (core != coreOpen && core != chip) {
            closeCore();
            coreOpen = core;
            os << "@800200\n-" << core << "\n";
        }
        const std::string queue = queueOf(i);
        if (queue != queueOpen) {
            closeQueue();
            queueOpen = queue;
            if (!queue.empty()) os << "@800200\n-" << queue << "\n";
        }
        const Decl& d = decls_[i];
        os << flags(d) << "\n" << d.name;
        if (d.width > 1) os << "[" << d.width - 1 << ":0]";
        os << "\n";
    }
    closeChip();
    os << "[pattern_trace] 1\n[pattern_trace] 0\n";
}

std::uint32_t packWaypoint(const char* code) {
    // Left-aligned, NUL-padded: GTKWave's ASCII view then shows "NSW", not ".NSW".
    std::uint32_t w = 0;
    for (int i = 0; i < 4; ++i) {
        const std::uint8_t c = code[i] ? std::uint8_t(code[i]) : 0;
        w |= std::uint32_t(c) << (24 - 8 * i);
        if (!code[i]) break;
    }
    return w;
}

std::string unpackWaypoint(std::uint32_t word) {
    std::string s;
    for (int shift = 24; shift >= 0; shift -= 8) {
        const char c = char((word >> shift) & 0xff);
        if (c) s.push_back(c);
    }
    return s;
}

}  // namespace cclsim
