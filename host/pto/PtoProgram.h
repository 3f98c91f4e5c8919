// Host side of the `pto` workload: one PTO communication op
// (firmware/api/pto_api.h) between the ranks of a group, one kernel per
// rank, the rank's tensors in DRAM, and the golden check of every rank's
// destination tensor after the run.
//
// Rank r runs on chips[r], on the worker core nearest its chip's first
// fabric router; every rank has the same L1 layout (staging tiles, signal
// and group words, reply semaphores, fence, timestamps), so a rank can
// address another's words by its own addresses. The ranks talk over a 1D
// fabric (one plane) when there are two or more of them. Each rank exposes
// a group tensor (puts land in it, gets read it) and keeps a local one
// (source of puts, destination of gets; ranks x rows for scatter / gather).
#pragma once

#include "firmware/pto/pto_args.h"
#include "golden/Golden.h"
#include "host/fabric/FabricBuilder.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cclsim::pto {

/// The op's name as the command line and the report spell it ("put", "put_async", ...).
const char* ptoOpName(PtoOp op);
/// put, get, their async forms and notify: one initiator (the root) and one peer.
bool isPointToPoint(PtoOp op);

struct PtoParams {
    PtoOp op = PtoOp::Put;
    PtoMisuse misuse = PtoMisuse::None;
    std::vector<unsigned> chips;                  ///< rank r runs on chips[r] (at most fw::pto::kMaxRanks)
    unsigned root = 0;                            ///< the root (collectives) or initiator (point to point)
    unsigned peer = 1;                            ///< point to point: the other rank
    bool ring = false;                            ///< the fabric over the ranks is a ring (else a line)
    std::uint32_t rows = 64, cols = 256;          ///< each rank's tensor
    std::uint32_t tileRows = 16, tileCols = 256;  ///< the staging tile
    std::uint32_t validRow = fw::pto::kDynamic, validCol = fw::pto::kDynamic;  ///< per chunk
    bool pingPong = false;                                                     ///< two staging tiles
    golden::DType dtype = golden::DType::FP32;
    golden::RedOp redop = golden::RedOp::Add;
    unsigned repeat = 1;     ///< operations back to back
    std::string inputs;      ///< every rank's source tensor, FILE.json or DIR/ (empty: generated)
    std::uint64_t seed = 1;  ///< of the generated inputs
};

/// The golden check of the destination tensors.
struct PtoCheck {
    std::string status = "off";  ///< "pass", "fail" or "off" (timing only)
    std::uint64_t checked = 0;   ///< elements (notify: the two signal words)
    std::uint64_t wrong = 0;
    std::string first;  ///< the first wrong element
};

struct PtoResult {
    double opNs = 0;          ///< per operation: the root's start to its done, over `repeat`
    std::uint64_t bytes = 0;  ///< one operation moves (over the fabric, or the NoC on one rank)
    unsigned hops = 0;        ///< point to point: root to peer over the fabric
    double issueNs = 0;       ///< put_async / get_async: when the call returned
    double deliveredNs = 0;   ///< put to another rank: when the peer saw the notification
    PtoCheck check;
    std::vector<golden::Tensor> outputs;  ///< every rank's destination tensor
};

class PtoProgram {
public:
    /// The fabric, every rank's kernel, L1 and tensors, the inputs and the
    /// kernels' arguments. ConfigError if the inputs do not fit the op.
    void build(Runtime& rt, const PtoParams& p);
    /// Timestamps and the golden check (recorded on the run's scoreboard),
    /// after the run.
    PtoResult read(Runtime& rt);

private:
    struct Rank {
        unsigned chip = 0;
        CoreCoord core;
        std::uint32_t tile[3] = {};
        std::uint32_t signal = 0, groupWord = 0, replySem = 0, fence = 0, stamps = 0;
        Buffer group, local;
        KernelHandle kernel;
        fabric::ClientId client[2];
        bool hasClient[2] = {false, false};
    };

    std::uint32_t elementBytes() const;
    void placeRanks(Runtime& rt);
    void writeInputs(Runtime& rt);
    void setArgs(Runtime& rt);
    void writeRows(Runtime& rt, const Buffer& b, const golden::Tensor& t) const;
    golden::Tensor readRows(Runtime& rt, const Buffer& b) const;
    PtoCheck check(Runtime& rt, std::vector<golden::Tensor>& got) const;
    std::vector<golden::Tensor> expected(const std::vector<golden::Tensor>& got) const;

    PtoParams p_;
    std::uint32_t rowBytes_ = 0, localRows_ = 0;
    std::unique_ptr<fabric::FabricBuilder> fab_;
    std::vector<Rank> ranks_;
    std::vector<golden::Tensor> sources_;
};

}  // namespace cclsim::pto
