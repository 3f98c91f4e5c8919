// sc_main for the test binaries: libsystemc provides main(), so GoogleTest
// runs from here. Each test that elaborates SystemC runs in its own process.
#include <gtest/gtest.h>
#include <systemc>

#include <cstdlib>

namespace {
const bool kQuietBanner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();
}

int sc_main(int argc, char* argv[]) {
    ::testing::InitGoogleTest(&argc, argv);
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    return RUN_ALL_TESTS();
}
