// The program factory of the GCL broadcast method (reduce_scatter and
// all_reduce with method broadcast, either implementation): every rank's
// whole input to every rank — rank s's input into block s of every rank's
// scratch — then a local reduction in rank order on every rank
// (firmware/ccl/reduce_kernels.cpp, local_reduce_main). The inputs travel by
// a packet-fabric exchange of the op's own (FabricExchange); pages larger
// than a fabric packet take the EDM gather streams instead. Every kernel
// that fills a rank's scratch signals that rank's reducer when it is done.
#pragma once

#include "host/ccl/factory/EdmProgramFactory.h"

namespace cclsim::ccl {

class BroadcastMethodProgramFactory {
public:
    BroadcastMethodProgramFactory(FactoryContext& ctx, EdmFabric& edm);

    /// One group's programs.
    void build(CclGroup& g);
    /// After every group: the relay workers of the EDM gathers' relayed hops.
    void finish() { edm_.finish(); }

private:
    FactoryContext& ctx_;
    EdmProgramFactory edm_;  ///< the gather streams when the fabric cannot carry the pages
};

}  // namespace cclsim::ccl
