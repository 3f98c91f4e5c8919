// Firmware may not include the runtime: its include root has no runtime/.
#include "runtime/ConfigDir.h"

void probe_firmware() {}
