// The interconnect contract between a chip's NIUs and one of its NoCs.
//
// Every NIU of a chip talks to each of the chip's two NoCs through this
// interface, and nothing else in cclsim sees a NoC differently: the cores'
// NIUs book their packets here, the firmware API reads the NoC's
// configuration, and host code asks for unloaded latencies. cclsim's own
// implementation is the booking model (models/noc/Noc.h); a user may replace
// it, or wrap it to trace or perturb it, by registering a NoC model and
// naming it in the arch YAML (`models: {noc: {name: ..., params: ...}}`, see
// models/plugin/ModelRegistry.h and docs/plugins.md#replacing-or-tracing-the-noc).
//
// What a booking is. The NoC carries packets, not bytes: an NIU cuts each
// transfer into packets of at most config().maxPacketBytes payload plus one
// config().headerBytes header, and read requests are header-only packets.
// When a packet's head leaves its source NIU, the NIU calls reservePacket
// once for it, at the simulated time the head enters the NoC:
//
//   source NIU                     interconnect                  destination NIU
//   head leaves (now() = injectStart)
//     reservePacket(src, dst, wireBytes, injectStart, injectEnd, lane, &free)
//       -> tail tick ............................................ the packet's
//          (the NIU schedules the delivery at that tick:            bytes land,
//           the interconnect itself schedules nothing)              acks return
//     free: when the tail has left the source (>= injectEnd)
//
// - `wireBytes` are the bytes on the wire, header included.
// - [injectStart, injectEnd] is when the source port puts the packet on the
//   wire as far as the source is concerned (the NIUs pass injectEnd =
//   injectStart: their injection port accounts for serialisation itself).
// - `lane` identifies the source port's class (virtual channel; < 16).
// - The return value is the tick at which the packet's tail has reached
//   `dst` and been absorbed by it: the NIU delivers the packet's bytes to
//   the destination's memory at max(tail, the moment the packet's last byte
//   left the source + unloadedLatency(src, dst)).
// - `sourceFree`, when given, receives when the packet's tail has really left
//   the source: later than injectEnd if the interconnect held it back (a
//   wormhole head blocked further on). The NIU holds the lane's next packet
//   and the kernel's command-queue slot until then; an interconnect without
//   back-pressure writes injectEnd.
// - unloadedLatency(src, dst) is the latency of a header-only message on an
//   idle NoC: the NIUs add it to acknowledgements (which are not booked) and
//   host code uses it for latency estimates. hops() is the route length.
//
// Guarantees the NIUs and the firmware above them rely on (an implementation
// must keep them; the NIU checks the first three and stops the run with an
// error naming the NoC and the destination if one is broken):
// - unloadedLatency(src, dst) is at least config().startupLatency: kernels
//   run ahead of SystemC time by less than that (nothing on the NoC may
//   reach them sooner). The NIU itself never delivers a packet earlier than
//   its last byte left the source + unloadedLatency, whatever tail is
//   returned.
// - Packets of one lane of one source to one destination are absorbed in
//   the order they were booked (the tail ticks do not decrease): a write and
//   the semaphore increment a kernel issues after it on the same virtual
//   channel land in that order, which every handshake in the firmware relies
//   on. (The NIU compares each packet with its lane's previous one. For its
//   part it lets a lane's next packet enter only once the previous one's
//   tail has left the source, held head included, so the landing ticks it
//   derives from tails and source departures keep that order too.)
// - *sourceFree is not earlier than injectEnd.
// - The result depends only on the calls made so far (the simulation is
//   deterministic: the same run gives the same bookings in the same order).
//
// What an implementation may do: anything computed from the calls it has
// seen (queues per link, a different topology or routing, contention of its
// own, statistics); build SystemC objects at construction (it is created
// while the chip elaborates); read the current time with cclsim::now()
// (models/common/Time.h: during the calendar's run-ahead that is the
// callback's own tick, later than sc_time_stamp()). What it may not do:
// wait, notify events or call anything that blocks, because reservePacket
// runs inside calendar callbacks, not in a SystemC thread; keep a pointer to
// `sourceFree` after returning; expect bookings in global time order (they
// come in the order heads enter the NoC, each at its own now(), but
// injectStart may lie later than now() when the lane is still held).
#pragma once

#include "models/noc/NocTypes.h"

#include <cstdint>

namespace cclsim {

class NocInterconnect {
public:
    virtual ~NocInterconnect() = default;
    NocInterconnect(const NocInterconnect&) = delete;
    NocInterconnect& operator=(const NocInterconnect&) = delete;

    /// Which of the chip's NoCs this is (0 or 1; NoC0 and NoC1 route in
    /// opposite directions on Wormhole).
    unsigned id() const { return id_; }
    /// The NoC's parameters: grid, packet and header sizes, command-buffer
    /// costs, endpoint rates. Fixed at construction.
    const NocConfig& config() const { return cfg_; }

    /// Links a packet from `src` to `dst` crosses (the route length).
    virtual unsigned hops(CoreCoord src, CoreCoord dst) const = 0;
    /// Latency of a header-only message on an idle NoC (acks, estimates);
    /// at least config().startupLatency.
    virtual Tick unloadedLatency(CoreCoord src, CoreCoord dst) const = 0;
    /// Book one packet of `wireBytes` whose head enters the NoC now; returns
    /// the tick its tail is absorbed at `dst`. See the essay above.
    virtual Tick reservePacket(CoreCoord src, CoreCoord dst, std::uint32_t wireBytes, Tick injectStart, Tick injectEnd,
                               unsigned lane = 0, Tick* sourceFree = nullptr) = 0;
    /// Wire bytes that crossed the busiest link so far (utilisation reports;
    /// an implementation without links may return 0).
    virtual double busiestLinkBytes() const = 0;

protected:
    NocInterconnect(unsigned id, const NocConfig& cfg) : id_(id), cfg_(cfg) {}

private:
    unsigned id_;
    NocConfig cfg_;
};

}  // namespace cclsim
