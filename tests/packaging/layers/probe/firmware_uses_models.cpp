// Firmware may include the models: this compiles.
#include "models/common/ConfigError.h"

void probe_firmware() {
    (void)sizeof(cclsim::ConfigError);
}
