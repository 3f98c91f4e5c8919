// The program factories of a collective op, one per implementation, held in
// a std::variant (tt-metal's program_factory_t) and selected from the spec
// (select_program_factory):
//
//   EdmProgramFactory               Impl::Edm: the CCL guide's EDM streams
//   FabricProgramFactory            Impl::Fabric: tt-metal's packet-fabric ops
//   BroadcastMethodProgramFactory   a reduction by the GCL broadcast method
//                                   (either implementation): exchange whole
//                                   inputs, reduce locally
//
// Each has build(group) — called for every group in order — and finish(),
// called once after the last group.
#pragma once

#include "host/ccl/factory/BroadcastMethodProgramFactory.h"
#include "host/ccl/factory/EdmProgramFactory.h"
#include "host/ccl/factory/FabricProgramFactory.h"

#include <variant>

namespace cclsim::ccl {

using ProgramFactory = std::variant<EdmProgramFactory, FabricProgramFactory, BroadcastMethodProgramFactory>;

/// The factory of the spec's implementation and method; `edm`: the EDMs the
/// op's channels go to.
ProgramFactory selectProgramFactory(FactoryContext& ctx, EdmFabric& edm);

}  // namespace cclsim::ccl
