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
        return RunOutcome(Kind::PlotError, e.what());
    } catch (const sc_core::sc_report& e) {
        return RunOutcome(Kind::ModelError, std::string("simulation error ") + e.get_msg());
    } catch (const std::exception& e) {
        return RunOutcome(Kind::Error, e.what());
    }
}

int RunOutcome::exitCode() const {
    switch (kind_) {
        case Kind::Ok: return kExitOk;
        case Kind::DataCheckFailed: return kExitDataCheckFailed;
        case Kind::UsageError: return kExitUsage;
        case Kind::ConfigError:
        case Kind::PlotError: return kExitConfig;
        case Kind::ModelError:
        case Kind::Error: return kExitSimulationError;
        case Kind::Stuck: return kExitStuck;
        case Kind::LostToFault: return kExitLostToFault;
    }
    return kExitSimulationError;
}

std::string RunOutcome::terminalMessage() const {
    return kind_ == Kind::Error ? "error: " + message_ : message_;
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
