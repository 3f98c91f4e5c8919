#include "models/noc/NocPacketTrace.h"

#include "models/common/Report.h"
#include "models/plugin/ModelRegistry.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

namespace cclsim {

ObservedNoc::ObservedNoc(unsigned chip, std::unique_ptr<NocInterconnect> inner, Observer observer)
    : NocInterconnect(inner ? inner->id() : 0, inner ? inner->config() : NocConfig{}),
      chip_(chip),
      inner_(std::move(inner)),
      observer_(std::move(observer)) {
    if (!inner_) throw std::invalid_argument("ObservedNoc: no interconnect to observe");
}

Tick ObservedNoc::reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd,
                                unsigned lane, Tick* sourceFree) {
    Tick free = sourceFree ? *sourceFree : injectEnd;
    const Tick tail = inner_->reservePacket(src, dst, wireBytes, injectStart, injectEnd, lane, &free);
    if (sourceFree) *sourceFree = free;
    if (observer_) observer_(NocPacket{chip_, id(), src, dst, lane, wireBytes, injectStart, injectEnd, tail, free});
    return tail;
}

namespace {

/// One CSV file shared by every NoC that names it.
class PacketTraceFile {
public:
    explicit PacketTraceFile(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "w")) {
        if (!f_) throw ConfigError(fmt::format("cannot write the packet trace '{}': {}", path, std::strerror(errno)));
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
        std::fputs("chip,noc,src,dst,lane,bytes,inject_ns,tail_ns\n", f_);
    }
    PacketTraceFile(const PacketTraceFile&) = delete;
    PacketTraceFile& operator=(const PacketTraceFile&) = delete;
    ~PacketTraceFile() { std::fclose(f_); }

    void write(const NocPacket& p) {
        // Ticks are picoseconds: three decimals of a nanosecond are exact.
        fmt::print(f_, "{},{},{},{},{},{},{}.{:03},{}.{:03}\n", p.chip, p.noc, p.src.str(), p.dst.str(), p.lane,
                   p.wireBytes, p.injectStart / kTicksPerNs, p.injectStart % kTicksPerNs, p.tail / kTicksPerNs,
                   p.tail % kTicksPerNs);
    }
    void flush() { std::fflush(f_); }

private:
    std::string path_;
    std::FILE* f_;
};

/// The packet traces open in this process, by path (every NoC of a run
/// naming one path writes into one file).
std::map<std::string, std::weak_ptr<PacketTraceFile>>& openTraces() {
    static std::map<std::string, std::weak_ptr<PacketTraceFile>> m;
    return m;
}

std::unique_ptr<NocInterconnect> makePacketTrace(const NocModelSpec& spec, std::unique_ptr<NocInterconnect> booking) {
    std::string path;
    for (const auto& [k, v] : spec.params) {
        if (k == "file")
            path = v;
        else
            throw ConfigError(fmt::format("packet_trace: unknown parameter '{}' (it takes: file)", k));
    }
    if (path.empty()) throw ConfigError("packet_trace: params: file: is required (the CSV to write)");
    std::shared_ptr<PacketTraceFile> out = openTraces()[path].lock();
    if (!out) {
        out = std::make_shared<PacketTraceFile>(path);
        openTraces()[path] = out;
    }
    return std::make_unique<ObservedNoc>(spec.chip, std::move(booking), [out](const NocPacket& p) { out->write(p); });
}

}  // namespace

void registerBuiltinNocModels(ModelRegistry& registry) {
    if (!registry.noc("packet_trace")) registry.addNoc("packet_trace", makePacketTrace);
}

void flushNocPacketTraces() {
    for (auto& [path, w] : openTraces())
        if (auto f = w.lock()) f->flush();
}

}  // namespace cclsim
