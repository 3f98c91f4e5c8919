// The EDM streams of an Impl::Edm program: one worker unit's stream in one
// direction on one chip, and the wiring of every stream to the stream of
// the same unit and direction on the next chip through an EDM channel pair.
//
// A stream's sender pushes into the EDM towards the next chip and its
// receiver pulls what the previous chip sent (one core doing both for a
// reduce mover). connect() checks that every sender sends exactly as many
// messages as the receiver downstream expects (host and kernel schedules,
// ccl_schedule.h, must agree) and gives both ends their EDM ports. A relayed
// hop (group members without a link) chains channels through an edm_relay
// worker on every chip in between; the relays are created last, after every
// stream is connected (finish()).
#pragma once

#include "host/ccl/EdmFabric.h"
#include "host/ccl/factory/FactoryContext.h"

#include <array>
#include <deque>
#include <map>

namespace cclsim::ccl {

/// Key of a worker unit's stream: (position, unit, direction).
using StreamKey = std::array<unsigned, 3>;

/// One worker unit's stream in one direction on one chip, with the message
/// counts and the EDM ports connect() fills in.
struct Stream {
    ChunkSet cs;
    std::uint32_t sends = 0, recvs = 0;
    CoreCoord sender, receiver;
    std::uint32_t sem = 0;  ///< forward_sem / relay_sem / handoff_sem: the op's own semaphore
    std::uint32_t ownReadySem = 0;
    EdmPort out, in;
};

class EdmStreams {
public:
    EdmStreams(FactoryContext& ctx, EdmFabric& edm);

    /// Connect every stream of `streams` (one group, topology `t`) that
    /// sends; `what` names the streams in a host/kernel mismatch.
    void connect(std::map<StreamKey, Stream>& streams, const CclTopology& t, const char* what);
    /// Create the relay workers of every relayed hop connected so far.
    void finish();

private:
    /// A relay worker of a relayed hop.
    struct Relay {
        unsigned chip;
        CoreCoord core;
        EdmPort in, out;
        std::uint32_t messages;
    };
    /// The hop a stream of `pos` takes in direction `dir`, as (link, sending
    /// chip) per segment in travel order (one segment unless relayed).
    std::vector<std::pair<const LinkDesc*, unsigned>> route(const CclTopology& t, unsigned pos, unsigned dir,
                                                            unsigned unit) const;

    FactoryContext& ctx_;
    EdmFabric& edm_;
    std::deque<Relay> relays_;  ///< a deque: connect() keeps pointers to its elements
};

}  // namespace cclsim::ccl
