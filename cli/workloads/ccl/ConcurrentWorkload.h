// Several collectives at once on the same chips and Ethernet links, as a
// tensor-parallel model runs them:
//
//   <board> concurrent --op "all_gather --size 1M" --op "reduce_scatter --size 256K" [--impl fabric|edm]
//
// Each op runs on worker cores of its own (--cores in its spec, else an equal
// share of the grid) with tensors of its own, and shares the links: with
// --impl fabric one persistent fabric (a router per link end) that every op's
// workers connect to, through a mux where a router has several clients (as
// tt-metal's ops share the fabric configured when the mesh opens); with --impl edm one
// EDM kernel per Ethernet core holding the channels of every op. Every op is
// checked against the golden reference; the report gives each op's time and
// bandwidth and, per link direction, the bytes each op moved and its share
// of the link's time (the Ethernet traffic is tagged with the op's stream).
// An "ipcq_allreduce ..." op adds PE_IPCQ traffic on the shared fabric.
#pragma once

#include "cli/Workload.h"

#include <memory>

namespace cclsim::ccl {

std::unique_ptr<Workload> makeConcurrent();

}  // namespace cclsim::ccl
