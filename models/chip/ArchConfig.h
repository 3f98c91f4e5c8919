// Chip architecture configuration: decoded from an arch YAML
// (platforms/arch/wormhole_b0.yaml) into the typed configs of the models.
#pragma once

#include "models/erisc/EriscCore.h"
#include "models/memory/DramChannel.h"
#include "models/noc/NocTypes.h"
#include "models/pe/PeCore.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace cclsim {

/// Off-chip memory: channels behind NoC endpoints, addressed as banks.
/// Bank b is channel b / banksPerChannel at offset (b % banksPerChannel) *
/// bankBytes; workers reach it through bankEndpoints[b].
struct DramArch {
    std::string kind;                                      ///< gddr6 or hbm
    std::vector<std::vector<CoreCoord>> channelEndpoints;  ///< NoC endpoints of each channel
    unsigned banksPerChannel = 0;
    std::uint64_t bankBytes = 0;
    std::vector<CoreCoord> bankEndpoints;  ///< per bank: the endpoint workers use
    DramChannelConfig channel;             ///< per channel timing and size
    double endpointInjectBytesPerNs = 0;   ///< read responses leaving a DRAM endpoint
    double niuChunkBytes = 0;              ///< traffic-class interleave of an endpoint's NIU

    unsigned channels() const { return unsigned(channelEndpoints.size()); }
    unsigned banks() const { return channels() * banksPerChannel; }
};

/// Configuration of the fabric router firmware (tt-metal's FabricEriscDatamoverConfig).
/// Every value comes from the arch YAML's `fabric:` section (the one place
/// they are written); without one, `present` is false and the fabric refuses
/// to build.
struct FabricArch {
    bool present = false;                 ///< the arch YAML has a fabric section
    std::uint32_t maxPayloadBytes = 0;    ///< channel payload (Wormhole: 4 bfp8 tiles)
    std::uint32_t headerBytes1d = 0;      ///< 1D header, routes up to 16 hops
    std::uint32_t headerBytes1dLong = 0;  ///< 1D header, routes of 17..64 hops
    std::uint32_t headerBytes2d = 0;      ///< 2D header
    /// {sender, receiver} slots per channel, first that fits the ERISC L1 wins.
    std::vector<std::array<std::uint32_t, 2>> slotOptions;
    std::uint32_t replySlots = 0;          ///< slots of the read-reply channel (VC1)
    std::uint32_t vc1Slots = 0;            ///< slots of each VC1 forwarding channel and VC1 receiver
    std::uint32_t readMaxBytes = 0;        ///< largest read a request may ask for (VC1 slot payload)
    std::uint32_t muxClientSlots = 0;      ///< slots per client channel of a fabric mux
    std::uint32_t readRelaySlots = 0;      ///< read relay (UDM): staging slots of max payload
    std::uint32_t readRelayRequests = 0;   ///< read relay: request slots the router forwards into
    bool routeYFirst = true;               ///< 2D dimension order: N/S then E/W
    unsigned forwardNoc = 0;               ///< NoC of router forwards and local writes
    unsigned creditNoc = 0;                ///< NoC of credits to workers and upstream routers
    std::uint32_t routerPacketCycles = 0;  ///< receiver: header decode and routing per packet
    bool bubbleFlowControl = true;     ///< deadlock avoidance on rings / torus axes (off: demonstrates the deadlock)
    std::uint32_t txqAcceptAhead = 0;  ///< ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD the router writes at start (0: leaves it)
};

/// A chip-shared SRAM pool (PE_IPCQ buffer_kind "sram"): one bank behind
/// each NoC endpoint. Hypothetical on Wormhole; every figure an assumption.
struct SramArch {
    std::vector<CoreCoord> endpoints;  ///< bank b behind endpoints[b]
    DramChannelConfig channel;         ///< banks = endpoints, timing per bank
    double endpointInjectBytesPerNs = 0;
    double niuChunkBytes = 0;  ///< traffic-class interleave of an endpoint's NIU
    bool present() const { return !endpoints.empty(); }
};

/// Fast dispatch of a program (tt-metal's prefetcher + dispatcher kernels):
/// the cost of each piece of work the dispatcher does before a program's
/// kernels start (runtime/Dispatch.h turns a program into these pieces).
struct DispatchArch {
    bool present = false;                  ///< the arch YAML has a dispatch section (else kernels start at once)
    Tick programOverhead = 0;              ///< per program: fetch + parse of its command stream, write barriers
    Tick launchMessage = 0;                ///< per kernel group: the launch message (kernel config) write
    Tick binaryWrite = 0;                  ///< per kernel binary: one (multicast) write command
    double binaryBytesPerNs = 1;           ///< kernel binary bytes the dispatcher streams per ns
    Tick unicastWrite = 0;                 ///< per core: one sub-command of a packed write (runtime args, semaphores)
    double argBytesPerNs = 1;              ///< runtime-argument / config bytes per ns of a packed write
    Tick goSignal = 0;                     ///< go signal multicast to every core of the program
    Tick completion = 0;                   ///< last core done -> the dispatcher sees the program complete
    Tick tunnelHop = 0;                    ///< per Ethernet hop between a chip and the nearest PCIe chip
    std::uint32_t defaultBinaryBytes = 0;  ///< a kernel whose name matches no entry below
    std::map<std::string, std::uint32_t> binaryBytes;  ///< kernel name prefix -> binary bytes (assumptions)

    /// Binary bytes of a kernel: the longest matching name prefix, else the default.
    std::uint32_t binaryBytesOf(const std::string& kernelName) const;
};

/// A `models:` entry of the arch YAML: a registered model replaces cclsim's
/// own for one role (see models/plugin/ModelRegistry.h).
struct ModelChoice {
    std::string name;     ///< registered model name
    std::string library;  ///< shared library to load first (absolute path), or empty
    std::map<std::string, std::string> params;
    std::string where;  ///< file:line of the entry (for errors)
};

/// How long a firmware wait may see no change before it gives up (the op
/// cannot complete, e.g. a link fault took its data): per protocol, the
/// arch YAML's `timeouts` section. Service kernels (fabric routers, muxes)
/// wait forever.
struct FirmwareTimeouts {
    Tick edm = 0;     ///< EDM kernels and the workers of EDM streams (timeouts.edm_ms)
    Tick fabric = 0;  ///< workers of the packet fabric (timeouts.fabric_ms)
    Tick ipcq = 0;    ///< PE_IPCQ kernels (timeouts.ipcq_ms)
};

struct ArchConfig {
    std::string name;
    std::string file;
    double aiclkMhz = 1000;
    NocConfig noc;
    std::vector<CoreCoord> workers;
    std::uint32_t workerUnreservedBase = 0;
    PeCoreConfig worker;
    std::vector<CoreCoord> ethCores;  ///< index = logical Ethernet channel
    EriscConfig erisc;
    DramArch dram;
    SramArch sram;
    FabricArch fabric;
    DispatchArch dispatch;
    FirmwareTimeouts timeouts;
    /// Replaced models by role: dram, sram, worker_l1, eth_l1, noc.
    std::map<std::string, ModelChoice> models;
    const ModelChoice* model(const std::string& role) const {
        auto it = models.find(role);
        return it == models.end() ? nullptr : &it->second;
    }
    bool hasDram() const { return !dram.channelEndpoints.empty(); }

    Tick cycles(double n) const { return nsToTicks(n * 1000.0 / aiclkMhz); }
};

/// Read an arch YAML; errors name the file, line and key. A file with a
/// top-level `base: <file>` (relative to it) is an overlay: its mappings are
/// deep-merged over the base file's (the overlay wins, lists are replaced
/// whole, see YamlMap::loadFileWithBase). `aiclkMhz` > 0 replaces the file's
/// aiclk_mhz (every cycle figure scales with it).
ArchConfig loadArchConfig(const std::string& file, double aiclkMhz = 0);
/// Parse "x-y" (the soc-descriptor coordinate notation).
CoreCoord parseCoord(const std::string& text, const std::string& where);

}  // namespace cclsim
