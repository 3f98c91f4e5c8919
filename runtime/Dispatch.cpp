#include "runtime/Dispatch.h"

#include <map>
#include <set>
#include <tuple>

namespace cclsim {

namespace {

Tick bytesAt(std::uint64_t bytes, double bytesPerNs) {
    return nsToTicks(double(bytes) / bytesPerNs);
}

}  // namespace

DispatchPlan planDispatch(const DispatchArch& arch, const std::vector<DispatchKernel>& kernels, unsigned tunnelHops) {
    DispatchPlan p;
    p.kernels = unsigned(kernels.size());
    if (!arch.present || kernels.empty()) return p;

    // A binary is the kernel's code built for one processor with its
    // compile-time arguments; a kernel group is the cores that run the
    // same set of binaries.
    using BinaryKey = std::tuple<std::uintptr_t, std::string, std::vector<std::uint32_t>>;
    std::map<BinaryKey, unsigned> binaryIds;
    std::map<CoreCoord, std::set<unsigned>> coreBinaries;
    std::map<CoreCoord, std::uint64_t> coreConfigBytes;
    std::set<unsigned> workerBinariesSent;
    for (const DispatchKernel& k : kernels) {
        const BinaryKey key{k.entry, k.processor, k.ctArgs};
        const auto it = binaryIds.emplace(key, unsigned(binaryIds.size())).first;
        coreBinaries[k.core].insert(it->second);
        const std::uint64_t bytes = k.binaryBytes ? k.binaryBytes : arch.binaryBytesOf(k.name);
        // Worker binaries: one multicast to every core running them.
        // Ethernet cores are not multicast targets: one write per core.
        if (k.ethernet || workerBinariesSent.insert(it->second).second) {
            ++p.binaries;
            p.binaryBytes += bytes;
            p.binaryWrites += arch.binaryWrite + bytesAt(bytes, arch.binaryBytesPerNs);
        }
        // Runtime arguments of this kernel; the core's semaphores once.
        auto [cb, first] = coreConfigBytes.emplace(k.core, 0);
        cb->second += 4 * std::uint64_t(k.rtArgs);
        if (first) cb->second += 4 * std::uint64_t(k.semaphores);
    }
    p.cores = unsigned(coreBinaries.size());
    std::set<std::set<unsigned>> groups;
    for (const auto& [core, bins] : coreBinaries) groups.insert(bins);
    p.kernelGroups = unsigned(groups.size());

    for (const auto& [core, bytes] : coreConfigBytes) {
        if (!bytes) continue;
        p.argBytes += bytes;
        p.argWrites += arch.unicastWrite + bytesAt(bytes, arch.argBytesPerNs);
    }
    p.tunnel = arch.tunnelHop * tunnelHops;
    p.overhead = arch.programOverhead;
    p.launchMessages = arch.launchMessage * p.kernelGroups;
    p.goSignal = arch.goSignal;
    p.completion = arch.completion;
    return p;
}

}  // namespace cclsim
