// An exchange over a packet fabric of its own on a group's ring (or line):
// every sending rank's input goes into its block of every rank's
// destination (firmware/ccl/exchange_kernels.cpp, fabric_exchange_main).
// The Impl::Fabric broadcast and all-to-all run on it, and so does the
// broadcast method's exchange of whole inputs.
//
// Per rank W worker kernels share the pages, one per direction (or one for
// both directions; all_to_all on an even ring sends the diametric rank's
// block half each way), each with its own fabric connection (a mux shares a
// router's worker channel when it has several clients); a page is multicast
// along its direction — on a ring the first div_up(n-1, 2) ranks one way and
// the rest the other, on a line to each end — or unicast where the ranks'
// buffers differ. Either one waiter kernel per rank waits until every
// stream reaching it has landed, or the consumers of the destination (the
// broadcast method's reducers) do.
#pragma once

#include "host/ccl/factory/FactoryContext.h"
#include "host/fabric/FabricBuilder.h"

#include <string>
#include <vector>

namespace cclsim::ccl {

struct ExchangePlan {
    int root = -1;                             ///< the only sender (broadcast); -1: every rank
    const std::vector<Buffer>* dst = nullptr;  ///< destination per position
    std::uint32_t rowPages = 0;                ///< all_gather dim 1
    unsigned workers = 1;
    bool kernelPerDirection = true;  ///< false: one kernel per worker serves both directions
    std::uint32_t batch = 1;         ///< pages a worker reads per batch
    /// Semaphores of the kernels that consume the destination (the broadcast
    /// method's reducers): their counts are set here. Null: one kernel per
    /// rank waits until every stream reaching it has landed.
    DoneSignals* external = nullptr;
    const char* kernelName = "fabric_exchange";
    bool allToAll = false;  ///< input block q to rank q only (unicast)
};

class FabricExchange {
public:
    FabricExchange(FactoryContext& ctx, CclGroup& g, const ExchangePlan& x);

    /// Build the exchange; "" on success, else why the group cannot use the
    /// fabric (a message with specRef references). CclOpError if the op
    /// shares Ethernet cores with other ops.
    std::string build();

private:
    /// One exchange kernel of a rank.
    struct Kernel {
        unsigned pos = 0;
        CoreCoord core;
        KernelHandle handle;
        FabricExchangeArgs a;
        std::vector<unsigned> dirs;
        fabric::ClientId client[2];
        bool waiter = false;        ///< on the rank's waiter core (the first kernel of the rank)
        std::uint32_t initSem = 0;  ///< all_to_all: the start barrier's semaphore on this core
    };

    /// Ranks a page of `pos` reaches in direction d.
    std::uint32_t range(unsigned pos, unsigned d) const;
    bool sends(unsigned pos) const { return x_.root < 0 || int(pos) == x_.root; }
    /// all_to_all on an even ring (tt-metal all_to_all_async_generic): the
    /// block for the diametric rank goes half each way.
    bool splitDiametric() const { return x_.allToAll && ring_ && n_ % 2 == 0; }
    /// The done semaphores: the consumers', or a waiter kernel's per rank.
    void doneSemaphores();
    /// Every rank's kernels, their cores and counts (in creation order).
    void planKernels();
    /// Staging, kernels and fabric clients.
    void createKernels();
    /// The runtime arguments, once the fabric is built.
    void setArgs();
    /// all_to_all's start barrier: who multicasts, who waits, who is released.
    void setInitBarrier();

    FactoryContext& ctx_;
    CclGroup& g_;
    const ExchangePlan& x_;
    std::uint32_t batch_ = 1;  ///< pages per batch: x_.batch, or an all_to_all's pages per packet
    const unsigned n_;
    bool ring_ = false;
    std::unique_ptr<fabric::FabricBuilder> fab_;
    std::vector<RemoteSem> done_;
    std::vector<CoreCoord> waiter_;
    std::vector<Kernel> ks_;
};

}  // namespace cclsim::ccl
