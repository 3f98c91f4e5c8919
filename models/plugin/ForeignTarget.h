// The bridge between cclsim's initiators and a memory model that is not
// cclsim's own (a plug-in registered in models/plugin/ModelRegistry.h).
//
// cclsim's NIUs and Ethernet subsystems run on the calendar (EventQueue): one
// SystemC method that may run ahead of sc_time_stamp() and must never wait.
// They reach cclsim's own memories with a direct b_transport that returns at
// once (the fast path). A foreign target is entitled to the TLM-2.0 loosely
// timed contract instead: b_transport is called from a SystemC thread, at the
// simulated time the transaction really starts (sc_time_stamp() equals it and
// the annotated delay is zero on the way in), the target may wait() or
// annotate a delay, and the transaction is complete at sc_time_stamp() +
// delay on return. The bridge does exactly that: each access is handed to a
// worker thread (a pool that grows to the number of accesses in flight), the
// thread waits until the access's tick, calls the target, and posts the
// completion back to the calendar at the tick the target answered. Nothing
// else in cclsim changes: the initiator continues from the completion
// callback as it would from the fast path's return.
//
// What the target receives (the base protocol, nothing else):
//   - reads and writes with a valid data_ptr of data_length bytes,
//     streaming_width == data_length, no byte enables, no extensions;
//   - atomic increments (NoC semaphore increments, Ethernet register adds):
//     a timed 4-byte read (the target sees the access and charges its time);
//     at the tick it answers, the bridge adds to the word through
//     transport_dbg in zero time, so no other access can come between the
//     read of the old value and the write of the sum (a plain target needs no
//     atomic extension);
//   - transport_dbg for zero-time accesses: the host loading inputs and
//     reading results back, and the owning core's own loads and stores of an
//     L1 (firmware word accesses; their time is in the firmware costs). A
//     target that does not implement transport_dbg cannot be loaded or
//     checked: that is a clear error, not silent zeros.
// In timing mode (--no-data) a write carries zeros where cclsim kept no
// bytes (everything but control words), and reads return every byte.
#pragma once

#include "models/common/EventQueue.h"
#include "models/common/Payload.h"
#include "models/common/Time.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cclsim {

class ForeignTarget : public sc_core::sc_module {
public:
    /// To the foreign model's target socket.
    tlm_utils::simple_initiator_socket<ForeignTarget> socket{"socket"};
    /// What cclsim's initiator sockets bind to (a DRAM's NIUs; none for an
    /// L1, whose facade is L1Memory): b_transport and transport_dbg pass
    /// straight through (callers must be SystemC threads for b_transport).
    tlm_utils::multi_passthrough_target_socket<ForeignTarget, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        in{"in"};

    /// `model` names the foreign model in errors.
    ForeignTarget(const sc_core::sc_module_name& name, EventQueue& eq, std::string model, std::uint64_t sizeBytes);
    ForeignTarget(const ForeignTarget&) = delete;
    ForeignTarget& operator=(const ForeignTarget&) = delete;

    /// Completion, on the calendar at the tick the target answered.
    using Done = std::function<void(Tick)>;

    /// Write `p`'s bytes to [addr, addr + p.size) starting at tick `at` (>= now).
    void write(Tick at, std::uint64_t addr, const Payload& p, Done done);
    /// Read [addr, addr + n) into `out` (every byte, one fragment) starting at `at`.
    void read(Tick at, std::uint64_t addr, std::uint32_t n, Payload* out, Done done);
    /// Add `addend` to the 32-bit little-endian word at `addr` starting at `at`.
    void atomicAdd(Tick at, std::uint64_t addr, std::uint32_t addend, Done done);

    /// Zero-time accesses through transport_dbg.
    void debugRead(std::uint64_t addr, std::uint64_t n, std::uint8_t* out);
    void debugWrite(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in);
    void debugRead(std::uint64_t addr, std::uint32_t n, Payload& out);
    void debugWrite(std::uint64_t addr, const Payload& p);

    /// Called on the calendar after each write or atomic the bridge completed
    /// (an L1 facade notifies its watchers here).
    std::function<void(std::uint64_t addr, std::uint32_t n)> onWrite;

    std::uint64_t size() const { return size_; }
    const std::string& model() const { return model_; }

private:
    struct Job {
        enum Kind { Read, Write, Atomic } kind = Read;
        Tick at = 0;
        std::uint64_t addr = 0;
        ByteBuffer bytes;
        std::uint32_t addend = 0;
        Payload* out = nullptr;
        Done done;
    };
    struct Worker {
        sc_core::sc_event go;
        std::unique_ptr<Job> job;
    };

    void submit(std::unique_ptr<Job> job);
    void run(Worker* w);
    /// One b_transport from a worker thread; returns the tick it completed.
    Tick transport(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, std::uint32_t n);
    void checkRange(std::uint64_t addr, std::uint64_t n, const char* what) const;
    void passThrough(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    unsigned passThroughDbg(int id, tlm::tlm_generic_payload& gp);

    EventQueue& eq_;
    std::string model_;
    std::uint64_t size_;
    std::deque<std::unique_ptr<Worker>> workers_;
    std::vector<Worker*> idle_;
};

}  // namespace cclsim
