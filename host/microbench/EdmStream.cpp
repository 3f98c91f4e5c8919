#include "host/microbench/EdmStream.h"

#include "firmware/microbench/microbench_kernels.h"
#include "host/edm/EdmBuilder.h"
#include "models/common/ConfigError.h"

#include <fmt/format.h>

#include <algorithm>

namespace cclsim::microbench {

void EdmStream::build(Runtime& rt, const EdmStreamParams& p) {
    p_ = p;
    const ClusterDescriptor& d = rt.platform().descriptor();
    ends_ = userLink(d, p.chipA, p.chipB, p.link);
    const edm::TerminationMode mode = p.termination;
    Program& pa = rt.program(ends_.chipA);
    Program& pb = rt.program(ends_.chipB);
    edm::EdmBuilder edmA(pa, ends_.coreA, mode, p.creditTxq, p.buffers);
    edm::EdmBuilder edmB(pb, ends_.coreB, mode, p.creditTxq, p.buffers);
    const unsigned channels = p.channels, packets = p.packets, packet = p.packetBytes;
    const unsigned dirs = p.bidir ? 2 : 1;
    // --fast-forward: with both directions streaming and the EDMs' acks on
    // tx_cmd_q 0, every ack waits behind the other direction's payloads; a
    // pause drains that queue and the stream does not resume at the rate it
    // was measured at (four single-buffer channels came out 4.1 % slow, 0.32 %
    // with the acks on tx_cmd_q 1), so such a stream is not steady and runs
    // exact, as eth_bandwidth with its credits on tx_cmd_q 0.
    const bool steady = !(p.bidir && p.creditTxq == 0);
    const std::uint32_t flags = (mode == edm::TerminationMode::WORKER_INITIATED ? 1u : 0u) | (steady ? 0u : 2u);
    if (2 * std::size_t(dirs) * channels > d.arch.workers.size())
        throw ConfigError(fmt::format("--channels {}: needs {} worker cores per chip, the chip has {}", channels,
                                      dirs * channels, d.arch.workers.size()));
    // Direction 0: A -> B on channels [0, C); direction 1: B -> A on [C, 2C).
    for (unsigned dir = 0; dir < dirs; ++dir) {
        Program& src = dir == 0 ? pa : pb;
        Program& dst = dir == 0 ? pb : pa;
        edm::EdmBuilder& tx = dir == 0 ? edmA : edmB;
        edm::EdmBuilder& rx = dir == 0 ? edmB : edmA;
        for (unsigned ch = 0; ch < channels; ++ch) {
            const CoreCoord sw = d.arch.workers[dir * channels + ch];
            const CoreCoord rw = d.arch.workers[(dirs + dir) * channels + ch];
            const std::uint32_t sSem = src.createSemaphore(sw, 0, "edm_tx_sem");
            const std::uint32_t rSem = dst.createSemaphore(rw, 0, "edm_rx_sem");
            // The receiver's semaphore slot's third word: where it reads the
            // count of messages its sender skipped under --fast-forward.
            dst.markControl(rw, rSem + 8, 4);
            const edm::ChannelInterface& ti = tx.add_sender_channel(sSem, packets, {sw}, packet);
            const edm::ChannelInterface& ri = rx.add_receiver_channel(rSem, packets, {rw}, packet);
            const std::uint32_t stream = (dir << 16) | ch;
            auto worker = [&](Program& prog, CoreCoord core, const edm::ChannelInterface& ci, std::uint32_t sem,
                              bool sender) {
                KernelConfig kc;
                kc.vc = unsigned(DmaVc::Comm);  // CCL traffic rides the communication VC
                kc.waitTimeout = KernelConfig::WaitTimeout::Edm;
                KernelHandle k = prog.createKernel(
                    sender ? "edm_stream_sender" : "edm_stream_receiver",
                    sender ? fw::microbench::edm_stream_sender_main : fw::microbench::edm_stream_receiver_main, core,
                    kc);
                prog.setRuntimeArgs(
                    k, {ci.edm_core.x, ci.edm_core.y, ci.eth_buffer_l1_address, ci.eth_semaphore_l1_address, sem,
                        packets, packet, prog.allocateL1(core, packet, 32), stream, flags, ci.num_buffers,
                        ci.buffer_stride, fw::microbench::kArgsEndMarker});
            };
            worker(src, sw, ti, sSem, true);
            worker(dst, rw, ri, rSem, false);
        }
    }
    edmA.check_peer(edmB);
    edmA.build();
    edmB.build();
}

EdmStreamResult EdmStream::read(Runtime& rt, const RunResult& run) const {
    EdmStreamResult r;
    // From the first kernel start (after dispatch).
    r.opTimeNs = ticksToNs(run.lastKernelFinish - std::min(rt.launchTime(ends_.chipA), rt.launchTime(ends_.chipB)));
    r.bytesPerDirection = double(p_.packetBytes) * p_.packets * p_.channels;
    r.payloadGBps = r.bytesPerDirection / r.opTimeNs;
    r.messages = double(p_.packets) * p_.channels * (p_.bidir ? 2 : 1);
    return r;
}

}  // namespace cclsim::microbench
