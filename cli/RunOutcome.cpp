// The one mapping from what happened to an exit code and a reason (the
// table in RunOutcome.h).
#include "cli/RunOutcome.h"

#include "models/common/ConfigError.h"
#include "tools/sweep/SweepPlot.h"

#include <systemc>

namespace cclsim {

RunOutcome RunOutcome::fromCurrentException() {
    // Most specific first: ConfigError and sc_report are std::exceptions too.
    try {
        throw;
    } catch (const ConfigError& e) {
        return configError(e.what());
    } catch (const sweep::PlotError& e) {
        return RunOutcome(Kind::kPlotError, e.what());
    } catch (const sc_core::sc_report& e) {
        return RunOutcome(Kind::kModelError, std::string("simulation error ") + e.get_msg());
    } catch (const std::exception& e) {
        return RunOutcome(Kind::kError, e.what());
    }
}

int RunOutcome::exitCode() const {
    switch (kind_) {
        case Kind::kOk: return kExitOk;
        case Kind::kDataCheckFailed: return kExitDataCheckFailed;
        case Kind::kUsageError: return kExitUsage;
        case Kind::kConfigError:
        case Kind::kPlotError: return kExitConfig;
        case Kind::kModelError:
        case Kind::kError: return kExitSimulationError;
        case Kind::kStuck: return kExitStuck;
        case Kind::kLostToFault: return kExitLostToFault;
    }
    return kExitSimulationError;
}

std::string RunOutcome::terminalMessage() const {
    return kind_ == Kind::kError ? "error: " + message_ : message_;
}

std::string RunOutcome::terminalLine() const {
    return "cclsim: " + terminalMessage() + (endsInError() ? "" : "\n");
}

nlohmann::json RunOutcome::errorReport() const {
    return nlohmann::json{{"error", message_}};
}

nlohmann::json RunOutcome::errorFile() const {
    return nlohmann::json{{"error", terminalMessage()}, {"exit_code", exitCode()}};
}

}  // namespace cclsim
