#include "host/ipcq/IpcqConfig.h"

#include "models/chip/ArchConfig.h"
#include "models/common/Yaml.h"

#include <fmt/format.h>

#include <set>

namespace cclsim::ipcq {

const char* backpressureName(Backpressure b) {
    return b == Backpressure::Poll ? "poll" : "sleep";
}
const char* creditModeName(CreditMode m) {
    return m == CreditMode::Fabric ? "fabric" : "fast_path";
}

namespace {

std::string choices(std::initializer_list<const char*> l) {
    std::string out;
    for (const char* s : l) out += std::string(out.empty() ? "" : ", ") + s;
    return out;
}

template <class T> void readUnsigned(const YamlMap& m, const std::string& key, Setting<T>& out, T lo, T hi) {
    if (!m.has(key)) return;
    const T v = m.get<T>(key);
    if (v < lo || v > hi) m.fail(key, fmt::format("must be in {}..{}, found {}", lo, hi, v));
    out.set(v, m.where(key));
}

void readWeights(const YamlMap& m, IpcqSettings& s) {
    const std::optional<YamlMap> w = m.optMap("vc_weights");
    if (!w) return;
    for (const char* key : {"vc_compute", "vc_comm"}) {
        if (!w->has(key)) continue;
        const double v = w->get<double>(key);
        if (!(v > 0) || v > 1e6) w->fail(key, fmt::format("must be a positive weight, found {}", v));
        (std::string(key) == "vc_compute" ? s.vcCompute : s.vcComm).set(v, w->where(key));
    }
    w->finish();
}

Placement readPlacement(const YamlMap& p, const std::string& where) {
    Placement out;
    out.where = where;
    if (p.has("ranks")) {
        if (p.has("chips") || p.has("cores") || p.has("cores_per_chip"))
            p.fail("ranks", "is an explicit rank list: leave out chips, cores and cores_per_chip");
        const YamlSeq s = p.seq("ranks");
        if (s.size() == 0) p.fail("ranks", "must list at least one rank");
        for (std::size_t i = 0; i < s.size(); ++i) {
            const YamlMap r = s.map(i);
            RankSpec rs;
            rs.where = s.where(i);
            rs.chip = r.get<unsigned>("chip");
            rs.core = parseCoord(r.get<std::string>("core"), r.where("core"));
            if (r.has("buffer_kind")) {
                const std::string k = r.get<std::string>("buffer_kind");
                rs.bufferKind = parseBufferKind(k);
                if (!rs.bufferKind) r.fail("buffer_kind", fmt::format("must be tcm, hbm or sram, found '{}'", k));
            }
            r.finish();
            out.ranks.push_back(rs);
        }
        p.finish();
        return out;
    }
    if (p.has("chips")) {
        const YamlSeq s = p.seq("chips");
        std::set<unsigned> seen;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const unsigned c = s.get<unsigned>(i);
            if (!seen.insert(c).second) s.fail(i, fmt::format("chip {} is listed twice", c));
            out.chips.push_back(c);
        }
        if (out.chips.empty()) p.fail("chips", "must list at least one chip");
    }
    if (p.has("cores_per_chip")) {
        out.coresPerChip = p.get<unsigned>("cores_per_chip");
        if (out.coresPerChip == 0 || out.coresPerChip > 128)
            p.fail("cores_per_chip", fmt::format("must be in 1..128, found {}", out.coresPerChip));
    }
    if (p.has("cores")) {
        const YamlSeq s = p.seq("cores");
        std::set<CoreCoord> seen;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const CoreCoord c = parseCoord(s.get<std::string>(i), s.where(i));
            if (!seen.insert(c).second) s.fail(i, fmt::format("core {} is listed twice", c.str()));
            out.cores.push_back(c);
        }
        if (!p.has("cores_per_chip")) out.coresPerChip = unsigned(out.cores.size());
        if (out.cores.size() < out.coresPerChip)
            p.fail("cores", fmt::format("lists {} cores but cores_per_chip is {}", out.cores.size(), out.coresPerChip));
    }
    p.finish();
    return out;
}

/// The keys defaults and algorithm entries share (unknown keys are left
/// for the caller's finish()).
void readSettings(const YamlMap& m, IpcqSettings& s) {
    if (m.has("buffer_kind")) {
        const std::string k = m.get<std::string>("buffer_kind");
        const std::optional<BufferKind> b = parseBufferKind(k);
        if (!b) m.fail("buffer_kind", fmt::format("must be tcm, hbm or sram, found '{}'", k));
        s.bufferKind.set(*b, m.where("buffer_kind"));
    }
    if (m.has("backpressure")) {
        const std::string k = m.get<std::string>("backpressure");
        if (k != "poll" && k != "sleep") m.fail("backpressure", fmt::format("must be poll or sleep, found '{}'", k));
        s.backpressure.set(k == "poll" ? Backpressure::Poll : Backpressure::Sleep, m.where("backpressure"));
    }
    if (m.has("credit_return_mode")) {
        const std::string k = m.get<std::string>("credit_return_mode");
        if (k != "fast_path" && k != "fabric")
            m.fail("credit_return_mode", fmt::format("must be fast_path or fabric, found '{}'", k));
        s.creditMode.set(k == "fabric" ? CreditMode::Fabric : CreditMode::FastPath, m.where("credit_return_mode"));
    }
    readUnsigned<unsigned>(m, "n_slots", s.nSlots, 1, 1024);
    readUnsigned<unsigned>(m, "slot_size", s.slotSize, 16, 1u << 20);
    if (s.slotSize.given && s.slotSize.value % 16)
        m.fail("slot_size", fmt::format("must be a multiple of 16 B (NoC alignment), found {}", s.slotSize.value));
    readUnsigned<unsigned>(m, "vc_chunk_size", s.vcChunk, 16, 1u << 20);
    readUnsigned<unsigned>(m, "ipcq_credit_size_bytes", s.creditBytes, 4, 4096);
    readUnsigned<unsigned>(m, "world_size", s.worldSize, 2, 1u << 16);
    readUnsigned<unsigned>(m, "n_elem", s.nElem, 1, 1u << 26);
    readWeights(m, s);
    if (m.has("strict_validation")) s.strict.set(m.get<bool>("strict_validation"), m.where("strict_validation"));
    if (m.has("fabric")) {
        const std::string f = m.get<std::string>("fabric");
        if (f != "auto" && f != "line" && f != "ring" && f != "mesh" && f != "torus")
            m.fail("fabric",
                   fmt::format("must be one of {}, found '{}'", choices({"auto", "line", "ring", "mesh", "torus"}), f));
        s.fabric.set(f, m.where("fabric"));
    }
    if (const std::optional<YamlMap> p = m.optMap("placement")) s.placement = readPlacement(*p, m.where("placement"));
}

IpcqConfig parse(const YamlMap& root) {
    IpcqConfig cfg;
    cfg.file = root.file();
    const YamlMap d = root.map("defaults");
    cfg.defaultsWhere = root.where("defaults");
    if (d.has("algorithm")) cfg.defaultAlgorithm.set(d.get<std::string>("algorithm"), d.where("algorithm"));
    readSettings(d, cfg.defaults);
    d.finish();
    const YamlMap a = root.map("algorithms");
    for (const std::string& name : a.keys()) {
        const YamlMap e = a.map(name);
        AlgorithmEntry en;
        en.name = name;
        en.where = a.where(name);
        en.kernel.set(name, en.where);
        if (e.has("kernel")) en.kernel.set(e.get<std::string>("kernel"), e.where("kernel"));
        // The design record's form: `module: kernbench.ccl.algorithms.<kernel>`
        // names the Python module of a kernel; ours are C++ kernels of the
        // same names (IpcqAlgorithms), so the module's last part is the kernel.
        if (e.has("module")) {
            const std::string mod = e.get<std::string>("module");
            constexpr std::string_view kPackage = "kernbench.ccl.algorithms.";
            if (e.has("kernel"))
                e.fail("module", "and 'kernel' both name the kernel: keep one (kernel: NAME, or module: " +
                                     std::string(kPackage) + "NAME)");
            if (mod.rfind(kPackage, 0) != 0 || mod.size() == kPackage.size() ||
                mod.find('.', kPackage.size()) != std::string::npos)
                e.fail("module", fmt::format("'{}' is not a module of {}: cclsim's kernels are C++, named by "
                                             "'kernel: NAME' or 'module: {}NAME'",
                                             mod, kPackage.substr(0, kPackage.size() - 1), kPackage));
            en.kernel.set(mod.substr(kPackage.size()), e.where("module"));
        }
        if (!e.has("topology"))
            e.fail("topology", "is required (ring_1d, ring_1d_unidir, mesh_2d, tree_binary, none or custom)");
        en.topology.set(e.get<std::string>("topology"), e.where("topology"));
        readUnsigned<unsigned>(e, "rows", en.rows, 2, 1u << 12);
        readUnsigned<unsigned>(e, "cols", en.cols, 2, 1u << 12);
        if (const std::optional<YamlMap> p = e.optMap("params")) {
            for (const std::string& k : p->keys()) {
                Setting<long> v;
                v.set(p->get<long>(k), p->where(k));
                en.params[k] = v;
            }
            p->finish();
        }
        readSettings(e, en.s);
        e.finish();
        cfg.algorithms.push_back(std::move(en));
    }
    if (cfg.algorithms.empty()) root.fail("algorithms", "must define at least one algorithm");
    root.finish();
    return cfg;
}

template <class T> void pick(Setting<T>& out, const Setting<T>& alg, const Setting<T>& def, T builtin) {
    if (alg.given)
        out = alg;
    else if (def.given)
        out = def;
    else
        out.value = builtin;
}

}  // namespace

const AlgorithmEntry* IpcqConfig::find(const std::string& name) const {
    for (const AlgorithmEntry& e : algorithms)
        if (e.name == name) return &e;
    return nullptr;
}

std::vector<std::string> IpcqConfig::names() const {
    std::vector<std::string> out;
    for (const AlgorithmEntry& e : algorithms) out.push_back(e.name);
    return out;
}

IpcqConfig loadIpcqConfig(const std::string& file) {
    return parse(YamlMap::loadFile(file));
}

IpcqConfig parseIpcqConfig(const std::string& text, const std::string& pseudoFile) {
    return parse(YamlMap::loadString(text, pseudoFile));
}

GroupConfig resolve(const IpcqConfig& cfg, const std::string& algorithm, const std::string& chosenWhere) {
    std::string name = algorithm, where = chosenWhere;
    if (name.empty()) {
        if (!cfg.defaultAlgorithm.given)
            throw ConfigError(
                fmt::format("{} has no 'algorithm' (the algorithm init_process_group runs; "
                            "or pass --algorithm NAME)",
                            cfg.defaultsWhere));
        name = cfg.defaultAlgorithm.value;
        where = cfg.defaultAlgorithm.where;
    }
    const AlgorithmEntry* e = cfg.find(name);
    if (!e) {
        std::string have;
        for (const std::string& n : cfg.names()) have += std::string(have.empty() ? "" : ", ") + n;
        throw ConfigError(fmt::format("{}: algorithm '{}' is not defined under 'algorithms' of {} (defined: {})",
                                      where.empty() ? cfg.file : where, name, cfg.file, have));
    }
    GroupConfig g;
    g.file = cfg.file;
    g.algorithm = name;
    g.algorithmWhere = where;
    g.entryWhere = e->where;
    g.kernel = e->kernel;
    g.topology = e->topology;
    g.rows = e->rows;
    g.cols = e->cols;
    g.params = e->params;
    const IpcqSettings& a = e->s;
    const IpcqSettings& d = cfg.defaults;
    pick(g.bufferKind, a.bufferKind, d.bufferKind, BufferKind::Tcm);
    pick(g.backpressure, a.backpressure, d.backpressure, Backpressure::Sleep);
    pick(g.nSlots, a.nSlots, d.nSlots, 8u);
    pick(g.slotSize, a.slotSize, d.slotSize, 4096u);
    pick(g.vcChunk, a.vcChunk, d.vcChunk, 0u);
    pick(g.creditBytes, a.creditBytes, d.creditBytes, 16u);
    pick(g.vcCompute, a.vcCompute, d.vcCompute, 0.0);
    pick(g.vcComm, a.vcComm, d.vcComm, 0.0);
    pick(g.creditMode, a.creditMode, d.creditMode, CreditMode::FastPath);
    pick(g.strict, a.strict, d.strict, false);
    pick(g.worldSize, a.worldSize, d.worldSize, 0u);
    pick(g.nElem, a.nElem, d.nElem, 1024u);
    pick(g.fabric, a.fabric, d.fabric, std::string("auto"));
    if (a.placement) {
        g.placement = *a.placement;
        g.placementGiven = true;
    } else if (d.placement) {
        g.placement = *d.placement;
        g.placementGiven = true;
    }
    return g;
}

}  // namespace cclsim::ipcq
