// Simulated time charged for firmware operations (resolved from the arch YAML).
#pragma once

#include "models/common/Time.h"

namespace cclsim {

struct FirmwareCosts {
    Tick cycle = kTicksPerNs;              ///< one AICLK cycle
    Tick l1Access = 2 * kTicksPerNs;       ///< one load/store of local L1 (semaphore set, arg read)
    Tick pollIteration = 5 * kTicksPerNs;  ///< one spin-loop iteration re-reading a word
    Tick nocCmdIssue = 10 * kTicksPerNs;   ///< programming a NoC command buffer
    Tick timerRead = 40 * kTicksPerNs;     ///< reading the wall-clock timer
    Tick ethSendIssue = 40 * kTicksPerNs;  ///< eth_send_packet register writes (ERISC)
    Tick runRouting = 200 * kTicksPerNs;   ///< run_routing(): a visit to the base routing firmware
    Tick kernelStart = 0;                  ///< firmware before kernel_main: launch message, NoC and arg-base setup
    Tick semaphoreInit = 0;                ///< per semaphore of the core: firmware copies its initial value
    double eltwiseBytesPerCycle = 32;      ///< worker compute engine: elementwise ops (reductions)
};

}  // namespace cclsim
