#include "models/plugin/ForeignTarget.h"

#include "models/common/Report.h"

#include <cstring>

namespace cclsim {

ForeignTarget::ForeignTarget(const sc_core::sc_module_name& name, EventQueue& eq, std::string model,
                             std::uint64_t sizeBytes)
    : sc_core::sc_module(name), eq_(eq), model_(std::move(model)), size_(sizeBytes) {
    in.register_b_transport(this, &ForeignTarget::passThrough);
    in.register_transport_dbg(this, &ForeignTarget::passThroughDbg);
}

void ForeignTarget::checkRange(std::uint64_t addr, std::uint64_t n, const char* what) const {
    if (addr + n > size_ || n > size_)
        CCLSIM_ERROR(name(), "{} of {} bytes at 0x{:x} is outside {} (size 0x{:x})", what, n, addr, model_, size_);
}

void ForeignTarget::passThrough(int /*id*/, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    socket->b_transport(gp, delay);
}

unsigned ForeignTarget::passThroughDbg(int /*id*/, tlm::tlm_generic_payload& gp) {
    return socket->transport_dbg(gp);
}

// ---- timed accesses -----------------------------------------------------------

void ForeignTarget::write(Tick at, std::uint64_t addr, const Payload& p, Done done) {
    checkRange(addr, p.size, "write");
    auto job = std::make_unique<Job>();
    job->kind = Job::Write;
    job->at = at;
    job->addr = addr;
    // Flatten the fragments: in timing mode the bytes cclsim did not keep are zeros.
    if (p.hasAllBytes()) {
        job->bytes = p.frags[0].bytes;
    } else {
        job->bytes.assign(p.size, 0);
        p.copyTo(job->bytes.data());
    }
    job->done = std::move(done);
    submit(std::move(job));
}

void ForeignTarget::read(Tick at, std::uint64_t addr, std::uint32_t n, Payload* out, Done done) {
    checkRange(addr, n, "read");
    auto job = std::make_unique<Job>();
    job->kind = Job::Read;
    job->at = at;
    job->addr = addr;
    job->bytes.resize(n);
    job->out = out;
    job->done = std::move(done);
    submit(std::move(job));
}

void ForeignTarget::atomicAdd(Tick at, std::uint64_t addr, std::uint32_t addend, Done done) {
    checkRange(addr, 4, "atomic increment");
    auto job = std::make_unique<Job>();
    job->kind = Job::Atomic;
    job->at = at;
    job->addr = addr;
    job->bytes.resize(4);
    job->addend = addend;
    job->done = std::move(done);
    submit(std::move(job));
}

void ForeignTarget::submit(std::unique_ptr<Job> job) {
    Worker* w;
    if (idle_.empty()) {
        workers_.push_back(std::make_unique<Worker>());
        w = workers_.back().get();
        sc_core::sc_spawn_options opts;
        opts.dont_initialize();
        opts.set_sensitivity(&w->go);
        const std::string nm = "worker" + std::to_string(workers_.size() - 1);
        sc_core::sc_spawn([this, w] { run(w); }, sc_core::sc_gen_unique_name(nm.c_str()), &opts);
    } else {
        w = idle_.back();
        idle_.pop_back();
    }
    const Tick at = std::max(job->at, now());
    w->job = std::move(job);
    w->job->at = at;
    // The thread runs at the access's tick; the calendar must not run past it first.
    const Tick sc = scNow();
    if (at == sc)
        w->go.notify(sc_core::SC_ZERO_TIME);
    else
        w->go.notify(toScTime(at - sc));
    eq_.processWokenAt(at);
}

void ForeignTarget::run(Worker* w) {
    for (;;) {
        std::unique_ptr<Job> job = std::move(w->job);
        // Woken at the access's tick (a re-armed notify cannot make it early).
        if (scNow() < job->at) sc_core::wait(toScTime(job->at - scNow()));
        const tlm::tlm_command cmd = job->kind == Job::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
        const Tick doneAt = transport(cmd, job->addr, job->bytes.data(), std::uint32_t(job->bytes.size()));
        Job* j = job.release();
        eq_.at(doneAt, [this, j, doneAt] {
            std::unique_ptr<Job> owned(j);
            if (owned->kind == Job::Atomic) {
                // The read's answer: add now, in zero time (see the header).
                std::uint32_t v = 0;
                debugRead(owned->addr, 4, reinterpret_cast<std::uint8_t*>(&v));
                v += owned->addend;
                debugWrite(owned->addr, 4, reinterpret_cast<const std::uint8_t*>(&v));
            }
            if (owned->kind == Job::Read && owned->out) {
                Payload& p = *owned->out;
                p.size = std::uint32_t(owned->bytes.size());
                p.frags.resize(1);
                p.frags[0].own(0, 0);
                p.frags[0].bytes = std::move(owned->bytes);
            }
            if (owned->kind != Job::Read && onWrite)
                onWrite(owned->addr, owned->kind == Job::Atomic ? 4 : std::uint32_t(owned->bytes.size()));
            if (owned->done) owned->done(doneAt);
        });
        idle_.push_back(w);
        sc_core::wait();  // for the next job (static sensitivity: w->go)
    }
}

Tick ForeignTarget::transport(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, std::uint32_t n) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_byte_enable_length(0);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE)
        CCLSIM_ERROR(name(), "{} {} of {} bytes at 0x{:x} failed: {}", model_,
                     cmd == tlm::TLM_READ_COMMAND ? "read" : "write", n, addr, gp.get_response_string());
    return scNow() + delay.value();
}

// ---- zero-time accesses -------------------------------------------------------

void ForeignTarget::debugRead(std::uint64_t addr, std::uint64_t n, std::uint8_t* out) {
    checkRange(addr, n, "read");
    tlm::tlm_generic_payload gp;
    gp.set_read();
    gp.set_address(addr);
    gp.set_data_ptr(out);
    gp.set_data_length(std::uint32_t(n));
    gp.set_streaming_width(std::uint32_t(n));
    const unsigned got = socket->transport_dbg(gp);
    if (got != n)
        CCLSIM_ERROR(name(),
                     "{} answered a debug read of {} bytes at 0x{:x} with {} bytes: cclsim reads a foreign "
                     "memory's contents through transport_dbg (host loads and checks, a core's own loads), so the "
                     "model must implement it",
                     model_, n, addr, got);
}

void ForeignTarget::debugWrite(std::uint64_t addr, std::uint64_t n, const std::uint8_t* in) {
    checkRange(addr, n, "write");
    tlm::tlm_generic_payload gp;
    gp.set_write();
    gp.set_address(addr);
    gp.set_data_ptr(const_cast<std::uint8_t*>(in));
    gp.set_data_length(std::uint32_t(n));
    gp.set_streaming_width(std::uint32_t(n));
    const unsigned got = socket->transport_dbg(gp);
    if (got != n)
        CCLSIM_ERROR(name(),
                     "{} answered a debug write of {} bytes at 0x{:x} with {} bytes: cclsim writes a foreign "
                     "memory through transport_dbg (host loads, a core's own stores), so the model must implement it",
                     model_, n, addr, got);
}

void ForeignTarget::debugRead(std::uint64_t addr, std::uint32_t n, Payload& out) {
    debugRead(addr, std::uint64_t(n), out.ownAll(n));
}

void ForeignTarget::debugWrite(std::uint64_t addr, const Payload& p) {
    for (const Payload::Fragment& f : p.frags) debugWrite(addr + f.offset, f.length(), f.data());
}

}  // namespace cclsim
