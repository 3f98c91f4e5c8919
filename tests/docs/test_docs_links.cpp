// The documentation holds together: every relative link and #anchor of
// README.md and docs/**/*.md resolves, docs/README.md lists every page, the
// README stays a front door, and every docs page or README section that the
// code and configuration files cite exists. The first cases pin the Markdown
// reading itself (tests/docs/DocLinks.h) on small strings. No simulation.
#include "tests/docs/DocLinks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace cclsim::docs {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(CCLSIM_SOURCE_DIR).lexically_normal();

std::vector<std::string> targets(const std::vector<TextRef>& refs) {
    std::vector<std::string> out;
    for (const TextRef& r : refs) out.push_back(r.target);
    return out;
}

std::vector<int> lines(const std::vector<TextRef>& refs) {
    std::vector<int> out;
    for (const TextRef& r : refs) out.push_back(r.line);
    return out;
}

using Strings = std::vector<std::string>;

// --- the Markdown reading ---------------------------------------------------

TEST(DocsSlug, FollowsGitHub) {
    EXPECT_EQ(githubSlug("Running a board"), "running-a-board");
    EXPECT_EQ(githubSlug("Tests, CI and benchmarks"), "tests-ci-and-benchmarks");
    EXPECT_EQ(githubSlug("The fabric implementation (`--impl fabric`, the default)"),
              "the-fabric-implementation---impl-fabric-the-default");
    EXPECT_EQ(githubSlug("PE_IPCQ: send/recv between worker cores"), "pe_ipcq-sendrecv-between-worker-cores");
    EXPECT_EQ(githubSlug("D2.5. The endpoint a sender needs"), "d25-the-endpoint-a-sender-needs");
    EXPECT_EQ(githubSlug("[The JSON report](reference/json-report.md) in short"), "the-json-report-in-short");
    EXPECT_EQ(githubSlug("Layers <em>and</em> roots"), "layers-and-roots");
    EXPECT_EQ(githubSlug("Caf\xc3\xa9 & co"), "caf\xc3\xa9--co");
}

TEST(DocsAnchors, HeadingsRepeatsAndExplicitAnchors) {
    const std::string page =
        "# Title\n"
        "## Usage\n"
        "text\n"
        "## Usage\n"
        "### Usage ###\n"
        "#NotAHeading\n"
        "    # four spaces: code, not a heading\n"
        "<a id=\"d1\"></a>\n"
        "<a name=\"t5\"></a>\n";
    const std::set<std::string> expected{"title", "usage", "usage-1", "usage-2", "d1", "t5"};
    EXPECT_EQ(anchorsOf(page), expected);
}

TEST(DocsAnchors, NothingInsideCode) {
    const std::string page =
        "## Real\n"
        "```sh\n"
        "# a shell comment\n"
        "<a id=\"fenced\"></a>\n"
        "```\n"
        "~~~\n"
        "## tilde fenced\n"
        "~~~\n"
        "`<a id=\"inline\">` and <!-- <a id=\"comment\"> -->\n";
    EXPECT_EQ(anchorsOf(page), std::set<std::string>{"real"});
}

TEST(DocsLinksOf, InlineLinksImagesAndTitles) {
    const std::string page =
        "See [the report](reference/json-report.md#exit-codes) and\n"
        "![plot](img/a.png \"a title\") or [code](../models/f(x).h).\n"
        "[web](https://example.com) [same page](#usage) [spaced](<my page.md>)\n";
    EXPECT_EQ(targets(linksOf(page)), (Strings{"reference/json-report.md#exit-codes", "img/a.png", "../models/f(x).h",
                                               "https://example.com", "#usage", "my page.md"}));
    EXPECT_EQ(lines(linksOf(page)), (std::vector<int>{1, 2, 2, 3, 3, 3}));
}

TEST(DocsLinksOf, ReferenceDefinitionsAndHtml) {
    const std::string page =
        "Text [label][r].\n"
        "\n"
        "[r]: ../install.md#relocating\n"
        "<img src=\"img/w.png\"> <a href=\"faults.md\">faults</a>\n";
    EXPECT_EQ(targets(linksOf(page)), (Strings{"../install.md#relocating", "img/w.png", "faults.md"}));
    EXPECT_EQ(lines(linksOf(page)), (std::vector<int>{3, 4, 4}));
}

TEST(DocsLinksOf, CodeAndCommentsHoldNoLinks) {
    const std::string page =
        "```md\n"
        "[fenced](a.md)\n"
        "```\n"
        "`[inline](b.md)` and ``[double `tick`](c.md)``\n"
        "a span that `crosses\n"
        "[a line](d.md)` break\n"
        "<!-- [commented](e.md) -->\n"
        "an unclosed ` backtick, then [real](f.md)\n"
        "\n"
        "`a blank line ends a paragraph\n"
        "\n"
        "[after](g.md)`\n";
    EXPECT_EQ(targets(linksOf(page)), (Strings{"f.md", "g.md"}));
    EXPECT_EQ(lines(linksOf(page)), (std::vector<int>{8, 12}));
}

TEST(DocsLinksOf, MaskingKeepsLinesAndOffsets) {
    const std::string page = "a `b` c\n```\nx\n```\nd";
    const std::string masked = maskCode(page);
    ASSERT_EQ(masked.size(), page.size());
    EXPECT_EQ(masked, "a     c\n   \n \n   \nd");
}

TEST(DocsCitations, DocsPagesInCode) {
    const std::string text =
        "// docs/architecture.md#layers explains the layers; see also\n"
        "# docs/design/pe-ipcq.md#d2-5. And docs/testing.md.\n"
        "// not these: tt_npe/docs/a.md, docs/img/plot.png, pto-isa docs/isa/comm\n";
    EXPECT_EQ(targets(docsCitationsOf(text)),
              (Strings{"docs/architecture.md#layers", "docs/design/pe-ipcq.md#d2-5", "docs/testing.md"}));
    EXPECT_EQ(lines(docsCitationsOf(text)), (std::vector<int>{1, 2, 2}));
}

TEST(DocsCitations, ReadmeSectionsInCode) {
    const std::string text =
        "// (README, \"Fuzzing\") and README \"Adding a board\".\n"
        "# tuned to a figure (README \"Figures the model\n"
        "# reproduces\"); README (\"Traces\")\n"
        "// Regressions (fuzz/; README\n"
        "// \"Fuzzing\"): ...\n"
        " * README, \"Tests, CI\n"
        " * and benchmarks\"\n"
        "// not: the README's tables, traces/README.md, README (above), README\n";
    EXPECT_EQ(targets(readmeCitationsOf(text)), (Strings{"Fuzzing", "Adding a board", "Figures the model reproduces",
                                                         "Traces", "Fuzzing", "Tests, CI and benchmarks"}));
    EXPECT_EQ(lines(readmeCitationsOf(text)), (std::vector<int>{1, 1, 2, 3, 4, 6}));
}

// --- the repository ---------------------------------------------------------

std::string slurp(const fs::path& path) {
    std::ifstream is(path, std::ios::binary);
    std::stringstream ss;
    ss << is.rdbuf();
    return ss.str();
}

std::string repoPath(const fs::path& path) {
    return path.lexically_relative(kRoot).generic_string();
}

/// README.md and every page under docs/, in a stable order.
std::vector<fs::path> pages() {
    std::vector<fs::path> out{kRoot / "README.md"};
    for (const auto& e : fs::recursive_directory_iterator(kRoot / "docs"))
        if (e.is_regular_file() && e.path().extension() == ".md") out.push_back(e.path().lexically_normal());
    std::sort(out.begin() + 1, out.end());
    return out;
}

/// The anchors of each page, read once.
class AnchorCache {
public:
    const std::set<std::string>& of(const fs::path& page) {
        auto it = anchors_.find(page);
        if (it == anchors_.end()) it = anchors_.emplace(page, anchorsOf(slurp(page))).first;
        return it->second;
    }

private:
    std::map<fs::path, std::set<std::string>> anchors_;
};

std::string percentDecoded(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

bool isExternal(const std::string& target) {
    for (const char* scheme : {"http://", "https://", "mailto:"})
        if (target.rfind(scheme, 0) == 0) return true;
    return false;
}

/// What is wrong with `path#anchor` (path relative to `base`), or "".
std::string problemOf(const fs::path& base, const std::string& target, const fs::path& page, AnchorCache& anchors) {
    const std::size_t hash = target.find('#');
    const std::string path = percentDecoded(target.substr(0, hash));
    const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
    const fs::path file = path.empty() ? page : (base / path).lexically_normal();
    const std::string rel = repoPath(file);
    if (rel.rfind("..", 0) == 0) return "points outside the repository";
    if (!fs::exists(file)) return "no file " + rel;
    if (anchor.empty()) return "";
    if (file.extension() != ".md") return "#" + anchor + " on " + rel + ", which is not a Markdown page";
    if (!anchors.of(file).count(anchor)) return rel + " has no anchor #" + anchor;
    return "";
}

std::string joined(const std::vector<std::string>& problems) {
    std::string out;
    for (const std::string& p : problems) out += "\n  " + p;
    return out;
}

TEST(DocsLinks, EveryRelativeLinkAndAnchorResolves) {
    AnchorCache anchors;
    std::vector<std::string> problems;
    std::size_t checked = 0;
    for (const fs::path& page : pages()) {
        for (const TextRef& link : linksOf(slurp(page))) {
            if (isExternal(link.target)) continue;
            ++checked;
            const std::string p = problemOf(page.parent_path(), link.target, page, anchors);
            if (!p.empty())
                problems.push_back(repoPath(page) + ":" + std::to_string(link.line) + ": link (" + link.target +
                                   "): " + p);
        }
    }
    EXPECT_GT(checked, 100u) << "the pages link to each other";
    EXPECT_TRUE(problems.empty()) << problems.size() << " broken link(s):" << joined(problems);
}

TEST(DocsLinks, TheIndexListsEveryPage) {
    const fs::path index = kRoot / "docs" / "README.md";
    std::set<fs::path> listed;
    for (const TextRef& link : linksOf(slurp(index)))
        if (!isExternal(link.target))
            listed.insert((index.parent_path() / link.target.substr(0, link.target.find('#'))).lexically_normal());
    std::vector<std::string> missing;
    for (const fs::path& page : pages())
        if (page != kRoot / "README.md" && page != index && !listed.count(page)) missing.push_back(repoPath(page));
    EXPECT_TRUE(missing.empty()) << "docs/README.md does not link to:" << joined(missing);
}

TEST(DocsLinks, TheReadmeIsAFrontDoorOfAtMost400Lines) {
    const std::string readme = slurp(kRoot / "README.md");
    const auto count = std::count(readme.begin(), readme.end(), '\n');
    EXPECT_LE(count, 400) << "README.md has " << count << " lines: move the detail into a page of docs/";
}

/// The files whose comments may cite the docs: sources, build files,
/// scripts and configuration. tests/docs is left out: its cases above cite
/// made-up pages on purpose. Generated output (bench/out, traces/out) too.
std::vector<fs::path> citingFiles() {
    const std::set<std::string> extensions{".h", ".cpp", ".in", ".txt", ".cmake", ".sh", ".py", ".yaml", ".csv"};
    const std::set<fs::path> skipped{kRoot / "tests" / "docs", kRoot / "bench" / "out", kRoot / "traces" / "out"};
    std::vector<fs::path> out{kRoot / "cclsim", kRoot / "CMakeLists.txt", kRoot / ".ci" / "run"};
    for (const char* dir : {"models", "platforms", "firmware", "runtime", "host", "cli", "sc_main", "golden", "tools",
                            "tests", "fuzz", "bench", "cmake", "traces"}) {
        for (auto it = fs::recursive_directory_iterator(kRoot / dir); it != fs::recursive_directory_iterator(); ++it) {
            if (it->is_directory() && skipped.count(it->path().lexically_normal())) {
                it.disable_recursion_pending();
                continue;
            }
            if (!it->is_regular_file()) continue;
            const fs::path& p = it->path();
            const bool script = p.extension().empty() && slurp(p).rfind("#!", 0) == 0;
            if (extensions.count(p.extension().string()) || script) out.push_back(p.lexically_normal());
        }
    }
    std::sort(out.begin() + 3, out.end());
    return out;
}

TEST(DocsLinks, EveryDocsPageTheCodeCitesExists) {
    AnchorCache anchors;
    std::vector<std::string> problems;
    for (const fs::path& file : citingFiles()) {
        for (const TextRef& cite : docsCitationsOf(slurp(file))) {
            const std::string p = problemOf(kRoot, cite.target, file, anchors);
            if (!p.empty())
                problems.push_back(repoPath(file) + ":" + std::to_string(cite.line) + ": " + cite.target + ": " + p);
        }
    }
    EXPECT_TRUE(problems.empty()) << problems.size() << " citation(s) of a missing page or anchor:" << joined(problems);
}

TEST(DocsLinks, EveryReadmeSectionTheCodeCitesExists) {
    const std::set<std::string> headings = anchorsOf(slurp(kRoot / "README.md"));
    std::vector<std::string> problems;
    for (const fs::path& file : citingFiles()) {
        for (const TextRef& cite : readmeCitationsOf(slurp(file))) {
            if (!headings.count(githubSlug(cite.target)))
                problems.push_back(repoPath(file) + ":" + std::to_string(cite.line) + ": README \"" + cite.target +
                                   "\": README.md has no such heading (the section moved to docs/? cite the page)");
        }
    }
    EXPECT_TRUE(problems.empty()) << problems.size() << " citation(s) of a missing README section:" << joined(problems);
}

}  // namespace
}  // namespace cclsim::docs
