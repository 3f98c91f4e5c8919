// libsystemc's main() calls sc_main, so the library needs one to link. The
// harnesses have libFuzzer's main and never elaborate: reaching this is a
// finding.
#include <cstdio>
#include <cstdlib>

extern "C" int sc_main(int, char*[]) {
    std::fprintf(stderr, "fuzz: sc_main reached: a harness must not run a simulation\n");
    std::abort();
}
