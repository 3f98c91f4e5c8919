// Selection of the program factory of an op's implementation and method.
#include "host/ccl/factory/ProgramFactory.h"

namespace cclsim::ccl {

ProgramFactory selectProgramFactory(FactoryContext& ctx, EdmFabric& edm) {
    if (ctx.plan.viaBroadcast) return ProgramFactory(std::in_place_type<BroadcastMethodProgramFactory>, ctx, edm);
    if (ctx.spec.impl == CclSpec::Impl::Fabric) return ProgramFactory(std::in_place_type<FabricProgramFactory>, ctx);
    return ProgramFactory(std::in_place_type<EdmProgramFactory>, ctx, edm);
}

}  // namespace cclsim::ccl
