// Entry points of the PE_IPCQ kernels (kernel_main of each): the
// algorithms are registered by name in host/ipcq/IpcqAlgorithms.cpp, the
// T5 latency kernels are launched by host/ipcq/IpcqLatency.cpp.
#pragma once

namespace cclsim::fw::ipcq {

void ring_allreduce_main();  ///< ring all-reduce, uni- or bidirectional (RingArgs)
void mesh_allreduce_main();  ///< row ring then column ring (MeshArgs)
void tree_allreduce_main();  ///< binary tree reduce + broadcast (TreeArgs)
void ipcq_pingpong_main();   ///< T5 latency: raw write vs IPCQ send/recv (PingArgs)
void compute_stream_main();  ///< T5 under load: vc_compute writes to DRAM until stopped

}  // namespace cclsim::fw::ipcq
