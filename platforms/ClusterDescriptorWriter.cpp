#include "platforms/ClusterDescriptorWriter.h"

#include "models/common/ConfigError.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace cclsim {

namespace {

std::string list(const std::vector<unsigned>& v) {
    return fmt::format("[{}]", fmt::join(v, ", "));
}

std::string endpoint(const EthEndpoint& e) {
    return fmt::format("{{chip: {}, chan: {}}}", e.chip, e.chan);
}

/// Every line of `text` as a YAML comment.
std::string commented(const std::string& text) {
    std::string out;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t nl = text.find('\n', at);
        const std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
        out += line.empty() ? "#\n" : "# " + line + "\n";
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    return out;
}

void writeFile(const std::string& file, const std::string& text) {
    std::ofstream out(file);
    out << text;
    out.close();
    if (!out) throw ConfigError(fmt::format("{}: cannot write the file", file));
}

}  // namespace

std::string clusterDescriptorYaml(const ClusterDescriptor& d, const std::string& archRef, const std::string& header) {
    std::string y = commented(header);
    y += fmt::format("name: {}\n", d.name);
    y += fmt::format("arch: {}\n", archRef);
    y += "chips:\n";
    for (const ChipDesc& c : d.chips)
        y += fmt::format("  - {{id: {}, location: [{}], pcie: {}}}\n", c.id, fmt::join(c.location, ", "),
                         c.pcie ? "true" : "false");
    y += "links:\n";
    for (const LinkDesc& l : d.links)
        y += fmt::format("  - {{a: {}, b: {}{}{}}}\n", endpoint(l.a), endpoint(l.b),
                         l.dispatch ? ", dispatch: true" : "", l.torus ? ", torus: true" : "");
    if (!d.ringOrder.empty()) y += fmt::format("ring_order: {}\n", list(d.ringOrder));
    if (!d.ringOrders.empty()) {
        y += "ring_orders:\n";
        for (const auto& [hops, order] : d.ringOrders) y += fmt::format("  {}: {}\n", hops, list(order));
    }
    if (d.mesh) {
        y += fmt::format("mesh: {{rows: {}, cols: {}}}\n", (*d.mesh)[0], (*d.mesh)[1]);
        y += fmt::format("mesh_order: {}\n", list(d.meshOrder));
    }
    return y;
}

std::string workerGridOverlayYaml(const ArchConfig& base, const std::vector<CoreCoord>& workers,
                                  const std::string& baseRef, const std::string& name) {
    std::set<unsigned> xs, ys;
    for (const CoreCoord& c : workers) xs.insert(c.x), ys.insert(c.y);
    if (xs.size() * ys.size() != workers.size())
        throw ConfigError(fmt::format("{}: the worker grid of {} cores is not whole rows and columns of {}", name,
                                      workers.size(), base.name));
    std::string y = fmt::format(
        "# The {} chip with the worker grid of a harvested cluster: an overlay of\n"
        "# the arch file named by `base` (everything else is that file's).\n",
        base.name);
    y += fmt::format("base: {}\n", baseRef);
    y += fmt::format("name: {}\n", name);
    y += fmt::format("worker:\n  cores_x: [{}]\n  cores_y: [{}]\n", fmt::join(xs, ", "), fmt::join(ys, ", "));
    return y;
}

WrittenCluster writeClusterDescriptor(const ClusterDescriptor& d, const std::string& file, const std::string& source) {
    namespace fs = std::filesystem;
    const fs::path out = fs::absolute(file);
    const fs::path dir = out.parent_path();
    if (!fs::is_directory(dir))
        throw ConfigError(fmt::format("{}: the directory {} does not exist", file, dir.string()));
    const fs::path archFile = fs::absolute(d.arch.file);
    // Beside or below the output: a relative path; elsewhere the absolute one.
    const auto relative = [&](const fs::path& p) {
        const fs::path r = p.lexically_relative(dir);
        return r.empty() || *r.begin() == ".." ? p.lexically_normal().string() : r.string();
    };
    WrittenCluster w;
    w.descriptor = out.string();
    std::string archRef = relative(archFile);
    // The arch file as it is, or an overlay with the descriptor's worker grid.
    const ArchConfig base = loadArchConfig(archFile.string());
    if (base.workers != d.arch.workers) {
        const fs::path overlay = dir / (out.stem().string() + "_arch.yaml");
        writeFile(overlay.string(),
                  workerGridOverlayYaml(base, d.arch.workers, relative(archFile), base.name + "_" + d.name));
        w.archOverlay = overlay.string();
        archRef = overlay.filename().string();
    }
    std::string header = fmt::format("{} as a cclsim cluster descriptor (written from {}).\n", d.name, source);
    header += fmt::format("{} chips, {} links ({} reserved for dispatch)", d.chips.size(), d.links.size(),
                          std::count_if(d.links.begin(), d.links.end(), [](const LinkDesc& l) { return l.dispatch; }));
    if (d.mesh) header += fmt::format(", a {}x{} mesh", (*d.mesh)[0], (*d.mesh)[1]);
    header += d.ringOrder.empty() ? ", no ring through every chip" : ", a ring through every chip";
    if (!w.archOverlay.empty())
        header += fmt::format(";\n{} of the arch's {} worker cores (harvested rows left out: {})",
                              d.arch.workers.size(), base.workers.size(), archRef);
    header += ".";
    writeFile(out.string(), clusterDescriptorYaml(d, archRef, header));
    return w;
}

}  // namespace cclsim
