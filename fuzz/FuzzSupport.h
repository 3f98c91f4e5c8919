// What every libFuzzer harness of fuzz/ shares: the input as a file (most
// readers take a path), and the rule that tells a finding from a fine answer.
//
// The rule (docs/testing.md#fuzzing): a reader may refuse any input with its
// documented error (ConfigError, or the reader's own error type such as the
// sweep tool's SweepError), but that error must say where the fault is: the
// file it read (and the reader adds line and key). Anything else is a
// finding and aborts, so libFuzzer keeps the input: another exception type
// escaping, an error that does not name the file, a crash, undefined
// behaviour (the harnesses run under ASan + UBSan), a hang (-timeout) or
// unbounded memory (-rss_limit_mb).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <string_view>
#include <typeinfo>
#include <unistd.h>

namespace cclsim::fuzz {

/// A private directory for this process's temporary files (one per process:
/// parallel fuzzing jobs do not share it). Removed at exit.
inline const std::string& scratchDir() {
    static const std::string dir = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/cclsim-fuzz-XXXXXX";
        if (!mkdtemp(templ.data())) {
            std::fprintf(stderr, "fuzz: cannot create a scratch directory under %s\n", templ.c_str());
            std::abort();
        }
        return templ;
    }();
    return dir;
}

/// Write `bytes` to `scratchDir()/name` and return the path.
inline std::string writeScratch(const std::string& name, std::string_view bytes) {
    const std::string path = scratchDir() + "/" + name;
    std::ofstream os(path, std::ios::binary | std::ios::trunc);
    os.write(bytes.data(), std::streamsize(bytes.size()));
    if (!os) {
        std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
        std::abort();
    }
    return path;
}

/// A finding: print why and abort (libFuzzer saves the input as crash-*).
[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "\nfuzz finding: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

/// A documented refusal must name `where` (the file the reader was given).
/// With CCLSIM_FUZZ_VERBOSE set, every refusal is printed (to check seeds
/// and the wording of the messages).
inline void expectNames(const std::exception& e, const std::string& where) {
    const std::string msg = e.what();
    static const bool verbose = std::getenv("CCLSIM_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "refused: %s\n", msg.c_str());
    if (msg.find(where) == std::string::npos) finding("the error does not name " + where + ": " + msg);
}

/// Run `body`; `Documented` is the reader's error type (named where it
/// happened, checked by expectNames). Any other exception is a finding.
template <class Documented, class Body> void runReader(const std::string& where, Body&& body) {
    try {
        body();
    } catch (const Documented& e) {
        expectNames(e, where);
    } catch (const std::exception& e) {
        finding(std::string("undocumented exception ") + typeid(e).name() + ": " + e.what());
    } catch (...) {
        finding("an exception that is not a std::exception");
    }
}

}  // namespace cclsim::fuzz
