#include "firmware/api/kernel_api.h"

#include "firmware/api/api_internal.h"
#include "firmware/api/dataflow_api.h"
#include "models/common/Scoreboard.h"
#include "models/core/FastForward.h"

#include <vector>

namespace cclsim::fw {

using detail::ctx;

namespace detail {

EriscCore& erisc(KernelContext& k, const char* api) {
    if (!k.core().isEthernet())
        CCLSIM_ERROR(k.name(), "{} is an Ethernet-core API but the kernel runs on a {} core", api, k.core().coreKind());
    return static_cast<EriscCore&>(k.core());
}

unsigned resolveNoc(KernelContext& k, std::uint8_t noc) {
    if (noc == kUseKernelNoc) return k.launch().noc;
    if (noc > 1) CCLSIM_ERROR(k.name(), "NoC {} does not exist (0 or 1)", unsigned(noc));
    return noc;
}

void checkLocal(KernelContext& k, const char* api, std::uint64_t addr, std::uint64_t size) {
    if (!k.core().l1.contains(addr, size))
        CCLSIM_ERROR(k.name(), "{}: local range 0x{:x} + {} B is outside this core's L1 (0x{:x} B)", api, addr, size,
                     k.core().l1.size());
}

}  // namespace detail

template <> std::uint32_t get_arg_val<std::uint32_t>(int idx) {
    KernelContext& k = ctx();
    k.advance(k.core().costs().l1Access);
    return k.rtArg(std::size_t(idx));
}

template <> std::int32_t get_arg_val<std::int32_t>(int idx) {
    return static_cast<std::int32_t>(get_arg_val<std::uint32_t>(idx));
}

std::uint32_t get_compile_time_arg_val(int idx) {
    return ctx().ctArg(std::size_t(idx));
}
std::uint32_t get_arg_count() {
    return std::uint32_t(ctx().rtArgCount());
}

std::uint32_t my_x() {
    return ctx().core().coord().x;
}
std::uint32_t my_y() {
    return ctx().core().coord().y;
}
std::uint8_t noc_index() {
    return std::uint8_t(ctx().launch().noc);
}

std::uint64_t get_timestamp() {
    KernelContext& k = ctx();
    k.advance(k.core().costs().timerRead);
    return k.localTime() / k.core().costs().cycle;
}

void WAYPOINT(const char* code) {
    ctx().setWaypoint(code);
}
void trace_value(std::uint32_t slot, std::uint32_t value) {
    ctx().setTraceSlot(slot, value);
}

std::uint32_t l1_read_u32(std::uint32_t addr) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "l1_read_u32", addr, 4);
    k.sync();
    k.advance(k.core().costs().l1Access);
    return k.core().l1.readU32(addr);
}

void l1_write_u32(std::uint32_t addr, std::uint32_t value) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "l1_write_u32", addr, 4);
    k.advance(k.core().costs().l1Access);
    k.syncForStore();
    k.core().l1.writeU32(addr, value);
    k.acted();
}

namespace {
template <class Test> bool pollWord(const char* api, std::uint32_t addr, std::uint32_t value, Test&& test) {
    KernelContext& k = ctx();
    detail::checkLocal(k, api, addr, 4);
    L1Memory& l1 = k.core().l1;
    return k.poll(detail::l1Key(addr), PollDesc{PollDesc::L1Word, api, addr, value},
                  [&] { return test(l1.readU32(addr)); });
}
}  // namespace

bool l1_word_is(std::uint32_t addr, std::uint32_t value) {
    return pollWord("l1_word_is", addr, value, [value](std::uint32_t v) { return v == value; });
}
bool l1_word_is_not(std::uint32_t addr, std::uint32_t value) {
    return pollWord("l1_word_is_not", addr, value, [value](std::uint32_t v) { return v != value; });
}
bool l1_word_at_least(std::uint32_t addr, std::uint32_t value) {
    return pollWord("l1_word_at_least", addr, value, [value](std::uint32_t v) { return v >= value; });
}

void fw_assert(bool condition, const char* what) {
    if (!condition) CCLSIM_ERROR(ctx().name(), "firmware assertion failed: {}", what);
}

void fw_assert_equal(std::uint32_t actual, std::uint32_t expected, const char* what) {
    if (actual != expected)
        CCLSIM_ERROR(ctx().name(), "firmware assertion failed: {} (found {}, expected {})", what, actual, expected);
}

std::uint32_t debug_peek_u32(std::uint32_t addr) {
    return ctx().core().l1.readU32(addr);
}

void spin_cycles(std::uint32_t cycles) {
    KernelContext& k = ctx();
    k.advance(Tick(cycles) * k.core().costs().cycle);
}

void testbench_fill(std::uint32_t addr, std::uint32_t bytes, std::uint32_t stream, std::uint64_t offset) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "testbench_fill", addr, bytes);
    // The same steps in both modes, so timing-only runs keep the timing.
    k.sync();
    if (!k.core().l1.storesPayload()) return;
    std::vector<std::uint8_t> buf(bytes);
    refStreamFill(stream, offset, buf.data(), bytes);
    k.core().l1.writeBytes(addr, bytes, buf.data());
}

bool testbench_stores_data() {
    return ctx().core().l1.storesPayload();
}

std::uint64_t testbench_cycles() {
    KernelContext& k = ctx();
    return k.localTime() / k.core().costs().cycle;
}

void testbench_check(std::uint32_t addr, std::uint32_t bytes, std::uint32_t stream, std::uint64_t offset) {
    KernelContext& k = ctx();
    detail::checkLocal(k, "testbench_check", addr, bytes);
    k.sync();
    if (!k.core().l1.storesPayload() || !k.launch().scoreboard) return;
    std::vector<std::uint8_t> buf(bytes);
    k.core().l1.readBytes(addr, bytes, buf.data());
    k.launch().scoreboard->check(buf.data(), bytes, stream, offset, k.name());
}

SteadyLoop::SteadyLoop(std::uint64_t packets, std::uint64_t margin, std::uint32_t group, bool steady,
                       std::uint64_t quantum, bool stream) {
    KernelContext& k = ctx();
    FastForward* ff = k.launch().fastForward;
    if (!ff || k.persistent() || !steady) return;
    fw_assert(quantum > 0, "SteadyLoop: the skip quantum must be > 0");
    ff_ = ff;
    id_ = ff->enter(k.localTime(), packets, margin, group, quantum, stream);
}

SteadyLoop::~SteadyLoop() {
    end();
}

void SteadyLoop::end() {
    if (!ff_) return;
    KernelContext* k = KernelContext::currentOrNull();
    static_cast<FastForward*>(ff_)->leave(id_, k ? k->localTime() : now());
    ff_ = nullptr;
}

std::uint64_t SteadyLoop::skip(std::uint64_t remaining, std::uint64_t step_left) {
    if (!ff_) return 0;
    const FastForward::Skip s = static_cast<FastForward*>(ff_)->point(id_, ctx().localTime(), remaining, step_left);
    pause_ += s.pause;
    if (s.packets == 0) pause();  // a loop with nothing to skip still waits out the stretch
    return s.packets;
}

std::uint64_t SteadyLoop::skips_ordered() const {
    return ff_ ? static_cast<const FastForward*>(ff_)->skips() : 0;
}

void SteadyLoop::pause() {
    if (!ff_ || pause_ == 0) return;
    KernelContext& k = ctx();
    k.advance(static_cast<FastForward*>(ff_)->pauseAt(k.localTime(), pause_));
    pause_ = 0;
}

void SteadyService::point() {
    KernelContext& k = ctx();
    FastForward* ff = k.launch().fastForward;
    if (!ff) return;
    if (const Tick p = ff->servicePoint(k.localTime(), &seen_)) k.advance(p);
}

std::uint64_t SteadyService::skips_ordered() const {
    const FastForward* ff = ctx().launch().fastForward;
    return ff ? ff->skips() : 0;
}

bool SteadyService::enabled() const {
    return ctx().launch().fastForward != nullptr;
}

}  // namespace cclsim::fw
