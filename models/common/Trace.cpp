#include "models/common/Trace.h"

#include "models/common/Report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
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

TraceFile::~TraceFile() {
    close();
}

std::string translateFilterText(const TraceEnum& e) {
    std::string out =
        "# GTKWave translate filter for " + e.name + " (written by cclsim from the C++ enum's name table)\n";
    for (std::size_t v = 0; v < e.valueNames.size(); ++v)
        if (!e.valueNames[v].empty()) out += std::to_string(v) + " " + e.valueNames[v] + "\n";
    return out;
}

unsigned TraceFile::declare(const std::string& hierName, unsigned width, TraceFormat format, std::uint64_t initial,
                            const TraceEnum* values) {
    if (begun_) throw std::logic_error("trace signal '" + hierName + "' declared after the trace began");
    if (width == 0 || width > 64) throw std::logic_error("trace signal '" + hierName + "': width must be 1..64");
    if (values && (values->name.empty() || values->name.find_first_of("/ \t") != std::string::npos))
        throw std::logic_error("trace signal '" + hierName + "': enum name '" + values->name +
                               "' must be a non-empty file stem");
    const unsigned id = unsigned(decls_.size());
    decls_.push_back(Decl{hierName, width, format, initial, vcdCode(id), values, initial != 0});
    return id;
}

void TraceFile::setSampleWindow(Tick window) {
    if (begun_) throw std::logic_error("trace sample window set after the trace began");
    if (window == 0) throw ConfigError("trace sample window must be positive");
    window_ = window;
}

void TraceFile::addSampler(std::function<void(Tick, Tick)> sample) {
    if (begun_) throw std::logic_error("trace sampler added after the trace began");
    samplers_.push_back(std::move(sample));
}

void TraceFile::stamp(Tick t) {
    std::fprintf(fp_, "#%llu\n", static_cast<unsigned long long>(t));
    curTime_ = t;
}

void TraceFile::sampleUpTo(Tick t, bool inclusive) {
    if (samplers_.empty()) return;
    for (;;) {
        const Tick end = windowStart_ + window_;
        if (inclusive ? end > t : end >= t) break;
        sampleAt_ = end;
        for (auto& s : samplers_) s(windowStart_, end);
        sampleAt_ = kNever;
        windowStart_ = end;
    }
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
    windowStart_ = curTime_ - curTime_ % window_;
}

void TraceFile::change(unsigned id, std::uint64_t value) {
    if (!fp_) return;
    if (!begun_) {
        decls_[id].initial = value;
        decls_[id].nonZero = value != 0;
        return;
    }
    if (sampleAt_ != kNever) {  // a sampler writing a window's value
        if (sampleAt_ != curTime_) stamp(sampleAt_);
    } else {
        const Tick t = now();
        if (t != curTime_) {
            sampleUpTo(t, false);  // windows that ended before t, at their own times
            if (t != curTime_) stamp(t);
        }
    }
    if (value) decls_[id].nonZero = true;
    writeValue(decls_[id], value);
}

void TraceFile::close() {
    if (!fp_) return;
    if (!begun_) begin();
    const Tick t = now();
    sampleUpTo(t, true);
    if (!samplers_.empty() && windowStart_ < t) {  // the last, shorter window
        sampleAt_ = t;
        for (auto& s : samplers_) s(windowStart_, t);
        sampleAt_ = kNever;
        windowStart_ = t;
    }
    // Close the last time step so viewers show the final values' extent.
    if (t != curTime_) stamp(t);
    std::fclose(fp_);
    fp_ = nullptr;
}

namespace {

/// Signals the save file lists first, in a group of their own: one analog
/// row per link direction's utilisation, the waveform's overview.
bool isOverview(const std::string& name) {
    const std::string leaf = name.substr(name.rfind('.') + 1);
    return leaf == "tx_util_pct";
}

/// An op's traffic on a link direction (EthSubsystem's streamK_tx_bytes /
/// streamK_tx_busy, K > 0): listed after the utilisation.
bool isOpStream(const std::string& name) {
    const std::string leaf = name.substr(name.rfind('.') + 1);
    return leaf.rfind("stream", 0) == 0 && leaf.rfind("stream0_", 0) != 0 &&
           (leaf.size() > 9 &&
            (leaf.compare(leaf.size() - 9, 9, "_tx_bytes") == 0 || leaf.compare(leaf.size() - 8, 8, "_tx_busy") == 0));
}

/// "eth9" < "eth14": runs of digits compare as numbers.
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
            const unsigned long long na = std::stoull(a.substr(i, ie - i)), nb = std::stoull(b.substr(j, je - j));
            if (na != nb) return na < nb;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

std::string fmtNs(Tick t) {
    std::ostringstream os;
    os << ticksToNs(t);
    return os.str();
}

}  // namespace

void TraceFile::writeGtkw(const std::string& gtkwPath) const {
    namespace fs = std::filesystem;
    std::ofstream os(gtkwPath);
    if (!os) throw ConfigError("cannot write GTKWave save file '" + gtkwPath + "'");
    // Absolute paths, plus [savefile]: GTKWave then finds the dump and the
    // filters from any working directory, and relocates them (relative to
    // the save file) when the three are moved together.
    const fs::path gtkwAbs = fs::absolute(gtkwPath).lexically_normal();
    const fs::path vcdAbs = fs::absolute(path_).lexically_normal();
    const fs::path filterDir = gtkwAbs.parent_path() / "filters";

    // Translate filter files, one per enum, beside the save file.
    std::map<std::string, const TraceEnum*> enums;
    for (const Decl& d : decls_)
        if (d.values) {
            auto [it, fresh] = enums.emplace(d.values->name, d.values);
            if (!fresh && it->second->valueNames != d.values->valueNames)
                throw std::logic_error("two different trace enums are named '" + d.values->name + "'");
        }
    if (!enums.empty()) {
        std::error_code ec;
        fs::create_directories(filterDir, ec);
        if (ec) throw ConfigError("cannot create the filter directory '" + filterDir.string() + "': " + ec.message());
        for (const auto& [name, e] : enums) {
            const fs::path f = filterDir / (name + ".txt");
            std::ofstream fo(f);
            if (!(fo << translateFilterText(*e)))
                throw ConfigError("cannot write GTKWave translate filter '" + f.string() + "'");
        }
    }

    os << "[*] cclsim GTKWave save file: the workload's own signals, link utilisation, then signals grouped per "
          "chip and per core\n";
    os << "[dumpfile] \"" << vcdAbs.string() << "\"\n";
    os << "[savefile] \"" << gtkwAbs.string() << "\"\n";
    os << "[timestart] 0\n[size] 1600 900\n[pos] -1 -1\n";
    // Zoom to the whole run (plus 2%). GTKWave 3.3 spans about
    // kPsPerPixel x 2^-zoom ps per pixel of its wave pane (measured on this
    // 1600-pixel-wide layout: the pane is the width less the search tree,
    // the names and ~50 pixels of borders).
    constexpr unsigned kWidth = 1600, kSstWidth = 200, kSignalsWidth = 300;
    constexpr double kWavePixels = kWidth - kSstWidth - kSignalsWidth - 50, kPsPerPixel = 0.005;
    const double end = 1.02 * double(std::max<Tick>(curTime_ == kNever ? 1 : curTime_, 1));
    os << "*" << std::to_string(std::log2(kPsPerPixel * kWavePixels / end)) << " -1\n";
    os << "[sst_width] " << kSstWidth << "\n[signals_width] " << kSignalsWidth << "\n";
    os << "[sst_expanded] 0\n[sst_vpaned_height] 300\n";
    // GTKWave trace flags (hex): 0x20 right-justify, 0x4 decimal, 0x2 hex,
    // 0x8 binary, 0x800 ASCII, 0x2000 translate filter file, 0x8000 analog
    // step, 0x20000 analog row extension, 0x800000 group begin, 0x1000000
    // group end, 0x200 blank (group label rows), 0x400000 closed group.
    auto flags = [](const Decl& d) -> const char* {
        if (d.width == 1) return "@28";
        if (d.values) return "@2024";
        switch (d.format) {
            case TraceFormat::Ascii: return "@820";
            case TraceFormat::Hex: return "@22";
            case TraceFormat::Binary: return "@28";
            case TraceFormat::Decimal: break;
        }
        return "@24";
    };
    // Each row shows an alias: the name below its chip ("eth0.erisc.worker_conn"),
    // where GTKWave would show only the last component.
    auto alias = [](const std::string& name, std::size_t drop) {
        std::size_t at = std::string::npos;
        for (std::size_t k = 0; k < drop; ++k) {
            const std::size_t next = name.find('.', at == std::string::npos ? 0 : at + 1);
            if (next == std::string::npos) return name;
            at = next;
        }
        // '/' not '.': GTKWave shortens names at dots, aliases too.
        std::string a = at == std::string::npos ? name : name.substr(at + 1);
        std::replace(a.begin(), a.end(), '.', '/');
        return a;
    };
    auto emitSignal = [&](const Decl& d) {
        os << flags(d) << "\n";
        if (d.values) os << "^1 " << (filterDir / (d.values->name + ".txt")).string() << "\n";
        os << "+{" << alias(d.name, 2) << "} " << d.name;
        if (d.width > 1) os << "[" << d.width - 1 << ":0]";
        os << "\n";
    };

    // The workload's own signals (setFocus), a subgroup per core (board.chip.core).
    if (!focus_.patterns.empty()) {
        auto coreOf = [](const std::string& name) {
            std::size_t at = 0;
            for (int k = 0; k < 3 && at != std::string::npos; ++k) at = name.find('.', at ? at + 1 : 0);
            return at == std::string::npos ? name : name.substr(0, at);
        };
        std::vector<const Decl*> mine;
        for (const Decl& d : decls_)
            if (std::any_of(focus_.patterns.begin(), focus_.patterns.end(),
                            [&](const std::string& p) { return globMatch(p, d.name); }))
                mine.push_back(&d);
        std::stable_sort(mine.begin(), mine.end(),
                         [&](const Decl* a, const Decl* b) { return naturalLess(coreOf(a->name), coreOf(b->name)); });
        std::vector<std::string> cores;
        for (const Decl* d : mine)
            if (cores.empty() || cores.back() != coreOf(d->name)) cores.push_back(coreOf(d->name));
        if (!cores.empty()) {
            const std::size_t shown = std::min<std::size_t>(cores.size(), focus_.maxCores);
            const std::string title =
                focus_.title +
                (shown < cores.size() ? fmt::format(" ({} of {} cores)", shown, cores.size()) : std::string());
            os << "@800200\n-" << title << "\n";
            for (std::size_t c = 0; c < shown; ++c) {
                const std::string label = alias(cores[c], 1);
                os << "@800200\n-" << label << "\n";
                for (const Decl* d : mine)
                    if (coreOf(d->name) == cores[c]) emitSignal(*d);
                os << "@1000200\n-" << label << "\n";
            }
            os << "@1000200\n-" << title << "\n";
        }
    }

    // The overview group: every link direction's utilisation as an analog
    // step curve two rows high.
    // Only the links that carried traffic; all of them stay in their chip's group.
    const std::string overviewName = "link utilisation, % of each " + fmtNs(window_) + " ns";
    std::vector<const Decl*> links;
    for (const Decl& d : decls_)
        if (isOverview(d.name) && d.nonZero) links.push_back(&d);
    std::stable_sort(links.begin(), links.end(),
                     [](const Decl* a, const Decl* b) { return naturalLess(a->name, b->name); });
    bool overview = false;
    for (const Decl* dp : links) {
        const Decl& d = *dp;
        if (!overview) os << "@800200\n-" << overviewName << "\n";
        overview = true;
        os << "@8024\n+{" << alias(d.name, 1) << "} " << d.name << "[" << d.width - 1 << ":0]\n";
    }
    if (overview) os << "@1000200\n-" << overviewName << "\n";

    // Link health (runs with --faults): one group per link direction that
    // counted anything, its counters in the order tt-metal reads them.
    std::map<std::string, std::vector<const Decl*>, bool (*)(const std::string&, const std::string&)> health(
        naturalLess);
    for (const Decl& d : decls_) {
        const std::size_t at = d.name.find(".link_health.");
        if (at != std::string::npos) health[d.name.substr(0, at)].push_back(&d);
    }
    bool healthOpen = false;
    for (const auto& [dir, counters] : health) {
        bool counted = false;
        for (const Decl* d : counters) counted |= d->nonZero;
        if (!counted) continue;
        if (!healthOpen) os << "@800200\n-link health (--faults)\n";
        healthOpen = true;
        const std::string label = alias(dir, 1) + " tx";
        os << "@800200\n-" << label << "\n";
        for (const Decl* d : counters) emitSignal(*d);
        os << "@1000200\n-" << label << "\n";
    }
    if (healthOpen) os << "@1000200\n-link health (--faults)\n";

    // Concurrent ops: per link direction, each op's bytes sent (analog) and
    // busy edges (stream k = op k; stream 0, untagged control, stays in its core's group).
    std::vector<const Decl*> streams;
    for (const Decl& d : decls_)
        if (isOpStream(d.name) && d.nonZero) streams.push_back(&d);
    std::stable_sort(streams.begin(), streams.end(),
                     [](const Decl* a, const Decl* b) { return naturalLess(a->name, b->name); });
    if (!streams.empty()) {
        const std::string name = "per-op link traffic: streamK = op K";
        os << "@800200\n-" << name << "\n";
        for (const Decl* dp : streams) {
            const Decl& d = *dp;
            if (d.width > 1)
                os << "@8024\n+{" << alias(d.name, 1) << "} " << d.name << "[" << d.width - 1 << ":0]\n";
            else
                os << flags(d) << "\n+{" << alias(d.name, 1) << "} " << d.name << "\n";
        }
        os << "@1000200\n-" << name << "\n";
    }

    // Group key: first two components (board.chipN) and the first three (core).
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < decls_.size(); ++i) order.push_back(i);
    auto prefix = [&](std::size_t i, std::size_t depth) {
        const auto parts = splitDots(decls_[i].name);
        std::string p;
        for (std::size_t k = 0; k < std::min(depth, parts.size() - 1); ++k) p += (k ? "." : "") + parts[k];
        return p;
    };
    // Chips in numeric order; in a chip, its Ethernet cores first (links,
    // EDM and fabric states), then the workers, then the rest (DRAM).
    auto coreRank = [&](std::size_t i) {
        const auto parts = splitDots(decls_[i].name);
        if (parts.size() < 4) return -1;  // a chip's own signals, before its cores
        const std::string& c = parts[2];
        return c.rfind("eth", 0) == 0 ? 0 : c.rfind('w', 0) == 0 ? 1 : 2;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const std::string ca = prefix(a, 2), cb = prefix(b, 2);
        if (ca != cb) return naturalLess(ca, cb);
        if (coreRank(a) != coreRank(b)) return coreRank(a) < coreRank(b);
        return naturalLess(prefix(a, 3), prefix(b, 3));
    });
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
        emitSignal(decls_[i]);
    }
    closeChip();
    os << "[pattern_trace] 1\n[pattern_trace] 0\n";
}

bool globMatch(const std::string& pattern, const std::string& name) {
    // Backtracking over the last `*` (and the last `#`'s extra digits).
    std::size_t p = 0, n = 0, starP = std::string::npos, starN = 0;
    while (n < name.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            starP = p++;
            starN = n;
        } else if (p < pattern.size() && pattern[p] == '#' && std::isdigit(static_cast<unsigned char>(name[n]))) {
            while (n < name.size() && std::isdigit(static_cast<unsigned char>(name[n]))) ++n;  // all the digits
            ++p;
        } else if (p < pattern.size() && pattern[p] == name[n]) {
            ++p;
            ++n;
        } else if (starP != std::string::npos) {
            p = starP + 1;
            n = ++starN;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
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
