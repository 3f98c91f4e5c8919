// The data_movement workload: its options and report. The program and the
// readback are host/microbench/DataMovement.
#include "cli/workloads/microbench/MicrobenchWorkloads.h"
#include "host/microbench/DataMovement.h"

#include <fmt/format.h>

namespace cclsim::microbench {

namespace {

class DataMovementWorkload final : public Workload {
public:
    std::string name() const override { return "data_movement"; }
    std::string description() const override {
        return "one core moves N transactions between its L1 and a DRAM bank or another core: cycles to the barrier "
               "(tt-metal's data movement tests)";
    }
    void addOptions(Options& cmd) override {
        cmd.add_option("--test", test_,
                       "dram_read, dram_write (tt-metal dram_unary), one_from_one (reads from another core's L1), "
                       "one_to_one (writes to it)")
            ->check(opt::IsMember({"dram_read", "dram_write", "one_from_one", "one_to_one"}));
        cmd.add_option("--bytes", bytes_, "bytes per transaction")->check(opt::Range(32u, 1u << 20));
        cmd.add_option("--transactions", transactions_, "transactions issued back to back before the barrier")
            ->check(opt::Range(1u, 4096u));
        cmd.add_option("--core", core_, "the worker, logical x,y (default 0,0)")->delimiter(',')->expected(2);
        cmd.add_option("--peer", peer_, "one_from_one / one_to_one: the other worker, logical x,y (default 1,1)")
            ->delimiter(',')
            ->expected(2);
        cmd.add_option("--bank", bank_, "dram_*: the DRAM bank (tt-metal's DRAM channel, default 0)");
        cmd.add_option("--noc", noc_, "NoC of the kernel (default 1, RISCV_1's default as in tt-metal's tests)")
            ->check(opt::Range(0u, 1u));
        cmd.add_option("--chip", chip_, "chip to run on");
    }
    nlohmann::json params() const override {
        return {{"test", test_}, {"bytes", bytes_}, {"transactions", transactions_},
                {"core", core_}, {"peer", peer_},   {"bank", bank_},
                {"noc", noc_},   {"chip", chip_}};
    }
    void build(Runtime& rt) override {
        DataMovementParams p;
        p.target = test_.rfind("dram", 0) == 0 ? DataMovementParams::Target::Dram : DataMovementParams::Target::Core;
        p.write = test_ == "dram_write" || test_ == "one_to_one";
        p.bytes = bytes_;
        p.transactions = transactions_;
        p.coreX = core_.at(0);
        p.coreY = core_.at(1);
        p.peerX = peer_.at(0);
        p.peerY = peer_.at(1);
        p.bank = bank_;
        p.noc = noc_;
        p.chip = chip_;
        bench_.build(rt, p);
    }
    nlohmann::json results(Runtime& rt, const RunResult&) override {
        const DataMovementResult r = bench_.read(rt);
        return {{"latency_cycles", r.cycles},
                {"latency_ns", r.ns},
                {"bytes_per_cycle", r.bytesPerCycle},
                {"core", bench_.core().str()},
                {"peer", test_.rfind("one_", 0) == 0 ? bench_.peer().str() : std::string()}};
    }
    std::string summary(const nlohmann::json& r) const override {
        return fmt::format("data_movement {}: {} x {} B from core {}: {} cycles ({:.1f} B/cycle)\n", test_,
                           transactions_, bytes_, r["core"].get<std::string>(),
                           r["latency_cycles"].get<std::uint64_t>(), r["bytes_per_cycle"].get<double>());
    }

private:
    std::string test_ = "dram_read";
    unsigned bytes_ = 2048;
    unsigned transactions_ = 1;
    std::vector<unsigned> core_{0, 0};
    std::vector<unsigned> peer_{1, 1};
    unsigned bank_ = 0;
    unsigned noc_ = 1;
    unsigned chip_ = 0;
    DataMovement bench_;
};

}  // namespace

std::unique_ptr<Workload> makeDataMovement() {
    return std::make_unique<DataMovementWorkload>();
}

}  // namespace cclsim::microbench
