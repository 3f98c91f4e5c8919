// TraceFile / TraceSignal: the VCD the model writes is parsed back — every
// declared signal appears once in nested scopes with its width, initial
// values are dumped, a value is written only when it changes, timestamps
// increase — the GTKWave save file groups signals per chip and core and
// references a translate filter per enum, and sampled (per-window) signals
// are written at the window boundaries without simulation events of their own.
#include "models/common/EventQueue.h"
#include "models/common/Report.h"
#include "models/common/Simulate.h"
#include "models/common/Trace.h"
#include "tests/unit/TestSupport.h"

#include <gtest/gtest.h>
#include <systemc>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace cclsim {
namespace {

/// What a VCD file says, as far as these tests need it.
struct Vcd {
    struct Var {
        std::string name;  ///< full dotted name, rebuilt from the scopes
        unsigned width = 0;
    };
    std::map<std::string, Var> vars;  ///< by identifier code
    std::vector<std::string> declOrder;
    std::string timescale;
    bool scopesBalanced = true;
    std::map<std::string, std::uint64_t> initial;  ///< by name, from $dumpvars
    std::vector<Tick> stamps;                      ///< every #t, in file order
    /// Value changes after the initial dump: name -> (tick, value) in order.
    std::map<std::string, std::vector<std::pair<Tick, std::uint64_t>>> changes;
    std::string error;  ///< first structural problem found

    const std::string& nameOf(const std::string& code) {
        static const std::string unknown = "?";
        auto it = vars.find(code);
        if (it == vars.end()) {
            if (error.empty()) error = "value change for undeclared code '" + code + "'";
            return unknown;
        }
        return it->second.name;
    }
};

Vcd parseVcd(const std::string& text) {
    Vcd v;
    std::istringstream is(text);
    std::string line;
    std::vector<std::string> scopes;
    bool header = true, inDump = false;
    Tick t = 0;
    while (std::getline(is, line)) {
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::vector<std::string> tok;
        for (std::string w; ls >> w;) tok.push_back(w);
        if (header) {
            if (tok[0] == "$timescale")
                v.timescale = tok.size() > 1 ? tok[1] : "";
            else if (tok[0] == "$scope")
                scopes.push_back(tok.at(2));
            else if (tok[0] == "$upscope") {
                if (scopes.empty())
                    v.scopesBalanced = false;
                else
                    scopes.pop_back();
            } else if (tok[0] == "$var") {
                std::string full;
                for (const auto& s : scopes) full += s + ".";
                full += tok.at(4);
                v.vars[tok.at(3)] = Vcd::Var{full, unsigned(std::stoul(tok.at(2)))};
                v.declOrder.push_back(full);
            } else if (tok[0] == "$enddefinitions") {
                header = false;
                if (!scopes.empty()) v.scopesBalanced = false;
            }
            continue;
        }
        if (line[0] == '#') {
            t = std::stoull(line.substr(1));
            v.stamps.push_back(t);
            continue;
        }
        if (line == "$dumpvars") {
            inDump = true;
            continue;
        }
        if (line == "$end") {
            inDump = false;
            continue;
        }
        std::uint64_t value = 0;
        std::string code;
        if (line[0] == 'b') {
            value = std::stoull(tok.at(0).substr(1), nullptr, 2);
            code = tok.at(1);
        } else {
            value = line[0] == '1';
            code = line.substr(1);
        }
        const std::string& name = v.nameOf(code);
        if (inDump)
            v.initial[name] = value;
        else
            v.changes[name].push_back({t, value});
    }
    return v;
}

TEST(TraceFile, VcdHasNestedScopesInitialValuesAndOnlyRealChanges) {
    test::ScratchDir dir;
    EventQueue eq("eq");
    // Two files fed identically must be byte-identical (determinism).
    TraceFile tf(dir.path("run.vcd")), twin(dir.path("twin.vcd"));
    struct Signals {
        TraceSignal busy{1}, depth{8}, waypoint{32, TraceFormat::Ascii}, phase{4, TraceFormat::Hex};
        void attach(TraceFile& f) {
            busy.attach(f, "n300.chip0.eth9.eth.tx_busy");
            depth.attach(f, "n300.chip0.eth9.eth.tx_cmd_q0_depth");
            waypoint.attach(f, "n300.chip1.w1_1.brisc.waypoint");
            phase.attach(f, "n300.phase");
        }
    } s, t;
    s.attach(tf);
    t.attach(twin);
    EXPECT_EQ(tf.signalCount(), 4u);
    // A value set before the trace begins becomes the initial value.
    s.depth.set(3);
    t.depth.set(3);
    tf.begin();
    twin.begin();
    EXPECT_THROW(tf.declare("n300.late", 1, TraceFormat::Binary, 0), std::logic_error);

    auto drive = [&](Signals& x) {
        eq.at(0, [&x] { x.busy.set(1); });  // same tick as the header
        eq.at(nsToTicks(10), [&x] {
            x.depth.set(3);
            x.busy.set(1);
        });  // no change: no output
        eq.at(nsToTicks(20), [&x] {
            x.depth.set(1);
            x.depth.set(2);  // two changes in one tick are both written
            x.waypoint.set(packWaypoint("RUN"));
        });
        eq.at(nsToTicks(35), [&x] {
            x.busy.set(0);
            x.depth.add(-2);
        });
        eq.at(nsToTicks(50), [&x] { x.phase.set(0); });  // no change
    };
    drive(s);
    drive(t);
    cclsim::simulate();
    tf.close();
    twin.close();

    const std::string text = test::readText(dir.path("run.vcd"));
    EXPECT_EQ(text, test::readText(dir.path("twin.vcd")));
    const Vcd v = parseVcd(text);
    EXPECT_TRUE(v.error.empty()) << v.error;
    EXPECT_TRUE(v.scopesBalanced);
    EXPECT_EQ(v.timescale, "1ps");
    // Every signal declared once, under its scopes, with its width.
    ASSERT_EQ(v.vars.size(), 4u);
    std::map<std::string, unsigned> widths;
    for (const auto& [code, var] : v.vars) widths[var.name] = var.width;
    EXPECT_EQ(widths, (std::map<std::string, unsigned>{{"n300.chip0.eth9.eth.tx_busy", 1},
                                                       {"n300.chip0.eth9.eth.tx_cmd_q0_depth", 8},
                                                       {"n300.chip1.w1_1.brisc.waypoint", 32},
                                                       {"n300.phase", 4}}));
    // Shared prefixes are one scope, not one per signal.
    const auto chip0 = text.find("$scope module chip0 $end");
    ASSERT_NE(chip0, std::string::npos);
    EXPECT_EQ(text.find("$scope module chip0 $end", chip0 + 1), std::string::npos);
    // Initial values in $dumpvars (depth was set before begin()).
    EXPECT_EQ(v.initial, (std::map<std::string, std::uint64_t>{{"n300.chip0.eth9.eth.tx_busy", 0},
                                                               {"n300.chip0.eth9.eth.tx_cmd_q0_depth", 3},
                                                               {"n300.chip1.w1_1.brisc.waypoint", 0},
                                                               {"n300.phase", 0}}));
    // Timestamps only where something changed (not 10 ns, not 50 ns except
    // the closing stamp), strictly increasing.
    EXPECT_EQ(v.stamps, (std::vector<Tick>{0, 20'000, 35'000, 50'000}));
    using Changes = std::vector<std::pair<Tick, std::uint64_t>>;
    EXPECT_EQ(v.changes.at("n300.chip0.eth9.eth.tx_busy"), (Changes{{0, 1}, {35'000, 0}}));
    EXPECT_EQ(v.changes.at("n300.chip0.eth9.eth.tx_cmd_q0_depth"), (Changes{{20'000, 1}, {20'000, 2}, {35'000, 0}}));
    EXPECT_EQ(v.changes.at("n300.chip1.w1_1.brisc.waypoint"), (Changes{{20'000, packWaypoint("RUN")}}));
    EXPECT_EQ(v.changes.count("n300.phase"), 0u);
}

TEST(TraceFile, WidthIsMaskedAndDeclarationsChecked) {
    test::ScratchDir dir;
    TraceFile tf(dir.path("w.vcd"));
    EXPECT_THROW(tf.declare("a.zero", 0, TraceFormat::Decimal, 0), std::logic_error);
    EXPECT_THROW(tf.declare("a.wide", 65, TraceFormat::Decimal, 0), std::logic_error);
    tf.declare("a.nibble", 4, TraceFormat::Hex, 0x1F);  // only the low 4 bits fit
    tf.declare("a.full", 64, TraceFormat::Hex, ~std::uint64_t{0});
    tf.close();  // begins implicitly
    const Vcd v = parseVcd(test::readText(dir.path("w.vcd")));
    EXPECT_EQ(v.initial.at("a.nibble"), 0xFu);
    EXPECT_EQ(v.initial.at("a.full"), ~std::uint64_t{0});
    EXPECT_THROW(TraceFile(dir.path("no/such/dir/x.vcd")), ConfigError);
}

TEST(TraceFile, ManySignalsGetDistinctIdentifierCodes) {
    test::ScratchDir dir;
    TraceFile tf(dir.path("many.vcd"));
    // More than 94 signals need two-character codes.
    for (unsigned i = 0; i < 300; ++i)
        tf.declare("b.core" + std::to_string(i % 7) + ".s" + std::to_string(i), 8, TraceFormat::Decimal, i);
    tf.close();
    const Vcd v = parseVcd(test::readText(dir.path("many.vcd")));
    EXPECT_TRUE(v.error.empty()) << v.error;
    ASSERT_EQ(v.vars.size(), 300u) << "identifier codes collide";
    EXPECT_EQ(v.initial.at("b.core3.s10"), 10u);
    EXPECT_EQ(v.initial.at("b.core5.s299"), 299u & 0xFF);
}

TEST(TraceFile, GtkwGroupsSignalsPerChipThenCore) {
    test::ScratchDir dir;
    TraceFile tf(dir.path("board.vcd"));
    const std::vector<std::pair<std::string, unsigned>> sigs = {
        {"n300.chip1.eth1.eth.tx_busy", 1}, {"n300.chip0.w1_1.brisc.waypoint", 32},
        {"n300.chip0.eth9.eth.tx_busy", 1}, {"n300.chip0.eth9.erisc.waypoint", 32},
        {"n300.chip0.noc_util", 16},        {"n300.chip1.eth1.eth.tx_cmd_q0_depth", 8}};
    for (const auto& [name, width] : sigs)
        tf.declare(name, width, width == 32 ? TraceFormat::Ascii : TraceFormat::Decimal, 0);
    tf.close();
    tf.writeGtkw(dir.path("board.gtkw"));
    const std::string g = test::readText(dir.path("board.gtkw"));
    // Absolute paths, so GTKWave finds the dump from any working directory.
    EXPECT_NE(
        g.find("[dumpfile] \"" + std::filesystem::absolute(dir.path("board.vcd")).lexically_normal().string() + "\""),
        std::string::npos)
        << g;

    // Walk the file: "@800200" + "-name" opens a group, "@1000200" + "-name"
    // closes it; other "@flags" lines precede a signal name.
    std::istringstream is(g);
    std::string line, pending;
    std::vector<std::string> open;
    std::map<std::string, std::vector<std::string>> groupsOf;  // signal -> enclosing groups
    std::vector<std::string> listed;
    unsigned opened = 0;
    bool balanced = true;
    while (std::getline(is, line)) {
        if (line.empty() || line[0] == '[' || line[0] == '*') continue;
        if (line[0] == '@') {
            pending = line;
            continue;
        }
        if (pending == "@800200") {
            open.push_back(line.substr(1));
            ++opened;
        } else if (pending == "@1000200") {
            if (open.empty() || open.back() != line.substr(1)) balanced = false;
            if (!open.empty()) open.pop_back();
        } else {
            // "+{alias} name": the row shows the name below the chip.
            ASSERT_EQ(line.rfind("+{", 0), 0u) << line;
            std::string alias = line.substr(2, line.find('}') - 2);
            EXPECT_EQ(alias.find('.'), std::string::npos) << "GTKWave would shorten " << alias;
            std::replace(alias.begin(), alias.end(), '/', '.');
            line = line.substr(line.find("} ") + 2);
            EXPECT_EQ(line.rfind("n300.", 0), 0u) << line;
            EXPECT_NE(line.find(alias.substr(0, alias.find('['))), std::string::npos) << alias << " of " << line;
            listed.push_back(line);
            groupsOf[line] = open;
            if (line.rfind("n300.chip0.eth9.erisc", 0) == 0) {
                EXPECT_EQ(pending, "@820") << "ASCII waypoints";
            }
        }
        pending.clear();
    }
    EXPECT_TRUE(balanced && open.empty()) << g;
    EXPECT_EQ(opened, 2u + 3u) << "chips 0 and 1, cores eth9, w1_1 and eth1";
    ASSERT_EQ(listed.size(), sigs.size());
    // Multi-bit signals carry their range, as GTKWave names them.
    auto groups = [&](const std::string& s) { return groupsOf.at(s); };
    using G = std::vector<std::string>;
    EXPECT_EQ(groups("n300.chip0.eth9.eth.tx_busy"), (G{"n300.chip0", "n300.chip0.eth9"}));
    EXPECT_EQ(groups("n300.chip0.eth9.erisc.waypoint[31:0]"), (G{"n300.chip0", "n300.chip0.eth9"}));
    EXPECT_EQ(groups("n300.chip0.w1_1.brisc.waypoint[31:0]"), (G{"n300.chip0", "n300.chip0.w1_1"}));
    EXPECT_EQ(groups("n300.chip0.noc_util[15:0]"), (G{"n300.chip0"}));
    EXPECT_EQ(groups("n300.chip1.eth1.eth.tx_busy"), (G{"n300.chip1", "n300.chip1.eth1"}));
    EXPECT_EQ(groups("n300.chip1.eth1.eth.tx_cmd_q0_depth[7:0]"), (G{"n300.chip1", "n300.chip1.eth1"}));
}

// A link-like model: tx_busy plus a per-window utilisation computed by a
// sampler from the busy time, as EthSubsystem does.
TEST(TraceFile, SampledSignalsAreWrittenAtWindowBoundaries) {
    test::ScratchDir dir;
    EventQueue eq("eq");
    TraceFile tf(dir.path("util.vcd"));
    EXPECT_THROW(tf.setSampleWindow(0), ConfigError);
    tf.setSampleWindow(nsToTicks(10));
    struct Link {
        TraceSignal busySig{1}, util{7};
        bool busy = false;
        Tick since = 0, busyTicks = 0, atWindowStart = 0;
        void set(bool b) {
            busySig.set(b);  // first, as the model does: writes the windows that ended before now
            if (b == busy) return;
            if (busy) busyTicks += now() - since;
            since = now();
            busy = b;
        }
    } l;
    l.busySig.attach(tf, "b.chip0.eth0.eth.tx_busy");
    l.util.attach(tf, "b.chip0.eth0.eth.tx_util_pct");
    tf.addSampler([&l](Tick start, Tick end) {
        const Tick b = l.busyTicks + (l.busy ? end - l.since : 0);
        l.util.set(((b - l.atWindowStart) * 100 + (end - start) / 2) / (end - start));
        l.atWindowStart = b;
    });
    tf.begin();
    EXPECT_THROW(tf.addSampler([](Tick, Tick) {}), std::logic_error);
    eq.at(nsToTicks(5), [&] { l.set(true); });
    eq.at(nsToTicks(25), [&] { l.set(false); });
    eq.at(nsToTicks(30), [&] { l.set(false); });  // no change
    eq.at(nsToTicks(42), [&] { l.set(true); });
    eq.at(nsToTicks(55), [&] { l.set(false); });
    eq.at(nsToTicks(58), [] {});  // the run ends mid-window
    cclsim::simulate();
    EXPECT_EQ(now(), nsToTicks(58)) << "sampling added no event";
    tf.close();

    const Vcd v = parseVcd(test::readText(dir.path("util.vcd")));
    EXPECT_TRUE(v.error.empty()) << v.error;
    for (std::size_t i = 1; i < v.stamps.size(); ++i) EXPECT_LT(v.stamps[i - 1], v.stamps[i]);
    using Changes = std::vector<std::pair<Tick, std::uint64_t>>;
    // Windows [0,10) 50 %, [10,20) 100 %, [20,30) 50 %, [30,40) 0 %,
    // [40,50) 80 %, [50,58) 5 of 8 ns = 63 %: each written at its end.
    EXPECT_EQ(v.changes.at("b.chip0.eth0.eth.tx_util_pct"),
              (Changes{{10'000, 50}, {20'000, 100}, {30'000, 50}, {40'000, 0}, {50'000, 80}, {58'000, 63}}));
    EXPECT_EQ(v.changes.at("b.chip0.eth0.eth.tx_busy"), (Changes{{5'000, 1}, {25'000, 0}, {42'000, 1}, {55'000, 0}}));
}

TEST(TraceFile, GtkwReferencesATranslateFilterPerEnum) {
    test::ScratchDir dir;
    static const TraceEnum state{"test_state", {"IDLE", "", "BUSY", "DONE"}};  // value 1 has no name
    static const TraceEnum clash{"test_state", {"OTHER"}};
    TraceFile tf(dir.path("enum.vcd"));
    TraceSignal a{4, TraceFormat::Decimal, &state}, b{4, TraceFormat::Decimal, &state}, util{7};
    a.attach(tf, "b.chip0.eth0.erisc.ch0_state");
    b.attach(tf, "b.chip1.eth0.erisc.ch0_state");
    util.attach(tf, "b.chip0.eth0.eth.tx_util_pct");
    EXPECT_EQ(translateFilterText(state).find("1 "), std::string::npos) << "no line for an unnamed value";
    tf.close();
    std::filesystem::create_directories(dir.path("view"));
    tf.writeGtkw(dir.path("view/enum.gtkw"));
    const std::string filter = dir.path("view/filters/test_state.txt");
    const std::string f = test::readText(filter);
    for (const char* line : {"\n0 IDLE\n", "\n2 BUSY\n", "\n3 DONE\n"})
        EXPECT_NE(f.find(line), std::string::npos) << line << " in " << f;
    EXPECT_EQ(f, translateFilterText(state));
    const std::string g = test::readText(dir.path("view/enum.gtkw"));
    const std::string abs = std::filesystem::absolute(filter).lexically_normal().string();
    // Flags (decimal + translate filter), the filter, then the aliased signal.
    EXPECT_NE(g.find("@2024\n^1 " + abs + "\n+{eth0/erisc/ch0_state} b.chip0.eth0.erisc.ch0_state[3:0]\n"),
              std::string::npos)
        << g;
    EXPECT_NE(g.find("@2024\n^1 " + abs + "\n+{eth0/erisc/ch0_state} b.chip1.eth0.erisc.ch0_state[3:0]\n"),
              std::string::npos)
        << g;
    EXPECT_NE(
        g.find("[savefile] \"" + std::filesystem::absolute(dir.path("view/enum.gtkw")).lexically_normal().string()),
        std::string::npos);
    // util never left 0: not in the overview group, only in its chip's group.
    EXPECT_EQ(g.find("-link utilisation"), std::string::npos) << g;

    TraceFile bad(dir.path("bad.vcd"));
    TraceSignal c{4, TraceFormat::Decimal, &state}, d{4, TraceFormat::Decimal, &clash};
    c.attach(bad, "b.chip0.x");
    d.attach(bad, "b.chip0.y");
    bad.close();
    EXPECT_THROW(bad.writeGtkw(dir.path("bad.gtkw")), std::logic_error) << "two enums, one file name";
    static const TraceEnum badName{"no/slash", {"A"}};
    EXPECT_THROW(bad.declare("b.z", 2, TraceFormat::Decimal, 0, &badName), std::logic_error);
}

TEST(TraceFile, GtkwListsBusyLinksFirstAsAnalogCurves) {
    test::ScratchDir dir;
    EventQueue eq("eq");
    TraceFile tf(dir.path("links.vcd"));
    TraceSignal busyUtil{7}, idleUtil{7};
    busyUtil.attach(tf, "b.chip1.eth3.eth.tx_util_pct");
    idleUtil.attach(tf, "b.chip0.eth0.eth.tx_util_pct");
    tf.begin();
    eq.at(nsToTicks(100), [&] { busyUtil.set(40); });
    cclsim::simulate();
    tf.close();
    tf.writeGtkw(dir.path("links.gtkw"));
    const std::string g = test::readText(dir.path("links.gtkw"));
    const auto group = g.find(
        "@800200\n-link utilisation, % of each 1000 ns\n@8024\n+{chip1/eth3/eth/tx_util_pct} "
        "b.chip1.eth3.eth.tx_util_pct[6:0]\n@1000200\n-link utilisation");
    EXPECT_NE(group, std::string::npos) << g;
    EXPECT_LT(group, g.find("-b.chip0")) << "the overview comes first";
    EXPECT_NE(g.find("b.chip0.eth0.eth.tx_util_pct[6:0]"), std::string::npos) << "idle links stay in their chip";
    // Zoomed to the whole run: GTKWave shows 0.005 ps x 1050 pixels x 2^-zoom (see writeGtkw).
    const auto star = g.find("\n*");
    ASSERT_NE(star, std::string::npos);
    const double zoom = std::stod(g.substr(star + 2));
    EXPECT_NEAR(0.005 * 1050 * std::pow(2.0, -zoom), 1.02 * 100'000, 100.0);
}

TEST(TraceFile, GtkwOpensOnTheWorkloadsOwnSignals) {
    test::ScratchDir dir;
    EventQueue eq("eq");
    TraceFile tf(dir.path("focus.vcd"));
    TraceSignal util{7}, noc{32}, q1{32}, q2{32}, q3{32};
    util.attach(tf, "b.chip0.eth0.eth.tx_util_pct");
    noc.attach(tf, "b.chip0.w1_1.noc0_resp_bytes");
    q1.attach(tf, "b.chip0.w1_1.pe_ipcq.E.my_head");
    q2.attach(tf, "b.chip0.w1_2.pe_ipcq.E.my_head");
    q3.attach(tf, "b.chip1.w1_1.pe_ipcq.E.my_head");
    tf.begin();
    eq.at(nsToTicks(100), [&] { util.set(40); });
    cclsim::simulate();
    tf.close();
    tf.setFocus({"PE_IPCQ queues and waits", {"*.pe_ipcq.*"}, 2});
    tf.writeGtkw(dir.path("focus.gtkw"));
    const std::string g = test::readText(dir.path("focus.gtkw"));
    // The first two cores that match, in board order, each in its own group.
    const std::string title = "PE_IPCQ queues and waits (2 of 3 cores)";
    const auto focus = g.find("@800200\n-" + title +
                              "\n@800200\n-chip0/w1_1\n@24\n+{w1_1/pe_ipcq/E/my_head} "
                              "b.chip0.w1_1.pe_ipcq.E.my_head[31:0]\n@1000200\n-chip0/w1_1\n@800200\n-chip0/w1_2\n");
    EXPECT_NE(focus, std::string::npos) << g;
    const auto end = g.find("@1000200\n-" + title);
    ASSERT_NE(end, std::string::npos) << g;
    EXPECT_LT(end, g.find("-link utilisation")) << "the workload's signals come before the links";
    EXPECT_EQ(g.substr(focus, end - focus).find("noc0_resp_bytes"), std::string::npos) << "only what matches";
    EXPECT_EQ(g.substr(focus, end - focus).find("chip1"), std::string::npos) << "at most maxCores cores";
    // Every signal is still in its chip's group.
    EXPECT_NE(g.find("+{w1_1/pe_ipcq/E/my_head} b.chip1.w1_1.pe_ipcq.E.my_head"), std::string::npos) << g;
}

TEST(TraceFile, GlobMatchesWholeNames) {
    EXPECT_TRUE(globMatch("*.eth#.erisc.waypoint", "t3000.chip0.eth10.erisc.waypoint"));
    EXPECT_FALSE(globMatch("*.eth#.erisc.waypoint", "t3000.chip0.eth.erisc.waypoint")) << "# needs a digit";
    EXPECT_FALSE(globMatch("*.eth#.erisc.waypoint", "t3000.chip0.eth1.erisc.waypoint_x")) << "whole names";
    EXPECT_TRUE(globMatch("*.w#_#.brisc.waypoint", "b.chip3.w12_5.brisc.waypoint"));
    EXPECT_FALSE(globMatch("*.w#_#.brisc.waypoint", "b.chip3.eth1.brisc.waypoint"));
    EXPECT_TRUE(globMatch("*.pe_ipcq.*", "b.chip0.w1_1.pe_ipcq.E.my_head"));
    EXPECT_TRUE(globMatch("*edm_ch#_tx_sem", "b.chip0.w1_1.edm_ch0_tx_sem"));
    EXPECT_TRUE(globMatch("*.ch#_state", "b.chip1.eth0.erisc.ch12_state"));
    EXPECT_FALSE(globMatch("*.ch#_state", "b.chip1.eth0.erisc.ch12_state.x"));
}

TEST(TraceFile, WaypointsPackFourCharacters) {
    // Left-aligned and NUL-padded, so GTKWave's ASCII view shows "NSW".
    EXPECT_EQ(packWaypoint("NSW"), (std::uint32_t('N') << 24) | (std::uint32_t('S') << 16) | (std::uint32_t('W') << 8));
    EXPECT_EQ(unpackWaypoint(packWaypoint("ETXW")), "ETXW");
    EXPECT_EQ(unpackWaypoint(packWaypoint("DONE!")), "DONE") << "at most four characters";
    EXPECT_EQ(unpackWaypoint(0), "");
}

}  // namespace
}  // namespace cclsim
