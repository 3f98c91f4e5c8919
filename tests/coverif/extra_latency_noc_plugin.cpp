// The extra_latency test NoC model as a plug-in library (a shared object the
// board executables load when an arch YAML names it under `library:`).
#include "tests/coverif/ExtraLatencyNoc.h"

CCLSIM_PLUGIN_ENTRY {
    cclsim::test::registerExtraLatencyNoc(registry);
}
