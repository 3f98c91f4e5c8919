// Host side of the packet fabric: places a router on the Ethernet core of
// every link the fabric uses (per chip, routing plane and direction), sizes
// its channels, lays out its L1 the same way on every router (so each router
// writes its peer's words at its own addresses), wires routers of one chip
// to each other for forwarding, and connects workers: directly to a router's
// worker channel when they are its only client, else through a fabric mux on
// a free worker core near the router. In UDM mode (FabricOptions::readRelays)
// it also places a read relay beside every router, a client of its router.
//
// Usage (all before Runtime::launch):
//
//   FabricBuilder fab(rt, makeTopology1d(FabricKind::Ring, order), {});
//   ClientId c = fab.addClient(chip, worker, fab.route(chip, dst).first());
//   ... create the worker kernel ...
//   fab.build();                              // routers and muxes (persistent kernels)
//   args = fab.connection(c);                 // FabricConnectionArgs for the worker
//   header = fab.header(chip, dst);           // routing fields set
//
// Routing planes: the k-th user link of every neighbour pair is plane k
// (tt-metal: routing planes, no traffic crosses between them). The fabric
// has as many planes as its thinnest neighbour pair has user links.
#pragma once

#include "host/fabric/FabricRouting.h"
#include "runtime/Runtime.h"

#include <map>
#include <string>
#include <vector>

namespace cclsim::fabric {

/// Value names of a router's worker_conn trace signal (conn::kState).
const TraceEnum& connectionStateTraceEnum();

struct FabricOptions {
    unsigned planes = 0;     ///< routing planes to build (0: all the topology has)
    unsigned maxPlanes = 0;  ///< with planes = 0: build at most this many (0: no cap)
    /// UDM mode (tt-metal's unified data movement): a read relay beside every
    /// router serves remote reads by writing the data back, and each router's
    /// workers and relay share its worker channel through a mux; relays and
    /// muxes start with the fabric (resident). Off: the router serves reads
    /// itself, one at a time, on its reply VC. 1D fabrics only.
    bool readRelays = false;
    /// The routers serve remote reads themselves, on a second virtual channel
    /// (VC1: a reply channel, a forwarding channel per other direction and a
    /// receiver). tt-metal builds a second VC only for reads (its UDM mode);
    /// without reads (the default) those channels have no slots and take no
    /// ERISC L1, which leaves room for more VC0 slots at large payloads. A
    /// read request on such a fabric is a firmware error. Implied by readRelays.
    bool reads = false;
};

struct ClientId {
    std::size_t index = 0;
};

/// One router, for reports and tests.
struct RouterInfo {
    unsigned chip = 0, plane = 0;
    Dir dir = Dir::E;
    unsigned channel = 0;  ///< Ethernet channel (core) it runs on
    CoreCoord core;
    unsigned peerChip = 0, peerChannel = 0;
    bool bubble = false;  ///< bubble flow control / first-level acks on
};

class FabricBuilder {
public:
    FabricBuilder(Runtime& rt, FabricTopology topo, const FabricOptions& opts);

    const FabricTopology& topology() const { return topo_; }
    unsigned planes() const { return planes_; }
    std::uint32_t headerBytes() const { return headerBytes_; }
    std::uint32_t maxPayloadBytes() const { return payload_; }
    std::uint32_t senderSlots() const { return senderSlots_; }
    std::uint32_t receiverSlots() const { return rxSlots_; }
    /// Largest read one request may ask for: the reply VC's payload, or
    /// (read relays) any length, the relay splitting it into payloads.
    std::uint32_t readMaxBytes() const { return opts_.readRelays ? kRelayReadMax : readMax_; }
    /// The fabric carries reads (FabricOptions::reads, or read relays).
    bool servesReads() const { return opts_.reads || opts_.readRelays; }
    static constexpr std::uint32_t kRelayReadMax = 0x40000000;

    Route route(unsigned src, unsigned dst) const;
    /// A header from `src` to `dst` with its routing fields and chips set.
    PacketHeader header(unsigned src, unsigned dst) const;
    /// Set the reply route of a read request header from `src` to `dst`.
    void setReadReply(PacketHeader& h, unsigned src, unsigned dst) const;

    /// A worker on `chip` that sends packets whose first hop is `dir`, on
    /// routing plane `plane`. Allocates its connection words in its L1.
    ClientId addClient(unsigned chip, CoreCoord core, Dir dir, unsigned plane = 0);
    /// Create every router and mux kernel. Call once, after the clients'
    /// kernels exist (a mux takes a worker core no kernel uses).
    void build();
    bool built() const { return built_; }
    /// The connection arguments of a client (after build()).
    fabric::FabricConnectionArgs connection(ClientId c) const;
    /// Is the client connected through a mux?
    bool viaMux(ClientId c) const;

    const std::vector<RouterInfo>& routers() const { return routerInfo_; }
    /// The router of (chip, plane, direction); ConfigError if there is none.
    const RouterInfo& router(unsigned chip, unsigned plane, Dir d) const;
    /// The core of the first router built on `chip` (a placement hint for
    /// workers that talk to the fabric); `otherwise` if the chip has none.
    CoreCoord firstRouterCore(unsigned chip, CoreCoord otherwise) const;
    unsigned muxCount() const { return unsigned(muxes_.size()); }

private:
    struct RouterSlot {
        RouterInfo info;
        FabricRouterArgs args;
    };
    struct Client {
        unsigned chip, plane;
        Dir dir;
        CoreCoord core;
        FabricConnectionArgs args;  ///< local fields filled at addClient
        int mux = -1;
        unsigned muxIndex = 0;
    };
    struct Relay {
        std::size_t router;
        CoreCoord core;
        ClientId client;
        FabricReadRelayArgs args;
    };
    struct Mux {
        unsigned chip;
        CoreCoord core;
        FabricMuxArgs args;
        std::vector<std::size_t> clients;
    };
    std::size_t routerIndex(unsigned chip, unsigned plane, Dir d) const;
    void planRouters();
    void chooseSlots();
    std::uint32_t senderSlotsOf(unsigned channel) const;
    void placeMuxes();
    void placeRelays();

    Runtime& rt_;
    FabricTopology topo_;
    FabricOptions opts_;
    unsigned planes_ = 0;
    std::uint32_t headerBytes_ = 0, payload_ = 0, slotBytes_ = 0;
    std::uint32_t readMax_ = 0, slotBytes1_ = 0;  ///< VC1: largest reply and its slot
    std::uint32_t senderSlots_ = 0, rxSlots_ = 0, replySlots_ = 0, vc1Slots_ = 0;
    RouterLayout layout_;
    std::vector<RouterSlot> routers_;
    std::vector<RouterInfo> routerInfo_;
    std::map<std::tuple<unsigned, unsigned, unsigned>, std::size_t> routerAt_;  ///< (chip, plane, dir)
    std::vector<Client> clients_;
    std::vector<Mux> muxes_;
    std::vector<Relay> relays_;
    bool built_ = false;
};

/// The worker core of `chip` nearest to `near` (Manhattan distance on the
/// grid) that runs no kernel yet, has no L1 allocated and is not in `taken`.
CoreCoord freeWorkerNear(Runtime& rt, unsigned chip, CoreCoord near, const std::vector<CoreCoord>& taken);

}  // namespace cclsim::fabric
