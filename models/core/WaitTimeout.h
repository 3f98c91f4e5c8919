// A firmware wait that gives up: a wait of an EDM, fabric or PE_IPCQ kernel
// that has seen no change for the arch YAML's `timeouts.*_ms` ends the run
// with a diagnosis instead of hanging it. A modelled wait sleeps rather than
// spins, so nothing inside it counts time: the wait remembers when it began,
// the runtime asks for the deadline between slices (a timeout adds no
// simulation event to a healthy run), and once it has passed the kernel gives
// up with a report line naming the YAML key.
#pragma once

#include "models/common/Time.h"

#include <string>
#include <utility>

namespace cclsim {

/// The give-up deadline of a kernel's wait in progress (see the file comment).
class WaitTimeout {
public:
    /// `timeout`: a wait that sees no change for this long gives up (0:
    /// never); `yamlKey`: the arch YAML key it came from, for the report.
    WaitTimeout(Tick timeout, std::string yamlKey) : timeout_(timeout), yamlKey_(std::move(yamlKey)) {}

    /// A wait begins at `at` (only counted if there is a timeout).
    void starts(Tick at) {
        if (timeout_) since_ = at;
    }
    /// The wait ended (something changed).
    void ends() { since_ = kNever; }
    /// When the wait in progress gives up; kNever if none is in progress or
    /// there is no timeout.
    Tick deadline() const { return !timeout_ || since_ == kNever ? kNever : since_ + timeout_; }
    /// `who` gave up its wait at `at`: keeps the report line (see gaveUp).
    void giveUp(const std::string& who, Tick at);
    /// Why the kernel gave up, one line for the run's report (empty: it did not).
    const std::string& gaveUp() const { return gaveUp_; }

private:
    Tick timeout_;
    std::string yamlKey_;
    Tick since_ = kNever;  ///< the wait in progress began here
    std::string gaveUp_;
};

}  // namespace cclsim
